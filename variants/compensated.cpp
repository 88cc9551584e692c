// Rung 7 — compensated: the xsimd kernel over blocks of 4096 nodes, and the block sums added with
// Neumaier's compensated summation, which carries the rounding error of each addition forward and adds it
// back at the end. One long sum's error grows with n; this one's does not. The extra work is a few
// operations per block, not per node, so it costs nothing measurable.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "simd_kernel.hpp"
#include "tier.hpp"

namespace {

constexpr std::int64_t block = 4096;

template <class F>
double integrate(F f, ladder::Interval ab, std::int64_t n) {
  const double step = (ab.b - ab.a) / static_cast<double>(n);
  double sum = 0.0;
  double compensation = 0.0;  // the low-order bits the additions to `sum` have lost
  for (std::int64_t first = 0; first < n; first += block) {
    const double term = ladder::simd::block_sum(f, ab.a, step, first, std::min(n, first + block));
    const double next = sum + term;
    compensation += std::fabs(sum) >= std::fabs(term) ? (sum - next) + term : (term - next) + sum;
    sum = next;
  }
  return (sum + compensation) * step;
}

double block_depth(std::int64_t, int) {
  const auto lanes = ladder::simd::accumulators * ladder::simd::width;
  return static_cast<double>(block / lanes + lanes + 4);
}

const ladder::Registration registration{
    {.id = "compensated",
     .rung = 7,
     .summary = "the xsimd kernel per block, block sums added with Neumaier compensation",
     .libraries = {"xsimd 8.1"},
     .concepts = {"SIMD batch types", "compensated summation", "floating-point error"},
     .learning_time = ladder::LearningTime::days,
     .evaluates = ladder::Evaluates::simd_batches,
     .summation = "SIMD lanes within 4096-node blocks, block sums compensated (Neumaier)",
     .summation_depth = block_depth},
    [](ladder::simd::Integrand auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions&) {
      return integrate(f, ab, n);
    }};

}  // namespace
