"""The pypy peers: py-list, py-generator and py-inlined, the same code run by PyPy instead of CPython.

PyPy is a Python interpreter with a tracing JIT: it compiles the loops a program runs often into machine
code while the program runs. Nothing in the code changes, which is the whole point of this rung. The
worker (worker.py, started by `ladder run` under CPython) starts again under pypy3 for these cells, so the
interpreter that measures the cell is the one that runs it.
"""
import functools
import os
import platform
import shutil
import re
import signal
import subprocess
import sys

NAME = "pypy"
PACKAGE = "pypy3"  # the Debian package, and the command it installs
MAX_NODES = 10**8  # PyPy's JIT runs pure Python ten times faster or more; py-list's list takes 800 MB there
NEEDS = f"needs PyPy (the Debian package {PACKAGE})"


def running_under_pypy():
    return platform.python_implementation() == "PyPy"


def interpreter():
    """The pypy3 to start, or None: LADDER_PYPY may name one (a test points it at a missing file)."""
    chosen = os.environ.get("LADDER_PYPY")
    return chosen if chosen else shutil.which(PACKAGE)


PROBE_SECONDS = 10  # how long pypy3 may take to print its version: well under the listing's own limit
VERSION = re.compile(r"PyPy [0-9][^ ]* \(Python [0-9][^ ]*\)")  # what probe()'s code prints


def shown(path):
    """A path as text that is valid UTF-8 (each byte that is not replaced by U+FFFD), for a message or a card."""
    return os.fsencode(path).decode("utf-8", "replace")


@functools.cache
def probe(program):
    """('PyPy 7.3.11 (Python 3.9.16)', None) from the program itself, or (None, why it does not run) in one
    line. The program runs in a session of its own: one that hangs is killed after PROBE_SECONDS with all it
    started, and what it prints is read as UTF-8 with replacement, whatever its bytes."""
    code = "import platform, sys; v = sys.pypy_version_info; " \
           "print(f'PyPy {v.major}.{v.minor}.{v.micro} (Python {platform.python_version()})')"
    try:
        child = subprocess.Popen([program, "-c", code], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, start_new_session=True)
    except (OSError, ValueError):  # missing, not executable; ValueError: a NUL in the path
        return None, f"{shown(program)} does not run"
    try:
        out, _ = child.communicate(timeout=PROBE_SECONDS)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(child.pid, signal.SIGKILL)  # its whole group: a child of a wrapper script too
        except OSError:
            pass
        try:
            child.communicate(timeout=1)
        except subprocess.TimeoutExpired:  # a grandchild of a session of its own holds the pipe still
            child.stdout.close()
            child.wait()
        return None, f"{shown(program)} did not print its version within {PROBE_SECONDS} s (stopped)"
    if child.returncode != 0:
        return None, f"{shown(program)} does not run (it exited with {child.returncode})"
    found = out.decode("utf-8", "replace").strip()
    if not VERSION.fullmatch(found):
        return None, f"{shown(program)} is not PyPy: it printed {found[:80]!r} for its version"
    return found, None


def version_of(program):
    """'PyPy 7.3.11 (Python 3.9.16)' from the program itself, or None when it does not run."""
    return probe(program)[0]


def need(unavailable):
    """Raise `unavailable` (peers.Unavailable) unless PyPy runs this process or pypy3 can be started."""
    if running_under_pypy():
        return
    program = interpreter()
    if not program:
        raise unavailable(f"{NEEDS}: no {PACKAGE} on the PATH")
    found, why = probe(program)
    if not found:
        raise unavailable(f"{NEEDS}: {why}")


def language():
    """The card's language: the PyPy that would run the cells, or what CPython runs when there is none."""
    if running_under_pypy():
        return f"Python {platform.python_version()} (PyPy {'.'.join(map(str, sys.pypy_version_info[:3]))})"
    program = interpreter()
    found = version_of(program) if program else None
    if found:  # 'PyPy 7.3.11 (Python 3.9.16)' read as 'Python 3.9.16 (PyPy 7.3.11)'
        pypy, _, python = found.partition(" (")
        return f"{python.rstrip(')')} ({pypy})"
    return f"Python {platform.python_version()} (PyPy not found)"


def interpreter_record():
    """Which interpreter runs this cell: recorded in every cell's result, as name and version."""
    if running_under_pypy():
        return {"name": "PyPy", "version": ".".join(map(str, sys.pypy_version_info[:3])),
                "python": platform.python_version(), "executable": sys.executable}
    return {"name": platform.python_implementation(), "version": platform.python_version(),
            "python": platform.python_version(), "executable": sys.executable}


def start_again_under_pypy(argv):
    """Replace this process by pypy3 running the same worker with the same arguments. The process stays the
    same one (its id, its limits, its place in the runner's process group): the runner watches it still.
    Returns only when pypy3 cannot be started, with the reason."""
    program = interpreter()
    if not program:
        return f"{NEEDS}: no {PACKAGE} on the PATH"
    try:
        os.execv(program, [program] + argv)
    except OSError as error:
        return f"{NEEDS}: cannot start {shown(program)}: {error.strerror}"


def peers(earlier):
    """The three cards, each right after its CPython twin. Each peer's code is its twin's function itself: the
    card counts its lines the same, and pypy-list sits beside py-list in the report, the same code under
    another interpreter."""
    common = dict(needs=[NAME], libraries=["PyPy 7.3 (tracing JIT)"], learning_time="minutes",
                  parallel=False, reproducible="always", interpreter=PACKAGE, max_nodes=MAX_NODES)
    jit = ["tracing JIT compilation", "JIT warm-up apart from the steady state", "a second interpreter"]
    return [
        dict(common, id="pypy-list", functions=earlier["py-list"]["functions"], after="py-list",
             summary="py-list's code unchanged, run by PyPy: its JIT compiles the loop while it runs",
             concepts=["lists", "list comprehensions", "lambdas"] + jit,
             summation="one accumulator, in order",
             heap_bytes_per_node=8),  # PyPy's list of floats holds the doubles themselves, unboxed
        dict(common, id="pypy-generator", functions=earlier["py-generator"]["functions"], after="py-generator",
             summary="py-generator's code unchanged, run by PyPy",
             concepts=["generator expressions", "built-in sum()"] + jit,
             summation="sum(): one accumulator, in order",  # PyPy 7.3 is Python 3.9: no compensated sum
             heap_bytes_per_node=0),
        dict(common, id="pypy-inlined", functions=earlier["py-inlined"]["functions"], after="py-inlined",
             summary="py-inlined's code unchanged, run by PyPy",
             concepts=["generator expressions", "built-in sum()"] + jit,
             summation="sum(): one accumulator, in order",
             heap_bytes_per_node=0),
    ]


def card_fields(peer):
    return {"language": language()}  # PyPy's Python


def build_seconds(peer):
    return None  # nothing is compiled before the run: the JIT's time is the cell's jit_warmup_seconds
