#!/usr/bin/env python3
"""Bad input never crashes Ladder and never loses a file (issue 37): the fuzz test, ctest label `fuzz`.

  usage: ladder_fuzz.py LADDER [--seed N] [--count N] [--scratch DIR] [--jobs N] [--timeout S] [--keep]

It makes one tiny real run (TINY) and a history database of it, then generates inputs from the types of
Ladder's files (fuzz_inputs.py, fuzz_cases.py): hostile values at every key of results.json, the journal's
lines and the costs file; byte-flipped and truncated databases; damaged journals; hostile paths in every path
option; integrand headers with long runs; hostile option values. It runs every command that reads them, in
parallel, each under a time limit, and fails (exit 1) on any of:
  signal        the command was killed by a signal, or exited with 128 or more
  exit 70       an internal error (a bug in Ladder by its own account)
  timeout       it ran past --timeout seconds
  long message  it wrote more than 64 KiB to stderr: a bad value read from a file quoted whole
  file changed  a file that should be untouched (TINY, a damaged input, a user's file planted beside an
                output, a database an import refused to write) is not byte-identical afterwards
  data lost     a command said it succeeded but what it wrote cannot be read back (a resume's results.json,
                an import's database)
Each failure is printed with the seed, the case, the command and the first 300 bytes of stderr.
"""

import argparse
import collections
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzz_cases  # noqa: E402


MESSAGE_LIMIT = 64 * 1024  # a message quotes a bad value bounded (common/quote.hpp), never whole


def digest(path):
    try:
        with open(path, "rb") as file:
            return hashlib.sha256(file.read()).hexdigest()
    except OSError as error:
        return f"unreadable: {error.strerror}"


def shown(argv, limit=400):
    text = " ".join(a.decode("utf-8", "backslashreplace") if isinstance(a, bytes) else str(a) for a in argv)
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} characters)"


class Fuzz:
    def __init__(self, args):
        self.args = args
        self.lock = threading.Lock()
        self.exits = collections.Counter()
        self.failures = collections.Counter()
        self.reports = []
        self.invocations = 0
        self.seconds = collections.Counter()
        self.slowest = []
        self.env = dict(os.environ)
        env_dir = os.path.join(args.scratch, "env")
        self.env.update(LADDER_HISTORY=os.path.join(env_dir, "history.sqlite"),
                        LADDER_CACHE_DIR=os.path.join(env_dir, "cache"),
                        LADDER_BUILDS_DIR=os.path.join(env_dir, "builds"))

    def execute(self, argv, cwd):
        """(exit code or "timeout", stderr, seconds); a command past the limit is killed with its whole process
        group (the workers a run starts too)."""
        started = time.monotonic()
        process = subprocess.Popen(argv, cwd=cwd, env=self.env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, start_new_session=True)
        try:
            _, stderr = process.communicate(timeout=self.args.timeout)
            return process.returncode, stderr, time.monotonic() - started
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            _, stderr = process.communicate()
            return "timeout", stderr or b"", time.monotonic() - started

    def fail(self, kind, case, index, argv, code, stderr, more=""):
        excerpt = stderr[:300].decode("utf-8", "backslashreplace")
        with self.lock:
            self.failures[kind] += 1
            if len(self.reports) < self.args.show:
                self.reports.append(f"FAIL [{kind}] seed {self.args.seed} case {case.number}.{index} "
                                    f"({case.family}: {case.detail}), exit {code}{more}\n"
                                    f"  command: {shown(argv)}\n  stderr: {excerpt}")

    def check(self, case, index, invocation, cwd):
        watched = invocation.protect + invocation.protect_if_refused
        before = {path: digest(path) for path in watched}
        code, stderr, seconds = self.execute(invocation.argv, cwd)
        with self.lock:
            self.invocations += 1
            self.exits[code] += 1
            self.seconds[case.family] += seconds
            self.slowest = sorted(self.slowest + [(seconds, shown(invocation.argv, 160))])[-3:]
        fail = lambda kind, more="": self.fail(kind, case, index, invocation.argv, code, stderr, more)  # noqa
        if code == "timeout":
            fail("timeout")
        elif code < 0 or code >= 128:
            fail("signal")
        elif code == 70:
            fail("exit 70")
        if invocation.bounded_message and len(stderr) > MESSAGE_LIMIT:
            fail("long message", f": {len(stderr)} bytes on stderr")
        guarded = invocation.protect + (invocation.protect_if_refused if code != 0 else [])
        changed = [path for path in guarded if digest(path) != before[path]]
        if changed:
            fail("file changed", ": " + ", ".join(shown([path], 120) for path in changed))
        if code == 0 and invocation.readback:
            read, read_stderr, _ = self.execute(invocation.readback, cwd)
            if read == "timeout" or read == 2 or read < 0 or read >= 70:
                fail("data lost", f"; then `{shown(invocation.readback, 200)}` exit {read}: "
                     + read_stderr[:200].decode("utf-8", "backslashreplace"))

    def run_case(self, case):
        folder = os.path.join(self.args.scratch, "cases", f"{case.number:05d}")
        os.makedirs(folder)
        try:
            for index, invocation in enumerate(case.setup(folder)):
                self.check(case, index, invocation, folder)
        except Exception as error:  # a fault of the fuzz itself is a failure too, never a pass
            self.fail("fuzz error", case, 0, [], "-", repr(error).encode())
        if not self.args.keep:
            shutil.rmtree(os.fsencode(folder), ignore_errors=True)


def make_seed_material(ladder, root, env):
    """TINY: one tiny real run; h.sqlite: its history database."""
    tiny = os.path.join(root, "TINY")
    other = os.path.join(root, "TINY-2")
    for argv in ([ladder, "run", "--preset", "quick", "--tiers", "inlined", "--no-history", "--no-limits",
                  "--no-instructions", "--out", tiny],
                 [ladder, "history", "import", tiny, "--history", os.path.join(root, "h.sqlite")]):
        done = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=300)
        if done.returncode != 0:
            sys.exit(f"ladder_fuzz: making the seed material failed: {shown(argv)}: exit {done.returncode}\n"
                     + done.stderr.decode("utf-8", "backslashreplace"))
    shutil.copytree(tiny, other)
    with open(os.path.join(other, "results.json"), "ab") as file:
        file.write(b"\n")  # the same run under another id (the history keys a run by its file's SHA-256)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("ladder")
    parser.add_argument("--seed", type=int, default=37)
    parser.add_argument("--count", type=int, default=2000, help="invocations (at least)")
    parser.add_argument("--scratch", help="a folder of its own (default: a new temporary one, removed after)")
    parser.add_argument("--jobs", type=int, default=4)
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--show", type=int, default=40, help="failures printed in full")
    parser.add_argument("--keep", action="store_true", help="keep each case's folder")
    args = parser.parse_args()
    args.ladder = os.path.abspath(args.ladder)
    temporary = args.scratch is None
    args.scratch = os.path.abspath(args.scratch or tempfile.mkdtemp(prefix="ladder-fuzz-"))
    started = time.monotonic()
    fuzz = Fuzz(args)
    seed_root = os.path.join(args.scratch, "seed")
    os.makedirs(seed_root, exist_ok=True)
    make_seed_material(args.ladder, seed_root, fuzz.env)
    seed = fuzz_cases.Seed(args.ladder, seed_root)
    pristine = {path: digest(path) for path in seed.tiny_files + [seed.db]}
    families = collections.Counter()
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for number, case in enumerate(fuzz_cases.cases(seed, args.count, args.seed)):
            case.number = number
            families[case.family] += case.count
            pool.submit(fuzz.run_case, case)
    for path, sha in pristine.items():
        if digest(path) != sha:
            fuzz.fail("file changed", fuzz_cases.Case("seed material", path, 0, None), 0, [], "-", b"")
    elapsed = time.monotonic() - started
    for report in fuzz.reports:
        print(report)
    print(f"ladder_fuzz: seed {args.seed}: {fuzz.invocations} invocations in {elapsed:.0f} s "
          f"({', '.join(f'{name} {n}' for name, n in sorted(families.items()))})")
    print("seconds a family: " + ", ".join(f"{name} {s:.0f}" for name, s in sorted(fuzz.seconds.items()))
          + "; the slowest: " + "; ".join(f"{s:.1f} s {argv}" for s, argv in reversed(fuzz.slowest)))
    print("exit codes: " + ", ".join(f"{code}: {n}" for code, n in sorted(fuzz.exits.items(), key=str)))
    print("failures: " + (", ".join(f"{kind}: {n}" for kind, n in sorted(fuzz.failures.items())) or "none"))
    if temporary and not args.keep:
        shutil.rmtree(os.fsencode(args.scratch), ignore_errors=True)
    return 1 if fuzz.failures or fuzz.invocations < args.count else 0


if __name__ == "__main__":
    sys.exit(main())
