"""The report's first screen is short: from "## The answer" to the first table of report.md (the answer,
then the money answer's table), at most 100 words, on each fixture given.

    python3 tests/first_screen_check.py LADDER FIXTURE...   # results.json or results.json.gz files
    python3 tests/first_screen_check.py --self-test        # a planted 101-word answer (its heading counted) is refused
    python3 tests/first_screen_check.py --answer-text REPORT.md          # the first screen's lines, printed
    python3 tests/first_screen_check.py --same-as TEXT LADDER FIXTURE    # fails when the fixture's first
                                                                          # screen is no longer TEXT's

A word is a run of characters between blanks that holds a letter or a digit (a lone "—" or "|" is none).
Prints each fixture's count, and exits 1 when one is over the bound or has no answer.
"""

import difflib
import gzip
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

MOST_WORDS = 100


def first_screen(markdown):
    """The lines from "## The answer" up to (not including) the first table row; None without an answer."""
    lines = markdown.split("\n")
    start = next((i for i, line in enumerate(lines) if line.strip() == "## The answer"), None)
    if start is None:
        return None
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("|")), len(lines))
    return lines[start:end]


def words(lines):
    return [word for line in lines for word in line.split() if re.search(r"[A-Za-z0-9]", word)]


def judge(name, markdown):
    """(the line to print, whether it passes)."""
    screen = first_screen(markdown)
    if screen is None:
        return f"{name}: no '## The answer' heading", False
    count = len(words(screen))
    verdict = "ok" if count <= MOST_WORDS else f"over {MOST_WORDS}"
    return f"{name}: {count} words up to the first table ({verdict})", count <= MOST_WORDS


def render(ladder, fixture, scratch):
    run = scratch / Path(fixture).name.replace(".json.gz", "").replace(".json", "")
    run.mkdir()
    if fixture.endswith(".gz"):
        with gzip.open(fixture, "rb") as source, open(run / "results.json", "wb") as target:
            shutil.copyfileobj(source, target)
    else:
        shutil.copy(fixture, run / "results.json")
    environment = {"LADDER_HISTORY": str(scratch / "history.sqlite"), "PATH": "/usr/bin:/bin"}
    subprocess.run([ladder, "report", str(run / "results.json"), "--out", str(run / "report")], check=True,
                   capture_output=True, env=environment)
    return (run / "report" / "report.md").read_text(encoding="utf-8")


def self_test():
    planted = "# Ladder report\n\n## The answer\n\n" + " ".join(["word"] * 99) + "\n\n| a | b |\n|---|---|\n"
    line, passed = judge("planted", planted)
    print(line)
    short = "## The answer\n\nAt n = 1e7: use **tbb-tuned**.\n\n| a |\n"
    line_short, passed_short = judge("short", short)
    print(line_short)
    if passed or not passed_short or "101 words" not in line or "7 words" not in line_short:
        print("FAILED: the check does not count as it says")
        return 1
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) == 3 and sys.argv[1] == "--answer-text":
        print("\n".join(first_screen(Path(sys.argv[2]).read_text(encoding="utf-8")) or []))
        return 0
    if len(sys.argv) == 5 and sys.argv[1] == "--same-as":
        committed = Path(sys.argv[2]).read_text(encoding="utf-8").rstrip("\n")
        with tempfile.TemporaryDirectory() as scratch:
            now = "\n".join(first_screen(render(sys.argv[3], sys.argv[4], Path(scratch))) or [])
        if now.rstrip("\n") == committed:
            print(f"{sys.argv[2]}: the picture's answer is the renderer's")
            return 0
        print(f"{sys.argv[2]}: the renderer's first screen is no longer the picture's; run scripts/readme-screenshot")
        for line in difflib.unified_diff(committed.split("\n"), now.split("\n"), "the picture", "the renderer",
                                         lineterm="", n=1):
            print(line)
        return 1
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    ladder, fixtures = sys.argv[1], sys.argv[2:]
    failed = False
    with tempfile.TemporaryDirectory() as scratch:
        for fixture in fixtures:
            line, passed = judge(Path(fixture).name, render(ladder, fixture, Path(scratch)))
            print(line)
            failed = failed or not passed
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
