"""The manual reads in an hour: README.md and docs/*.md, their prose only (code blocks, tables, headings and
HTML comments left out), in sentences a reader takes in one go, and no longer in all than a reader takes in.

    python3 tests/docs_sentences_check.py ROOT [--report]

Fails (exit 1), naming each fault, when
- a sentence runs over 50 words (FILE:LINE: its word count and its first words);
- the median sentence of the manual runs over 20 words;
- the manual (README.md and docs/*.md) holds over 100 KB, or README.md over 10 KB.
--report prints, for each page, its size, its sentences, their median and its longest, and checks nothing.

A sentence ends at '.', '?' or '!' followed by a space or the line's end, and at the end of a list item or
paragraph; a word is a run of characters between spaces, code spans and links counted as the words they show.
"""

import re
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import docs_support  # noqa: E402

MOST_WORDS, MEDIAN_WORDS = 50, 20
MANUAL_BYTES, README_BYTES = 100_000, 10_000
ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
END = re.compile(r"(?<=[.?!])[\"')\]*_]*\s+(?=[A-Z0-9`\"'(\[*_])")


def paragraphs(text):
    """The page's prose as (line number, text) blocks: a paragraph or a list item, its lines joined."""
    block, start = [], 0
    for number, line, kind in docs_support.lines(text):
        prose = kind == "text" and line.strip() and not line.lstrip().startswith(("|", "#", "<", "!["))
        if not prose or ITEM.match(line):
            if block:
                yield start, " ".join(block)
            block = []
        if prose:
            if not block:
                start = number
            block.append(ITEM.sub("", line).strip())
    if block:
        yield start, " ".join(block)


def words(sentence):
    """The words a reader reads: a link as its text, a code span as the words inside it."""
    shown = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", sentence)
    shown = re.sub(r"\*\*|__|`", "", shown)
    return [word for word in shown.split() if re.search(r"\w", word)]


def sentences(text):
    """(line number, word count, first words) for each sentence of the page's prose."""
    for number, paragraph in paragraphs(text):
        for sentence in END.split(paragraph):
            counted = words(sentence)
            if counted:
                yield number, len(counted), " ".join(counted[:8])


def main():
    arguments = [word for word in sys.argv[1:] if word != "--report"]
    if len(arguments) != 1:
        sys.exit(__doc__)
    root = Path(arguments[0])
    pages = docs_support.markdown_files(root)
    faults, counts, total = [], [], 0
    for page in pages:
        size = page.stat().st_size
        total += size
        found = list(sentences(page.read_text(encoding="utf-8")))
        counts += [count for _, count, _ in found]
        if "--report" in sys.argv:
            longest = max((count for _, count, _ in found), default=0)
            median = statistics.median([count for _, count, _ in found]) if found else 0
            print(f"{page.relative_to(root)}: {size} bytes, {len(found)} sentences, median {median:g} words, "
                  f"longest {longest}, over {MOST_WORDS}: {sum(count > MOST_WORDS for _, count, _ in found)}")
        for number, count, first in found:
            if count > MOST_WORDS:
                faults.append(f"{page.relative_to(root)}:{number}: a sentence of {count} words "
                              f"(at most {MOST_WORDS}): {first} …")
    median = statistics.median(counts) if counts else 0
    if "--report" in sys.argv:
        print(f"the manual: {total} bytes, {len(counts)} sentences, median {median:g} words")
        return 0
    if median > MEDIAN_WORDS:
        faults.append(f"the manual's median sentence is {median:g} words (at most {MEDIAN_WORDS})")
    if total > MANUAL_BYTES:
        faults.append(f"the manual holds {total} bytes (at most {MANUAL_BYTES})")
    readme = root / "README.md"
    if readme.is_file() and readme.stat().st_size > README_BYTES:
        faults.append(f"README.md holds {readme.stat().st_size} bytes (at most {README_BYTES})")
    for fault in faults:
        print(fault)
    if faults:
        print(f"{len(faults)} faults")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
