"""The fuzz test's cases, one family a kind of input, each an endless seeded stream.

A case makes its inputs in its own folder and names the invocations to run on them. Each invocation says which
files must stay byte-identical (`protect`), which must stay so when the command refuses (`protect_if_refused`:
the database an import writes, the run a resume finishes), a command that must still read what a command
that succeeded wrote (`readback`), and whether its message must stay short (a bad value from a file is quoted
bounded, `bounded_message`).
"""

import json
import os
import shutil
from dataclasses import dataclass, field

import fuzz_inputs as inputs

@dataclass
class Invocation:
    argv: list
    protect: list = field(default_factory=list)
    protect_if_refused: list = field(default_factory=list)
    readback: list = None  # argv; exit 2 (refused) or a crash after this invocation succeeded is data lost
    bounded_message: bool = True  # a value read from a file is quoted bounded; one typed on the command line
    # may be echoed whole (the user has it already)
    env: dict = None  # variables added to the fuzz's environment for this command
    timeout: float = None  # seconds, instead of --timeout (a broken interpreter's own limit is longer)
    interrupt: object = None  # fuzz_surfaces.Interrupt: a signal sent to it at a seeded moment
    expect: object = None  # expect(outcome) -> [(kind, text)]: what else must hold afterwards
    leftovers: bool = False  # no process of its process group may outlive it
    pid_files: list = field(default_factory=list)  # files of pids (fake interpreters) that must be gone after


@dataclass
class Case:
    family: str
    detail: str
    count: int  # invocations, known before the inputs are made
    setup: object  # setup(folder) -> [Invocation]


class Seed:
    """The seed material: one tiny real run (TINY), its history database, their files to protect."""

    def __init__(self, ladder, root):
        self.ladder = ladder
        self.tiny = os.path.join(root, "TINY")
        self.db = os.path.join(root, "h.sqlite")
        with open(os.path.join(self.tiny, "results.json"), "rb") as file:
            self.results = json.loads(file.read())
        with open(os.path.join(self.tiny, "journal.jsonl"), "rb") as file:
            self.journal = file.read()
        with open(self.db, "rb") as file:
            self.db_bytes = file.read()
        self.other = os.path.join(root, "TINY-2")  # TINY's run under another id: what an import adds
        self.tiny_files = sorted(os.path.join(folder, name) for folder, _, names in os.walk(self.tiny)
                                 for name in names)

    def cmd(self, *args):
        return [self.ladder, *args]


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as file:
        file.write(data)
    return path


def results_cases(seed, rng):
    """results.json with a hostile value at each key in turn: pick reads every mutant, and the other readers
    (compare, report, export --from, history import) take turns."""
    turn = 0
    for path, (kind, raw) in inputs.ordered_pairs(inputs.json_paths(seed.results), inputs.JSON_KINDS, rng):
        turn += 1

        def setup(d, path=path, raw=raw, turn=turn):
            run = os.path.join(d, "run")
            mutant = write(os.path.join(run, "results.json"), inputs.put_value(seed.results, path, raw))
            keep = [mutant] + seed.tiny_files
            if turn % 4 == 0:
                db = write(os.path.join(d, "h.sqlite"), seed.db_bytes)
                other = Invocation(seed.cmd("history", "import", run, "--history", db), keep, [db],
                                   seed.cmd("history", "list", "--history", db))
            else:
                other = Invocation(seed.cmd(*[["compare", seed.tiny, run],
                                              ["report", run, "--out", os.path.join(d, "report")],
                                              ["export", "inlined", "--out", os.path.join(d, "x"), "--from", run]]
                                            [turn % 4 - 1]), keep)
            return [Invocation(seed.cmd("pick", run), keep), other]
        yield Case("results.json", f"{inputs.path_text(path)} = {kind}", 2, setup)


MEASURING_KEYS = {"matrix", "limits", "instructions", "preset"}


def journal_cases(seed, rng):
    """A copy of TINY with a damaged journal, resumed: refused, or finished without measuring a cell."""
    lines = seed.journal.split(b"\n")
    header, cell = json.loads(lines[0]), json.loads(lines[1])
    pairs = [(0, p) for p in inputs.json_paths(header)] + [(1, p) for p in inputs.json_paths(cell)]
    keyed = inputs.ordered_pairs(pairs, inputs.JSON_KINDS, rng)
    while True:
        if rng.random() < 0.6:
            (line, path), (kind, raw) = next(keyed)
            if path[0] in MEASURING_KEYS and kind not in inputs.REFUSED_KINDS:
                kind, raw = inputs.JSON_KINDS[0]
            document = header if line == 0 else cell
            changed = list(lines)
            changed[line] = inputs.put_value(document, path, raw)
            data, detail = b"\n".join(changed), f"line {line + 1}: {inputs.path_text(path)} = {kind}"
        else:
            kind, data = inputs.journal_byte_mutant(seed.journal, rng)
            detail = kind

        def setup(d, data=data):
            run = os.path.join(d, "run")
            shutil.copytree(seed.tiny, run)
            journal = write(os.path.join(run, "journal.jsonl"), data)
            kept = [os.path.join(run, name) for name in ("results.json", "report.md", "results.csv")]
            return [Invocation(seed.cmd("run", "--resume", run, "--no-history", "--no-limits", "--no-instructions"),
                               [], kept + [journal], seed.cmd("pick", run))]
        yield Case("journal", detail, 1, setup)


def costs_cases(seed, rng):
    """A costs file, TOML or JSON, with a hostile value at each key in turn."""
    toml_pairs = inputs.ordered_pairs(inputs.COST_KEYS, inputs.TOML_KINDS, rng)
    json_pairs = inputs.ordered_pairs(inputs.COST_KEYS, inputs.JSON_KINDS, rng)
    toml = False
    while True:
        toml = not toml
        key, (kind, raw) = next(toml_pairs if toml else json_pairs)
        data = inputs.costs_file(key, raw, toml)

        def setup(d, data=data, toml=toml):
            costs = write(os.path.join(d, "costs.toml" if toml else "costs.json"), data)
            keep = [costs] + seed.tiny_files
            return [Invocation(seed.cmd("pick", seed.tiny, "--costs", costs), keep),
                    Invocation(seed.cmd("report", seed.tiny, "--out", os.path.join(d, "r"), "--costs", costs), keep),
                    Invocation(seed.cmd("list", "--json", "--costs", costs), keep)]
        yield Case("costs", f"{'toml' if toml else 'json'} {key} = {kind}", 3, setup)


def database_cases(seed, rng):
    """A byte-flipped or truncated history database: every reader leaves it as it was; an import that
    says it succeeded leaves a database the readers read."""
    while True:
        kind, data = inputs.database_mutant(seed.db_bytes, rng)

        def setup(d, data=data):
            db = write(os.path.join(d, "h.sqlite"), data)
            keep = [db] + seed.tiny_files
            reads = [["history", "list"], ["history", "list", "--json"], ["history", "show", "inlined"],
                     ["history", "show", "inlined", "--json"], ["history", "check"], ["compare", seed.tiny, seed.tiny]]
            return [Invocation(seed.cmd(*args, "--history", db), keep) for args in reads] + [
                Invocation(seed.cmd("history", "import", seed.other, "--history", db), seed.tiny_files, [db],
                           seed.cmd("history", "list", "--history", db))]
        yield Case("history db", kind, 7, setup)


def path_slots(seed, d):
    """(name, argv for a path p): every place a command takes a path."""
    tiny, out = seed.tiny, os.path.join(d, "out")
    return [("report --out", lambda p: ["report", tiny, "--out", p]),
            ("export --out", lambda p: ["export", "inlined", "--out", p]),
            ("export --from", lambda p: ["export", "inlined", "--out", out, "--from", p]),
            ("export --integrand", lambda p: ["export", "inlined", "--out", out, "--integrand", p]),
            ("pick --costs", lambda p: ["pick", tiny, "--costs", p]),
            ("report --costs", lambda p: ["report", tiny, "--out", out, "--costs", p]),
            ("history list --history", lambda p: ["history", "list", "--history", p]),
            ("history import --history", lambda p: ["history", "import", tiny, "--history", p]),
            ("pick RESULTS", lambda p: ["pick", p]),
            ("compare OLD NEW", lambda p: ["compare", tiny, p]),
            ("report RESULTS", lambda p: ["report", p, "--out", out]),
            ("plan --out", lambda p: ["plan", "--preset", "quick", "--tiers", "inlined", "--out", p]),
            ("run --out", lambda p: ["run", "--preset", "quick", "--tiers", "inlined", "--no-history", "--no-limits",
                                     "--no-instructions", "--reps", "1", "--out", p])]


def path_cases(seed, rng):
    """Hostile paths (not UTF-8, 255 and 256 bytes, a trailing slash, a directory where a file belongs, a
    user's file or folder) in every path a command takes; the user's files planted there stay as they were."""
    slots = [name for name, _ in path_slots(seed, "")]
    pairs = [(kind, slot) for kind in inputs.PATH_KINDS for slot in slots]
    while True:
        rng.shuffle(pairs)
        for kind, slot in pairs:
            def setup(d, kind=kind, slot=slot):
                path, planted = inputs.hostile_path(kind, d)
                argv = dict(path_slots(seed, d))[slot](path)
                return [Invocation(seed.cmd(*argv), planted + seed.tiny_files)]
            yield Case("paths", f"{slot} {kind}", 1, setup)


def header_cases(seed, rng):
    """Integrand headers with long runs of one character inside what the reader matches."""
    while True:
        slot = rng.choice(inputs.HEADER_SLOTS)
        data = inputs.integrand_header(slot, rng)
        suffix = b"" if rng.random() < 0.7 else b":" + b"N" * rng.choice([1, 30_000])

        def setup(d, data=data, suffix=suffix):
            header = write(os.path.join(d, "mine.hpp"), data)
            argv = seed.cmd("export", "inlined", "--out", os.path.join(d, "x"), "--integrand",
                            os.fsencode(header) + suffix)
            return [Invocation(argv, [header])]
        yield Case("integrand header", f"{slot} ({len(data)} bytes){' PATH:NAME' if suffix else ''}", 1, setup)


def option_slots(seed, d):
    tiny, db = seed.tiny, seed.db
    pick = [["pick", tiny, option] for option in ("--n", "--without", "--integrand", "--current", "--deadline",
                                                  "--calls-per-day", "--bus-factor", "--team-knows", "--max-error",
                                                  "--core-hour", "--horizon", "--threads")]
    report = [["report", tiny, "--out", os.path.join(d, "r"), option] for option in ("--integrand", "--current")]
    plan = [["plan", "--tiers", "inlined", option] for option in
            ("--n", "--threads", "--budget", "--seed", "--integrand", "--a", "--b", "--compilers", "--arch",
             "--label", "--preset", "--min-time", "--ranks", "--reps")] + [["plan", "--preset", "quick", "--tiers"]]
    history = [["history", "show", "--history", db, "inlined", option] for option in ("--n", "--integrand")] + \
        [["history", "list", "--history", db, option] for option in ("--machine", "--since", "--tier")] + \
        [["history", "show", "--history", db], ["history", "check", "--history", db, "--tier"]]
    export = [["export", "--out", os.path.join(d, "x")],
              ["export", "inlined", "--out", os.path.join(d, "x"), "--namespace"],
              ["export", "inlined", "--out", os.path.join(d, "x"), "--integrand"]]
    compare = [["compare", tiny, tiny, option] for option in ("--min-change", "--fail-above")]
    return pick + report + plan + history + export + compare


def option_cases(seed, rng):
    """Hostile option values (10^5 characters, not UTF-8, huge numbers, empty) at every option in turn."""
    count = len(option_slots(seed, ""))
    pairs = inputs.ordered_pairs(range(count), inputs.OPTION_VALUES, rng)
    while True:
        index, value = next(pairs)

        def setup(d, index=index, value=value):
            argv = option_slots(seed, d)[index] + [value]
            return [Invocation(seed.cmd(*argv), seed.tiny_files + [seed.db], bounded_message=False)]
        shown = option_slots(seed, "D")[index]
        yield Case("options", f"{' '.join(str(a) for a in shown[-2:])} {value[:20]!r}", 1, setup)


# One cycle of the families: (family, cases in the cycle); a cycle is 50 invocations.
FAMILIES = [(results_cases, 7), (journal_cases, 4), (costs_cases, 3), (database_cases, 1), (path_cases, 6),
            (header_cases, 2), (option_cases, 8)]


def cases(seed, count, seed_value):
    """The cases, the families interleaved, until they add up to count invocations."""
    streams = [(make(seed, inputs.seeded(seed_value, make.__name__)), per_cycle) for make, per_cycle in FAMILIES]
    total = 0
    while total < count:
        for stream, per_cycle in streams:
            for _ in range(per_cycle):
                case = next(stream)
                total += case.count
                yield case
                if total >= count:
                    return
