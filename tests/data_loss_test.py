#!/usr/bin/env python3
"""Nothing lost (issue 37): one case for each way Ladder lost data (D3, D6, D7, D8, D12, D15 in the probe).

  usage: data_loss_test.py LADDER [CASE...]      (default: every case but d7-kill; d7-kill needs strace)

Each case does what lost the data and checks that the user's data is still there:
  d3       a resume of a journal whose header has "tiers": [] leaves results.json readable (or as it was)
  d6       export --out into a folder with a stray (empty) .ladder-export.json, or an earlier export the user
           added a file to, keeps the user's file
  d7       stale .NAME.partial-* and .NAME.old-* folders (a killed export's, of a gone process) beside an
           export are swept by the next export
  d7-kill  an export killed while its renames are held up (strace delays the k-th rename) leaves NAME in place;
           exit 77 (skipped, with the reason) where strace is missing or cannot trace here, never a pass
  d8       history import into a byte-flipped database that `history list` calls damaged fails, and does not
           say it added the run
  d12      export --out NEW/ (a trailing slash) and a 255-byte name work, or fail leaving nothing behind
  d15      report --out into a folder holding the user's own report.md leaves that file as it was
"""

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

LADDER = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else sys.exit(__doc__)
SCRATCH = tempfile.mkdtemp(prefix="ladder-data-loss-")
ENV = dict(os.environ, LADDER_HISTORY=os.path.join(SCRATCH, "env-history.sqlite"),
           LADDER_CACHE_DIR=os.path.join(SCRATCH, "cache"), LADDER_BUILDS_DIR=os.path.join(SCRATCH, "builds"))
FAILURES = []


def ladder(*args, cwd=SCRATCH, timeout=120):
    done = subprocess.run([LADDER, *args], cwd=cwd, env=ENV, stdin=subprocess.DEVNULL, capture_output=True,
                          timeout=timeout)
    return done.returncode, (done.stdout + done.stderr).decode("utf-8", "backslashreplace")


def expect(case, condition, what, output=""):
    print(f"  {'ok  ' if condition else 'FAIL'} {case}: {what}")
    if not condition:
        FAILURES.append(case)
        if output:
            print("       " + output.strip()[:600].replace("\n", "\n       "))


def read(path):
    with open(path, "rb") as file:
        return file.read()


def path(*parts):
    return os.path.join(SCRATCH, *parts)


def tiny_run(name="TINY"):
    """One tiny real run (two cells, about a second), made once."""
    tiny = path(name)
    if not os.path.exists(tiny):
        code, output = ladder("run", "--preset", "quick", "--tiers", "inlined", "--no-history", "--no-limits",
                              "--no-instructions", "--out", tiny, timeout=300)
        if code != 0:
            sys.exit(f"data_loss_test: the tiny run failed (exit {code}):\n{output}")
    return tiny


def case_d3():
    run = path("d3")
    shutil.copytree(tiny_run(), run)
    journal = os.path.join(run, "journal.jsonl")
    lines = read(journal).decode().split("\n")
    header = json.loads(lines[0])
    header["tiers"] = []
    lines[0] = json.dumps(header)
    with open(journal, "w") as file:
        file.write("\n".join(lines))
    before = read(os.path.join(run, "results.json"))
    code, output = ladder("run", "--resume", run, "--no-history", "--no-limits", "--no-instructions")
    unchanged = read(os.path.join(run, "results.json")) == before
    pick, pick_output = ladder("pick", run)
    expect("d3", unchanged or pick == 0,
           f"resume with \"tiers\": [] (exit {code}) leaves results.json "
           f"{'byte-identical' if unchanged else 'changed'}, and pick reads it (exit {pick})",
           output + pick_output)


def export_keeps(case, folder, what):
    notes = os.path.join(folder, "notes.txt")
    with open(notes, "w") as file:
        file.write("precious\n")
    code, output = ladder("export", "inlined", "--out", folder)
    kept = os.path.exists(notes) and read(notes) == b"precious\n"
    expect(case, kept, f"{what}: export (exit {code}) keeps the user's notes.txt", output)


def case_d6():
    stray = path("d6-stray")
    os.makedirs(stray)
    open(os.path.join(stray, ".ladder-export.json"), "w").close()
    export_keeps("d6", stray, "a folder with an empty .ladder-export.json")
    earlier = path("d6-earlier")
    code, output = ladder("export", "inlined", "--out", earlier)
    expect("d6", code == 0, f"the earlier export is written (exit {code})", output)
    export_keeps("d6", earlier, "an earlier export the user added notes.txt to")


def case_d7():
    """What a killed export leaves beside NAME: a whole copy (.NAME.old-PID-N) and a half-written one whose
    manifest lists more than it holds (.NAME.partial-PID-N), of a process that is gone."""
    target = path("d7-target")
    code, output = ladder("export", "inlined", "--out", target)
    expect("d7", code == 0, f"the first export is written (exit {code})", output)
    old, partial = path(".d7-target.old-4194399-1234"), path(".d7-target.partial-4194399-5678")
    shutil.copytree(target, old)
    shutil.copytree(target, partial)
    shutil.rmtree(os.path.join(partial, "src"))
    code, output = ladder("export", "inlined", "--out", target, "--namespace", "beta")
    expect("d7", code == 0 and os.path.exists(os.path.join(target, ".ladder-export.json")),
           f"the next export is written (exit {code})", output)
    left = sorted(name for name in os.listdir(SCRATCH) if name.startswith(".d7-target."))
    expect("d7", not left, f"it sweeps the stale hidden folders beside it (left: {left or 'none'})")


def strace_usable():
    strace = shutil.which("strace")
    if not strace:
        return None, "strace is not installed (scripts/install-deps.sh installs it)"
    probe = subprocess.run([strace, "-f", "-o", os.devnull, "true"], capture_output=True)
    if probe.returncode != 0:
        return None, "strace cannot trace here: " + probe.stderr.decode(errors="replace").strip()[:200]
    return strace, ""


def case_d7_kill():
    """The k-th rename of an export held for 4 s and the export killed during it: NAME must be there."""
    strace, why = strace_usable()
    if not strace:
        print(f"skipped: d7-kill: {why}")
        return "skipped"
    for k in (1, 2, 3):
        target = path(f"d7-kill-{k}")
        code, output = ladder("export", "inlined", "--out", target, "--namespace", "alpha")
        expect("d7-kill", code == 0, f"the first export is written (exit {code})", output)
        tracer = subprocess.Popen(
            [strace, "-f", "-o", os.devnull, "-e", "trace=rename,renameat,renameat2",
             "-e", f"inject=rename,renameat,renameat2:delay_enter=4000000:when={k}",
             LADDER, "export", "xsimd", "--out", target, "--namespace", "beta"],
            cwd=SCRATCH, env=ENV, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(2)
        children = []
        try:
            with open(f"/proc/{tracer.pid}/task/{tracer.pid}/children") as file:
                children = [int(pid) for pid in file.read().split()]
        except OSError:
            pass
        for pid in children:
            os.kill(pid, signal.SIGKILL)
        tracer.wait(timeout=30)
        marker = os.path.join(target, ".ladder-export.json")
        expect("d7-kill", os.path.exists(marker),
               f"killed {'during' if children else 'after (it had finished)'} rename {k}: "
               f"{os.path.basename(target)} {'is there' if os.path.exists(marker) else 'is missing'}")


def damaged_copies(db_bytes, wanted):
    """Byte-flipped copies of the database (seed 6060) that `history list` calls damaged."""
    rng = random.Random(6060)
    found = []
    for attempt in range(400):
        data = bytearray(db_bytes)
        for _ in range(rng.randint(1, 12)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        copy = path(f"d8-{attempt}.sqlite")
        with open(copy, "wb") as file:
            file.write(data)
        code, output = ladder("history", "list", "--history", copy)
        if code == 2 and "damaged" in output:
            found.append(copy)
            if len(found) == wanted:
                break
        else:
            os.remove(copy)
    return found


def case_d8():
    """The database holds one run; each damaged copy is offered another."""
    pristine = path("d8-pristine.sqlite")
    code, output = ladder("history", "import", tiny_run(), "--history", pristine)
    expect("d8", code == 0, f"the pristine database is written (exit {code})", output)
    copies = damaged_copies(read(pristine), 12)
    expect("d8", len(copies) == 12, f"12 damaged copies made ({len(copies)})")
    other = tiny_run("TINY-2")
    for copy in copies:
        code, output = ladder("history", "import", other, "--history", copy)
        expect("d8", code != 0 and "added" not in output,
               f"import into {os.path.basename(copy)}, which list calls damaged: exit {code}", output)


def leaves_nothing(case, out, name):
    code, output = ladder("export", "inlined", "--out", out)
    base = name.rstrip("/")
    if code == 0:
        expect(case, os.path.exists(path(base, ".ladder-export.json")), f"--out {name[:20]}… (exit 0) is written")
    else:
        left = [entry for entry in os.listdir(SCRATCH) if entry == base or entry.startswith("." + base[:200])]
        expect(case, not left, f"--out {name[:20]}… fails (exit {code}) and leaves nothing behind "
               f"(left: {[entry[:30] for entry in left] or 'none'})", output)


def case_d12():
    leaves_nothing("d12", path("d12-newdir") + "/", "d12-newdir/")
    leaves_nothing("d12", path("e" * 255), "e" * 255)


def case_d15():
    mine = path("d15-mine")
    os.makedirs(mine)
    with open(os.path.join(mine, "report.md"), "w") as file:
        file.write("my notes\n")
    code, output = ladder("report", tiny_run(), "--out", mine)
    expect("d15", read(os.path.join(mine, "report.md")) == b"my notes\n",
           f"report --out a folder with the user's report.md (exit {code}) leaves it as it was", output)


CASES = {"d3": case_d3, "d6": case_d6, "d7": case_d7, "d7-kill": case_d7_kill, "d8": case_d8, "d12": case_d12,
         "d15": case_d15}


def main():
    chosen = sys.argv[2:] or [name for name in CASES if name != "d7-kill"]
    skipped = []
    try:
        for name in chosen:
            print(f"{name}:")
            if CASES[name]() == "skipped":
                skipped.append(name)
    finally:
        shutil.rmtree(SCRATCH, ignore_errors=True)
    if FAILURES:
        print(f"data_loss_test: FAILED: {', '.join(sorted(set(FAILURES)))}")
        return 1
    if skipped:
        return 77
    print(f"data_loss_test: every case holds ({', '.join(chosen)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
