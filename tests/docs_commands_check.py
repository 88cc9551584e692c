"""Every `ladder …` command line in a fenced code block of README.md and docs/*.md, and every code span of
their text that starts with `ladder `, parses: a real subcommand (history's included) and real options of that
subcommand, as the built binary's `ladder COMMAND --help` lists them. A line continued with a backslash is one command; pipes, `&&`, `||` and `;` separate commands; an
environment prefix (`LADDER_HISTORY=… build/ladder …`), `sudo`, `time` and `env` are skipped; `ladder`,
`build/ladder`, `./ladder` and any path ending in /ladder start a command. Optional parts written `[--json]`
count as written, and `--compilers/--arch` as both; a placeholder in capitals (`ladder COMMAND --help`)
ends the check of its line. A line whose word after `ladder` is not a name (`ladder 0.1.0 (commit …)`, output) is not
a command. Values and positionals are not checked.

    python3 tests/docs_commands_check.py LADDER ROOT   # LADDER: the built binary; ROOT: README.md and docs/

Prints each fault as FILE:LINE: the command and what is wrong, and exits 1 when there is one.
"""

import re
import shlex
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import docs_support  # noqa: E402

SEPARATORS = {"|", "||", "&&", ";", "&", "(", ")"}
PREFIXES = {"sudo", "time", "env", "exec", "nohup", "then", "do", "!"}


def commands(block):
    """Each shell command of a code block as (line number, its words), continuation lines joined."""
    joined, start = "", None
    for number, line in block:
        start = number if start is None else start
        if line.rstrip().endswith("\\"):
            joined += line.rstrip()[:-1] + " "
            continue
        yield from _split(start, joined + line)
        joined, start = "", None
    if start is not None:
        yield from _split(start, joined)


def _split(number, text):
    words, current = _words(text), []
    for word in words + [";"]:
        if word in SEPARATORS:
            if current:
                yield number, current
            current = []
        else:
            current.append(word)


def _words(text):
    lexer = shlex.shlex(text.replace("$ ", "", 1) if text.startswith("$ ") else text, posix=True,
                        punctuation_chars="|&;()")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        return list(lexer)
    except ValueError:  # an unbalanced quote: not shell, or a line cut short; split on spaces
        return text.split("#")[0].split()


def ladder_words(words):
    """The words after `ladder` when the command runs ladder, else None."""
    while words and (re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]) or words[0] in PREFIXES):
        words = words[1:]
    if words and (words[0] == "ladder" or words[0].endswith("/ladder")):
        return [word.strip("[]") for word in words[1:]]
    return None


def check(words, cli, ladder):
    """What is wrong with `ladder WORDS`, or None."""
    if not words or not re.match(r"^(-|[a-z][a-z-]*$)", words[0]):
        return None  # not a command line: `ladder 0.1.0 (…)`, `ladder: message`
    path, positionals = (), False
    for word in words:
        if word in ("", "...", "…") or re.match(r"^-(\d|\.\d)", word) or word == "-":
            continue
        if word.startswith("-"):
            for name in word.split("=")[0].split("/"):
                if name not in cli[path]:
                    return f"`ladder {' '.join(path)}` has no option {name}".replace("ladder ` ", "ladder` ")
        elif not positionals and _has_subcommands(cli, path):
            if re.match(r"^[A-Z][A-Z_.…]*$", word):
                return None  # a placeholder: `ladder COMMAND --help`
            if path + (word,) in cli:
                path += (word,)
            else:
                hidden = docs_support.hidden_command(ladder, path + (word,))
                if hidden is None:
                    return f"no command `ladder {' '.join(path + (word,))}`"
                cli[path + (word,)] = hidden
                path += (word,)
        else:
            positionals = True  # a value or a positional: not checked
    return None


def _has_subcommands(cli, path):
    return path == () or any(len(other) == len(path) + 1 and other[: len(path)] == path for other in cli)


def spans(text):
    """Each code span of the text that starts with `ladder `, as (line number, its words)."""
    for number, line, kind in docs_support.lines(text):
        if kind == "text":
            for span in re.findall(r"(?<!`)`([^`]+)`(?!`)", line):
                if re.match(r"^(\S*/)?ladder ", span):
                    yield number, _words(span)


def faults(ladder, root):
    cli = docs_support.cli(ladder)
    count = 0
    for source in docs_support.markdown_files(root):
        where = source.relative_to(Path(root))
        text = source.read_text(encoding="utf-8")
        lines = [line for block in docs_support.code_blocks(text) for line in commands(block)]
        for number, words in sorted(lines + list(spans(text))):
            after = ladder_words(words)
            if after is None:
                continue
            count += 1
            fault = check(after, cli, ladder)
            if fault:
                yield f"{where}:{number}: ladder {' '.join(after)}: {fault}"
    print(f"{count} ladder command line(s) read")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    return docs_support.report_faults(list(faults(sys.argv[1], sys.argv[2])))


if __name__ == "__main__":
    sys.exit(main())
