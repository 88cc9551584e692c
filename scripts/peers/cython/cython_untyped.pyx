# cython: language_level=3
# The cython-untyped peer: py-inlined's function (scripts/peers/peers.py) as it is, compiled by Cython with
# no type declared. Cython turns the interpreter's bytecode into C calls of the Python C-API, one per
# operation on a Python float: compiling alone removes the bytecode loop, not the objects.
import math


def py_inlined(integrand, a, b, n, threads=1):
    # kernel begins: the lines its yellow count covers (scripts/peers/cython_yellow.py)
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
    # kernel ends
