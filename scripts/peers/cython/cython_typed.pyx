# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# The cython peer: the plain loop typed. `cdef double` makes every node a C double in a register, libc's
# exp and sin replace math's, and the directives above drop the checks Python's semantics need (index
# bounds, negative indices, division by zero raising): the loop makes no call into the Python C-API.
from libc.math cimport exp, sin


# kernel begins: the lines its yellow count covers (scripts/peers/cython_yellow.py)
cdef inline double gauss(double x) nogil:
    return exp(-x * x)


cdef inline double pi(double x) nogil:
    return 4.0 / (1.0 + x * x)


cdef inline double sine(double x) nogil:
    return sin(x)


cdef inline double poly(double x) nogil:
    return ((x - 2.0) * x + 3.0) * x + 1.0


ctypedef double (*Integrand)(double) nogil


cdef double midpoint(Integrand f, double a, double b, long n) nogil:
    cdef double h = (b - a) / n
    cdef double total = 0.0
    cdef long i
    for i in range(n):
        total += f(a + (i + 0.5) * h)
    return total * h
# kernel ends


cdef Integrand chosen(str integrand) except NULL:
    if integrand == "gauss":
        return gauss
    if integrand == "pi":
        return pi
    if integrand == "sin":
        return sine
    if integrand == "poly":
        return poly
    raise ValueError(f"the cython peer has no integrand '{integrand}' (it runs gauss, pi, sin and poly)")


def integrate(str integrand, double a, double b, long n, int threads=1):
    cdef Integrand f = chosen(integrand)
    return midpoint(f, a, b, n)
