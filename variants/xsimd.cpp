// Rung 6 — xsimd: the card; the kernel is kernels/xsimd.hpp.
#include "kernels/xsimd.hpp"

#include <cstdint>

#include "simd_integrands.hpp"
#include "tier.hpp"

namespace {

const ladder::Registration registration{
    {.id = "xsimd",
     .rung = 6,
     .summary = "explicit SIMD batches (xsimd), four accumulators, the widest registers available",
     .libraries = {"xsimd 8.1"},
     .concepts = {"SIMD batch types", "vector math functions", "loop remainders"},
     .learning_time = ladder::LearningTime::days,
     .evaluates = ladder::simd_batches,
     .summation = "4 × width SIMD lanes, then a horizontal add",
     .summation_depth = ladder::lanes_depth<ladder::simd::accumulators * ladder::simd::width>,
     .note = "On aarch64 the batch is NEON's, 2 doubles, under every -march: xsimd 8.1 has no SVE (it came "
             "with xsimd 10)."},
    [](ladder::SimdIntegrand auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions&) {
      return ladder::xsimd(f, ab.a, ab.b, n);
    }};

}  // namespace
