# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# The cython-parallel peer: the cython peer's typed loop as a prange under nogil. Cython writes it as an
# OpenMP `parallel for` with a reduction over total, so the module is compiled and linked with -fopenmp
# (the tool's own flag). The threads add their shares in the order they finish: the bits may vary.
from cython.parallel cimport prange
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


cdef double midpoint(Integrand f, double a, double b, long n, int threads) nogil:
    cdef double h = (b - a) / n
    cdef double total = 0.0
    cdef long i
    for i in prange(n, num_threads=threads, schedule="static"):
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
    raise ValueError(f"the cython-parallel peer has no integrand '{integrand}' (it runs gauss, pi, sin and poly)")


def integrate(str integrand, double a, double b, long n, int threads):
    cdef Integrand f = chosen(integrand)
    cdef double total
    with nogil:  # other Python threads run meanwhile
        total = midpoint(f, a, b, n, threads)
    return total
