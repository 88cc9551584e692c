// Rung 7 — compensated: the card; the kernel is kernels/compensated.hpp.
#include "kernels/compensated.hpp"

#include <cstdint>

#include "simd_integrands.hpp"
#include "tier.hpp"

namespace {

double block_depth(std::int64_t, int) {
  const auto lanes = ladder::simd::accumulators * ladder::simd::width;
  return static_cast<double>(ladder::compensated_block / lanes + lanes + 4);
}

const ladder::Registration registration{
    {.id = "compensated",
     .rung = 7,
     .summary = "the xsimd kernel per block, block sums added with Neumaier compensation",
     .libraries = {"xsimd 8.1"},
     .concepts = {"SIMD batch types", "compensated summation", "floating-point error"},
     .learning_time = ladder::LearningTime::days,
     .evaluates = ladder::simd_batches,
     .summation = "SIMD lanes within 4096-node blocks, block sums compensated (Neumaier)",
     .summation_depth = block_depth},
    [](ladder::SimdIntegrand auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions&) {
      return ladder::compensated(f, ab.a, ab.b, n);
    }};

}  // namespace
