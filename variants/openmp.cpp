// Rung 8 — openmp: the card; the kernel is kernels/openmp.hpp.
#include "kernels/openmp.hpp"

#include <cstdint>

#include "simd_integrands.hpp"
#include "tier.hpp"

namespace {

const ladder::Registration registration{
    {.id = "openmp",
     .rung = 8,
     .summary = "OpenMP parallel for with a reduction, over blocks of the xsimd kernel",
     .libraries = {"xsimd 8.1", "OpenMP (libgomp)"},
     .concepts = {"SIMD batch types", "OpenMP reductions", "static scheduling", "data races"},
     .learning_time = ladder::LearningTime::days,
     .evaluates = ladder::simd_batches,
     .parallel = true,
     .reproducible = ladder::Reproducible::never,
     .summation = "SIMD lanes within 65536-node blocks, blocks in order per thread, threads combined "
                  "by the runtime",
     .summation_depth =
         ladder::blocks_depth<ladder::openmp_block, ladder::simd::accumulators * ladder::simd::width>,
     .environment = {"OMP_PROC_BIND=close", "OMP_PLACES=cores"}},
    [](ladder::SimdIntegrand auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions& options) {
      return ladder::openmp(f, ab.a, ab.b, n, {.threads = options.threads});
    }};

}  // namespace
