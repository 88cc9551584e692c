"""Every script command the manual shows runs, with the arguments it shows, as a dry run. A fenced code block
line of README.md or docs/*.md, or a code span of their text, that runs `scripts/NAME …` (`sudo`, `time`,
`env`, an environment prefix and `sbatch [options]` before it skipped) is run from the checkout's root as
`LADDER_DRY_RUN=1 scripts/NAME …` (scripts/lib/dry-run.sh): the script checks its arguments as it always
does, says what it would do, and does nothing. A fault is a script that is not there, one that has no dry run
(it would really run), or a dry run that exits non-zero or says nothing with "dry run:". A placeholder in
capitals (`scripts/bench-stable-answer K`) ends the arguments taken; a span naming a script with no arguments
is a file name, not a command, and a glob (`scripts/bench-*`) is skipped.

    python3 tests/docs_scripts_check.py CHECKOUT [DOCS_ROOT]   # DOCS_ROOT: README.md and docs/ (default CHECKOUT)

Prints each fault as FILE:LINE: the command and what is wrong, and exits 1 when there is one.
"""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import docs_commands_check  # noqa: E402
import docs_support  # noqa: E402

SCRIPT = re.compile(r"^(?:\./)?(scripts/[A-Za-z0-9_.-]+)$")
PLACEHOLDER = re.compile(r"^[A-Z][A-Z_.…]*$")


def script_words(words):
    """(script, its arguments) when the command runs a script of scripts/, else None."""
    while words and (re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]) or words[0] in docs_commands_check.PREFIXES):
        words = words[1:]
    if words and words[0] == "sbatch":  # sbatch [--nodes=N …] scripts/slurm-matrix.sbatch …
        words = words[1:]
        while words and words[0].startswith("-"):
            words = words[1:]
    if not words or not SCRIPT.match(words[0]):
        return None
    arguments = []
    for word in words[1:]:
        if PLACEHOLDER.match(word.strip("[]")):
            break
        arguments.append(word)
    return SCRIPT.match(words[0]).group(1), arguments


def spans(text):
    """Each code span of the text that runs a script with arguments, as (line number, its words)."""
    for number, line, kind in docs_support.lines(text):
        if kind == "text":
            for span in re.findall(r"(?<!`)`([^`]+)`(?!`)", line):
                if re.match(r"^(\./)?scripts/\S+ \S", span):
                    yield number, docs_commands_check._words(span)


def fault(checkout, script, arguments):
    """What is wrong with the dry run of `script arguments`, or None."""
    path = Path(checkout) / script
    if "*" in script or "?" in script:
        return None
    if not path.is_file():
        return f"no script {script}"
    if "LADDER_DRY_RUN" not in path.read_text(encoding="utf-8") and "lib/dry-run.sh" not in path.read_text(
            encoding="utf-8"):
        return f"{script} has no dry run (LADDER_DRY_RUN, scripts/lib/dry-run.sh): it was not run"
    environment = dict(os.environ, LADDER_DRY_RUN="1")
    try:
        result = subprocess.run([str(path)] + arguments, cwd=checkout, env=environment, capture_output=True,
                                text=True, timeout=120, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return "its dry run ran over 120 s"
    said = (result.stdout + result.stderr).strip().split("\n")
    if result.returncode != 0:
        return f"its dry run exited {result.returncode}: {said[-1]}"
    if not any(line.startswith("dry run:") for line in said):
        return "its dry run said nothing with 'dry run:'"
    return None


def faults(checkout, root):
    count = 0
    for source in docs_support.markdown_files(root):
        where = source.relative_to(Path(root))
        text = source.read_text(encoding="utf-8")
        lines = [line for block in docs_support.code_blocks(text) for line in docs_commands_check.commands(block)]
        for number, words in sorted(lines + list(spans(text))):
            command = script_words(words)
            if command is None:
                continue
            count += 1
            wrong = fault(checkout, *command)
            if wrong:
                yield f"{where}:{number}: {shlex.join([command[0]] + command[1])}: {wrong}"
    print(f"{count} script command line(s) run as dry runs")


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    checkout = str(Path(sys.argv[1]).resolve())
    return docs_support.report_faults(list(faults(checkout, sys.argv[2] if len(sys.argv) == 3 else checkout)))


if __name__ == "__main__":
    sys.exit(main())
