// Rung 6 — xsimd: explicit SIMD. The kernel (simd_kernel.hpp) evaluates f on whole registers of nodes
// at once — 8 doubles with AVX-512, 4 with AVX2 — keeping four partial sums in flight. The integrand is
// the same generic callable: xsimd provides exp and sin for batches.
#pragma once

#include <cstdint>

#include "simd_kernel.hpp"

namespace ladder {

// The midpoint rule: the integral of f over [a, b] with n nodes.
template <simd::Integrand F>
double xsimd(F f, double a, double b, std::int64_t n) {
  const double step = (b - a) / static_cast<double>(n);
  return simd::block_sum(f, a, step, 0, n) * step;
}

}  // namespace ladder
