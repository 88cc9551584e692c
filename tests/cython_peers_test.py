"""The Cython peers (scripts/peers/cython_peers.py) and their yellow lines (scripts/peers/cython_yellow.py).

    python3 tests/cython_peers_test.py     # exit 0 when every test passed, 77 when one was skipped

The peers' modules are those Ladder's build made, in cython-peers/ under $LADDER_PEER_MODULES
(tests/CMakeLists.txt sets it; unset, build/ in the source tree). Without cython3 the tests that need it are
skipped, with the reason, and the exit status is 77, which ctest reports as a skip, never a pass.
"""
import inspect
import json
import os
import shutil
import subprocess
import sys
import unittest
from unittest import mock

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
TESTS = os.path.dirname(os.path.abspath(__file__))
PEERS_DIR = os.path.normpath(os.path.join(TESTS, "..", "scripts", "peers"))
BUILT = os.path.normpath(os.path.join(TESTS, "..", "build"))
if "LADDER_PEER_MODULES" not in os.environ and os.path.isdir(BUILT):
    os.environ["LADDER_PEER_MODULES"] = BUILT
sys.path.insert(0, TESTS)
import peers_test  # noqa: E402  (puts scripts/peers on sys.path; its integrands and references)
import cython_peers  # noqa: E402
import cython_yellow  # noqa: E402
import peers  # noqa: E402

CYTHON = shutil.which("cython3")
IDS = ["cython-untyped", "cython", "cython-parallel"]
FIXTURE = os.path.join(TESTS, "fixtures", "yellow", "hand_counted.pyx")


class YellowCount(unittest.TestCase):
    def test_the_fixture_counted_by_hand(self):
        if not CYTHON:
            self.skipTest("needs cython3 (the Debian package cython3)")
        # Counted by hand from the C Cython 0.29 writes for each kernel line (`cython -a`, a line's + opens
        # it), by Cython's rule: 5 a Python C-API function, 2 a __Pyx helper, 1 a macro; __Pyx_GOTREF
        # (reference-count bookkeeping) and __PYX_ERR (an error jump) score nothing.
        #   line 9   cdef double y = 2.0       __pyx_v_y = 2.0;                                   0
        #   line 10  cdef double z = sqrt(y)   __pyx_v_z = sqrt(__pyx_v_y);                       0
        #   line 11  w = x * z                 PyFloat_FromDouble 5, PyNumber_Multiply 5,
        #                                      __Pyx_DECREF 1                                    11
        #   line 12  return w + 1              __Pyx_XDECREF 1, __Pyx_PyInt_AddObjC 2             3
        # Two yellow lines of four, score 14; the def lines and outside() (yellow too) are not the kernel.
        self.assertEqual(cython_yellow.annotate(FIXTURE, CYTHON), {"lines": 2, "score": 14, "kernel_lines": 4})

    def test_a_crafted_page(self):  # no Cython needed: the page's scores, the .pyx's markers
        pyx = "def f(x):\n    # kernel begins\n    a\n    b\n    c\n    # kernel ends\n"
        page = "".join(f'<pre class="cython line score-{score}" onclick="x">+<span class="">{number:02d}</span>: '
                       f'code</pre>\n' for number, score in enumerate([40, 0, 7, 0, 1, 0], 1))
        self.assertEqual(cython_yellow.count(pyx, page), {"lines": 2, "score": 8, "kernel_lines": 3})
        with self.assertRaisesRegex(ValueError, "the kernel is not marked"):
            cython_yellow.count(pyx.replace("# kernel ends", ""), page)
        with self.assertRaisesRegex(ValueError, "not a page written by `cython -a`"):
            cython_yellow.count(pyx, "<html></html>")


def require_built(test):
    reason = peers.unavailable_reason("cython")
    if reason:
        test.skipTest(reason)


class Peers(unittest.TestCase):
    def test_untyped_is_py_inlined_as_it_is(self):
        # The code lines of the .pyx's py_inlined are peers.py's py_inlined, line for line.
        def code(text):
            lines = [line.rstrip() for line in text.splitlines()]
            return [line for line in lines if line.strip() and not line.strip().startswith("#")]
        with open(os.path.join(PEERS_DIR, "cython", "cython_untyped.pyx")) as source:
            pyx = source.read()
        function = pyx[pyx.index("def py_inlined"):]
        self.assertEqual(code(function), code(inspect.getsource(peers.py_inlined)))

    def test_right_against_the_references(self):
        require_built(self)
        for peer_id in IDS:
            integrate = peers.kernel(peer_id)
            for integrand in peers_test.INTEGRANDS:
                for a, b in peers_test.INTERVALS:
                    for n in peers_test.SIZES:
                        midpoint, bound = peers_test.reference(integrand, a, b, n)
                        for threads in ([1, 2, 3] if peer_id == "cython-parallel" else [1]):
                            with self.subTest(peer=peer_id, integrand=integrand, a=a, b=b, n=n, threads=threads):
                                value = integrate(integrand, a, b, n, threads)
                                self.assertIsInstance(value, float)
                                self.assertLessEqual(abs(value - midpoint), bound, f"{value!r} vs {midpoint!r}")

    def test_an_integrand_it_cannot_run_is_refused_with_the_reason(self):
        require_built(self)
        for peer_id in ("cython", "cython-parallel"):
            with self.assertRaisesRegex(ValueError, f"the {peer_id} peer has no integrand 'cosh' "
                                                    r"\(it runs gauss, pi, sin and poly\)"):
                peers.kernel(peer_id)("cosh", 0.0, 1.0, 10, 1)
        with self.assertRaises(KeyError):  # py-inlined's own refusal, compiled as it is
            peers.kernel("cython-untyped")("cosh", 0.0, 1.0, 10, 1)

    def test_cards(self):
        require_built(self)
        cards = {peer_id: peers.card(peer_id) for peer_id in IDS}
        self.assertEqual([cards[i]["learning_time"] for i in IDS], ["hours", "hours", "days"])
        self.assertEqual([cards[i]["parallel"] for i in IDS], [False, False, True])
        self.assertEqual([cards[i]["max_nodes"] for i in IDS], [10**7, None, None])
        for peer_id, card in cards.items():
            with self.subTest(peer=peer_id):
                self.assertTrue(card["available"])
                self.assertEqual(card["flags"][-1] == "-fopenmp", peer_id == "cython-parallel")
                self.assertIn("-O3", card["flags"])
                self.assertEqual("the tool's own" in card["note"], peer_id == "cython-parallel")
                self.assertRegex(card["note"], r"Cython took \d+\.\d\d s, the compiler \d+\.\d\d s$")
                module = cython_peers.manifest()["modules"][peer_id]["module"]
                self.assertEqual(card["source_file"], f"cython/{module}.pyx")
                self.assertGreater(card["source_lines"], 0)

    def test_the_report_draws_py_inlined_and_these_peers_on_one_staircase(self):  # whether built or not
        on_it = [card["id"] for card in peers.cards() if card.get("staircase") == cython_peers.STAIRCASE]
        self.assertEqual(on_it, ["py-inlined"] + IDS)
        self.assertEqual([card["id"] for card in peers.cards() if card.get("baseline")], ["py-list"])

    def test_yellow_untyped_above_typed_at_or_above_zero(self):
        require_built(self)
        yellow = {peer_id: peers.card(peer_id)["yellow"] for peer_id in IDS}
        self.assertGreater(yellow["cython-untyped"]["score"], yellow["cython"]["score"])
        self.assertGreater(yellow["cython-untyped"]["lines"], yellow["cython"]["lines"])
        for peer_id in ("cython", "cython-parallel"):
            self.assertGreaterEqual(yellow[peer_id]["score"], 0)
        # The build's count is the one this test makes again from the same .pyx.
        if CYTHON:
            pyx = os.path.join(PEERS_DIR, "cython", "cython_untyped.pyx")
            self.assertEqual(cython_yellow.annotate(pyx, CYTHON), yellow["cython-untyped"])


class Missing(unittest.TestCase):
    def test_hidden_cython(self):
        with mock.patch.dict(os.environ, {"LADDER_PEERS_HIDE": "cython"}):
            cards = {card["id"]: card for card in peers.cards()}
        for peer_id in IDS:
            self.assertFalse(cards[peer_id]["available"])
            self.assertEqual(cards[peer_id]["unavailable_reason"],
                             "needs the modules Ladder's build compiles with Cython (the Debian package cython3): "
                             "No module named 'cython' (hidden by LADDER_PEERS_HIDE)")
        # Nothing else changes: every other peer is as available as it is without the hiding.
        others = {card["id"]: card["available"] for card in peers.cards() if card["id"] not in IDS}
        self.assertEqual({peer_id: cards[peer_id]["available"] for peer_id in others}, others)

    def test_worker_names_the_package(self):
        result_file = os.path.join(peers_test.SCRATCH, "hidden.json")
        code, result = peers_test.run_worker(peers_test.tiny_spec("cython"), result_file, LADDER_PEERS_HIDE="cython")
        self.assertEqual((code, result["status"]), (1, "unavailable"))
        self.assertIn("(the Debian package cython3)", result["reason"])

    def test_directory_without_the_build(self):
        result_file = os.path.join(peers_test.SCRATCH, "unbuilt.json")
        unbuilt = os.path.join(peers_test.SCRATCH, "unbuilt-cython")
        os.makedirs(os.path.join(unbuilt, "cython-peers"), exist_ok=True)
        code, result = peers_test.run_worker(peers_test.tiny_spec("cython"), result_file,
                                             LADDER_PEER_MODULES=unbuilt)
        self.assertEqual((code, result["status"]), (1, "unavailable"))
        self.assertIn("cython-peers.json is not there", result["reason"])


class Worker(unittest.TestCase):
    def test_a_cell_records_the_build_seconds_apart(self):
        require_built(self)
        spec = peers_test.tiny_spec("cython-parallel", "sin", -2.0, 3.0, 10007, 2)
        code, result = peers_test.run_worker(spec, os.path.join(peers_test.SCRATCH, "w.json"))
        self.assertEqual((code, result["status"]), (0, "ok"), result.get("reason"))
        self.assertTrue(result["within_rounding_bound"])
        self.assertEqual(set(result["build_seconds"]), {"cython", "compiler"})
        self.assertGreater(result["build_seconds"]["compiler"], 0)
        self.assertNotIn("compile_seconds", result)  # nothing was compiled while the cell ran


def tearDownModule():
    shutil.rmtree(peers_test.SCRATCH, ignore_errors=True)


if __name__ == "__main__":
    peers_test.main("cython_peers_test")
