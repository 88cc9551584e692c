// Rung 14 — openmp-tuned: the card; the kernel is kernels/openmp_tuned.hpp.
#include "kernels/openmp_tuned.hpp"

#include <cstdint>

#include "simd_integrands.hpp"
#include "tier.hpp"

namespace {

const ladder::Registration registration{
    {.id = "openmp-tuned",
     .rung = 14,
     .summary = "OpenMP parallel for over blocks of the tuned-exp kernel (gauss); the other integrands as on "
                "openmp",
     .libraries = {"xsimd 8.1", "OpenMP (libgomp)"},
     .concepts = {"SIMD batch types", "OpenMP reductions", "static scheduling", "data races",
                  "range reduction", "polynomial evaluation schemes", "IEEE 754 bit manipulation",
                  "ulp error analysis", "AVX-512 intrinsics"},
     .learning_time = ladder::LearningTime::days,
     .evaluates = ladder::tuned_batches,
     .parallel = true,
     .reproducible = ladder::Reproducible::never,
     .summation = "SIMD lanes within 65536-node blocks, blocks in order per thread, threads combined "
                  "by the runtime",
     .summation_depth =
         ladder::blocks_depth<ladder::openmp_tuned_block, ladder::simd::accumulators * ladder::simd::width>,
     .environment = {"OMP_PROC_BIND=close", "OMP_PLACES=cores"},
     .note = ladder::tuned_integrands_note,
     .max_ulp_error = ladder::tuned::max_ulp_error},
    [](ladder::TunedIntegrand auto f, ladder::Interval ab, std::int64_t n,
       const ladder::RunOptions& options) {
      return ladder::openmp_tuned(f, ab.a, ab.b, n, {.threads = options.threads});
    }};

}  // namespace
