"""The yellow lines of a Cython kernel: how much of it still calls into the Python C-API.

`cython -a` writes an HTML page beside the C it generates: each source line is a
`<pre class="cython line score-N">`, where N is Cython's own score of the C that line became
(Cython/Compiler/Annotate.py: 5 a call of a Python C-API function, 2 of one of Cython's __Pyx_ helpers,
1 a Python or Cython macro; reference counting and error jumps score nothing). The page paints a line
yellow when N > 0, the deeper the larger N. A kernel's yellow count is

    lines: its lines with N > 0;    score: the sum of N over its lines,

its lines being those between the lines `# kernel begins` and `# kernel ends` of the .pyx (the Python
entry point, whose arguments are converted once a call, stays outside).

    python3 scripts/peers/cython_yellow.py FILE.pyx [CYTHON]   # runs CYTHON (cython3) -a, prints the JSON
"""
import json
import os
import re
import subprocess
import sys
import tempfile

BEGINS, ENDS = "# kernel begins", "# kernel ends"
LINE = re.compile(r'<pre class="cython line score-(\d+)"[^>]*>[^<]*<span class="[^"]*">(\d+)</span>:')


def kernel_span(pyx_text):
    """The first and last line numbers (1-based) inside the kernel markers; ValueError unless both appear
    once, in order."""
    lines = [line.strip() for line in pyx_text.splitlines()]
    begins = [number for number, line in enumerate(lines, 1) if line.startswith(BEGINS)]
    ends = [number for number, line in enumerate(lines, 1) if line.startswith(ENDS)]
    if len(begins) != 1 or len(ends) != 1 or begins[0] > ends[0]:
        raise ValueError(f"the kernel is not marked: want one '{BEGINS}' line, then one '{ENDS}' line "
                         f"(found {len(begins)} and {len(ends)})")
    return begins[0] + 1, ends[0] - 1


def scores(html_text):
    """{line number: Cython's score} for every source line of an annotated page."""
    found = {int(number): int(score) for score, number in LINE.findall(html_text)}
    if not found:
        raise ValueError("no `cython line score-N` lines: not a page written by `cython -a`")
    return found


def count(pyx_text, html_text):
    """The kernel's yellow count: {"lines": lines scored above 0, "score": their scores' sum,
    "kernel_lines": the lines between the markers}."""
    first, last = kernel_span(pyx_text)
    by_line = scores(html_text)
    kernel = [by_line.get(number, 0) for number in range(first, last + 1)]
    return {"lines": sum(1 for score in kernel if score > 0), "score": sum(kernel), "kernel_lines": len(kernel)}


def annotate(pyx, cython="cython3", directory=None):
    """Runs `cython -3 -a` on a .pyx into a directory (a temporary one when None) and returns the count.
    CalledProcessError (with Cython's message) when Cython refuses the file."""
    with tempfile.TemporaryDirectory() as scratch:
        where = directory or scratch
        stem = os.path.splitext(os.path.basename(pyx))[0]
        subprocess.run([cython, "-3", "-a", pyx, "-o", os.path.join(where, stem + ".c")], check=True,
                       capture_output=True, text=True, errors="replace")
        with open(pyx) as source, open(os.path.join(where, stem + ".html")) as page:
            return count(source.read(), page.read())


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: python3 scripts/peers/cython_yellow.py FILE.pyx [CYTHON]")
    try:
        print(json.dumps(annotate(*sys.argv[1:])))
    except subprocess.CalledProcessError as error:
        sys.exit(f"cython_yellow: {' '.join(error.cmd)} failed:\n{error.stdout}{error.stderr}")
    except (OSError, ValueError) as error:
        sys.exit(f"cython_yellow: {sys.argv[1]}: {error}")
