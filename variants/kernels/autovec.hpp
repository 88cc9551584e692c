// Rung 5 — autovec: the plain loop again, but the compiler is allowed to vectorize it. `omp simd` with a
// reduction lets it add in SIMD lanes (a different order than written), and this file alone is built with
// -ffast-math, under which glibc declares vector versions of exp and sin (libmvec) for it to call.
// The flags are the price: they relax floating point for everything in this file.
//
// Build the file that calls it with -ffast-math -fopenmp-simd (without them it is the inlined rung's loop).
#pragma once

#include <algorithm>
#include <cstdint>

namespace ladder {

// The midpoint rule: the integral of f over [a, b] with n nodes.
template <class F>
double autovec(F f, double a, double b, std::int64_t n) {
  constexpr std::int64_t block = std::int64_t{1} << 20;
  const double step = (b - a) / static_cast<double>(n);
  double sum = 0.0;
  // The inner index is 32-bit on purpose: converting 64-bit integers to double in SIMD registers needs
  // AVX-512DQ, and without it GCC silently leaves the whole loop scalar.
  for (std::int64_t first = 0; first < n; first += block) {
    const int size = static_cast<int>(std::min(block, n - first));
    const double start = a + static_cast<double>(first) * step;
#pragma omp simd reduction(+ : sum)
    for (int i = 0; i < size; ++i) sum += f(start + (i + 0.5) * step);
  }
  return sum * step;
}

}  // namespace ladder
