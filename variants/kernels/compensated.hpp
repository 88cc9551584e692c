// Rung 7 — compensated: the xsimd kernel over blocks of 4096 nodes, and the block sums added with
// Neumaier's compensated summation, which carries the rounding error of each addition forward and adds it
// back at the end. One long sum's error grows with n; this one's does not. The extra work is a few
// operations per block, not per node, so it costs nothing measurable.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "simd_kernel.hpp"

namespace ladder {

inline constexpr std::int64_t compensated_block = 4096;

// The midpoint rule: the integral of f over [a, b] with n nodes.
template <simd::Integrand F>
double compensated(F f, double a, double b, std::int64_t n) {
  constexpr std::int64_t block = compensated_block;
  const double step = (b - a) / static_cast<double>(n);
  double sum = 0.0;
  double compensation = 0.0;  // the low-order bits the additions to `sum` have lost
  for (std::int64_t first = 0; first < n; first += block) {
    const double term = simd::block_sum(f, a, step, first, std::min(n, first + block));
    const double next = sum + term;
    compensation += std::fabs(sum) >= std::fabs(term) ? (sum - next) + term : (term - next) + sum;
    sum = next;
  }
  return (sum + compensation) * step;
}

}  // namespace ladder
