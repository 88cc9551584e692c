// Rung 5 — autovec: the plain loop again, but the compiler is allowed to vectorize it. `omp simd` with a
// reduction lets it add in SIMD lanes (a different order than written), and this file alone is built with
// -ffast-math, under which glibc declares vector versions of exp and sin (libmvec) for it to call.
// The flags are the price: they relax floating point for everything in this file.
#include <algorithm>
#include <cstdint>

#include "tier.hpp"

namespace {

constexpr std::int64_t block = std::int64_t{1} << 20;

template <class F>
double integrate(F f, ladder::Interval ab, std::int64_t n) {
  const double step = (ab.b - ab.a) / static_cast<double>(n);
  double sum = 0.0;
  // The inner index is 32-bit on purpose: converting 64-bit integers to double in SIMD registers needs
  // AVX-512DQ, and without it GCC silently leaves the whole loop scalar.
  for (std::int64_t first = 0; first < n; first += block) {
    const int size = static_cast<int>(std::min(block, n - first));
    const double start = ab.a + static_cast<double>(first) * step;
#pragma omp simd reduction(+ : sum)
    for (int i = 0; i < size; ++i) sum += f(start + (i + 0.5) * step);
  }
  return sum * step;
}

const ladder::Registration registration{
    {.id = "autovec",
     .rung = 5,
     .summary = "the plain loop, vectorized by the compiler (omp simd, -ffast-math, libmvec)",
     .libraries = {"glibc libmvec"},
     .concepts = {"compiler vectorization", "floating-point reassociation", "compiler flags"},
     .learning_time = ladder::LearningTime::hours,
     .summation = "SIMD lanes chosen by the compiler",
     .summation_depth = ladder::sequential_depth},
    [](auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions&) {
      return integrate(f, ab, n);
    }};

}  // namespace
