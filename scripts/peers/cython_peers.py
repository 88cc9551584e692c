"""The Cython peers: py-inlined compiled as it is, the loop typed, and the typed loop under prange.

Their sources are the .pyx files of scripts/peers/cython/; Ladder's build compiles them with cython3 and the
project's C++ compiler and flags (cmake/cython_peers.cmake, cython_build.py) into cython-peers/ under the
peers' modules folder (built_modules.py), beside cython-peers.json: what was built, in how long, and each
kernel's yellow count (cython_yellow.py). peers.py lists these peers with the others; this module never
imports it, so `python3 peers.py cards` and the worker see one copy of peers.py's classes.
"""
import functools
import importlib
import json
import os
import sys

import built_modules

NAME = "cython"
MODULES = "cython-peers"  # its subfolder of the peers' modules folder
MANIFEST = "cython-peers.json"
STAIRCASE = "py-inlined compiled by Cython"  # the report draws py-inlined and these peers on it, apart
SOURCES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cython")
NEEDS = "needs the modules Ladder's build compiles with Cython (the Debian package cython3)"


class Missing(Exception):
    """The modules are not there, or do not import: the reason, NEEDS first."""


@functools.cache
def manifest():
    """cython-peers.json from the modules' folder, the folder put on sys.path; Missing if not there."""
    directory = built_modules.folder(MODULES, NEEDS, Missing)
    path = os.path.join(directory, MANIFEST)
    if not os.path.isfile(path):
        raise Missing(f"{NEEDS}: {path} is not there (the build writes it where cython3 is installed: cmake --build build --target ladder_peers)")
    with open(path) as text:
        return json.load(text)


@functools.cache
def module(peer_id):
    try:
        return importlib.import_module(manifest()["modules"][peer_id]["module"])
    except (ImportError, KeyError) as error:  # a module built for another Python, or a manifest without it
        raise Missing(f"{NEEDS}: {type(error).__name__}: {error}") from None


def need(unavailable):
    """Import the peers' modules, or raise `unavailable` naming the package."""
    try:
        for peer in PEERS:
            module(peer["id"])
    except Missing as error:
        raise unavailable(str(error)) from None


def peers(earlier):
    return PEERS


def card_fields(peer):
    """What the build says of a peer, for its card: its source, flags, compile time and yellow count. The
    source lines are counted from the .pyx whether or not it was built."""
    peer_id = peer["id"]
    stem = {"cython-untyped": "cython_untyped", "cython": "cython_typed", "cython-parallel": "cython_parallel"}
    fields = {"source_file": f"cython/{stem[peer_id]}.pyx",
              "source_lines": pyx_lines(os.path.join(SOURCES, stem[peer_id] + ".pyx"))}
    try:
        built = manifest()["modules"][peer_id]
    except (Missing, KeyError):
        return fields
    own = "".join(f" ({flag} is the tool's own: {why})" for flag, why in built["tool_flags"].items())
    return {**fields, "flags": built["flags"] + list(built["tool_flags"]),
            "note": (f"compiled at build time by {manifest()['cython']} (--cplus) and the project's compiler "
                     f"with the project's flags{own}; Cython took {built['cython_seconds']:.2f} s, "
                     f"the compiler {built['compile_seconds']:.2f} s"),
            "yellow": built["yellow"]}


def build_seconds(peer):
    """The seconds the build took to make the peer's module, Cython's and the compiler's, for its cells."""
    built = manifest()["modules"][peer["id"]]
    return {"cython": built["cython_seconds"], "compiler": built["compile_seconds"]}


def pyx_lines(path):
    """Lines of code in a .pyx: blank lines and comment lines (directives included) are not counted."""
    with open(path) as source:
        return sum(1 for line in source if line.strip() and not line.strip().startswith("#"))


# ---- the peers' functions: integrate(integrand, a, b, n, threads), as peers.py's.
def cython_untyped(integrand, a, b, n, threads=1):
    return module("cython-untyped").py_inlined(integrand, a, b, n, threads)


def cython_typed(integrand, a, b, n, threads=1):
    return module("cython").integrate(integrand, a, b, n, threads)


def cython_parallel(integrand, a, b, n, threads):
    return module("cython-parallel").integrate(integrand, a, b, n, threads)


# Their cards, less what card_fields and peers.py's card() add.
PEERS = [
    dict(id="cython-untyped", functions=[cython_untyped], needs=[NAME], staircase=STAIRCASE,
         summary="py-inlined's function as it is, compiled by Cython with no type declared",
         libraries=["Cython 0.29"],
         concepts=["Cython compilation", "the Python C-API", "annotated (yellow) lines", "extension builds"],
         learning_time="hours", parallel=False, reproducible="always",
         # Cython calls the built-in sum() on a generator it compiled: py-inlined's summation
         summation=("sum(): one accumulator, in order, Neumaier-compensated" if sys.version_info >= (3, 12)
                    else "sum(): one accumulator, in order"),
         heap_bytes_per_node=0,
         max_nodes=10**7),  # every node still a Python float: pure-Python speed, pure Python's limit
    dict(id="cython", functions=[cython_typed], needs=[NAME], staircase=STAIRCASE,
         summary="the loop typed: cdef double, libc.math's exp and sin, boundscheck(False), cdivision(True)",
         libraries=["Cython 0.29"],
         concepts=["Cython compilation", "static typing (cdef)", "C functions (cdef, nogil)",
                   "compiler directives", "annotated (yellow) lines"],
         learning_time="hours", parallel=False, reproducible="always",
         summation="one accumulator, in order",
         heap_bytes_per_node=0),
    dict(id="cython-parallel", functions=[cython_parallel], needs=[NAME], staircase=STAIRCASE,
         summary="the typed loop as a prange under nogil: OpenMP threads, a reduction over the total",
         libraries=["Cython 0.29", "OpenMP"],
         concepts=["Cython compilation", "static typing (cdef)", "releasing the GIL (nogil)",
                   "parallel loops (prange)", "OpenMP reductions", "annotated (yellow) lines"],
         learning_time="days", parallel=True, reproducible="no",
         summation="one accumulator per thread over its static share, thread totals added by OpenMP",
         heap_bytes_per_node=0),
]
