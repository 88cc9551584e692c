// Rung 18 — sleef: the xsimd kernel with SLEEF's vector exp (sleef_exp.hpp). Where tuned-exp writes its own
// exp, this tier takes one from a library whose whole job is vectorized elementary functions, each named
// for its accuracy bound and instruction set: Sleef_expd8_u10avx512f, 8 doubles within 1.0 ulp. What it
// buys is a tested exp (subnormals, infinities and NaN included) at vector speed on the integrands that
// call exp; what it costs is a shared library to ship, and an out-of-line call per batch.
#pragma once

#include <cstdint>

#include "simd_kernel.hpp"
#include "sleef_exp.hpp"

namespace ladder {

// The midpoint rule: the integral of f over [a, b] with n nodes.
template <sleef_exp::Integrand F>
double sleef(F f, double a, double b, std::int64_t n) {
  const double step = (b - a) / static_cast<double>(n);
  return simd::block_sum(sleef_exp::with_sleef_exp(f), a, step, 0, n) * step;
}

}  // namespace ladder
