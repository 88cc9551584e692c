"""The Python peers (scripts/peers): their values, their cards and their worker.

    python3 tests/peers_test.py        # exit status 0 when every test passed, 77 when one was skipped

A peer whose module (NumPy, numexpr, Numba, the C++ extension modules) is missing is skipped, with the
reason, never passed: the exit status is then 77, which ctest reports as a skip (SKIP_RETURN_CODE 77 in
tests/CMakeLists.txt); a failure anywhere still exits 1. The compiled peers import their modules from
the folder $LADDER_PEER_MODULES names (`ladder run` sets it); unset, this test looks where Ladder's build
makes them, build/ in the source tree (the cpp-extension peer's in build/python-extension/build/modules).
"""
import ast
import inspect
import json
import math
import os
import subprocess
import shutil
import sys
import tempfile
import unittest
from fractions import Fraction
from unittest import mock

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
PEERS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "peers")
sys.path.insert(0, PEERS_DIR)
BUILT_MODULES = os.path.normpath(os.path.join(PEERS_DIR, "..", "..", "build"))
if "LADDER_PEER_MODULES" not in os.environ and os.path.isdir(BUILT_MODULES):
    os.environ["LADDER_PEER_MODULES"] = BUILT_MODULES
import extension_peers  # noqa: E402
import peers  # noqa: E402
import pypy_peers  # noqa: E402
import worker  # noqa: E402

U = 2.0**-53  # unit roundoff
# The integrands again, written independently of peers.py: f, the exact antiderivative, f' and the size of
# the terms one evaluation rounds (as in variants/integrands.hpp).
INTEGRANDS = {
    "gauss": (lambda x: math.exp(-(x**2)), lambda x: math.sqrt(math.pi) / 2 * math.erf(x),
              lambda x: -2 * x * math.exp(-(x**2)), lambda x: math.exp(-(x**2))),
    "pi": (lambda x: 4 / (1 + x**2), lambda x: 4 * math.atan(x),
           lambda x: -8 * x / (1 + x**2) ** 2, lambda x: 4 / (1 + x**2)),
    "sin": (math.sin, lambda x: -math.cos(x), math.cos, lambda x: 1.0),
    "poly": (lambda x: x**3 - 2 * x**2 + 3 * x + 1, lambda x: x**4 / 4 - 2 * x**3 / 3 + 1.5 * x**2 + x,
             lambda x: 3 * x**2 - 4 * x + 3, lambda x: ((abs(x) + 2) * abs(x) + 3) * abs(x) + 1),
}
INTERVALS = [(0.0, 1.0), (-2.0, 3.0), (1.0, 0.0)]
SIZES = [1, 7, 1000, 10007]
CHUNKED = {"numpy-chunked", "numexpr"}  # also run over several chunks, and a partial last one
SCRATCH = tempfile.mkdtemp(prefix="peers_test.")  # the workers' result files


def reference(integrand, a, b, n):
    """The midpoint sum, correctly rounded from its terms (math.fsum), and the rounding bound of the
    harness (harness/worker/reference.cpp) with the summation depth of a sequential sum, n."""
    f, _, derivative, magnitude = INTEGRANDS[integrand]
    h = (b - a) / n
    nodes = [a + (i + 0.5) * h for i in range(n)]
    midpoint = math.fsum(f(x) for x in nodes) * h
    absolute = math.fsum(abs(f(x)) for x in nodes) * abs(h)
    scale = math.fsum(magnitude(x) + (abs(a) + abs(x - a)) * abs(derivative(x)) for x in nodes) * abs(h)
    bound = U * (8 * scale + n * absolute) + 4 * U * abs(midpoint) + 2 * sys.float_info.min * abs(b - a)
    return midpoint, bound


def missing_modules():
    missing = {}
    for module in ("numpy", "numexpr", "numba", "extension"):
        try:
            peers.need(module)
        except peers.Unavailable as error:
            missing[module] = str(error)
    return missing


MISSING = missing_modules()  # imported now, before unittest turns on warnings (llvmlite has a deprecated call)


# Starts worker.py with peers.kernel replaced by one that raises, so a cell that calls it fails.
KERNEL_RAISES = """import runpy, sys
sys.path.insert(0, sys.argv[1])
import peers
def kernel(peer_id):
    raise AssertionError(f"the kernel of {peer_id} was attempted")
peers.kernel = kernel
sys.argv = sys.argv[2:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def run_worker(spec, result_file, bootstrap=None, **environment):
    worker_file = os.path.join(PEERS_DIR, "worker.py")
    start = [sys.executable] if bootstrap is None else [sys.executable, "-c", bootstrap, PEERS_DIR]
    command = start + [worker_file, "--spec", json.dumps(spec), "--result", result_file]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", **environment})
    with open(result_file) as result:
        return done.returncode, json.load(result)


def tiny_spec(peer, integrand="gauss", a=0.0, b=1.0, n=1000, threads=1):
    midpoint, bound = reference(integrand, a, b, n)
    exact = INTEGRANDS[integrand][1](b) - INTEGRANDS[integrand][1](a)
    text = f"{exact.hex()} {midpoint.hex()} 0x1p+0 0x1p+0 {abs(b - a).hex()} long double sum"
    return {"cell": {"tier": peer, "integrand": integrand, "a": a, "b": b, "n": n, "threads": threads,
                     "ranks": 1, "reproducible_requested": False},
            "matrix": {"repetitions": 3, "min_time": 0.002, "min_warmup_time": 0.001},
            "reference": text, "rounding_bound": bound}


class Values(unittest.TestCase):
    """Each available peer against the fsum reference: every integrand, three intervals, small n."""

    def check(self, peer_id):
        reason = peers.unavailable_reason(peer_id)
        if reason:
            self.skipTest(reason)
        integrate = peers.kernel(peer_id)
        sizes = SIZES + ([2 * peers.CHUNK + 3] if peer_id in CHUNKED else [])
        thread_counts = [1, 2] if peers.card(peer_id)["parallel"] else [1]
        for integrand in INTEGRANDS:
            for a, b in INTERVALS:
                for n in sizes:
                    midpoint, bound = reference(integrand, a, b, n)
                    for threads in thread_counts:
                        with self.subTest(integrand=integrand, a=a, b=b, n=n, threads=threads):
                            value = integrate(integrand, a, b, n, threads)
                            self.assertIsInstance(value, float)
                            self.assertLessEqual(abs(value - midpoint), bound, f"{value!r} vs {midpoint!r}")

    def test_reference_matches_the_exact_integral(self):  # the reference itself, against calculus
        for integrand, (_, antiderivative, derivative, _) in INTEGRANDS.items():
            for a, b in INTERVALS:
                n = 10007
                h = (b - a) / n
                estimate = -h * h / 24 * (derivative(b) - derivative(a))  # the midpoint rule's leading error
                midpoint, bound = reference(integrand, a, b, n)
                error = midpoint - (antiderivative(b) - antiderivative(a))
                with self.subTest(integrand=integrand, a=a, b=b):
                    self.assertLess(abs(error - estimate), 1e-3 * abs(estimate) + 1e-13)

    def test_numexpr_bits_do_not_depend_on_threads(self):  # its card says reproducible: always
        if peers.unavailable_reason("numexpr"):
            self.skipTest(peers.unavailable_reason("numexpr"))
        integrate = peers.kernel("numexpr")
        for n in (10007, 2 * peers.CHUNK + 3):
            self.assertEqual(integrate("sin", -2.0, 3.0, n, 1).hex(), integrate("sin", -2.0, 3.0, n, 2).hex())


for _peer in peers.BY_ID:
    setattr(Values, "test_" + _peer.replace("-", "_"), lambda self, peer=_peer: self.check(peer))


class Cards(unittest.TestCase):
    def test_ids_and_rungs(self):
        # Each pypy peer right after its CPython twin: the same code under another interpreter, side by side.
        ids = ["py-list", "pypy-list", "py-generator", "pypy-generator", "py-inlined", "pypy-inlined", "numpy",
               "numpy-chunked", "numexpr", "numba", "numba-parallel", "cpp-extension", "pythran", "pythran-omp"]
        self.assertEqual([card["id"] for card in peers.cards()][:len(ids)], ids)
        self.assertEqual([card["rung"] for card in peers.cards()], list(range(100, 100 + len(peers.PEERS))))

    def test_fields(self):
        fields = {"id", "rung", "summary", "libraries", "concepts", "learning_time", "parallel", "reproducible",
                  "summation", "source_file", "source_lines", "shared_lines", "shares", "flags",
                  "heap_bytes_per_node", "distributed", "environment", "peer", "language", "max_nodes",
                  "available", "unavailable_reason"}
        per_call = {"per_call_sizes", "beside"}  # only a peer that wraps a C++ tier has them
        staircase = ("py-inlined", "cython-untyped", "cython", "cython-parallel")  # the report draws them apart
        for card in peers.cards():
            with self.subTest(peer=card["id"]):
                built = {"note", "yellow"} if card["id"].startswith("cython") and card["available"] else set()
                place = ({"staircase"} if card["id"] in staircase else
                         {"baseline"} if card["id"] == "py-list" else set())
                self.assertEqual(set(card), fields | (per_call if card["id"] == "cpp-extension" else set()) | built
                                 | place)
                self.assertIn(card["learning_time"], ("minutes", "hours", "days"))
                self.assertIn(card["reproducible"], ("always", "on request", "no"))
                self.assertEqual(card["parallel"], card["id"] in ("numexpr", "numba-parallel", "pythran-omp",
                                                                "cython-parallel"))
                limit = (10**7 if card["id"].startswith("py-") or card["id"] == "cython-untyped"
                         else 10**8 if card["id"].startswith("pypy-") else None)
                self.assertEqual(card["max_nodes"], limit)
                self.assertTrue(card["language"].startswith("Python 3."))
                self.assertEqual(card["available"], card["unavailable_reason"] is None)

    def test_cpp_extension(self):  # the xsimd tier behind pybind11: measured at n = 1000 too, beside xsimd
        card = peers.card("cpp-extension")
        self.assertEqual((card["rung"], card["per_call_sizes"], card["beside"]), (111, [1000], "xsimd"))
        self.assertEqual(card["libraries"], ["pybind11 2.10", "xsimd 8.1"])
        self.assertEqual((card["learning_time"], card["parallel"], card["reproducible"]), ("days", False, "always"))
        self.assertEqual(card["summation"], "4 × width SIMD lanes, then a horizontal add")
        self.assertEqual(card["heap_bytes_per_node"], 0.0)

    def test_cpp_extension_shares_the_exported_cpp(self):
        # A crafted export beside crafted modules: the shares are its C++ (not its tests), the lines those
        # holding code once // and /* */ comments are gone.
        with tempfile.TemporaryDirectory() as root:
            export = os.path.join(root, "python-extension", "gauss")
            files = {"include/ns/midpoint.hpp": "// a comment\n#pragma once\n\nint f();  // code\n",
                     "src/midpoint.cpp": "/* a\n block */ int f() {\n  return 1; /* inline */\n}\n",
                     "python/module.cpp": "int g;\n", "tests/midpoint_test.cpp": "int t;\n"}
            for name, text in files.items():
                os.makedirs(os.path.dirname(os.path.join(export, name)), exist_ok=True)
                with open(os.path.join(export, name), "w") as out:
                    out.write(text)
            with mock.patch.dict(os.environ, {"LADDER_PEER_MODULES": root}):
                card = peers.card("cpp-extension")
                numpy = peers.card("numpy")
            with mock.patch.dict(os.environ, {"LADDER_PEER_MODULES": os.path.join(root, "a", "b", "c")}):
                self.assertEqual(extension_peers.shared_code(), ([], 0))
        self.assertEqual(card["shares"], ["include/ns/midpoint.hpp", "python/module.cpp", "src/midpoint.cpp"])
        self.assertEqual(card["shared_lines"], 2 + 1 + 3)  # #pragma, int f(); | int g; | block's end, return, }
        self.assertEqual((numpy["shares"], numpy["shared_lines"]), ([], 0))

    def test_source_lines_are_counted_from_the_source(self):
        # Counted again here from the syntax tree of the file each function is in (peers.py, or a peer's own
        # module): the lines of the peer's own functions, decorators included, less blank and comment lines.
        def spans(path):
            with open(path) as source:
                text = source.read()
            return text.splitlines(), {
                node.name: (min([node.lineno] + [d.lineno for d in node.decorator_list]), node.end_lineno)
                for node in ast.parse(text).body if isinstance(node, ast.FunctionDef)}

        for card in peers.cards():
            counted = 0
            pyx = card["source_file"].endswith(".pyx")  # a Cython peer: the lines of its .pyx, all code
            if pyx:
                with open(os.path.join(PEERS_DIR, card["source_file"])) as source:
                    counted = sum(1 for line in source if line.strip() and not line.strip().startswith("#"))
            for function in [] if pyx else peers.BY_ID[card["id"]]["functions"]:
                lines, span = spans(inspect.unwrap(function).__code__.co_filename)  # through functools.cache
                first, last = span[function.__name__]
                counted += sum(1 for line in lines[first - 1:last] if line.strip() and not line.strip().startswith("#"))
            with self.subTest(peer=card["id"]):
                self.assertGreater(card["source_lines"], 0)
                self.assertEqual(card["source_lines"], counted)

    def test_cards_command_prints_json_and_nothing_else(self):  # the harness reads it with 2>&1
        done = subprocess.run([sys.executable, os.path.join(PEERS_DIR, "peers.py"), "cards"],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual((done.returncode, done.stderr), (0, ""))
        self.assertEqual(json.loads(done.stdout), json.loads(json.dumps(peers.cards())))


class Unavailable(unittest.TestCase):
    def test_hidden_module(self):
        with mock.patch.dict(os.environ, {"LADDER_PEERS_HIDE": "numba"}):
            self.assertEqual(peers.unavailable_reason("numba"),
                             "needs numba: No module named 'numba' (hidden by LADDER_PEERS_HIDE)")
            card = peers.card("numba-parallel")
            self.assertFalse(card["available"])
            self.assertTrue(card["unavailable_reason"].startswith("needs numba: "))
            self.assertIsNone(peers.unavailable_reason("py-list"))
            with self.assertRaises(peers.Unavailable):
                peers.kernel("numba")

    def test_hidden_extension(self):  # LADDER_PEERS_HIDE=extension, as for the other optional modules
        with mock.patch.dict(os.environ, {"LADDER_PEERS_HIDE": "extension"}):
            reason = peers.unavailable_reason("cpp-extension")
            self.assertFalse(peers.card("cpp-extension")["available"])
        self.assertEqual(reason, "needs the modules Ladder's build makes with `ladder export xsimd --python` "
                                 "(pybind11-dev, python3-pybind11): No module named 'extension' "
                                 "(hidden by LADDER_PEERS_HIDE)")

    def test_extension_directory_unset_or_missing(self):
        environment = {key: value for key, value in os.environ.items() if key != "LADDER_PEER_MODULES"}
        with mock.patch.dict(os.environ, environment, clear=True):
            self.assertRegex(peers.unavailable_reason("cpp-extension"),
                             r"^needs the modules Ladder's build makes .*: LADDER_PEER_MODULES is not set")
        with mock.patch.dict(os.environ, {"LADDER_PEER_MODULES": os.path.join(SCRATCH, "none")}):
            self.assertRegex(peers.unavailable_reason("cpp-extension"),
                             r"none/python-extension/build/modules is not a directory "
                             r"\(under LADDER_PEER_MODULES=.*none\); build the peers' modules: "
                             r"cmake --build build --target ladder_peers$")

    def test_worker_reports_a_directory_without_the_modules(self):  # a process of its own: nothing cached
        os.makedirs(os.path.join(SCRATCH, "unbuilt", "python-extension", "build", "modules"), exist_ok=True)
        code, result = run_worker(tiny_spec("cpp-extension"), os.path.join(SCRATCH, "no-modules.json"),
                                  LADDER_PEER_MODULES=os.path.join(SCRATCH, "unbuilt"))
        self.assertEqual((code, result["status"]), (1, "unavailable"))
        self.assertIn("No module named 'ladder_xsimd_gauss'", result["reason"])

    def test_import_that_fails(self):  # None in sys.modules makes `import numexpr` raise ImportError
        with mock.patch.dict(sys.modules, {"numexpr": None}):
            with self.assertRaises(peers.Unavailable) as raised:
                peers.need("numexpr")
        self.assertRegex(str(raised.exception), r"^needs numexpr: .*(numexpr|numpy)")

    def test_worker_reports_unavailable(self):
        code, result = run_worker(tiny_spec("numba"), os.path.join(SCRATCH, "hidden.json"),
                                  LADDER_PEERS_HIDE="numba")
        self.assertEqual((code, result["status"]), (1, "unavailable"))
        self.assertIn("needs numba: No module named 'numba'", result["reason"])


class BrokenPyPy(unittest.TestCase):
    """A LADDER_PYPY that hangs, prints bytes that are not UTF-8, or has a path that is not UTF-8: the pypy peers
    are unavailable with a one-line reason, and the cards stay JSON that any reader takes."""

    def fake(self, name, script):
        path = os.path.join(SCRATCH, name)
        with open(path, "w") as out:
            out.write("#!/bin/sh\n" + script)
        os.chmod(path, 0o755)
        return path

    def test_a_pypy3_that_hangs_is_stopped_with_its_child(self):
        pid_file = os.path.join(SCRATCH, "hanging-child.pid")
        program = self.fake("hanging-pypy", f"sleep 300 &\necho $! > {pid_file}\nwait\n")
        with mock.patch.object(pypy_peers, "PROBE_SECONDS", 1):
            found, why = pypy_peers.probe(program)
        self.assertIsNone(found)
        self.assertEqual(why, f"{program} did not print its version within 1 s (stopped)")
        with open(pid_file) as written:
            stat = f"/proc/{written.read().strip()}/stat"
        if os.path.exists(stat):  # killed with its parent's group: a zombie until something reaps it
            with open(stat) as state:
                self.assertEqual(state.read().rpartition(") ")[2][:1], "Z")

    def test_a_pypy3_that_prints_garbage(self):
        program = self.fake("garbage-pypy", "printf '\\377\\376 not a version\\n'\n")
        self.assertEqual(pypy_peers.probe(program),
                         (None, f"{program} is not PyPy: it printed '\ufffd\ufffd not a version' for its version"))
        failing = self.fake("failing-pypy", "exit 3\n")
        self.assertEqual(pypy_peers.probe(failing), (None, f"{failing} does not run (it exited with 3)"))

    def test_a_pypy3_path_that_is_not_utf8_gives_cards_of_valid_json(self):
        path = os.fsdecode(os.path.join(os.fsencode(SCRATCH), b"caf\xe9"))  # a lone surrogate in the str
        with mock.patch.dict(os.environ, {"LADDER_PYPY": path}):
            cards = json.loads(json.dumps(peers.valid_text(peers.cards())))
        by_id = {card["id"]: card for card in cards}
        self.assertEqual(by_id["pypy-list"]["unavailable_reason"],
                         f"{pypy_peers.NEEDS}: {SCRATCH}/caf\ufffd does not run")
        json.dumps(cards, ensure_ascii=False).encode("utf-8")  # no lone surrogate is left anywhere
        self.assertTrue(by_id["py-list"]["available"])


class Worker(unittest.TestCase):
    MEMORY = {"peak_heap_bytes": int, "allocations": type(None), "allocated_bytes": type(None),
              "peak_rss_bytes": int, "rss_before_bytes": int, "peak_rss_growth_bytes": int,
              "peak_rss_method": str, "minor_faults": int, "major_faults": int, "heap_method": str}
    KEYS = {"status": str, "repetitions": list, "aggregates": dict, "measured_seconds": float,
            "median_check": float, "result": float, "bit_identical": bool, "distinct_results": int,
            "exact": float, "midpoint": float, "midpoint_method": str, "rel_error": float,
            "rounding_error": float, "rounding_abs_error": float, "rounding_bound": float,
            "within_rounding_bound": bool, "memory": dict, "instruction_set": str, "simd_width": int,
            "python": str, "interpreter": dict}

    def setUp(self):
        self.result_file = os.path.join(SCRATCH, self.id() + ".json")

    def check_result(self, peer, threads=1):
        reason = peers.unavailable_reason(peer)
        if reason:
            self.skipTest(reason)
        code, result = run_worker(tiny_spec(peer, "pi", -2.0, 3.0, 1000, threads), self.result_file)
        self.assertEqual((code, result["status"]), (0, "ok"), result.get("reason"))
        keys = dict(self.KEYS, compile_seconds=float) if "numba" in peers.BY_ID[peer]["needs"] else self.KEYS
        self.assertEqual(set(result), set(keys))
        for key, kind in keys.items():
            self.assertIsInstance(result[key], kind, key)
        self.assertEqual(len(result["repetitions"]), 3)
        for index, repetition in enumerate(result["repetitions"]):
            self.assertEqual(set(repetition), {"repetition_index", "iterations", "real_time", "cpu_time"})
            self.assertEqual(repetition["repetition_index"], index)
            self.assertGreaterEqual(repetition["iterations"], 1)
            self.assertGreater(repetition["real_time"], 0)
        self.assertEqual(set(result["aggregates"]), {"mean", "median", "stddev", "cv", "min", "max"})
        for name, values in result["aggregates"].items():
            self.assertEqual(set(values), {"real_time", "cpu_time"}, name)
        self.assertEqual(set(result["memory"]), set(self.MEMORY))
        for key, kind in self.MEMORY.items():
            self.assertIsInstance(result["memory"][key], kind, key)
        self.assertTrue(result["within_rounding_bound"])
        self.assertEqual((result["instruction_set"], result["simd_width"]), ("python", 0))
        self.assertGreater(result["measured_seconds"], 0)

    def test_py_list(self):
        self.check_result("py-list")

    def test_numpy(self):
        self.check_result("numpy")

    def test_numba_parallel(self):
        self.check_result("numba-parallel", threads=2)

    def test_cpp_extension(self):
        self.check_result("cpp-extension")

    def test_pure_python_over_max_nodes_is_skipped_unattempted(self):
        spec = tiny_spec("py-list", n=1000)
        spec["cell"]["n"] = 2 * 10**7
        with mock.patch.object(peers, "kernel", side_effect=AssertionError("attempted")):
            outcome, code = worker.outcome_of(spec)
        self.assertEqual((code, outcome["status"]), (0, "skipped"))
        # The worker process too, its kernel replaced by one that raises: an attempted call would end the
        # cell "failed" (the kernel threw), not "skipped". (That the skip also saves time is a benchmark's
        # business, not a test's: scripts/bench-peers-limit times it.)
        code, result = run_worker(spec, self.result_file, bootstrap=KERNEL_RAISES)
        self.assertEqual((code, result["status"]), (0, "skipped"), result.get("reason"))
        self.assertEqual(result["reason"], "pure Python at n = 2e7 would take minutes; "
                                           "the limit is 1e7 nodes (max_nodes on its card)")

    def test_bad_spec_fails_with_a_reason(self):
        spec = tiny_spec("py-list")
        spec["cell"]["integrand"] = "cosh"
        code, result = run_worker(spec, self.result_file)
        self.assertEqual((code, result["status"]), (1, "failed"))
        self.assertIn("unknown integrand 'cosh'", result["reason"])

    def test_reference_text_is_read_exactly(self):
        self.assertEqual(worker.hex_fraction("0x8p-3"), 1)
        self.assertEqual(worker.hex_fraction("-0xcp-2"), -3)
        self.assertEqual(worker.hex_fraction("0x0p+0"), 0)
        long_double = "0xb.f2fddca4b0663e2p-4"  # 64 mantissa bits: more than a double holds
        self.assertEqual(worker.hex_fraction(long_double), Fraction(0xBF2FDDCA4B0663E2, 16**15 * 16))
        self.assertEqual(float(worker.hex_fraction(long_double)), float.fromhex(long_double))
        parsed = worker.parse_reference("0x8p-3 0xcp-2 0x1p+0 0x1p+0 0x8p-3 Euler-Maclaurin")
        self.assertEqual((parsed["exact"], parsed["midpoint"], parsed["method"]), (1, 3, "Euler-Maclaurin"))


def setUpModule():
    print("peers_test: missing modules: " + ("; ".join(MISSING.values()) if MISSING else "none")
          + f" (Python {sys.version.split()[0]}, {sys.executable})", file=sys.stderr)


def tearDownModule():
    shutil.rmtree(SCRATCH, ignore_errors=True)


SKIPPED = 77  # automake's code for a skipped test; SKIP_RETURN_CODE in tests/CMakeLists.txt


def main(name):
    """Runs the tests of the script run (this one, or one that imports it): exits 1 where one failed, SKIPPED
    with the reasons on stderr where one was skipped, else returns."""
    outcome = unittest.main(verbosity=2, exit=False).result
    if not outcome.wasSuccessful():
        sys.exit(1)
    if outcome.skipped:
        print(f"{name}: {len(outcome.skipped)} skipped: "
              + "; ".join(sorted({reason for _, reason in outcome.skipped})), file=sys.stderr)
        sys.exit(SKIPPED)


if __name__ == "__main__":
    main("peers_test")
