"""`ladder instructions --baseline`: a baseline is compared only with counts made under the same compiler
and glibc (the keys `ladder instructions --json` records beside the counts).

    python3 tests/instructions_baseline_test.py LADDER_BINARY

The baselines are crafted from this build's own counts of one tier (naive): the same toolchain is compared
(and passes, or fails when the baseline's count is lowered past --max-increase); another compiler or glibc
is a skip with the reason (exit 77), never a comparison. Exit 77 too where valgrind cannot count here.
"""
import copy
import json
import os
import subprocess
import sys
import tempfile
import unittest
import unittest.mock

LADDER = sys.argv.pop(1) if len(sys.argv) > 1 else "build/ladder"
SKIPPED = 77


def instructions(*arguments):
    done = subprocess.run([LADDER, "instructions", "--tiers", "naive", *arguments], capture_output=True,
                          text=True, timeout=600)
    return done.returncode, done.stdout + done.stderr


CODE, TEXT = instructions("--json")
COUNTED = json.loads(TEXT) if CODE == 0 else None


class Baseline(unittest.TestCase):
    def setUp(self):
        if COUNTED is None:
            self.skipTest(f"instructions cannot be counted here (exit {CODE}): {TEXT.strip()}")
        self.directory = tempfile.TemporaryDirectory(prefix="instructions_baseline_test.")
        self.addCleanup(self.directory.cleanup)

    def compare(self, baseline, *arguments):
        path = os.path.join(self.directory.name, "baseline.json")
        with open(path, "w") as out:
            json.dump(baseline, out)
        return instructions("--baseline", path, *arguments)

    def changed(self, key, value):
        baseline = copy.deepcopy(COUNTED)
        baseline[key] = value
        return baseline

    def test_counts_record_the_toolchain(self):
        self.assertRegex(COUNTED["compiler"], r"^\S+ \d+\.\d+")  # "GNU 12.2.0"
        self.assertRegex(COUNTED["glibc"], r"^\d+\.\d+")

    def test_same_toolchain_is_compared(self):
        code, text = self.compare(COUNTED)
        self.assertEqual(code, 0, text)
        self.assertRegex(text, r"naive +[0-9.]+ +[0-9.]+ +\+0\.0 %")

    def test_count_over_the_limit_fails(self):
        baseline = copy.deepcopy(COUNTED)
        baseline["tiers"]["naive"]["per_node"] *= 0.9  # now needs 11 % more than the baseline
        code, text = self.compare(baseline, "--max-increase", "2")
        self.assertEqual(code, 1, text)
        self.assertIn("instructions a node grew by more than 2 % on: naive (+11.1 %)", text)

    def test_another_compiler_is_a_skip_with_the_reason(self):
        code, text = self.compare(self.changed("compiler", "GNU 0.1.0"))
        self.assertEqual(code, SKIPPED, text)
        self.assertIn(f'was counted with compiler "GNU 0.1.0", this build has "{COUNTED["compiler"]}"', text)
        self.assertNotIn("naive ", text)  # nothing compared

    def test_another_glibc_is_a_skip_with_the_reason(self):
        code, text = self.compare(self.changed("glibc", "2.0"))
        self.assertEqual(code, SKIPPED, text)
        self.assertIn(f'was counted with glibc "2.0", this build has "{COUNTED["glibc"]}"', text)

    def test_baseline_without_the_toolchain_is_an_error(self):
        baseline = copy.deepcopy(COUNTED)
        del baseline["glibc"]
        code, text = self.compare(baseline)
        self.assertEqual(code, 2, text)
        self.assertIn("records no glibc; refresh it with `ladder instructions --json > ", text)

    def test_tier_counted_in_the_baseline_but_not_now_fails(self):
        # A profiling build whose kernel call fails under callgrind: naive cannot be counted now.
        fake = os.path.join(self.directory.name, "ladder-profiling")
        with open(fake, "w") as out:
            out.write(f"#!/bin/sh\ncase $1 in target) echo {COUNTED['target']};; list) echo naive;; *) exit 1;; esac\n")
        os.chmod(fake, 0o755)
        with unittest.mock.patch.dict(os.environ, {"LADDER_PROFILING_BINARY": fake}):
            code, text = self.compare(COUNTED)
        self.assertEqual(code, 1, text)
        self.assertIn("counted in the baseline, not counted now: naive", text)

if __name__ == "__main__":
    outcome = unittest.main(verbosity=2, exit=False).result
    if not outcome.wasSuccessful():
        sys.exit(1)
    if outcome.skipped:
        print("skipped: " + "; ".join(sorted({reason for _, reason in outcome.skipped})), file=sys.stderr)
        sys.exit(SKIPPED)
