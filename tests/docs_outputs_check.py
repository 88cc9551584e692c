"""The outputs a guide shows are what the code prints today: each fenced block after a comment

    <!-- output: COMMAND [| FILTER] -->

is COMMAND's output, run again now against the committed fixture of a quick run, and must match it line for
line (trailing blanks aside). In COMMAND, `ladder` is the binary under test and RUN the fixture's run
directory, copied to a folder named as the page names it (`--run-dir`, default ladder-out/run-2026-12-06-2330)
under a scratch working directory. COMMAND's stdout and stderr together are the output, unless FILTER says:

- `answer`: not the output but the report's first screen: RUN/report.md up to its first table;
- `from TEXT`: from the first line that starts with TEXT on;
- `to TEXT`: up to (not including) the first line that starts with TEXT;
- `without TEXT`: every line that starts with TEXT left out;
- `lines A-B`: lines A to B (1-based) only.

Filters chain with `|`. A block shown as captured rather than regenerated (a live measurement: its numbers
are this machine's) is marked `<!-- output: captured on MACHINE, DATE -->`: the check names each one, so
the reader of the check's output knows what it did not regenerate.

    python3 tests/docs_outputs_check.py LADDER FIXTURE_DIR PAGE... [--update]

FIXTURE_DIR holds results.json.gz and journal.jsonl.gz. Prints each stale block as PAGE:LINE, with a diff,
and exits 1 when there is one; --update rewrites the blocks instead. A command that exits non-zero is a
fault, its block left as it is (a build without a tier the fixture ran cannot resume it, for one).
"""

import difflib
import gzip
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import docs_support  # noqa: E402

MARK = re.compile(r"^<!-- output: (.*) -->$")
FENCE = re.compile(r"^(```+)")
RUN_DIR = "ladder-out/run-2026-12-06-2330"


def blocks(lines):
    """(index of the marker, the marker's text, first and last index of the fenced block's body)."""
    for index, line in enumerate(lines):
        match = MARK.match(line.strip())
        if not match:
            continue
        start = index + 1
        while start < len(lines) and not lines[start].strip():
            start += 1
        fence = FENCE.match(lines[start]) if start < len(lines) else None
        if not fence:
            yield index, match.group(1), None, None
            continue
        end = start + 1
        while end < len(lines) and not lines[end].startswith(fence.group(1)):
            end += 1
        yield index, match.group(1), start + 1, end


def unpack(fixture, work):
    run = work / RUN_DIR
    run.mkdir(parents=True)
    for name in ("results.json", "journal.jsonl"):
        with gzip.open(Path(fixture) / f"{name}.gz", "rb") as source, open(run / name, "wb") as target:
            shutil.copyfileobj(source, target)


def apply(filter_text, lines, work):
    name, _, argument = filter_text.strip().partition(" ")
    argument = argument.strip().strip('"')
    if name == "answer":
        text = (work / RUN_DIR / "report.md").read_text(encoding="utf-8").split("\n")
        end = next((i for i, line in enumerate(text) if line.startswith("|")), len(text))
        return text[:end]
    if name == "from":
        start = next((i for i, line in enumerate(lines) if line.startswith(argument)), None)
        return lines[start:] if start is not None else [f"(no line starts with {argument!r})"]
    if name == "to":
        end = next((i for i, line in enumerate(lines) if line.startswith(argument)), len(lines))
        return lines[:end]
    if name == "without":
        return [line for line in lines if not line.startswith(argument)]
    if name == "lines":
        first, last = (int(part) for part in argument.split("-"))
        return lines[first - 1 : last]
    raise SystemExit(f"unknown filter {filter_text!r}: answer, from TEXT, to TEXT, without TEXT, lines A-B")


class Failed(Exception):
    """A block's command that did not exit 0."""


def regenerate(command, ladder, fixture):
    """The lines COMMAND prints now (filters applied), run in a fresh scratch directory."""
    parts = [part.strip() for part in command.split("|")]
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        unpack(fixture, work)
        words = [ladder if word == "ladder" else word.replace("RUN", RUN_DIR) for word in shlex.split(parts[0])]
        environment = {"LADDER_HISTORY": str(work / "history.sqlite"), "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"}
        result = subprocess.run(words, cwd=work, capture_output=True, text=True, env=environment)
        lines = (result.stdout + result.stderr).rstrip("\n").split("\n")
        if result.returncode != 0:  # never shown, never written into a page: the check names it
            raise Failed(f"exited {result.returncode}: " + " / ".join(lines[-3:]))
        for filter_text in parts[1:]:
            lines = apply(filter_text, lines, work)
    while lines and not lines[-1].strip():
        lines.pop()
    return [line.rstrip() for line in lines]


def check(page, ladder, fixture, update):
    lines = Path(page).read_text(encoding="utf-8").split("\n")
    faults, captured, changed = [], [], False
    for marker, command, start, end in reversed(list(blocks(lines))):
        if command.startswith("captured"):
            captured.append(f"{page}:{marker + 1}: {command}")
            continue
        if start is None:
            faults.append(f"{page}:{marker + 1}: the output marker is not followed by a fenced block")
            continue
        try:
            now = regenerate(command, ladder, fixture)
        except Failed as failed:
            faults.append(f"{page}:{marker + 1}: `{command}` {failed}")
            continue
        shown = [line.rstrip() for line in lines[start:end]]
        if now != shown:
            if update:
                lines[start:end] = now
                changed = True
            else:
                diff = "\n".join(difflib.unified_diff(shown, now, "the page", "the code now", lineterm="", n=1))
                faults.append(f"{page}:{marker + 1}: `{command}` prints otherwise now:\n{diff}")
    if changed:
        Path(page).write_text("\n".join(lines), encoding="utf-8")
    return list(reversed(faults)), list(reversed(captured))


def main():
    arguments = [argument for argument in sys.argv[1:] if argument != "--update"]
    if len(arguments) < 3:
        sys.exit(__doc__)
    ladder, fixture, pages = str(Path(arguments[0]).resolve()), arguments[1], arguments[2:]
    faults, captured = [], []
    for page in pages:
        found, shown = check(page, ladder, fixture, "--update" in sys.argv)
        faults += found
        captured += shown
    return docs_support.report_faults(faults, [f"not regenerated (captured): {line}" for line in captured])


if __name__ == "__main__":
    sys.exit(main())
