#!/usr/bin/env python3
"""Bad input never crashes Ladder and never loses a file (issue 37): the fuzz test, ctest label `fuzz`.

  usage: ladder_fuzz.py LADDER [--seed N] [--count N] [--scratch DIR] [--jobs N] [--timeout S] [--keep]
                        [--only FAMILIES] [--ab-builds DIR --ab-commit REV]

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
The surface families (fuzz_surfaces.py, issue 50) add what their cases expect:
  wrong exit    not the exit the case expects (1 for a failed cell, 2 for a refused output or --history,
                130 after SIGINT or SIGTERM during ab's cells, a clear 0-5 with a broken interpreter)
  not failed    an output (table, --summary, --annotations, --bmf) that does not say a failed cell failed
  refused late  a refusal that came after something was measured or written
  output missing, mixed export, leftover copy, unclear: an appended summary, an export old or new, no
                hidden copy after the next export, a message naming the bad path
  process left  a process of the command's group, or a fake interpreter's, still running GRACE s after it
Each failure is printed with the seed, the case, the command and the first 300 bytes of stderr.
"""

import argparse
import collections
import hashlib
import itertools
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
import fuzz_surfaces  # noqa: E402


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


Outcome = collections.namedtuple("Outcome", "code stdout stderr seconds signalled left")
GRACE = 3.0  # seconds a process the command started may take to end after it (a pipe closing, PDEATHSIG)


def pump(stream, sink, watched, seen):
    """Reads a pipe to its end into sink; sets seen once watched (bytes) has appeared in it."""
    for chunk in iter(lambda: stream.read1(65536), b""):
        sink.extend(chunk)
        if watched and not seen.is_set() and watched in sink:
            seen.set()
    seen.set()  # the end: nothing more to wait for


def send_interrupt(process, interrupt, seen, deadline):
    """Sends the interrupt's signal once its line was seen and its delay passed, unless the command ended
    first: whether it was sent."""
    if interrupt.after:
        seen.wait(timeout=max(0.0, deadline - time.monotonic()))
    try:
        process.wait(timeout=interrupt.delay)  # the seeded moment: the command may end before it
        return False
    except subprocess.TimeoutExpired:
        pass
    try:
        if interrupt.group:
            os.killpg(process.pid, interrupt.signum)  # as a terminal's Ctrl-C: every process of the group
        else:
            process.send_signal(interrupt.signum)  # as `kill PID`: ladder alone
        return True
    except ProcessLookupError:
        return False


def group_members(group):
    """The live processes (not zombies) of a process group, as "PID COMMAND"."""
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as file:
                stat = file.read()
            with open(f"/proc/{entry}/cmdline", "rb") as file:
                command = file.read().replace(b"\0", b" ").decode("utf-8", "backslashreplace").strip()
        except OSError:
            continue
        fields = stat[stat.rindex(b")") + 2:].split()
        if fields[0] != b"Z" and int(fields[2]) == group:
            members.append(f"{entry} {command[:120]}")
    return members


def leftovers(group):
    """The processes of the group still alive GRACE seconds after its leader ended."""
    deadline = time.monotonic() + GRACE
    while True:
        members = group_members(group)
        if not members or time.monotonic() > deadline:
            return members
        time.sleep(0.05)


def kill_group(group):
    try:
        os.killpg(group, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def pid_alive(pid):
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            stat = file.read()
    except OSError:
        return False
    return stat[stat.rindex(b")") + 2:].split()[0] != b"Z"


def pids_alive(files):
    """The pids written in files (one a line) still alive after GRACE seconds; each is then ended."""
    pids = []
    for path in files:
        try:
            with open(path, "rb") as file:
                pids += [int(word) for word in file.read().split() if word.isdigit()]
        except OSError:
            continue
    deadline = time.monotonic() + GRACE
    while any(pid_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    alive = [pid for pid in pids if pid_alive(pid)]
    for pid in alive:
        try:
            os.kill(pid, signal.SIGKILL)  # a process the fuzz's own fake interpreter started
        except ProcessLookupError:
            pass
    return [f"pid {pid} still running" for pid in alive]


class Fuzz:
    def __init__(self, args):
        self.args = args
        self.lock = threading.Lock()
        self.exits = collections.Counter()
        self.failures = collections.Counter()
        self.reports = []
        self.invocations = 0
        self.interrupts = collections.Counter()  # interrupts planned, and sent before the command ended
        self.seconds = collections.Counter()
        self.slowest = []
        self.env = dict(os.environ)
        env_dir = os.path.join(args.scratch, "env")
        self.env.update(LADDER_HISTORY=os.path.join(env_dir, "history.sqlite"),
                        LADDER_CACHE_DIR=os.path.join(env_dir, "cache"),
                        LADDER_BUILDS_DIR=os.path.join(env_dir, "builds"))

    def execute(self, argv, cwd, invocation=None):
        """An Outcome: the exit code (or "timeout"), stdout, stderr, seconds, and whether a signal was sent. A
        command past its limit is killed with its whole process group (the workers a run starts too); one with
        an interrupt gets its signal at the case's moment (after a line it waits for, plus a seeded delay)."""
        env = dict(self.env, **(invocation.env or {})) if invocation else self.env
        limit = (invocation.timeout if invocation and invocation.timeout else None) or self.args.timeout
        interrupt = invocation.interrupt if invocation else None
        started = time.monotonic()
        process = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, start_new_session=True)
        seen = threading.Event()
        streams = [bytearray(), bytearray()]
        watched = interrupt.after if interrupt and interrupt.after else None
        pumps = [threading.Thread(target=pump, args=(stream, sink, watched if stream is process.stdout else None,
                                                     seen), daemon=True)
                 for stream, sink in zip((process.stdout, process.stderr), streams)]
        for thread in pumps:
            thread.start()
        signalled = interrupt is not None and send_interrupt(process, interrupt, seen, started + limit)
        try:
            process.wait(timeout=max(0.0, started + limit - time.monotonic()))
            code = process.returncode
        except subprocess.TimeoutExpired:
            kill_group(process.pid)
            process.wait()
            code = "timeout"
        seconds = time.monotonic() - started
        left = leftovers(process.pid) if invocation and invocation.leftovers else []
        for attempt in range(2):
            if left or attempt:
                kill_group(process.pid)  # what is left is reported, then ended: the pipes close
            for thread in pumps:
                thread.join(timeout=GRACE)
            if not any(thread.is_alive() for thread in pumps):
                break
        return Outcome(code, bytes(streams[0]), bytes(streams[1]), seconds, signalled, left)

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
        outcome = self.execute(invocation.argv, cwd, invocation)
        code, stderr = outcome.code, outcome.stderr
        with self.lock:
            self.invocations += 1
            self.exits[code] += 1
            self.seconds[case.family] += outcome.seconds
            self.slowest = sorted(self.slowest + [(outcome.seconds, shown(invocation.argv, 160))])[-3:]
        fail = lambda kind, more="": self.fail(kind, case, index, invocation.argv, code, stderr, more)  # noqa
        sent = invocation.interrupt.signum if outcome.signalled else None
        if invocation.interrupt:
            with self.lock:
                self.interrupts["planned"] += 1
                self.interrupts["sent"] += outcome.signalled
        if code == "timeout":
            fail("timeout")
        elif (code < 0 or code >= 128) and not (sent and code in (-sent, 128 + sent, 130)):  # 130: interrupted
            fail("signal")
        elif code == 70:
            fail("exit 70")
        if invocation.bounded_message and len(stderr) > MESSAGE_LIMIT:
            fail("long message", f": {len(stderr)} bytes on stderr")
        guarded = invocation.protect + (invocation.protect_if_refused if code != 0 else [])
        changed = [path for path in guarded if digest(path) != before[path]]
        if changed:
            fail("file changed", ": " + ", ".join(shown([path], 120) for path in changed))
        if outcome.left:
            fail("process left", ": " + "; ".join(outcome.left[:3]))
        alive = pids_alive(invocation.pid_files)
        if alive:
            fail("process left", ": the fake interpreter's " + "; ".join(alive[:3]))
        if invocation.expect and code != "timeout":
            for kind, text in invocation.expect(outcome):
                fail(kind, (f" after {signal.Signals(sent).name}" if sent else "") + ": " + text)
        if code == 0 and invocation.readback:
            read = self.execute(invocation.readback, cwd)
            if read.code == "timeout" or read.code == 2 or read.code < 0 or read.code >= 70:
                fail("data lost", f"; then `{shown(invocation.readback, 200)}` exit {read.code}: "
                     + read.stderr[:200].decode("utf-8", "backslashreplace"))

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
    parser.add_argument("--only", help="these families only, comma-separated (e.g. signals,outputs)")
    parser.add_argument("--ab-builds", help="a LADDER_BUILDS_DIR that holds the worker of --ab-commit: ab's A/A "
                        "cases measure with it when the build at hand is of uncommitted changes")
    parser.add_argument("--ab-commit", help="the commit whose worker --ab-builds holds")
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
    seed.env = fuzz.env
    seed.ab = fuzz_surfaces.ab_target(args.ladder, seed_root, fuzz.env, args.ab_builds, args.ab_commit)
    pristine = {path: digest(path) for path in seed.tiny_files + [seed.db]}
    families = collections.Counter()
    only = set(args.only.split(",")) if args.only else None
    surfaces = list(fuzz_surfaces.cases(seed, args.seed))
    rest = fuzz_cases.cases(seed, args.count - sum(case.count for case in surfaces), args.seed)
    # The surfaces' cases in a pool of their own: a hanging interpreter's cases wait, they do not work.
    with ThreadPoolExecutor(max_workers=args.jobs) as slow, ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for number, case in enumerate(itertools.chain(surfaces, rest)):
            case.number = number
            if only and case.family not in only:
                continue
            families[case.family] += case.count
            (slow if number < len(surfaces) else pool).submit(fuzz.run_case, case)
    for path, sha in pristine.items():
        if digest(path) != sha:
            fuzz.fail("file changed", fuzz_cases.Case("seed material", path, 0, None), 0, [], "-", b"")
    elapsed = time.monotonic() - started
    for report in fuzz.reports:
        print(report)
    print(f"ladder_fuzz: seed {args.seed}: {fuzz.invocations} invocations in {elapsed:.0f} s "
          f"({', '.join(f'{name} {n}' for name, n in sorted(families.items()))}); {seed.ab.why}")
    print("seconds a family: " + ", ".join(f"{name} {s:.0f}" for name, s in sorted(fuzz.seconds.items()))
          + "; the slowest: " + "; ".join(f"{s:.1f} s {argv}" for s, argv in reversed(fuzz.slowest)))
    if fuzz.interrupts:
        print(f"signals: {fuzz.interrupts['sent']} of {fuzz.interrupts['planned']} sent before the command ended")
    print("exit codes: " + ", ".join(f"{code}: {n}" for code, n in sorted(fuzz.exits.items(), key=str)))
    print("failures: " + (", ".join(f"{kind}: {n}" for kind, n in sorted(fuzz.failures.items())) or "none"))
    if temporary and not args.keep:
        shutil.rmtree(os.fsencode(args.scratch), ignore_errors=True)
    return 1 if fuzz.failures or (fuzz.invocations < args.count and not only) else 0


if __name__ == "__main__":
    sys.exit(main())
