// Rung 18 — sleef: the card; the kernel is kernels/sleef.hpp.
#include "kernels/sleef.hpp"

#include <cstdint>

#include "tier.hpp"

namespace {

// What it calls f with: SleefBatch, on which the build probes every user integrand (the PROBE sleef of this
// tier's line in CMakeLists.txt).
constexpr ladder::EvaluationKind sleef_batches{.id = "sleef", .words = "the sleef tier's SleefBatch"};

// Compiled for SleefBatch by the build, and takes a batch.
template <class F>
concept SleefIntegrand = (ladder::probe_for<F>(sleef_batches).compiles) && ladder::sleef_exp::Integrand<F>;

const ladder::Registration registration{
    {.id = "sleef",
     .rung = 18,
     .summary = "the xsimd kernel with SLEEF's vector exp (1.0 ulp) for the build's register width",
     .libraries = {"xsimd 8.1", "SLEEF 3.5.1"},
     .concepts = {"SIMD batch types", "vector math libraries", "accuracy bounds in ulps",
                  "instruction-set-specific function names", "shared-library calls in a hot loop"},
     .learning_time = ladder::LearningTime::hours,
     .evaluates = sleef_batches,
     .summation = "4 × width SIMD lanes, then a horizontal add",
     .summation_depth = ladder::lanes_depth<ladder::simd::accumulators * ladder::simd::width>,
     .note = "Only exp is SLEEF's, chosen for the batch width the build compiles: Sleef_expd8_u10avx512f "
             "(AVX-512), Sleef_expd4_u10avx2 (AVX2), Sleef_expd2_u10sse4 or Sleef_expd2_u10sse2 (2 "
             "lanes), Sleef_expd2_u10advsimd on aarch64 (NEON; SLEEF's SVE exp, Sleef_expdx_u10sve, takes a "
             "sizeless SVE register, which no xsimd 8.1 batch is); Debian ships SLEEF as a shared library "
             "only, so each batch's exp is a call into it. "
             "gauss gets it; pi, sin and poly call no exp and run as on the xsimd tier. SleefBatch has "
             "arithmetic, comparisons, select, exp and sin only: an integrand calling another function "
             "(log1p, erfc, …) is not run, with the compiler's reason."},
    [](SleefIntegrand auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions&) {
      return ladder::sleef(f, ab.a, ab.b, n);
    }};

}  // namespace
