// Rung 6 — xsimd: explicit SIMD. The kernel (simd_kernel.hpp) evaluates f on whole registers of nodes
// at once — 8 doubles with AVX-512, 4 with AVX2 — keeping four partial sums in flight. The integrand is
// the same generic callable: xsimd provides exp and sin for batches.
#include <cmath>
#include <cstdint>

#include "simd_kernel.hpp"
#include "tier.hpp"

namespace {

template <class F>
double integrate(F f, ladder::Interval ab, std::int64_t n) {
  const double step = (ab.b - ab.a) / static_cast<double>(n);
  return ladder::simd::block_sum(f, ab.a, step, 0, n) * step;
}

double lanes_depth(std::int64_t n, int) {
  const auto lanes = ladder::simd::accumulators * ladder::simd::width;
  return static_cast<double>(n / lanes + lanes);
}

const ladder::Registration registration{
    {.id = "xsimd",
     .rung = 6,
     .summary = "explicit SIMD batches (xsimd), four accumulators, the widest registers available",
     .libraries = {"xsimd 8.1"},
     .concepts = {"SIMD batch types", "vector math functions", "loop remainders"},
     .learning_time = ladder::LearningTime::days,
     .evaluates = ladder::Evaluates::simd_batches,
     .summation = "4 × width SIMD lanes, then a horizontal add",
     .summation_depth = lanes_depth},
    [](ladder::simd::Integrand auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions&) {
      return integrate(f, ab, n);
    }};

}  // namespace
