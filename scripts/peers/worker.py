"""Measures one cell of a Python peer: the protocol of harness/worker/worker.cpp, the same result JSON.

    python3 scripts/peers/worker.py --spec JSON --result FILE

The spec: {"cell": {"tier", "integrand", "a", "b", "n", "threads", "ranks", "reproducible_requested"},
"matrix": {"repetitions", "min_time", "min_warmup_time", ...}, "reference": "%La %La %La %La %La METHOD"
(exact, midpoint, absolute sum, evaluation scale, width; see to_text in harness/worker/reference.cpp),
"rounding_bound": NUMBER}. Timing follows Google Benchmark: a warm-up of min_warmup_time, then
`repetitions` repetitions of `iterations` calls, iterations grown until a repetition lasts min_time.
Numba's first call compiles: it is made apart, at n = 1, and reported as compile_seconds. A pypy peer's cell
starts this worker again under pypy3; the first call, at the cell's n, is where PyPy's JIT traces and
compiles the loop: it is made apart and reported as jit_warmup_seconds. Every cell records its interpreter.
The worker imports only what every interpreter has (PyPy has no NumPy and no tracemalloc).
Exit codes: 0 ok or skipped, 1 failed or unavailable, 3 out of memory.
"""
import argparse
import json
import math
import os
import resource
import statistics
import sys
import time
from fractions import Fraction

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers  # noqa: E402
import pypy_peers  # noqa: E402

MAX_ITERATIONS = 10**9  # Google Benchmark's kMaxIterations
WORKER_FAILED, WORKER_OUT_OF_MEMORY = 1, 3


def hex_fraction(text):
    """C's %La text (e.g. 0xb.f2d1p-4, long double's 64-bit mantissa) as an exact Fraction."""
    sign = -1 if text.startswith("-") else 1
    mantissa, _, exponent = text.lstrip("+-").lower().removeprefix("0x").partition("p")
    whole, _, fraction = mantissa.partition(".")
    return sign * Fraction(int(whole + fraction, 16), 16 ** len(fraction)) * Fraction(2) ** int(exponent or 0)


def parse_reference(text):
    *numbers, method = text.split(maxsplit=5)
    # All five are read (and so checked); the last three made the rounding bound, which the spec carries.
    exact, midpoint, absolute_sum, evaluation_scale, width = map(hex_fraction, numbers)
    return {"exact": exact, "midpoint": midpoint, "method": method}


def difference(result, target):
    """result − target, computed exactly then rounded once (NaN for a result that is not finite)."""
    return float(Fraction(result) - target) if math.isfinite(result) else math.nan


def relative_error(result, target):
    """(result − target)/|target|, computed exactly then rounded once; None if target is 0."""
    if target == 0:
        return None
    return float((Fraction(result) - target) / abs(target)) if math.isfinite(result) else math.nan


class Results:
    """Every value the kernel returned: the first, and up to 16 distinct ones."""

    def __init__(self):
        self.first, self.distinct = None, set()

    def add(self, value):
        if self.first is None:
            self.first = value
        if len(self.distinct) < 16:
            self.distinct.add(value)


def run(call, iterations, results):
    """Wall and CPU (every thread of the process) nanoseconds for `iterations` calls."""
    wall, cpu = time.perf_counter_ns(), time.process_time_ns()
    for _ in range(iterations):
        results.add(call())
    return time.perf_counter_ns() - wall, time.process_time_ns() - cpu


def sized_run(call, iterations, min_time, results):
    """Google Benchmark's sizing: grow the iterations ×10, or in proportion (×1.4 margin) once a run lasts
    over 10 % of min_time, until one run lasts min_time; that run is the one reported."""
    while True:
        wall, cpu = run(call, iterations, results)
        seconds = wall / 1e9
        if seconds >= min_time or iterations >= MAX_ITERATIONS:
            return iterations, wall, cpu
        multiplier = min_time * 1.4 / max(seconds, 1e-9) if seconds / min_time > 0.1 else 10.0
        iterations = min(MAX_ITERATIONS, max(int(multiplier * iterations), iterations + 1))


def status_bytes(field):
    """A field of /proc/self/status (VmRSS, VmHWM) in bytes, or None."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def reset_peak_rss():
    try:
        with open("/proc/self/clear_refs", "w") as clear_refs:
            clear_refs.write("5")
        return True
    except OSError:
        return False


def memory_of_one_call(call):
    """Resident set and page faults over one call, then the Python heap's peak over another: tracemalloc
    slows every allocation and keeps a record of each, so it stays out of the resident-set call."""
    reset = reset_peak_rss()
    rss_before = status_bytes("VmRSS") or 0
    before = resource.getrusage(resource.RUSAGE_SELF)
    call()
    after = resource.getrusage(resource.RUSAGE_SELF)
    peak_rss = status_bytes("VmHWM")
    peak_heap, heap_method = traced_peak(call)
    return {"peak_heap_bytes": peak_heap,
            "allocations": None,
            "allocated_bytes": None,
            "peak_rss_bytes": peak_rss,
            "rss_before_bytes": rss_before,
            "peak_rss_growth_bytes": None if peak_rss is None else peak_rss - rss_before,
            "peak_rss_method": "VmHWM after a clear_refs reset, one call" if reset
                               else "VmHWM over the worker's life (clear_refs refused)",
            "minor_faults": after.ru_minflt - before.ru_minflt,
            "major_faults": after.ru_majflt - before.ru_majflt,
            "heap_method": heap_method}


def traced_peak(call):
    """The Python heap's peak over one call, by tracemalloc, and how it was had; PyPy has no tracemalloc (its
    objects are not malloc'd one by one), so there the peak is unknown and only the resident set says."""
    try:
        import tracemalloc
        tracemalloc.start()
    except (ImportError, RuntimeError):
        return None, "not traced: this interpreter has no tracemalloc (PyPy); see the resident set"
    call()
    peak_heap = tracemalloc.get_traced_memory()[1]  # NumPy reports its arrays' data to tracemalloc too
    tracemalloc.stop()
    return peak_heap, "tracemalloc peak, one call after the timed runs"


def aggregates(values):
    mean = statistics.fmean(values)
    stddev = statistics.stdev(values) if len(values) > 1 else 0.0
    return {"mean": mean, "median": statistics.median(values), "stddev": stddev,
            "cv": stddev / mean if mean else 0.0, "min": min(values), "max": max(values)}


def read_spec(spec):
    """The spec's fields, checked: ValueError or KeyError says what is wrong with it."""
    cell, matrix = spec["cell"], spec["matrix"]
    peer, integrand, n, threads = cell["tier"], cell["integrand"], int(cell["n"]), int(cell["threads"])
    if peer not in peers.BY_ID:
        raise ValueError(f"unknown peer '{peer}' (the peers: {', '.join(peers.BY_ID)})")
    if integrand not in peers.SCALAR:
        raise ValueError(f"unknown integrand '{integrand}' (the integrands: {', '.join(peers.SCALAR)})")
    if n < 1 or threads < 1:
        raise ValueError(f"n = {n} and threads = {threads}: both must be at least 1")
    if "reference" not in spec or "rounding_bound" not in spec:
        raise ValueError("the spec carries no reference or no rounding_bound (ladder run passes both)")
    return dict(peer=peer, integrand=integrand, a=float(cell["a"]), b=float(cell["b"]), n=n, threads=threads,
                repetitions=int(matrix["repetitions"]), min_time=float(matrix["min_time"]),
                min_warmup_time=float(matrix.get("min_warmup_time", 0)),
                reference=parse_reference(spec["reference"]), bound=float(spec["rounding_bound"]))


def measure(peer, integrand, a, b, n, threads, repetitions, min_time, min_warmup_time, reference, bound):
    # More threads than cores: the runtimes refuse unless told their maximum before they are imported.
    for variable in ("NUMBA_NUM_THREADS", "NUMEXPR_MAX_THREADS"):
        os.environ.setdefault(variable, str(max(threads, os.cpu_count() or 1)))
    integrate = peers.kernel(peer)  # raises peers.Unavailable

    outcome, results = {}, Results()
    if "numba" in peers.BY_ID[peer]["needs"]:  # the first call compiles: make it apart, at n = 1
        start = time.perf_counter_ns()
        integrate(integrand, a, b, 1, threads)
        outcome["compile_seconds"] = (time.perf_counter_ns() - start) / 1e9
    for family in peers.families(peers.BY_ID[peer]):  # a module compiled by the build, not here: its seconds
        seconds = family.build_seconds(peers.BY_ID[peer])
        if seconds is not None:
            outcome["build_seconds"] = seconds

    def call():
        return integrate(integrand, a, b, n, threads)

    if pypy_peers.running_under_pypy():  # the JIT compiles the loop during the first call: time it apart
        start = time.perf_counter_ns()
        results.add(call())
        outcome["jit_warmup_seconds"] = (time.perf_counter_ns() - start) / 1e9

    iterations = 1
    if min_warmup_time > 0:
        iterations, _, _ = sized_run(call, iterations, min_warmup_time, results)
    timed = []
    for index in range(repetitions):
        iterations, wall, cpu = sized_run(call, iterations, min_time, results)
        timed.append({"repetition_index": index, "iterations": iterations,
                      "real_time": wall / iterations, "cpu_time": cpu / iterations})
    real = aggregates([r["real_time"] for r in timed])
    cpu = aggregates([r["cpu_time"] for r in timed])

    memory = memory_of_one_call(call)
    result = results.first
    rounding_abs = difference(result, reference["midpoint"])
    outcome.update({
        "status": "ok",
        "repetitions": timed,
        "aggregates": {name: {"real_time": real[name], "cpu_time": cpu[name]} for name in real},
        "measured_seconds": sum(r["real_time"] * r["iterations"] for r in timed) / 1e9,
        "median_check": real["median"],
        "result": result,
        "bit_identical": len(results.distinct) == 1,
        "distinct_results": len(results.distinct),
        "exact": float(reference["exact"]),
        "midpoint": float(reference["midpoint"]),
        "midpoint_method": reference["method"],
        "rel_error": relative_error(result, reference["exact"]),
        "rounding_error": relative_error(result, reference["midpoint"]),
        "rounding_abs_error": rounding_abs,
        "rounding_bound": bound,
        "within_rounding_bound": abs(rounding_abs) <= bound,
        "memory": memory,
        "instruction_set": "python",
        "simd_width": 0,
        "python": sys.version.split()[0],
        "interpreter": pypy_peers.interpreter_record(),
    })
    return outcome


def short(n):
    """20000000 as 2e7; a number that is not a round power of ten times a few digits as it is."""
    digits, zeros = str(n).rstrip("0"), len(str(n)) - len(str(n).rstrip("0"))
    return f"{digits}e{zeros}" if zeros >= 3 else str(n)


def outcome_of(spec):
    """The result JSON and the exit code; a pure-Python cell over max_nodes is skipped, never attempted."""
    cell = read_spec(spec)
    limit = peers.max_nodes(cell["peer"])
    if limit is not None and cell["n"] > limit:
        return {"status": "skipped",
                "reason": f"pure Python at n = {short(cell['n'])} would take minutes; "
                          f"the limit is {short(limit)} nodes (max_nodes on its card)"}, 0
    try:
        if peers.BY_ID[cell["peer"]].get("interpreter") == pypy_peers.PACKAGE and \
                not pypy_peers.running_under_pypy():
            reason = peers.unavailable_reason(cell["peer"]) or pypy_peers.start_again_under_pypy(sys.argv)
            raise peers.Unavailable(reason)  # start_again_under_pypy returns only when pypy3 did not start
        return measure(**cell), 0
    except peers.Unavailable as error:
        return {"status": "unavailable", "reason": f"peer '{cell['peer']}' cannot run here: {error}"}, WORKER_FAILED
    except MemoryError as error:  # NumPy's _ArrayMemoryError is one too
        soft, _ = resource.getrlimit(resource.RLIMIT_DATA)
        within = ("with no limit set" if soft == resource.RLIM_INFINITY
                  else f"within the cell's limit of {soft >> 20} MiB")
        return {"status": "out_of_memory",
                "reason": f"out of memory: an allocation failed (MemoryError: {error}) {within}"}, \
            WORKER_OUT_OF_MEMORY
    except Exception as error:
        return {"status": "failed", "reason": f"the kernel threw: {type(error).__name__}: {error}"}, WORKER_FAILED


def finite(value):
    """JSON has no NaN or infinity: null, as nlohmann::json writes them."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: finite(item) for key, item in value.items()}
    if isinstance(value, list):
        return [finite(item) for item in value]
    return value


def write_atomically(path, text):
    temporary = f"{path}.tmp.{os.getpid()}"
    with open(temporary, "w") as out:
        out.write(text)
    os.replace(temporary, path)


def main():
    parser = argparse.ArgumentParser(description="Measures one cell of a Python peer (see peers.py).")
    parser.add_argument("--spec", required=True, help="the cell, the matrix and the reference, as JSON")
    parser.add_argument("--result", required=True, help="the file the result JSON is written to")
    arguments = parser.parse_args()
    try:
        outcome, code = outcome_of(json.loads(arguments.spec))
    except (ValueError, KeyError, TypeError) as error:  # a spec that does not parse or lacks a field
        outcome = {"status": "failed", "reason": f"not a cell spec: {type(error).__name__}: {error}"}
        code = WORKER_FAILED
    write_atomically(arguments.result, json.dumps(finite(outcome)) + "\n")
    return code


if __name__ == "__main__":
    sys.exit(main())
