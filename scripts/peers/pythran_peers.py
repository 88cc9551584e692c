"""The pythran peers: the plain loop compiled ahead of time by Pythran, alone (pythran) and with OpenMP
(pythran-omp).

Their sources are scripts/peers/pythran/*.py. Ladder's build compiles them (cmake/pythran_peers.cmake), as it
builds the cpp-extension peer, into pythran-peers/ under the peers' modules folder (built_modules.py), and
writes what it did, flags and seconds, to build.json beside the modules. The compile time is so recorded
apart from the run time, as numba's compile_seconds is.
"""
import functools
import importlib
import importlib.util
import json
import os
import platform

import built_modules

NAME = "pythran"
PACKAGE = "python3-pythran"  # the Debian package
MODULES = "pythran-peers"  # its subfolder of the peers' modules folder
NEEDS = f"needs the modules Ladder's build compiles with Pythran (the Debian package {PACKAGE})"
SOURCES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pythran")
INTEGRANDS = ("gauss", "pi", "sin", "poly")  # each exported by both modules; any other is refused


def need(unavailable):
    """Put the modules' directory on sys.path and import both modules, or raise `unavailable`."""
    built_modules.folder(MODULES, NEEDS, unavailable)
    try:
        for name in ("ladder_pythran", "ladder_pythran_omp"):
            compiled(name)
    except Exception as error:  # ImportError, or a module built for another Python
        raise unavailable(f"{NEEDS}: {error}") from None


@functools.cache
def compiled(name):
    return importlib.import_module(name)


@functools.cache
def source(name):
    """The Pythran source as plain Python (it is valid Python): its functions give the card its lines."""
    spec = importlib.util.spec_from_file_location(name + "_source", os.path.join(SOURCES, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build_record(name):
    """What the build did for one module: {"flags": [...], "compile_seconds": s}, or {} when not built."""
    where = built_modules.path(MODULES, "build.json")
    try:
        with open(where) as record:
            return json.load(record).get(name, {})
    except (TypeError, OSError, ValueError):  # TypeError: the folder is not named
        return {}


def exported(module, integrand):
    """The module's compiled function for an integrand; an integrand it has none for is refused by name."""
    if integrand not in INTEGRANDS:
        raise ValueError(f"Pythran's module has no kernel for the integrand '{integrand}': it is compiled "
                         f"ahead of time for {', '.join(INTEGRANDS)} only")
    return getattr(module, integrand)


def pythran_loop(integrand, a, b, n, threads=1):
    return exported(compiled("ladder_pythran"), integrand)(a, b, n)


def pythran_omp(integrand, a, b, n, threads):
    return exported(compiled("ladder_pythran_omp"), integrand)(a, b, n, threads)


def flags(name):
    """The card's flags: the project's, then each flag Pythran adds of its own, said so."""
    record = build_record(name)
    own = ["-fopenmp (Pythran's own: compiles the #omp comments)"] if name == "ladder_pythran_omp" else []
    return record.get("flags", []) + own + [
        "-std=c++11 -fno-math-errno -fvisibility=hidden (Pythran's own defaults, its pythran.cfg)"]


def peers(earlier):
    plain, omp = source("ladder_pythran"), source("ladder_pythran_omp")
    loops = [plain.midpoint, plain.gauss, plain.pi, plain.sin, plain.poly]
    loops_omp = [omp.midpoint, omp.gauss, omp.pi, omp.sin, omp.poly]
    common = dict(needs=[NAME], libraries=["Pythran 0.11 (Python to C++)"], learning_time="hours",
                  heap_bytes_per_node=0)
    concepts = ["ahead-of-time compilation", "#pythran export type signatures", "the Python subset Pythran reads"]
    return [
        dict(common, id="pythran", functions=loops + [pythran_loop], module="ladder_pythran",
             summary="the plain loop, typed by a #pythran export comment, compiled to C++ at build time",
             concepts=concepts, parallel=False, reproducible="always",
             summation="one accumulator, in order"),
        dict(common, id="pythran-omp", functions=loops_omp + [pythran_omp], module="ladder_pythran_omp",
             summary="the same loop under #omp parallel for reduction(+:total), on --threads threads",
             libraries=["Pythran 0.11 (Python to C++)", "OpenMP"],
             concepts=concepts + ["OpenMP comments", "parallel loops", "reductions"], parallel=True,
             reproducible="no",
             summation="one accumulator per thread over its share, thread totals added by OpenMP"),
    ]


def card_fields(peer):
    """What a pythran peer's card says beyond a Python peer's: its source file, the build's flags."""
    return {"source_file": "pythran/" + peer["module"] + ".py", "flags": flags(peer["module"]),
            "language": f"Python {platform.python_version()} (the subset Pythran compiles to C++)"}


def build_seconds(peer):
    """The seconds the build took to compile the peer's module, for its cells (None where not recorded)."""
    return build_record(peer["module"]).get("compile_seconds")
