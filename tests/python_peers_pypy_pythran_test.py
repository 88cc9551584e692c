"""The pypy peers (py-list, py-generator, py-inlined under PyPy) and the pythran peers (the plain loop compiled
by Pythran, alone and with OpenMP): their values against the references, the interpreter a cell records,
and what they say when PyPy or Pythran is missing.

    LADDER_PEER_MODULES=build python3 tests/python_peers_pypy_pythran_test.py

Without pypy3 or without the Pythran modules the tests that need them are skipped, with the reason, never
passed: the exit status is then 77 (SKIP_RETURN_CODE in tests/CMakeLists.txt); a failure still exits 1.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
BUILT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build"))
if "LADDER_PEER_MODULES" not in os.environ and os.path.isdir(BUILT):
    os.environ["LADDER_PEER_MODULES"] = BUILT
import peers_test  # noqa: E402
from peers_test import INTEGRANDS, INTERVALS, PEERS_DIR, SIZES, reference, run_worker, tiny_spec  # noqa: E402
import peers  # noqa: E402
import pypy_peers  # noqa: E402
import pythran_peers  # noqa: E402

PYPY_PEERS = ["pypy-list", "pypy-generator", "pypy-inlined"]
PYTHRAN_PEERS = ["pythran", "pythran-omp"]
SCRATCH = tempfile.mkdtemp(prefix="pypy_pythran_test.")

# Run under pypy3: every pypy peer's value for every integrand, interval and size, as hex (exact) JSON.
VALUES_UNDER_PYPY = """import json, platform, sys
sys.path.insert(0, sys.argv[1])
import peers
assert platform.python_implementation() == "PyPy", platform.python_implementation()
cases = json.loads(sys.argv[2])
print(json.dumps([peers.kernel(peer)(integrand, a, b, n, 1).hex() for peer, integrand, a, b, n in cases]))
"""


def skip_unless_available(case, peer):
    reason = peers.unavailable_reason(peer)
    if reason:
        case.skipTest(reason)


class PyPyValues(unittest.TestCase):
    def test_each_pypy_peer_under_pypy_against_the_references(self):
        skip_unless_available(self, "pypy-list")
        cases = [(peer, integrand, a, b, n) for peer in PYPY_PEERS for integrand in INTEGRANDS
                 for a, b in INTERVALS for n in SIZES]
        done = subprocess.run([pypy_peers.interpreter(), "-c", VALUES_UNDER_PYPY, PEERS_DIR, json.dumps(cases)],
                              capture_output=True, text=True, timeout=300)
        self.assertEqual(done.returncode, 0, done.stderr)
        values = [float.fromhex(text) for text in json.loads(done.stdout)]
        self.assertEqual(len(values), len(cases))
        for (peer, integrand, a, b, n), value in zip(cases, values):
            midpoint, bound = reference(integrand, a, b, n)
            with self.subTest(peer=peer, integrand=integrand, a=a, b=b, n=n):
                self.assertLessEqual(abs(value - midpoint), bound, f"{value!r} vs {midpoint!r}")


class PyPyCells(unittest.TestCase):
    def test_a_cell_runs_under_pypy_and_records_it(self):
        skip_unless_available(self, "pypy-list")
        for peer in PYPY_PEERS:
            with self.subTest(peer=peer):
                code, result = run_worker(tiny_spec(peer, "gauss", 0.0, 1.0, 10007), os.path.join(SCRATCH, "r.json"))
                self.assertEqual((code, result["status"]), (0, "ok"), result.get("reason"))
                self.assertTrue(result["within_rounding_bound"])
                self.assertEqual(result["interpreter"]["name"], "PyPy")
                self.assertRegex(result["interpreter"]["version"], r"^7\.\d+\.\d+$")
                self.assertEqual(result["python"], result["interpreter"]["python"])
                self.assertGreater(result["jit_warmup_seconds"], 0)
                memory = result["memory"]
                self.assertIsNone(memory["peak_heap_bytes"])  # PyPy has no tracemalloc, and says so
                self.assertIn("no tracemalloc", memory["heap_method"])
                self.assertGreater(memory["peak_rss_bytes"], 0)

    def test_a_cpython_cell_records_cpython(self):
        code, result = run_worker(tiny_spec("py-list"), os.path.join(SCRATCH, "cpython.json"))
        self.assertEqual((code, result["status"]), (0, "ok"), result.get("reason"))
        self.assertEqual(result["interpreter"]["name"], "CPython")
        self.assertNotIn("jit_warmup_seconds", result)

    def test_the_card_names_pypy_and_its_twin_lines(self):
        skip_unless_available(self, "pypy-list")
        for twin in ("list", "generator", "inlined"):
            pypy, cpython = peers.card("pypy-" + twin), peers.card("py-" + twin)
            with self.subTest(peer="pypy-" + twin):
                self.assertEqual(pypy["rung"], cpython["rung"] + 1)
                self.assertEqual(pypy["source_lines"], cpython["source_lines"])  # the same code
                self.assertRegex(pypy["language"], r"^Python 3\.\d+\.\d+ \(PyPy 7\.\d+\.\d+\)$")
                self.assertEqual(pypy["max_nodes"], 10**8)


class PythranValues(unittest.TestCase):
    # peers_test's check: every integrand, three intervals, small n, on 1 and 2 threads where parallel.
    def test_pythran(self):
        peers_test.Values.check(self, "pythran")

    def test_pythran_omp(self):
        peers_test.Values.check(self, "pythran-omp")

    def test_an_integrand_it_has_no_kernel_for_is_refused(self):
        skip_unless_available(self, "pythran")
        for peer in PYTHRAN_PEERS:
            with self.subTest(peer=peer), self.assertRaises(ValueError) as raised:
                peers.kernel(peer)("one-over-x", 0.0, 1.0, 10, 1)
            self.assertEqual(str(raised.exception),
                             "Pythran's module has no kernel for the integrand 'one-over-x': it is compiled "
                             "ahead of time for gauss, pi, sin, poly only")

    def test_a_cell_records_the_builds_compile_time_and_flags(self):
        skip_unless_available(self, "pythran")
        with open(os.path.join(os.environ["LADDER_PEER_MODULES"], "pythran-peers", "build.json")) as record:
            built = json.load(record)
        for peer, module, threads in (("pythran", "ladder_pythran", 1), ("pythran-omp", "ladder_pythran_omp", 2)):
            with self.subTest(peer=peer):
                code, result = run_worker(tiny_spec(peer, "sin", -2.0, 3.0, 10007, threads),
                                          os.path.join(SCRATCH, peer + ".json"))
                self.assertEqual((code, result["status"]), (0, "ok"), result.get("reason"))
                self.assertTrue(result["within_rounding_bound"])
                self.assertEqual(result["build_seconds"], built[module]["compile_seconds"])
                self.assertGreater(result["build_seconds"], 0)
                flags = peers.card(peer)["flags"]
                self.assertEqual(flags[:3], built[module]["flags"])
                self.assertEqual(flags[0], "-O3")
                self.assertRegex(flags[1], r"^-march=")
                self.assertEqual(any(flag.startswith("-fopenmp (Pythran's own") for flag in flags),
                                 peer == "pythran-omp")


class Missing(unittest.TestCase):
    def availability(self, **environment):
        with mock.patch.dict(os.environ, environment):
            return {card["id"]: card["unavailable_reason"] for card in peers.cards()}

    def check_hidden(self, name, hidden_peers, needs):
        """LADDER_PEERS_HIDE=name: those peers are unavailable, naming the package, and no other peer changes."""
        before, hidden = self.availability(), self.availability(LADDER_PEERS_HIDE=name)
        for peer in hidden_peers:
            self.assertEqual(hidden[peer], f"{needs}: No module named '{name}' (hidden by LADDER_PEERS_HIDE)")
        self.assertEqual({k: v for k, v in hidden.items() if k not in hidden_peers},
                         {k: v for k, v in before.items() if k not in hidden_peers})
        code, result = run_worker(tiny_spec(hidden_peers[-1]), os.path.join(SCRATCH, name + "-hidden.json"),
                                  LADDER_PEERS_HIDE=name)
        self.assertEqual((code, result["status"]), (1, "unavailable"))
        self.assertIn(needs, result["reason"])

    def test_hidden_pypy_names_the_package_and_nothing_else_changes(self):
        self.check_hidden("pypy", PYPY_PEERS, "needs PyPy (the Debian package pypy3)")

    def test_a_pypy3_that_is_not_there(self):
        missing = os.path.join(SCRATCH, "no-pypy3")
        reason = self.availability(LADDER_PYPY=missing)["pypy-list"]
        self.assertEqual(reason, f"needs PyPy (the Debian package pypy3): {missing} does not run")
        code, result = run_worker(tiny_spec("pypy-inlined"), os.path.join(SCRATCH, "absent.json"),
                                  LADDER_PYPY=missing)
        self.assertEqual((code, result["status"]), (1, "unavailable"))
        self.assertIn(f"{missing} does not run", result["reason"])

    def test_hidden_pythran_names_the_package_and_nothing_else_changes(self):
        self.check_hidden("pythran", PYTHRAN_PEERS, "needs the modules Ladder's build compiles with Pythran "
                                                    "(the Debian package python3-pythran)")

    def test_a_build_without_the_modules(self):  # a directory with no modules: a process of its own
        os.makedirs(os.path.join(SCRATCH, "empty", "pythran-peers"), exist_ok=True)
        code, result = run_worker(tiny_spec("pythran"), os.path.join(SCRATCH, "empty.json"),
                                  LADDER_PEER_MODULES=os.path.join(SCRATCH, "empty"))
        self.assertEqual((code, result["status"]), (1, "unavailable"))
        self.assertIn("No module named 'ladder_pythran'", result["reason"])
        self.assertIn("python3-pythran", result["reason"])


def tearDownModule():
    shutil.rmtree(SCRATCH, ignore_errors=True)


if __name__ == "__main__":
    outcome = unittest.main(verbosity=2, exit=False).result
    if not outcome.wasSuccessful():
        sys.exit(1)
    if outcome.skipped:
        print(f"{len(outcome.skipped)} skipped: " + "; ".join(sorted({r for _, r in outcome.skipped})),
              file=sys.stderr)
        sys.exit(77)
