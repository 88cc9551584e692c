"""The fuzz test's families for the surfaces of issue 50, each a fixed number of seeded cases (they are slower
than the input families): a failed cell and the gate, the verdicts' outputs onto existing files, signals
during `ladder ab` and `ladder export`, history files that are not regular files, broken interpreters.

`ladder ab` measures only where it needs no build: an A/A of the commit the build at hand was built from
(when it was built from a clean checkout), or of --ab-commit in a builds cache that holds its worker already
(--ab-builds). Otherwise its cases that would measure are made at the `ladder compare` level, and said so.
"""

import hashlib
import json
import os
import re
import signal
import socket
import subprocess
from dataclasses import dataclass

import fuzz_inputs as inputs
from fuzz_cases import Case, Invocation, write


@dataclass
class Interrupt:
    signum: int
    delay: float  # seconds after the line `after` appeared on stdout (or after the start)
    group: bool = False  # to the whole process group, as a terminal's Ctrl-C; else to ladder alone, as kill
    after: bytes = None


@dataclass
class AbTarget:
    repo: str  # a clone of the source checkout
    commit: str  # what an A/A measures (HEAD where nothing may be measured)
    builds: str  # LADDER_BUILDS_DIR for a case that measures (None: the case's own, which must stay absent)
    measures: bool  # an A/A of commit costs no build
    why: str  # how, or why not, said in the fuzz's summary


MEASURING = b"ABBA pairs"  # ab's line before its first cell, once every build is ready
AB_QUICK = ["--tiers", "inlined", "--n", "1e5,2e5", "--threads", "1", "--reps", "1", "--min-time", "0.005",
            "--pairs", "12"]
USER_NOTES = b"# my notes\nthe user's own lines, which a summary is appended to\n"


def ab_invocation(seed, d, *extra, history=None, **fields):
    """`ladder ab`, an A/A of seed.ab.commit, with the case's own history (and builds, unless it measures)."""
    ab = seed.ab
    argv = seed.cmd("ab", "--repo", ab.repo, "--base", ab.commit, "--head", ab.commit, *AB_QUICK, "--history",
                    history or os.path.join(d, "h.sqlite"), *extra)
    # The cache that holds the worker, or the case's own folder (the build at hand measures: nothing is
    # built there, and it must stay absent).
    builds = ab.builds if ab.measures and ab.builds else os.path.join(d, "builds")
    return Invocation(argv, env={"LADDER_BUILDS_DIR": builds}, leftovers=True, **fields)


def exits(*codes):
    return lambda o: [] if o.code in codes else [("wrong exit", f"exit {o.code}, expected "
                                                                + " or ".join(map(str, codes)))]


def all_of(*checks):
    return lambda o: [failure for check in checks for failure in check(o)]


def read(path):
    try:
        with open(path, "rb") as file:
            return file.read()
    except OSError:
        return None


def keeps_prefix(path, prefix, grows):
    """The user's bytes still begin the file (a summary is appended to); grows: something was appended."""
    def check(o):
        data = read(path)
        if data is None or not data.startswith(prefix):
            return [("data lost", f"{path} no longer begins with the user's {len(prefix)} bytes")]
        if grows(o) and len(data) <= len(prefix):
            return [("output missing", f"nothing was appended to {path}")]
        return []
    return check


def absent(*paths, why="refused before anything was written"):
    return lambda o: [("refused late", f"{path} exists although {why}") for path in paths if os.path.exists(path)]


# --- 1. a failed cell fails the gate -----------------------------------------------------------------------

FAILED_STATUSES = ["crashed", "killed", "timeout", "out_of_memory", "failed"]


def failed_run(results, status, every):
    """results.json (bytes) with its first (or every) measured cell failed as the runner records one."""
    copy = json.loads(json.dumps(results))
    names = []
    for cell in copy["cells"]:
        if cell.get("status") != "ok" or (names and not every):
            continue
        cell.update(status=status, rounds=[], reason=f"{status} on purpose by the fuzz")
        cell.pop("measurement", None)
        cell.pop("remeasured", None)
        names.append(cell["name"])
    return json.dumps(copy).encode(), names


def says_failed(summary, bmf, names, annotations):
    def check(o):
        problems = []
        text = read(summary) or b""
        for name in names:
            if name.encode() not in text or b"failed" not in text:
                problems.append(("not failed", f"--summary does not say {name} failed"))
            if b"failed" not in o.stdout:
                problems.append(("not failed", f"the table does not say {name} failed"))
            if annotations and b"::error" not in o.stdout:
                problems.append(("not failed", f"--annotations gives no ::error for {name}"))
        try:
            document = json.loads(read(bmf) or b"null")
        except ValueError:
            document = None
        if not isinstance(document, dict):
            problems.append(("output missing", "--bmf is not a JSON object"))
        else:
            problems += [("not failed", f"--bmf gives {name} a ratio") for name in names if name in document]
        return problems
    return check


def gate_cases(seed, rng):
    """A new run whose cell failed (crashed, killed, …): `compare` must fail the gate (exit 1) and every
    output say so. At the `compare` level: a crashing head for `ab` needs a revision built (minutes)."""
    while True:
        status, every = rng.choice(FAILED_STATUSES), rng.random() < 0.5
        annotations, fail_above = rng.random() < 0.5, rng.choice([None, "5", "500"])
        data, names = failed_run(seed.results, status, every)

        def setup(d, data=data, names=names, annotations=annotations, fail_above=fail_above):
            new = os.path.join(d, "new")
            write(os.path.join(new, "results.json"), data)
            summary, bmf = os.path.join(d, "summary.md"), os.path.join(d, "bmf.json")
            argv = seed.cmd("compare", seed.tiny, new, "--summary", summary, "--bmf", bmf)
            argv += (["--annotations"] if annotations else []) + (["--fail-above", fail_above] if fail_above else [])
            return [Invocation(argv, seed.tiny_files,
                               expect=all_of(exits(1), says_failed(summary, bmf, names, annotations)))]
        yield Case("failed cell", f"{status}, {'every cell' if every else 'one cell'}", 1, setup)


# --- 2. outputs onto existing files ------------------------------------------------------------------------

OUTPUT_KINDS = ["user-text", "empty", "directory", "database", "under-a-file"]
ACCEPTED = {("--summary", "user-text"), ("--summary", "empty"), ("--bmf", "empty")}


def output_target(seed, kind, d):
    """(path, the user's files planted there)."""
    if kind == "user-text":
        return write(os.path.join(d, "notes.md"), USER_NOTES), [os.path.join(d, "notes.md")]
    if kind == "empty":
        return write(os.path.join(d, "empty.md"), b""), []
    if kind == "directory":
        return os.path.join(d, "folder"), [write(os.path.join(d, "folder", "notes.md"), USER_NOTES)]
    if kind == "database":
        return write(os.path.join(d, "copy.sqlite"), seed.db_bytes), [os.path.join(d, "copy.sqlite")]
    return os.path.join(d, "plain", "out.md"), [write(os.path.join(d, "plain"), USER_NOTES)]


def output_invocation(seed, command, option, kind, d):
    path, planted = output_target(seed, kind, d)
    other = "--bmf" if option == "--summary" else "--summary"
    companion = os.path.join(d, "companion" + (".json" if other == "--bmf" else ".md"))
    outputs = [option, path, other, companion]
    accepted = (option, kind) in ACCEPTED
    if command == "ab":
        invocation = ab_invocation(seed, d, *outputs)
        refused_early = absent(os.path.join(d, "h.sqlite"), companion,
                               *([] if seed.ab.measures else [os.path.join(d, "builds")]))
        measured_nothing = lambda o: [("refused late", "ab measured first")] if MEASURING in o.stdout else []  # noqa
        refusal = all_of(exits(2), refused_early, measured_nothing)
    else:
        history = write(os.path.join(d, "h.sqlite"), seed.db_bytes)
        argv = (["compare", seed.tiny, seed.other] if command == "compare" else
                ["history", "check", "--history", history])
        invocation = Invocation(seed.cmd(*argv, *outputs))
        refusal = all_of(exits(2), absent(companion))
    if accepted:
        grows = option == "--summary"
        invocation.expect = all_of(exits(0, 1), keeps_prefix(path, read(path), lambda o: grows))
        if option == "--bmf":
            invocation.expect = all_of(exits(0, 1), lambda o: [] if isinstance(
                json.loads(read(path) or b"null"), dict) else [("output missing", "--bmf wrote no JSON object")])
    else:
        invocation.expect = refusal
    invocation.protect = [path for path in planted if not accepted] + seed.tiny_files  # else: keeps_prefix
    return invocation


def output_cases(seed, rng):
    """--summary / --bmf of ab, compare and history check onto a user's file, an empty file, a directory, a
    database, a path under a file: appended to (a summary) or refused with exit 2 before anything is
    measured or written, the user's files as they were."""
    combos = [(command, option, kind) for command in ("compare", "history check", "ab")
              for option in ("--summary", "--bmf") for kind in OUTPUT_KINDS
              if command != "ab" or seed.ab.measures or (seed.ab.repo and (option, kind) not in ACCEPTED)]
    while True:
        rng.shuffle(combos)
        for command, option, kind in combos:
            def setup(d, command=command, option=option, kind=kind):
                return [output_invocation(seed, command, option, kind, d)]
            yield Case("outputs", f"{command} {option} onto {kind}", 1, setup)


# --- 3. signals during ab and export -----------------------------------------------------------------------

SIGNALS = [signal.SIGINT, signal.SIGTERM, signal.SIGKILL]


def tree(path):
    """{relative path: SHA-256} of a folder's files."""
    found = {}
    for folder, _, names in os.walk(path):
        for name in names:
            whole = os.path.join(folder, name)
            found[os.path.relpath(whole, path)] = hashlib.sha256(read(whole) or b"").hexdigest()
    return found


def export_signal_case(seed, rng):
    old, new = rng.sample(["inlined", "xsimd", "streaming", "openmp"], 2)
    signum, delay = rng.choice(SIGNALS), rng.uniform(0, 0.025)

    def setup(d):
        out = os.path.join(d, "project")
        snapshots = []
        for tier in (new, old):  # each as an export to `out` writes it (the path is in its README)
            subprocess.run(seed.cmd("export", tier, "--out", out), env=seed.env, capture_output=True, check=True)
            snapshots.append(tree(out))

        def whole(o):
            return [] if tree(out) in snapshots else [("mixed export", f"{out} is neither the {old} export nor "
                                                                       f"the {new} one")]

        def swept(o):
            stale = [name for name in os.listdir(d) if name.startswith(".project.partial-")]
            return [("leftover copy", f"{', '.join(stale)} after the next export")] if stale else []
        argv = seed.cmd("export", new, "--out", out)
        codes = (0, 130, -signum, 128 + signum)
        return [Invocation(argv, interrupt=Interrupt(signum, delay), leftovers=True,
                           expect=all_of(exits(*codes), whole)),
                Invocation(argv, leftovers=True, expect=all_of(exits(0), swept, whole))]
    return Case("signals", f"export {new} over {old}, {signal.Signals(signum).name} at {delay * 1000:.0f} ms",
                2, setup)


def ab_signal_case(seed, rng):
    signum, delay = rng.choice(SIGNALS), rng.uniform(0, 0.6)
    group = signum == signal.SIGINT  # Ctrl-C reaches the workers too; kill, ladder alone

    def setup(d):
        notes = write(os.path.join(d, "notes.md"), USER_NOTES)
        sent = lambda o: o.signalled  # noqa
        kept = keeps_prefix(notes, USER_NOTES, lambda o: not sent(o) or signum != signal.SIGKILL)
        code = lambda o: exits(-9)(o) if sent(o) and signum == signal.SIGKILL else (  # noqa
            exits(130)(o) if sent(o) else exits(0, 1)(o))
        return [ab_invocation(seed, d, "--summary", notes, interrupt=Interrupt(signum, delay, group, MEASURING),
                              expect=all_of(code, kept))]
    return Case("signals", f"ab A/A, {signal.Signals(signum).name} {delay * 1000:.0f} ms into its cells", 1,
                setup)


def compare_signal_case(seed, rng):
    signum, delay = rng.choice(SIGNALS), rng.uniform(0, 0.02)

    def setup(d):
        notes = write(os.path.join(d, "notes.md"), USER_NOTES)
        argv = seed.cmd("compare", seed.tiny, seed.other, "--summary", notes)
        return [Invocation(argv, seed.tiny_files, interrupt=Interrupt(signum, delay), leftovers=True,
                           expect=all_of(exits(0, 1, 130, -signum, 128 + signum),
                                         keeps_prefix(notes, USER_NOTES, lambda o: not o.signalled)))]
    return Case("signals", f"compare (ab would build), {signal.Signals(signum).name} at {delay * 1000:.0f} ms",
                1, setup)


def signal_cases(seed, rng):
    """SIGINT, SIGTERM, SIGKILL at seeded moments during `ladder export` over an earlier export and during an
    A/A `ladder ab` (`compare` where ab would need a build): the export whole, old or new, and no hidden copy
    after the next one; ab's exit 130 (or the signal's), never 70; the user's summary kept; nothing running."""
    while True:
        yield export_signal_case(seed, rng)
        yield ab_signal_case(seed, rng) if seed.ab.measures else compare_signal_case(seed, rng)


# --- 4. history files that are not regular files -----------------------------------------------------------

HISTORY_KINDS = ["fifo", "directory", "/dev/null", "socket"]


def history_target(kind, d):
    """(path, files planted, an open socket to keep until the case ends)."""
    if kind == "fifo":
        path = os.path.join(d, "fifo")
        os.mkfifo(path)
        return path, [], None
    if kind == "directory":
        return os.path.join(d, "folder"), [write(os.path.join(d, "folder", "notes.md"), USER_NOTES)], None
    if kind == "socket":
        path = os.path.join(d, "sock")
        server = socket.socket(socket.AF_UNIX)
        server.bind(path)
        server.listen(1)
        return path, [], server
    return "/dev/null", [], None


def history_commands(seed, d, path):
    run_out = os.path.join(d, "run")
    commands = {
        "run": (["run", "--preset", "quick", "--tiers", "inlined", "--no-limits", "--no-instructions", "--reps", "1",
                 "--out", run_out, "--history", path], [os.path.join(run_out, "results.json")]),
        "compare": (["compare", seed.tiny, seed.other, "--history", path], []),
        "history check": (["history", "check", "--history", path], []),
        "history report": (["history", "report", "--out", os.path.join(d, "page"), "--history", path],
                           [os.path.join(d, "page", "index.html")]),
        "history import": (["history", "import", seed.tiny, "--history", path], [])}
    return commands


def history_cases(seed, rng):
    """A FIFO, a directory, /dev/null or a socket as --history of run, ab, compare and history
    check/report/import: refused at once with exit 2 naming it (a FIFO never waited on: the timeout)."""
    names = list(history_commands(seed, "", "")) + (["ab"] if seed.ab.measures else [])
    pairs = [(kind, name) for kind in HISTORY_KINDS for name in names]
    while True:
        rng.shuffle(pairs)
        for kind, name in pairs:
            def setup(d, kind=kind, name=name):
                path, planted, server = history_target(kind, d)
                shown = os.path.basename(path).encode()
                named = lambda o: [] if shown in o.stderr else [("unclear", f"no message names {path}")]  # noqa
                if name == "ab":
                    invocation = ab_invocation(seed, d, history=path)
                    written = []
                else:
                    argv, written = history_commands(seed, d, path)[name]
                    invocation = Invocation(seed.cmd(*argv), leftovers=True)
                invocation.protect = planted + seed.tiny_files
                invocation.timeout = 15
                invocation.expect = all_of(exits(2), named, absent(*written, why="refused"))
                if server:
                    invocation.keep_open = server  # closed with the case's folder
                return [invocation]
            yield Case("history file", f"{name} --history {kind}", 1, setup)


# --- 5. broken interpreters --------------------------------------------------------------------------------

BEHAVIOURS = {  # the fake interpreter's body after it has noted its pid
    "hang": 'sleep 300 &\necho $! >> "$PIDS"\nwait\n',
    "crash": "kill -SEGV $$\n",
    "garbage": 'cat "$GARBAGE"\n',
    "non-utf8": "printf 'PyPy 7.3.11 caf\\351 \\377\\376 Python 3.9\\n'\nprintf 'caf\\351\\377' >&2\n",
    "traceback": "printf 'Traceback (most recent call last):\\n  File \"x\", line 1\\nValueError: x\\n' >&2\n"
                 "exit 1\n",
}
PEER_COMMANDS = {
    "plan": ["plan", "--peers", "python", "--tiers", "py-list"],
    "run": ["run", "--peers", "python", "--tiers", "py-list", "--n", "1e4", "--threads", "1", "--reps", "1",
            "--min-time", "0.005", "--no-history", "--no-limits", "--no-instructions", "--out"],
    "profile": ["profile", "--peer", "py-list", "--n", "1000"],
}
SLOW_LIMIT = {"LADDER_PYTHON": 75, "LADDER_PYPY": 40}  # above the listing's 40 s, the probe's 10 s


def interpreter_invocation(seed, d, behaviour, variable, command, noise):
    pids = os.path.join(d, "pids")
    garbage = write(os.path.join(d, "garbage"), noise)
    fake = write(os.path.join(d, "fake-python"), (f'#!/bin/sh\nPIDS={pids}\nGARBAGE={garbage}\necho $$ >> "$PIDS"\n'
                                                  + BEHAVIOURS[behaviour]).encode())
    os.chmod(fake, 0o755)
    argv = PEER_COMMANDS[command] + ([os.path.join(d, "run")] if command == "run" else [])

    def clear(o):
        if o.code not in (0, 1, 2, 3, 4, 5):
            return [("wrong exit", f"exit {o.code}: not a clear exit")]
        return [] if o.code == 0 or b"ladder:" in o.stderr else [("unclear", "no `ladder:` message")]
    return Invocation(seed.cmd(*argv), env={variable: fake}, timeout=SLOW_LIMIT[variable], expect=clear,
                      leftovers=True, pid_files=[pids])


def interpreter_cases(seed, rng):
    """LADDER_PYTHON or LADDER_PYPY naming a program that hangs, crashes, prints garbage or bytes that are not
    UTF-8, or a traceback: plan/run --peers python and profile --peer end clearly (no exit 70, no signal,
    within the limit) and leave none of its processes running. One hang of each variable comes first."""
    combos = [(variable, command) for variable in ("LADDER_PYTHON", "LADDER_PYPY")
              for command in PEER_COMMANDS if not (variable == "LADDER_PYPY" and command == "profile")]
    first = [("hang", "LADDER_PYTHON", rng.choice(["plan", "run"])), ("hang", "LADDER_PYTHON", "profile"),
             ("hang", "LADDER_PYPY", rng.choice(["plan", "run"]))]
    quick = [b for b in BEHAVIOURS if b != "hang"]
    while True:
        if first:
            behaviour, variable, command = first.pop(0)
        else:
            behaviour, (variable, command) = rng.choice(quick), rng.choice(combos)

        noise = bytes(rng.randrange(256) for _ in range(rng.choice([10, 5000])))

        def setup(d, behaviour=behaviour, variable=variable, command=command, noise=noise):
            return [interpreter_invocation(seed, d, behaviour, variable, command, noise)]
        yield Case("interpreter", f"{command} with {variable}: {behaviour}", 1, setup)


# (family, cases in all): made before the input families' cycles, each run in a slow pool of its own.
FAMILIES = [(interpreter_cases, 10), (signal_cases, 14), (gate_cases, 8), (output_cases, 30), (history_cases, 24)]


def cases(seed, seed_value):
    """The surface families' cases, family by family."""
    for make, total in FAMILIES:
        stream = make(seed, inputs.seeded(seed_value, make.__name__))
        for _ in range(total):
            yield next(stream)


def ab_target(ladder, root, env, builds=None, commit=None):
    """Where `ladder ab` may measure without building: see the module's docstring."""
    source = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    repo = os.path.join(root, "repo")
    if subprocess.run(["git", "clone", "-q", "--no-checkout", source, repo], capture_output=True).returncode:
        return AbTarget(None, "", None, False, "ab: no cases (the source is no git checkout)")
    version = subprocess.run([ladder, "--version"], env=env, capture_output=True, text=True).stdout
    built = re.search(r"\(commit ([0-9a-f]+)(, dirty)?\)", version)
    if built and not built.group(2):
        return AbTarget(repo, built.group(1), None, True, f"ab: A/A of {built.group(1)}, the build at hand")
    if builds and commit:
        return AbTarget(repo, commit, builds, True, f"ab: A/A of {commit}, its worker in {builds}")
    return AbTarget(repo, "HEAD", None, False,
                    "ab: refusals only, signals at the compare level (the build at hand is of uncommitted "
                    "changes: an A/A would build a worker for minutes; --ab-builds DIR --ab-commit REV name a "
                    "cache that holds one)")
