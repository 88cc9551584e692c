// Rung 13 — tuned-exp: the card; the kernel is kernels/tuned_exp.hpp.
#include "kernels/tuned_exp.hpp"

#include <cstdint>

#include "simd_integrands.hpp"
#include "tier.hpp"

namespace {

const ladder::Registration registration{
    {.id = "tuned-exp",
     .rung = 13,
     .summary = "the xsimd kernel with a hand-written vector exp (gauss); the other integrands as on xsimd",
     .libraries = {"xsimd 8.1"},
     .concepts = {"SIMD batch types", "range reduction", "polynomial evaluation schemes",
                  "IEEE 754 bit manipulation", "ulp error analysis", "AVX-512 intrinsics"},
     .learning_time = ladder::LearningTime::days,
     .evaluates = ladder::tuned_batches,
     .summation = "4 × width SIMD lanes, then a horizontal add",
     .summation_depth = ladder::lanes_depth<ladder::simd::accumulators * ladder::simd::width>,
     .note = ladder::tuned_integrands_note,
     .max_ulp_error = ladder::tuned::max_ulp_error},
    [](ladder::TunedIntegrand auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions&) {
      return ladder::tuned_exp(f, ab.a, ab.b, n);
    }};

}  // namespace
