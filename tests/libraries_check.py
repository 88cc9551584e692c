"""The tiers' libraries are declared in one place: cmake/libraries.cmake's ladder_add_library rows. Its two
other readers must agree with them:
  - scripts/install-deps.sh, which reads the rows' PACKAGES lines as text (it runs before CMake exists):
    `install-deps.sh --list` names every package of every row;
  - `ladder export`'s table, generated/include/ladder_libraries.inc: one entry a row, in the rows' order,
    with the row's name, card words, FIND lines, LINK target, package words and namespaces.
The rows are read here by a parser of this script's own (CMake's quoted, bracket and bare arguments), not by
the sed install-deps uses nor the CMake that writes the table.

  usage: libraries_check.py SOURCE_DIR GENERATED_INC
         libraries_check.py --self-test     (the check on planted faults)
Exits 1 and names each disagreement, 0 when the three agree.
"""
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

KEYWORDS = {"CARD", "PACKAGES", "PACKAGE_TEXT", "FIND", "LINK", "BUILD", "BUILD_LINK", "NAMESPACES", "FOUND_BY_ITS_TIER"}
ARGUMENT = re.compile(r'\[(=*)\[\n?(.*?)\]\1\]|"((?:[^"\\]|\\.)*)"|([^\s()"#]+)|(#[^\n]*)|(\))', re.S)


def rows(text):
    """Each ladder_add_library call of a CMake file (not its definition) as a dict of its fields."""
    found = []
    for call in re.finditer(r"^ladder_add_library\(", text, re.M):
        words, at = [], call.end()
        while True:
            m = ARGUMENT.match(text, at)
            if m is None:
                at += 1
                continue
            at = m.end()
            if m.group(6):
                break
            if m.group(5):
                continue
            if m.group(2) is not None:
                words.append(("bracket", m.group(2)))
            elif m.group(3) is not None:
                words.append(("quoted", m.group(3).replace('\\"', '"')))
            else:
                words.append(("bare", m.group(4)))
        row = {"NAME": words[0][1], "PACKAGES": [], "NAMESPACES": []}
        key = None
        for kind, word in words[1:]:
            if kind == "bare" and word in KEYWORDS:
                key = word
                if key == "FOUND_BY_ITS_TIER":
                    row[key] = True
                continue
            if key in ("PACKAGES", "NAMESPACES"):
                row[key].append(word)
            else:
                row[key] = word
        found.append(row)
    return found


def table(text):
    """The entries of the generated ladder_libraries.inc: six strings each."""
    literal = r'(?:R"ladder\((.*?)\)ladder"|"((?:[^"\\]|\\.)*)")'
    entry = re.compile(r"\{\s*" + r",\s*".join([literal] * 6) + r"\s*\}", re.S)
    return [[a if a is not None else b for a, b in zip(m.groups()[::2], m.groups()[1::2])] for m in entry.finditer(text)]


def check(source_dir, inc_path):
    source_dir = pathlib.Path(source_dir)
    declared = rows((source_dir / "cmake/libraries.cmake").read_text())
    faults = []
    if not declared:
        faults.append("cmake/libraries.cmake: no ladder_add_library row")
    listed = subprocess.run(["bash", str(source_dir / "scripts/install-deps.sh"), "--list"], capture_output=True,
                            text=True, check=False)
    if listed.returncode != 0:
        faults.append(f"scripts/install-deps.sh --list failed: {listed.stderr.strip()}")
    installed = set(listed.stdout.split())
    for row in declared:
        for package in row["PACKAGES"]:
            if package not in installed:
                faults.append(f"library {row['NAME']}: scripts/install-deps.sh would not install its package {package}")
    entries = table(pathlib.Path(inc_path).read_text())
    if len(entries) != len(declared):
        faults.append(f"{inc_path}: {len(entries)} entries for {len(declared)} rows")
    for row, entry in zip(declared, entries):
        want = [row["NAME"], row.get("CARD", ""), row.get("FIND", ""), row.get("LINK", ""),
                row.get("PACKAGE_TEXT", ", ".join(row["PACKAGES"])), " ".join(row["NAMESPACES"])]
        for field, expected, got in zip(("name", "card", "find", "link", "packages", "namespaces"), want, entry):
            if expected != got:
                faults.append(f"library {row['NAME']}: export's table has {field} {got!r}, its row {expected!r}")
    return faults


def self_test():
    """Each planted fault is named; the faultless plant passes."""
    source = pathlib.Path(__file__).resolve().parent.parent
    good_rows = (
        'ladder_add_library(one CARD "One lib"\n  PACKAGES libone-dev pkg-config\n'
        "  FIND [=[\nfind_package(One REQUIRED)\n# a \"quoted\" word]=] LINK One::one\n  NAMESPACES one uno)\n"
        'ladder_add_library(two CARD "Two" FOUND_BY_ITS_TIER\n  PACKAGE_TEXT "Two\'s own"\n'
        "  FIND [=[find_package(Two)]=] LINK two)\n")
    good_inc = ('    {"one", "One lib", R"ladder(find_package(One REQUIRED)\n# a "quoted" word)ladder", "One::one",\n'
                '     "libone-dev, pkg-config", "one uno"},\n'
                '    {"two", "Two", R"ladder(find_package(Two))ladder", "two",\n     "Two\'s own", ""},\n')
    # A package on a continuation line: install-deps reads only the PACKAGES line itself.
    split_rows = good_rows.replace("PACKAGES libone-dev pkg-config", "PACKAGES libone-dev\n    libone-extra")
    split_inc = good_inc.replace("libone-dev, pkg-config", "libone-dev, libone-extra")
    cases = {
        "faultless": (good_rows, good_inc, set()),
        "missed package": (split_rows, split_inc, {"library one: scripts/install-deps.sh would not install its package libone-extra"}),
        "table disagrees": (good_rows, good_inc.replace('"One::one"', '"One::One"'),
                            {"library one: export's table has link 'One::One', its row 'One::one'"}),
        "row without entry": (good_rows, good_inc.split("    {\"two\"")[0], {"INC: 1 entries for 2 rows"}),
    }
    failed = False
    for name, (rows_text, inc_text, want) in cases.items():
        with tempfile.TemporaryDirectory() as root:
            root = pathlib.Path(root)
            (root / "cmake").mkdir()
            (root / "scripts").mkdir()
            (root / "cmake/libraries.cmake").write_text(rows_text)
            shutil.copy(source / "scripts/install-deps.sh", root / "scripts/install-deps.sh")
            shutil.copytree(source / "scripts/lib", root / "scripts/lib")  # its dry run
            (root / "INC").write_text(inc_text)
            got = {fault.replace(str(root / "INC"), "INC") for fault in check(root, root / "INC")}
        if got != want:
            failed = True
            print(f"self-test {name}: wanted {sorted(want)}, got {sorted(got)}")
    print("self-test: " + ("FAILED" if failed else "each planted fault named, the faultless plant passes"))
    return 1 if failed else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 3:
        print(__doc__)
        return 2
    faults = check(argv[1], argv[2])
    for fault in faults:
        print(fault)
    print(f"{len(faults)} disagreement(s)" if faults else "libraries: install-deps and export's table agree with the rows")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
