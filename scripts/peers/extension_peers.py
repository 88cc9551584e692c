"""The cpp-extension peer: the last rung leaves Python. The xsimd tier, exported by `ladder export xsimd --python`
and built as a pybind11 module a built-in integrand: the loop runs in C++, only the call crosses from Python
(and releases the GIL while the kernel runs).

Ladder's build makes the modules (cmake/python_extension.cmake) in python-extension/build/modules under the
peers' modules folder (built_modules.py); the export of gauss lies at python-extension/gauss, whose C++ the
card counts as the code the peer shares.
"""
import functools
import importlib
import os

import built_modules

NAME = "extension"
NEEDS = ("needs the modules Ladder's build makes with `ladder export xsimd --python` "
         "(pybind11-dev, python3-pybind11)")
MODULES = os.path.join("python-extension", "build", "modules")
EXPORT = os.path.join("python-extension", "gauss")
INTEGRANDS = ("gauss", "pi", "sin", "poly")  # each built-in integrand has its module


@functools.cache
def extension_module(integrand):
    return importlib.import_module("ladder_xsimd_" + integrand.replace("-", "_"))


def cpp_extension(integrand, a, b, n, threads=1):
    return extension_module(integrand).integrate(a, b, n)


def need(unavailable):
    """Put the modules' folder on sys.path and import each integrand's module, or raise `unavailable`."""
    built_modules.folder(MODULES, NEEDS, unavailable)
    try:
        for integrand in INTEGRANDS:
            extension_module(integrand)
    except Exception as error:  # ImportError, or a module built for another Python
        raise unavailable(f"{NEEDS}: {error}") from None


def peers(earlier):
    return [dict(
        id="cpp-extension", functions=[extension_module, cpp_extension], needs=[NAME],
        summary="the xsimd tier exported by `ladder export xsimd --python`, called through pybind11",
        libraries=["pybind11 2.10", "xsimd 8.1"],
        concepts=["C++ extension modules", "pybind11 bindings", "the GIL", "CMake builds", "SIMD batch types"],
        learning_time="days", parallel=False, reproducible="always",
        summation="4 × width SIMD lanes, then a horizontal add",  # the xsimd tier's
        heap_bytes_per_node=0,
        per_call_sizes=[1000],  # also measured where the call, not the loop, is the cost
        beside="xsimd")]  # the C++ tier it wraps, measured at the same sizes


def cpp_lines(path):
    """Lines holding code once // and /* */ comments are removed: the rule of tools/count_lines.cpp."""
    count, in_comment = 0, False
    with open(path) as source:
        for line in source:
            has_code, i = False, 0
            while i < len(line):
                if in_comment:
                    if line.startswith("*/", i):
                        in_comment, i = False, i + 1
                elif line.startswith("/*", i):
                    in_comment, i = True, i + 1
                elif line.startswith("//", i):
                    break
                elif not line[i].isspace():
                    has_code = True
                i += 1
            count += has_code
    return count


def shared_code():
    """The C++ the peer calls into, as (files, lines): the code the export of gauss is built from (include/,
    src/, python/; not its tests), or nothing when it is not there."""
    export = built_modules.path(EXPORT)
    files = []
    for part in ("include", "src", "python"):
        for folder, _, names in os.walk(os.path.join(export, part)) if export else []:
            files += [os.path.relpath(os.path.join(folder, name), export)
                      for name in names if name.endswith((".hpp", ".h", ".cpp"))]
    files.sort()
    return files, sum(cpp_lines(os.path.join(export, file)) for file in files)


def card_fields(peer):
    shares, lines = shared_code()
    return {"source_file": os.path.basename(__file__), "shares": shares, "shared_lines": lines}


def build_seconds(peer):
    return None  # built by the build, but its time is the export's and CMake's, not recorded
