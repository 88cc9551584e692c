"""Builds the Cython peers' modules (run by the build: cmake/cython_peers.cmake).

    python3 scripts/peers/cython_build.py --out DIR --cython cython3 --compiler c++ --flags "-O3 -march=native"

For each peer's .pyx in scripts/peers/cython/: `cython -3 --cplus -a` writes its C++ and its annotated page,
the project's C++ compiler builds the module with the project's flags (plus the tool's own, -fopenmp for
prange), and cython_yellow.py counts the kernel's yellow lines from the page. DIR/cython-peers.json, written
last, says what was built: each module's flags, the seconds Cython and the compiler took (the compile time,
apart from any cell's), and its yellow count. The Python that runs this script is the one the modules are
built for.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import sysconfig
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cython_yellow  # noqa: E402

SOURCES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cython")
MANIFEST = "cython-peers.json"
# peer id: (its .pyx, the flags that are the tool's own and why)
MODULES = {
    "cython-untyped": ("cython_untyped", []),
    "cython": ("cython_typed", []),
    "cython-parallel": ("cython_parallel", ["-fopenmp"]),  # Cython writes prange as an OpenMP parallel for
}
TOOL_FLAGS_WHY = {"-fopenmp": "Cython writes prange as an OpenMP `parallel for` with a reduction"}


def timed(command):
    """Runs a command; its seconds, or SystemExit with its output when it fails."""
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, errors="replace")
    if done.returncode:
        sys.exit(f"cython_build: `{shlex.join(command)}` failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return time.perf_counter() - start


def cython_version(cython):
    done = subprocess.run([cython, "--version"], capture_output=True, text=True, errors="replace")
    return (done.stdout + done.stderr).strip()  # "Cython version 0.29.32", on stderr


def build(peer, stem, tool_flags, arguments):
    pyx = os.path.join(SOURCES, stem + ".pyx")
    generated = os.path.join(arguments.out, stem + ".cpp")
    cython_seconds = timed([arguments.cython, "-3", "--cplus", "-a", pyx, "-o", generated])
    module = os.path.join(arguments.out, stem + sysconfig.get_config_var("EXT_SUFFIX"))
    flags = shlex.split(arguments.flags)
    compile_seconds = timed([arguments.compiler, *flags, *tool_flags, "-fPIC", "-shared",
                             "-I" + sysconfig.get_paths()["include"], generated, "-o", module])
    with open(pyx) as source, open(os.path.join(arguments.out, stem + ".html")) as page:
        yellow = cython_yellow.count(source.read(), page.read())
    return {"module": stem, "source": os.path.relpath(pyx, os.path.dirname(SOURCES)),
            "flags": flags, "tool_flags": {flag: TOOL_FLAGS_WHY[flag] for flag in tool_flags},
            "cython_seconds": round(cython_seconds, 3), "compile_seconds": round(compile_seconds, 3),
            "yellow": yellow}


def main():
    parser = argparse.ArgumentParser(description="Builds the Cython peers' modules (see cython_peers.py).")
    parser.add_argument("--out", required=True, help="the directory the modules and cython-peers.json go to")
    parser.add_argument("--cython", default="cython3", help="the Cython compiler (Debian's cython3)")
    parser.add_argument("--compiler", required=True, help="the project's C++ compiler")
    parser.add_argument("--flags", required=True, help="the project's flags, as one string")
    arguments = parser.parse_args()
    os.makedirs(arguments.out, exist_ok=True)
    manifest = {"cython": cython_version(arguments.cython), "compiler": arguments.compiler,
                "python": sysconfig.get_python_version(),
                "modules": {peer: build(peer, stem, tool_flags, arguments)
                            for peer, (stem, tool_flags) in MODULES.items()}}
    temporary = os.path.join(arguments.out, MANIFEST + ".tmp")
    with open(temporary, "w") as out:
        json.dump(manifest, out, indent=1)
    os.replace(temporary, os.path.join(arguments.out, MANIFEST))


if __name__ == "__main__":
    main()
