"""The pythran peer: the midpoint rule's plain loop, compiled ahead of time by Pythran into a C++ module.

Pythran reads the `#pythran export` comments for the types a Python caller passes (two floats and an int)
and turns the rest, plain Python, into C++: the lambda is inlined into the loop, which runs without the
interpreter. The file stays Python: CPython imports it as it is (the card counts its lines that way).
"""
import math


def midpoint(f, a, b, n):
    h = (b - a) / n
    total = 0.0
    for i in range(n):
        total += f(a + (i + 0.5) * h)
    return total * h


# One exported function a built-in integrand: Pythran compiles a function for the types it is exported with.
#pythran export gauss(float, float, int)
def gauss(a, b, n):
    return midpoint(lambda x: math.exp(-x * x), a, b, n)


#pythran export pi(float, float, int)
def pi(a, b, n):
    return midpoint(lambda x: 4.0 / (1.0 + x * x), a, b, n)


#pythran export sin(float, float, int)
def sin(a, b, n):
    return midpoint(lambda x: math.sin(x), a, b, n)


#pythran export poly(float, float, int)
def poly(a, b, n):
    return midpoint(lambda x: ((x - 2.0) * x + 3.0) * x + 1.0, a, b, n)
