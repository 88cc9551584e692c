"""Every path of the checkout that the pages about the checkout name in a code span exists: docs/architecture.md
and each folder's README.md (reports/README.md, harness/run/README.md, …). A path is `harness/run/runner.cpp`,
`data/reference/`, or a glob (`reports/sections/sections_*.cpp`) that matches at least one file. A span that
holds a placeholder in capitals (`variants/kernels/NAME.hpp`) or an ellipsis is a pattern, not a path, and is
not checked; nor are code blocks, where paths are a command's arguments. The user guides are left out: they
also name files of an exported project or of the build tree. Files move (harness/ and reports/ were carved
into rooms); the pages that name them must follow.

    python3 tests/docs_paths_check.py ROOT    # ROOT: the checkout (or a fixture with docs/architecture.md)

Prints each missing path as FILE:LINE: `PATH`: no such file, then "N faults", and exits 1 when there is one.
"""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import docs_support  # noqa: E402

FOLDERS = ("app", "bench", "cmake", "common", "data", "docs", "examples", "export", "harness", "history",
           "integrands", "reports", "scripts", "tests", "tools", "variants")
PATH = re.compile(r"^(?:%s)/[A-Za-z0-9_.*/+-]*$" % "|".join(FOLDERS))
PLACEHOLDER = re.compile(r"[A-Z]{3,}|…|\.\.\.")
SPAN = re.compile(r"(`+)(.+?)\1")


def missing_paths(root):
    """(file, line, path) for each path named in a code span that does not exist under root."""
    root = Path(root)
    pages = [root / "docs" / "architecture.md"] + sorted(
        page for folder in FOLDERS for page in (root / folder).rglob("README.md") if "fixtures" not in page.parts)
    for page in (page for page in pages if page.is_file()):
        for number, line, kind in docs_support.lines(page.read_text(encoding="utf-8")):
            if kind != "text":
                continue
            for match in SPAN.finditer(line):
                path = match.group(2).strip()
                if not PATH.match(path) or PLACEHOLDER.search(path):
                    continue
                found = any(root.glob(path.rstrip("/"))) if "*" in path else (root / path).exists()
                if not found:
                    yield page.relative_to(root), number, path


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    faults = list(missing_paths(sys.argv[1]))
    for page, number, path in faults:
        print(f"{page}:{number}: `{path}`: no such file")
    if faults:
        print(f"{len(faults)} faults")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
