"""The notebook's profile of a pure-Python peer: each line's time (line_profiler) and each line's memory
increment (memory_profiler), for `ladder profile --peer ID`.

    python3 scripts/peers/profile.py PEER INTEGRAND A B N

prints one JSON object on stdout. Exit 0: the profile. Exit 2: the request is refused (an unknown peer, a
peer that is not pure Python, an integrand or a size it does not take), the object says which. Exit 3: a
profiler is missing, the object names its Debian package. `ladder profile` words the messages.

The memory is profiled first, in this fresh interpreter, so that nothing the time profile allocated is
still held when memory_profiler reads the resident set; the time profile follows in the same process.
"""
import inspect
import json
import os
import platform
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers  # noqa: E402

PACKAGES = {"line_profiler": "python3-line-profiler", "memory_profiler": "python3-memory-profiler"}
MIB = 2**20  # memory_profiler's psutil backend reports MiB
# The most nodes a profile takes: under memory_profiler and line_profiler a million take a minute or two.
MAX_NODES = 10**6


def pure_python(peer_id):
    """A peer is pure Python when it needs no module beyond the standard library: the rule max_nodes uses."""
    return not peers.BY_ID[peer_id]["needs"]


def accepted():
    return [peer["id"] for peer in peers.PEERS if pure_python(peer["id"])]


def refusal(peer_id, integrand, n):
    """Why the request cannot be profiled, as a JSON object, or None."""
    if peer_id not in peers.BY_ID:
        return {"refused": "unknown peer", "accepted": accepted()}
    if not pure_python(peer_id):
        return {"refused": "not pure Python", "needs": peers.BY_ID[peer_id]["needs"], "accepted": accepted()}
    if integrand not in peers.SCALAR:
        return {"refused": "integrand", "accepted": list(peers.SCALAR)}
    limit = min(peers.max_nodes(peer_id), MAX_NODES)
    if n > limit:
        return {"refused": "too many nodes", "max_nodes": limit}
    return None


def import_profilers():
    """Both profilers, or the JSON object naming the first that cannot be imported."""
    modules = {}
    for name, package in PACKAGES.items():
        try:
            modules[name] = __import__(name)
        except ImportError as error:
            return None, {"missing": name, "package": package, "error": str(error)}
    return modules, None


def memory_profile(memory_profiler, functions, call):
    """{code: {line: (increment in bytes, times it ran)}} of one call, for each function's code."""
    profiler = memory_profiler.LineProfiler(backend="psutil")
    for function in functions:
        profiler.add_function(function)
    profiler.wrap_function(call)()
    # The code map is a dict from each code object to {line: (increment, resident, times)}, in MiB.
    return {f.__code__: {line: (increment * MIB, count)
                         for line, (increment, _, count) in profiler.code_map.get(f.__code__, {}).items()}
            for f in functions}


def time_profile(line_profiler, functions, call):
    """({code: {line: (seconds, hits)}}, the timer's unit in seconds) of one call."""
    profiler = line_profiler.LineProfiler(*functions)
    profiler.runcall(call)
    stats = profiler.get_stats()
    found = {}
    for f in functions:  # line_profiler keys its timings by (file, first line, name)
        code = f.__code__
        timings = stats.timings.get((code.co_filename, code.co_firstlineno, code.co_name), [])
        found[code] = {line: (time * stats.unit, hits) for line, hits, time in timings}
    return found, stats.unit


def function_rows(function, times, memory):
    """The function's source lines, each with its time, hits and memory increment where measured."""
    source, first = inspect.getsourcelines(function)
    timed, grown = times[function.__code__], memory[function.__code__]
    rows = []
    for offset, text in enumerate(source):
        line = first + offset
        seconds, hits = timed.get(line, (None, None))
        increment, occurrences = grown.get(line, (None, None))
        rows.append({"line": line, "source": text.rstrip("\n"), "seconds": seconds, "hits": hits,
                     "increment_bytes": increment, "memory_occurrences": occurrences})
    # memory_profiler charges the def line with the whole resident set when the call starts (its first
    # reading, against nothing before it): that is where the call begins, not what the line allocates.
    at_call = rows[0]["increment_bytes"] if rows and rows[0]["seconds"] is None else None
    if at_call is not None:
        rows[0]["increment_bytes"] = None
    return {"name": function.__name__, "file": inspect.getsourcefile(function), "lines": rows, "resident_at_call_bytes": at_call}


def main(argv):
    if len(argv) != 5:
        sys.exit("usage: python3 scripts/peers/profile.py PEER INTEGRAND A B N")
    peer_id, integrand, a, b, n = argv[0], argv[1], float(argv[2]), float(argv[3]), int(argv[4])
    refused = refusal(peer_id, integrand, n)
    if refused:
        print(json.dumps(refused))
        return 2
    modules, missing = import_profilers()
    if missing:
        print(json.dumps(missing))
        return 3
    functions = [f for f in peers.BY_ID[peer_id]["functions"] if inspect.isfunction(f)]
    kernel = peers.kernel(peer_id)

    def call():
        return kernel(integrand, a, b, n, 1)

    memory = memory_profile(modules["memory_profiler"], functions, call)
    times, unit = time_profile(modules["line_profiler"], functions, call)
    print(json.dumps({
        "peer": peer_id, "integrand": integrand, "a": a, "b": b, "n": n,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "line_profiler": modules["line_profiler"].__version__,
        "memory_profiler": modules["memory_profiler"].__version__,
        "timer_unit_seconds": unit,
        "functions": [function_rows(f, times, memory) for f in functions],
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
