// Rung 13 — tuned-exp: the xsimd kernel with an exp of our own (tuned_exp_math.hpp). A library exp must be
// right for every input and every caller; written for this loop, it is a range reduction, a polynomial and
// a scale by 2^k, all in vector registers (with AVX-512: a 16-entry table in registers and vscalefpd;
// otherwise split Horner and the exponent bits). What it buys is speed on the one
// integrand that calls exp (gauss); what it costs is a maths routine the team now owns, with its accuracy
// test.
#pragma once

#include <cstdint>

#include "simd_kernel.hpp"
#include "tuned_exp_math.hpp"

namespace ladder {

// The midpoint rule: the integral of f over [a, b] with n nodes.
template <tuned::Integrand F>
double tuned_exp(F f, double a, double b, std::int64_t n) {
  const double step = (b - a) / static_cast<double>(n);
  return simd::block_sum(tuned::with_tuned_exp(f), a, step, 0, n) * step;
}

}  // namespace ladder
