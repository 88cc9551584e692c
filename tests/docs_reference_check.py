"""docs/reference.md against the binary and the source, both ways:

- every command `ladder --help` lists (history's included) has a section headed `ladder COMMAND`, and every
  such section is a real command (the hidden worker's too);
- a command's options, as `ladder COMMAND --help` lists them (-h/--help aside), are the options its section's
  table names in its first column: none missing, none that the command does not have;
- a section may open its table with one line "Options: every option of [`ladder run`](#ladder-run), and:"
  (one or more links to headings of the page, e.g. [the money options](#the-money-options)): the linked
  sections' options, theirs inherited too, count as this section's and are held to the command the same way;
  a link to no heading of the page, or an "Options:" line without one, is a fault;
- the page's "Exit codes" table holds exactly the codes of common/errors.hpp;
- every environment variable the product reads (LADDER_*, HWLOC_*, XDG_*; tests' hooks aside) is named: C++
  `getenv`, the Python of scripts/ (a quoted name) and its shell scripts (`$NAME`, `${NAME…}`);
- every CMake option (`option(LADDER_…)`, or a `set(LADDER_… CACHE …)`) of the build's CMake files is named.

    python3 tests/docs_reference_check.py LADDER PAGE SOURCE   # the binary, reference.md, the checkout

Prints each fault as PAGE: what is wrong, and exits 1 when there is one.
"""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import docs_support  # noqa: E402

TITLE = re.compile(r"^`ladder((?: [a-z][a-z-]*)*)`$")
PRODUCT = ("app", "harness", "history", "reports", "common", "export", "variants")


def sections(text):
    """{heading text: its lines up to the next heading, code blocks left out}, for every heading outside
    code blocks."""
    found, current = {}, None
    for _, line, kind in docs_support.lines(text):
        match = docs_support.HEADING.match(line) if kind == "text" else None
        if match:
            current = match.group(2)
            found[current] = []
        elif current is not None and kind == "text":
            found[current].append(line)
    return found


def first_column(lines):
    """The first cell of every table row, header and rule rows left out."""
    cells = [line.split("|")[1] for line in lines if line.startswith("|") and line.count("|") > 2]
    return [cell for cell in cells if not re.match(r"^\s*:?-+:?\s*$", cell)][1:] if cells else []


def options_named(lines):
    names = set()
    for cell in first_column(lines):
        names.update(re.findall(r"(?<![\w-])(--?[a-zA-Z][\w-]*)", cell))
    return names


INHERITS = re.compile(r"^Options: every option of (.*), and:$")
LINK = re.compile(r"\[([^\]]*)\]\(#([^)\s]+)\)")


def inherited(lines):
    """The anchors a section's "Options: every option of [..](#anchor), and:" line names; None for an
    "Options:" line the check does not understand (no such pattern, or no link into the page)."""
    anchors = []
    for line in lines:
        if line.startswith("Options:"):
            match = INHERITS.match(line.strip())
            links = LINK.findall(match.group(1)) if match else []
            if not links:
                return None
            anchors += [anchor for _, anchor in links]
    return anchors


def all_options(heading, found, by_anchor, seen=None):
    """{option: the heading it is inherited from, None for the section's own} of a section and of every
    section it inherits from, and the anchors it inherits from that are no heading of the page."""
    seen = (seen or set()) | {heading}
    options = {option: None for option in options_named(found[heading])}
    dangling = []
    for anchor in inherited(found[heading]) or []:
        source = by_anchor.get(anchor)
        if source is None:
            dangling.append(anchor)
        elif source not in seen:
            theirs, _ = all_options(source, found, by_anchor, seen)
            for option, origin in theirs.items():
                options.setdefault(option, origin or source.strip())
    return options, dangling


def exit_codes(source):
    text = (Path(source) / "common" / "errors.hpp").read_text(encoding="utf-8")
    return {int(code) for code in re.findall(r"constexpr int exit_\w+ = (\d+);", text)}


VARIABLE = r"((?:LADDER|HWLOC|XDG)_\w+)"
READS = {
    "C++": re.compile(r'getenv\("' + VARIABLE + r'"\)'),
    "Python": re.compile(r'"' + VARIABLE + r'"'),
    "shell": re.compile(r"\$\{?" + VARIABLE),
}


def shell_script(path):
    with open(path, "rb") as file:
        first = file.readline()
    return path.is_file() and first.startswith(b"#!") and first.rstrip().endswith((b"sh", b"bash"))


def read_variables(source):
    """The environment variables that the product's C++, the Python of scripts/ and its shell scripts read."""
    root = Path(source)
    files = [(path, "C++") for folder in PRODUCT for path in (root / folder).rglob("*.[ch]pp")]
    files += [(path, "Python") for path in (root / "scripts").rglob("*.py")]
    files += [(path, "shell") for path in (root / "scripts").rglob("*") if path.is_file() and shell_script(path)]
    names = set()
    for path, language in files:
        names.update(READS[language].findall(path.read_text(encoding="utf-8")))
    return {name for name in names if "_TEST_" not in name and not name.endswith("_TEST")}


OPTION = re.compile(r"\b(?:option\((LADDER_\w+)|set\((LADDER_\w+)\s[^)]*\bCACHE\b)")


def cmake_options(source):
    """The build's CMake options: every option(LADDER_…) and cached set(LADDER_… CACHE …), the tests' included."""
    root = Path(source)
    files = [root / "CMakeLists.txt", *(root / "cmake").glob("*.cmake")]
    files += list(root.glob("*/CMakeLists.txt"))
    names = set()
    for path in files:
        for match in OPTION.finditer(path.read_text(encoding="utf-8")):
            names.add(match.group(1) or match.group(2))
    return names


def faults(ladder, page, source):
    text = Path(page).read_text(encoding="utf-8")
    cli = docs_support.cli(ladder)
    found = sections(text)
    by_anchor = {docs_support.slug(heading): heading for heading in found}
    documented = {}
    for heading, lines in found.items():
        match = TITLE.match(heading.strip())
        if match:
            documented[tuple(match.group(1).split())] = heading
    for words in cli:
        if words not in documented:
            yield f"`ladder {' '.join(words)}` has no section".replace("ladder `", "ladder`")
    for heading, lines in found.items():
        if inherited(lines) is None:
            yield f'{heading.strip()}: its "Options:" line is not "Options: every option of [..](#anchor), and:"'
    for words, heading in documented.items():
        name = " ".join(("ladder",) + words)
        options = cli.get(words)
        if options is None:
            options = docs_support.hidden_command(ladder, words)
            if options is None:
                yield f"`{name}`: no such command"
                continue
        named, dangling = all_options(heading, found, by_anchor)
        for anchor in dangling:
            yield f"`{name}`: it takes every option of #{anchor}, which is no heading of the page"
        if words in cli:
            for option in sorted(options - {"-h", "--help"} - set(named)):
                yield f"`{name}`: its option {option} is not in the section"
        for option in sorted(set(named) - options):
            via = f" (every option of {named[option]})" if named[option] else ""
            yield f"`{name}`: the section names {option}{via}, which the command does not have"
    table = next((lines for heading, lines in found.items() if heading.strip() == "Exit codes"), None)
    codes = exit_codes(source)
    if table is None:
        yield "no section \"Exit codes\""
    else:
        listed = {int(cell) for cell in map(str.strip, first_column(table)) if cell.isdigit()}
        for code in sorted(codes - listed):
            yield f"exit code {code} (common/errors.hpp) is not in the table"
        for code in sorted(listed - codes):
            yield f"exit code {code} is in the table, not in common/errors.hpp"
    for variable in sorted(read_variables(source)):
        if f"`{variable}`" not in text:
            yield f"the environment variable {variable}, which Ladder reads, is not named"
    for option in sorted(cmake_options(source)):
        if f"`{option}`" not in text:
            yield f"the CMake option {option} is not named"


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    found = list(faults(*sys.argv[1:]))
    for fault in found:
        print(f"{sys.argv[2]}: {fault}")
    print(f"{len(found)} fault(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
