// Rung 13 — tuned-exp: the xsimd kernel with an exp of our own (tuned_exp.hpp). A library exp must be
// right for every input and every caller; written for this loop, it is a range reduction, a polynomial and
// a scale by 2^k, all in vector registers (with AVX-512: a 16-entry table in registers and vscalefpd;
// otherwise split Horner and the exponent bits). What it buys is speed on the one
// integrand that calls exp (gauss); what it costs is a maths routine the team now owns, with its accuracy
// test.
#include "tuned_exp.hpp"

#include <cstdint>

#include "simd_kernel.hpp"
#include "tier.hpp"

namespace {

template <class F>
double integrate(F f, ladder::Interval ab, std::int64_t n) {
  const double step = (ab.b - ab.a) / static_cast<double>(n);
  return ladder::simd::block_sum(ladder::tuned::with_tuned_exp(f), ab.a, step, 0, n) * step;
}

double lanes_depth(std::int64_t n, int) {
  const auto lanes = ladder::simd::accumulators * ladder::simd::width;
  return static_cast<double>(n / lanes + lanes);
}

const ladder::Registration registration{
    {.id = "tuned-exp",
     .rung = 13,
     .summary = "the xsimd kernel with a hand-written vector exp (gauss); the other integrands as on xsimd",
     .libraries = {"xsimd 8.1"},
     .concepts = {"SIMD batch types", "range reduction", "polynomial evaluation schemes",
                  "IEEE 754 bit manipulation", "ulp error analysis", "AVX-512 intrinsics"},
     .learning_time = ladder::LearningTime::days,
     .evaluates = ladder::Evaluates::tuned_batches,
     .summation = "4 × width SIMD lanes, then a horizontal add",
     .summation_depth = lanes_depth,
     .note = ladder::tuned::integrands_note,
     .max_ulp_error = ladder::tuned::max_ulp_error},
    [](ladder::tuned::Integrand auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions&) {
      return integrate(f, ab, n);
    }};

}  // namespace
