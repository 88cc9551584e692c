"""Peers: the midpoint rule I ≈ h·Σ f(a + (i + ½)h), h = (b − a)/n, written the ways Python people write it.

They form their own staircase (rungs from 100) beside the C++ tiers, and `ladder run` measures them with
scripts/peers/worker.py, the same protocol as the C++ worker. Every peer is a function with one signature,

    integrate(integrand_name, a, b, n, threads) -> float

and a card with the fields of `ladder list --json`. NumPy, numexpr and Numba are optional: a peer whose module
is missing is listed as unavailable, with the reason.

The peers that need more than a Python module come in families, one module each, listed in FAMILY_MODULES.
A family module has one shape:
    NAME                  the word in its peers' `needs` (and in LADDER_PEERS_HIDE)
    NEEDS                 what it needs, the start of every reason it gives for being unavailable
    need(unavailable)     returns when its peers can run here, else raises unavailable(the reason)
    peers(earlier)        its peers' cards, given the peers listed before it by id; a card with `after`
                          goes right after that peer (a twin), the others after every earlier peer
    card_fields(peer)     what a peer's card says beyond what card() says of every peer
    build_seconds(peer)   the seconds the build took to compile the peer's module, for its cells; None
                          when the build compiles nothing for it
A family's compiled modules lie in its own subfolder of $LADDER_PEER_MODULES (built_modules.py).

    python3 scripts/peers/peers.py cards        # the JSON array of every peer's card
"""
import functools
import importlib
import inspect
import json
import math
import os
import platform
import sys

FAMILY_MODULES = [  # the families, in their rungs' order: a new family is its module and one line here
    "extension_peers",  # cpp-extension: the xsimd tier exported as a pybind11 module
    "pypy_peers",  # py-list, py-generator and py-inlined under PyPy, each beside its twin
    "pythran_peers",  # the loop compiled by Pythran at build time
    "cython_peers",  # py-inlined compiled by Cython at build time, then typed, then under prange
]
FAMILIES = [importlib.import_module(name) for name in FAMILY_MODULES]

np = ne = numba = None  # imported by need(), by the peers that use them only: py-list never pays for Numba

# The four integrands of variants/integrands.hpp (same names, same expressions), for a float x.
SCALAR = {
    "gauss": lambda x: math.exp(-x * x),
    "pi": lambda x: 4.0 / (1.0 + x * x),
    "sin": lambda x: math.sin(x),
    "poly": lambda x: ((x - 2.0) * x + 3.0) * x + 1.0,
}
# ... for a NumPy array x (ufuncs and operators make temporaries) ...
ARRAY = {
    "gauss": lambda x: np.exp(-x * x),
    "pi": lambda x: 4.0 / (1.0 + x * x),
    "sin": lambda x: np.sin(x),
    "poly": lambda x: ((x - 2.0) * x + 3.0) * x + 1.0,
}
# ... and as numexpr strings.
EXPRESSION = {
    "gauss": "exp(-x * x)",
    "pi": "4.0 / (1.0 + x * x)",
    "sin": "sin(x)",
    "poly": "((x - 2.0) * x + 3.0) * x + 1.0",
}
CHUNK = 65536  # nodes a chunk, for the chunked peers


# ---- py-list: the notebook version, a list of every node, then a loop calling a lambda.
def py_list(integrand, a, b, n, threads=1):
    f = SCALAR[integrand]
    h = (b - a) / n
    nodes = [a + (i + 0.5) * h for i in range(n)]
    total = 0.0
    for x in nodes:
        total += f(x)
    return total * h


# ---- py-generator: the nodes from a generator, no list; sum() adds f(node) as they come.
def py_generator(integrand, a, b, n, threads=1):
    f = SCALAR[integrand]
    h = (b - a) / n
    nodes = (a + (i + 0.5) * h for i in range(n))
    return sum(f(x) for x in nodes) * h


# ---- py-inlined: the integrand's expression inside the generator, no function call a node.
# `for x in [expr]` inside a comprehension is compiled as a plain assignment (Python 3.9+).
def py_inlined(integrand, a, b, n, threads=1):
    h = (b - a) / n
    exp, sin = math.exp, math.sin  # local names: a global and an attribute lookup fewer a node
    if integrand == "gauss":
        total = sum(exp(-x * x) for i in range(n) for x in [a + (i + 0.5) * h])
    elif integrand == "pi":
        total = sum(4.0 / (1.0 + x * x) for i in range(n) for x in [a + (i + 0.5) * h])
    elif integrand == "sin":
        total = sum(sin(x) for i in range(n) for x in [a + (i + 0.5) * h])
    elif integrand == "poly":
        total = sum(((x - 2.0) * x + 3.0) * x + 1.0 for i in range(n) for x in [a + (i + 0.5) * h])
    else:
        raise KeyError(integrand)
    return total * h


# ---- numpy: every node in one array, the integrand on the whole array, then .sum().
def numpy_whole(integrand, a, b, n, threads=1):
    h = (b - a) / n
    x = a + (np.arange(n) + 0.5) * h
    return float(ARRAY[integrand](x).sum() * h)


# ---- numpy-chunked: the same over chunks, into buffers allocated once (out=): bounded memory.
def gauss_into(x, out):
    np.multiply(x, x, out=out)
    np.negative(out, out=out)
    return np.exp(out, out=out)


def pi_into(x, out):
    np.multiply(x, x, out=out)
    np.add(out, 1.0, out=out)
    return np.divide(4.0, out, out=out)


def sin_into(x, out):
    return np.sin(x, out=out)


def poly_into(x, out):
    np.subtract(x, 2.0, out=out)
    np.multiply(out, x, out=out)
    np.add(out, 3.0, out=out)
    np.multiply(out, x, out=out)
    return np.add(out, 1.0, out=out)


INTO = {"gauss": gauss_into, "pi": pi_into, "sin": sin_into, "poly": poly_into}


def numpy_chunked(integrand, a, b, n, threads=1):
    f = INTO[integrand]
    h = (b - a) / n
    k = np.arange(min(n, CHUNK), dtype=np.float64)
    x, y = np.empty_like(k), np.empty_like(k)
    total = 0.0
    for start in range(0, n, CHUNK):
        m = min(CHUNK, n - start)
        np.add(k[:m], start + 0.5, out=x[:m])  # i + ½, exact below 2^53
        np.multiply(x[:m], h, out=x[:m])
        np.add(x[:m], a, out=x[:m])
        total += float(f(x[:m], y[:m]).sum())
    return total * h


# ---- numexpr: the expression compiled once by numexpr, evaluated over chunks on a thread pool.
def numexpr_chunked(integrand, a, b, n, threads):
    ne.set_num_threads(threads)
    h = (b - a) / n
    k = np.arange(min(n, CHUNK), dtype=np.float64)
    x, y = np.empty_like(k), np.empty_like(k)
    total = 0.0
    for start in range(0, n, CHUNK):
        m = min(CHUNK, n - start)
        nodes = {"a": a, "h": h, "k": k[:m], "offset": start + 0.5}
        ne.evaluate("a + (k + offset) * h", local_dict=nodes, out=x[:m])
        ne.evaluate(EXPRESSION[integrand], local_dict={"x": x[:m]}, out=y[:m])
        total += float(y[:m].sum())  # the threads only evaluate; NumPy sums, so the bits never depend on them
    return total * h


# ---- numba: the plain loop, compiled to machine code by Numba (LLVM) on its first call.
@functools.cache
def numba_kernel(integrand):
    f = numba.njit(SCALAR[integrand])  # the same lambda as py-list's, compiled too, and inlined

    @numba.njit
    def kernel(a, b, n):
        h = (b - a) / n
        total = 0.0
        for i in range(n):
            total += f(a + (i + 0.5) * h)
        return total * h

    return kernel


def numba_loop(integrand, a, b, n, threads=1):
    return numba_kernel(integrand)(a, b, n)


# ---- numba-parallel: prange splits the loop among threads; Numba gives each its own total.
@functools.cache
def numba_parallel_kernel(integrand):
    f = numba.njit(SCALAR[integrand])

    @numba.njit(parallel=True)
    def kernel(a, b, n):
        h = (b - a) / n
        total = 0.0
        for i in numba.prange(n):  # a reduction: per-thread totals, added when the threads join
            total += f(a + (i + 0.5) * h)
        return total * h

    return kernel


def numba_parallel(integrand, a, b, n, threads):
    numba.set_num_threads(threads)
    return numba_parallel_kernel(integrand)(a, b, n)


# ---------------------------------------------------------------------------------------------------------
# The cards: what `ladder list --json` says of a C++ tier, for each peer. Computed fields are added by card().

IMPORT_NAME = {"numpy": "np", "numexpr": "ne", "numba": "numba"}
PURE_PYTHON_MAX_NODES = 10**7  # 1e7 nodes take a pure-Python peer some seconds a call; above, minutes a cell


class Unavailable(Exception):
    """A peer cannot run here: one of its modules cannot be imported."""


def need(module):
    """Import an optional module into this file's globals, or raise Unavailable with the reason.
    LADDER_PEERS_HIDE=numba,numexpr,extension makes the named modules look missing (for the tests)."""
    family = FAMILY.get(module)
    if module in os.environ.get("LADDER_PEERS_HIDE", "").split(","):
        missing = family.NEEDS if family else f"needs {module}"
        raise Unavailable(f"{missing}: No module named '{module}' (hidden by LADDER_PEERS_HIDE)")
    if family:
        return family.need(Unavailable)
    try:
        globals()[IMPORT_NAME[module]] = importlib.import_module(module)
    except Exception as error:  # ImportError, or a broken install (a NumPy too new for this Numba, ...)
        raise Unavailable(f"needs {module}: {error}") from None


# How the built-in sum() adds: Python 3.12 made it compensated.
BUILTIN_SUM = ("sum(): one accumulator, in order, Neumaier-compensated" if sys.version_info >= (3, 12)
               else "sum(): one accumulator, in order")

PEERS = [
    dict(id="py-list", functions=[py_list], needs=[],
         summary="a list of all n nodes, then a loop calling f, a lambda over math.exp",
         libraries=[], concepts=["lists", "list comprehensions", "lambdas", "the interpreter loop"],
         learning_time="minutes", parallel=False, reproducible="always",
         summation="one accumulator, in order",
         heap_bytes_per_node=32,  # a pointer in the list + a float object (24 bytes) a node
         baseline=True),  # the report measures every row against it too
    dict(id="py-generator", functions=[py_generator], needs=[],
         summary="nodes from a generator, sum() over f(node): no list",
         libraries=[], concepts=["generator expressions", "built-in sum()", "lambdas"],
         learning_time="minutes", parallel=False, reproducible="always",
         summation=BUILTIN_SUM,
         heap_bytes_per_node=0),
    dict(id="py-inlined", functions=[py_inlined], needs=[],
         summary="the integrand's expression written inside the generator expression: no call a node",
         libraries=[], concepts=["generator expressions", "function-call overhead", "local names"],
         learning_time="minutes", parallel=False, reproducible="always",
         summation=BUILTIN_SUM,
         heap_bytes_per_node=0,
         staircase="py-inlined compiled by Cython"),  # the interpreted rung of cython_peers.STAIRCASE
    dict(id="numpy", functions=[numpy_whole], needs=["numpy"],
         summary="np.arange nodes, the integrand on the whole array, then .sum()",
         libraries=["NumPy"], concepts=["arrays", "vectorized ufuncs", "temporary arrays"],
         learning_time="hours", parallel=False, reproducible="always",
         summation="NumPy's pairwise sum (blocks of 128 nodes, 8 accumulators each)",
         heap_bytes_per_node=24),  # the nodes + two temporaries alive at once (tracemalloc, gauss at 1e6)
    dict(id="numpy-chunked", functions=[gauss_into, pi_into, sin_into, poly_into, numpy_chunked],
         needs=["numpy"],
         summary=f"the numpy peer over chunks of {CHUNK} nodes, into buffers allocated once (out=)",
         libraries=["NumPy"], concepts=["arrays", "ufunc out= arguments", "in-place operations", "chunking"],
         learning_time="hours", parallel=False, reproducible="always",
         summation=f"NumPy's pairwise sum within each {CHUNK}-node chunk, chunk sums in order",
         heap_bytes_per_node=0),
    dict(id="numexpr", functions=[numexpr_chunked], needs=["numpy", "numexpr"],
         summary=f"numexpr evaluates the expression string over chunks of {CHUNK} nodes on its threads",
         libraries=["NumPy", "numexpr"],
         concepts=["expression strings", "bytecode virtual machines", "thread pools", "chunking"],
         learning_time="hours", parallel=True, reproducible="always",
         summation=f"NumPy's pairwise sum within each {CHUNK}-node chunk, chunk sums in order; "
                   "the threads only evaluate",
         heap_bytes_per_node=0),
    dict(id="numba", functions=[numba_kernel, numba_loop], needs=["numba"],
         summary="the plain loop under @njit: compiled by Numba (LLVM) on its first call",
         libraries=["Numba (LLVM JIT)"],
         concepts=["JIT compilation", "type specialization", "compile time apart from run time"],
         learning_time="hours", parallel=False, reproducible="always",
         summation="one accumulator, in order",
         heap_bytes_per_node=0),
    dict(id="numba-parallel", functions=[numba_parallel_kernel, numba_parallel], needs=["numba"],
         summary="@njit(parallel=True): prange shares the loop among threads, Numba reduces",
         libraries=["Numba (LLVM JIT)"],
         concepts=["JIT compilation", "parallel loops (prange)", "reductions", "threading layers"],
         learning_time="hours", parallel=True, reproducible="no",
         summation="one accumulator per thread over its share, thread totals added by Numba",
         heap_bytes_per_node=0),
]
FAMILY = {}  # a family module by its NAME
for family in FAMILIES:
    FAMILY[family.NAME] = family
    for peer in family.peers({peer["id"]: peer for peer in PEERS}):
        twin = [index for index, earlier in enumerate(PEERS) if earlier["id"] == peer.get("after")]
        PEERS.insert(twin[0] + 1 if twin else len(PEERS), peer)  # a twin's peer side by side with it
BY_ID = {peer["id"]: peer for peer in PEERS}


def source_lines(functions):
    """Lines of code in the functions' source: blank lines and comment lines are not counted."""
    lines = [line.strip() for f in functions for line in inspect.getsource(f).splitlines()]
    return sum(1 for line in lines if line and not line.startswith("#"))


def unavailable_reason(peer_id):
    """None if every module the peer needs imports, else why not."""
    try:
        for module in BY_ID[peer_id]["needs"]:
            need(module)
    except Unavailable as error:
        return str(error)
    return None


def kernel(peer_id):
    """The peer's integrate(integrand, a, b, n, threads), its modules imported (or Unavailable raised)."""
    if peer_id not in BY_ID:
        raise KeyError(f"unknown peer '{peer_id}' (the peers: {', '.join(BY_ID)})")
    reason = unavailable_reason(peer_id)
    if reason:
        raise Unavailable(reason)
    return BY_ID[peer_id]["functions"][-1]


def max_nodes(peer_id):
    """The largest n a pure-Python peer is run at; None for the others."""
    default = PURE_PYTHON_MAX_NODES if not BY_ID[peer_id]["needs"] else None
    return BY_ID[peer_id].get("max_nodes", default)  # a peer run by a faster interpreter has its own


def families(peer):
    """The family modules whose NAME the peer needs."""
    return [FAMILY[module] for module in peer["needs"] if module in FAMILY]


def card(peer_id):
    peer = BY_ID[peer_id]
    reason = unavailable_reason(peer_id)
    internal = ("functions", "needs", "interpreter", "module", "after")
    fields = {key: value for key, value in peer.items() if key not in internal}
    own = {}  # what its family says: a compiled peer's source, flags and build; PyPy's Python; shared code
    for family in families(peer):
        own.update(family.card_fields(peer))
    return {**fields, "heap_bytes_per_node": float(peer["heap_bytes_per_node"]),
            "rung": 100 + PEERS.index(peer),
            "source_file": os.path.basename(__file__),
            "source_lines": source_lines(peer["functions"]),
            "shared_lines": 0, "shares": [], "flags": [], "environment": [], "distributed": False,
            "peer": True, "language": f"Python {platform.python_version()}",
            "max_nodes": max_nodes(peer_id),
            "available": reason is None, "unavailable_reason": reason, **own}


def cards():
    return [card(peer["id"]) for peer in PEERS]


def valid_text(value):
    """Each string as valid UTF-8 (U+FFFD a byte): a path that is not (LADDER_PYPY) has lone surrogates."""
    if isinstance(value, dict):
        return {valid_text(key): valid_text(item) for key, item in value.items()}
    if isinstance(value, list):
        return [valid_text(item) for item in value]
    return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace") if isinstance(value, str) else value


if __name__ == "__main__":
    if sys.argv[1:] != ["cards"]:
        sys.exit("usage: python3 scripts/peers/peers.py cards")
    print(json.dumps(valid_text(cards()), indent=1, sort_keys=True))
