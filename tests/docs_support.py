"""What the doc checks share (Python 3 standard library only): the CLI as `ladder COMMAND --help` describes it,
the Markdown files of a checkout (README.md and docs/), their fenced code blocks and their headings' GitHub anchors.

The doc checks (docs_links_check.py, docs_commands_check.py, docs_reference_check.py) import it from their own
folder; each prints one line per fault naming the file, the line and the fault, and exits 1 when it found one.
"""

import re
import subprocess
from pathlib import Path


def markdown_files(root):
    """README.md and every docs/**/*.md under root, in a stable order."""
    root = Path(root)
    files = [root / "README.md"] if (root / "README.md").is_file() else []
    return files + sorted((root / "docs").rglob("*.md"))


FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")


def lines(text):
    """The file's lines as (line number, line, kind): "open" and "close" for a code fence, "code" inside one,
    "text" outside."""
    fence = None
    for number, line in enumerate(text.split("\n"), 1):
        match = FENCE.match(line)
        if fence is None and match:
            fence = match.group(1)
            yield number, line, "open"
        elif fence is not None and match and match.group(1).startswith(fence) and not match.group(2).strip():
            fence = None
            yield number, line, "close"
        else:
            yield number, line, "text" if fence is None else "code"


def code_blocks(text):
    """Each fenced code block as a list of (line number, line), its fences left out."""
    blocks = []
    for number, line, kind in lines(text):
        if kind == "open":
            blocks.append([])
        elif kind == "code":
            blocks[-1].append((number, line))
    return blocks


HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")


def heading_text(markdown):
    """The text a heading renders: code spans, emphasis and links reduced to their words."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", markdown)
    text = re.sub(r"<[^>]+>", "", text)
    return text


def slug(text):
    """GitHub's anchor for a heading (github-slugger): lower case, punctuation dropped, each space a hyphen."""
    return re.sub(r"[^\w\- ]", "", heading_text(text).lower()).replace(" ", "-")


def anchors(text):
    """Every anchor a file defines: its headings' slugs, a repeated one suffixed -1, -2, … as GitHub does, and
    the ids and names of its HTML elements."""
    found, seen = set(), {}
    for _, line, kind in lines(text):
        match = HEADING.match(line) if kind == "text" else None
        if match:
            base = slug(match.group(2))
            name = base if base not in seen else f"{base}-{seen[base]}"
            seen[base] = seen.get(base, 0) + 1
            found.add(name)
    found.update(re.findall(r"""<[^>]+\b(?:id|name)=["']([^"']+)["']""", text))
    return found


def _help(ladder, words):
    try:
        result = subprocess.run([ladder, *words, "--help"], capture_output=True, text=True)
    except OSError as error:
        raise SystemExit(f"cannot run {ladder}: {error}") from None
    return result.returncode, result.stdout


def parse_help(output):
    """CLI11's help text as (the options' names, the subcommands' names)."""
    options, subcommands, section = set(), [], None
    for line in output.split("\n"):
        if re.match(r"^\S.*:$", line):
            section = line[:-1]
        elif section == "Options" and re.match(r"^  -", line):
            for name in line.split()[0].split(","):
                options.add(re.sub(r"\{.*$", "", name))
        elif section == "Subcommands" and re.match(r"^  \S", line):
            subcommands.append(line.split()[0])
    return options, subcommands


def cli(ladder):
    """Every command the CLI lists, as {("history", "check"): {its options}, …}, the top level as ()."""
    commands, pending = {}, [()]
    while pending:
        words = pending.pop(0)
        code, output = _help(ladder, list(words))
        if code != 0:
            raise SystemExit(f"`{ladder} {' '.join(words)} --help` exited {code}")
        options, subcommands = parse_help(output)
        commands[words] = options
        pending += [words + (name,) for name in subcommands]
    return commands


def hidden_command(ladder, words):
    """The options of a command the CLI does not list (the worker), or None when there is no such command."""
    code, output = _help(ladder, list(words))
    usage = re.search(r"^Usage: \S+ " + re.escape(" ".join(words)) + r" ", output, re.M)
    return parse_help(output)[0] if code == 0 and usage else None


def report_faults(faults, before=()):
    """Prints the lines `before` (notes that are no faults), each fault, then "N fault(s)"; the exit code."""
    for line in list(before) + list(faults):
        print(line)
    print(f"{len(faults)} fault(s)")
    return 1 if faults else 0
