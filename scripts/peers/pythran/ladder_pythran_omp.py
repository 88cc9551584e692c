"""The pythran-omp peer: the pythran peer's loop with one OpenMP comment, compiled by Pythran with -fopenmp.

`#omp parallel for` shares the loop's iterations among `threads` threads; `reduction(+:total)` gives each
thread its own total, and OpenMP adds them when the threads join. Without -fopenmp, Pythran reads the
comment as a comment: the same file is then the plain loop again.
"""
import math


def midpoint(f, a, b, n, threads):
    h = (b - a) / n
    total = 0.0
    #omp parallel for reduction(+:total) num_threads(threads)
    for i in range(n):
        total += f(a + (i + 0.5) * h)
    return total * h


#pythran export gauss(float, float, int, int)
def gauss(a, b, n, threads):
    return midpoint(lambda x: math.exp(-x * x), a, b, n, threads)


#pythran export pi(float, float, int, int)
def pi(a, b, n, threads):
    return midpoint(lambda x: 4.0 / (1.0 + x * x), a, b, n, threads)


#pythran export sin(float, float, int, int)
def sin(a, b, n, threads):
    return midpoint(lambda x: math.sin(x), a, b, n, threads)


#pythran export poly(float, float, int, int)
def poly(a, b, n, threads):
    return midpoint(lambda x: ((x - 2.0) * x + 3.0) * x + 1.0, a, b, n, threads)
