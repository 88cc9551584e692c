"""Every relative link in README.md and docs/*.md resolves: its file (or folder) exists, and its #anchor, in
the same file or another Markdown file, is one of that file's headings under GitHub's slug rules (a repeated
heading's -1, -2 … included) or an HTML id. Links out of the checkout (http:, https:, mailto:) are not
followed. Code blocks and code spans are not links.

    python3 tests/docs_links_check.py ROOT    # ROOT: the checkout (or a fixture with README.md and docs/)

Prints each broken link as FILE:LINE: the link and what is wrong, and exits 1 when there is one.
"""

import re
import sys
from pathlib import Path
from urllib.parse import unquote

sys.path.insert(0, str(Path(__file__).resolve().parent))
import docs_support  # noqa: E402

INLINE = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$")
HTML = re.compile(r"""<(?:a|img)\b[^>]*\b(?:href|src)=["']([^"']+)["']""")


def targets(text):
    """Each link target of a Markdown text with its line number, outside code blocks and code spans."""
    for number, line, kind in docs_support.lines(text):
        if kind != "text":
            continue
        line = re.sub(r"(`+).*?\1", "", line)
        for pattern in (INLINE, DEFINITION, HTML):
            for match in pattern.finditer(line):
                yield number, match.group(1)


def faults(root):
    root = Path(root).resolve()
    anchors = {}

    def anchors_of(path):
        if path not in anchors:
            anchors[path] = docs_support.anchors(path.read_text(encoding="utf-8"))
        return anchors[path]

    for source in docs_support.markdown_files(root):
        where = source.relative_to(root)
        for number, target in targets(source.read_text(encoding="utf-8")):
            if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                continue
            path_part, _, anchor = target.partition("#")
            path = (source.parent / unquote(path_part)).resolve() if path_part else source.resolve()
            if not path.exists():
                yield f"{where}:{number}: {target}: no such file {path_part}"
            elif anchor and path.suffix == ".md" and path.is_file() and unquote(anchor) not in anchors_of(path):
                yield f"{where}:{number}: {target}: no heading in {path.relative_to(root)} has the anchor #{anchor}"
            elif anchor and path.is_dir():
                yield f"{where}:{number}: {target}: an anchor into a folder"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    found = list(faults(sys.argv[1]))
    for fault in found:
        print(fault)
    checked = len(docs_support.markdown_files(sys.argv[1]))
    print(f"{len(found)} broken link(s) in {checked} file(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
