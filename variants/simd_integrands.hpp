// Which integrands the SIMD tiers take: the kernel headers' concepts (simd_kernel.hpp, tuned_exp_math.hpp)
// check only an integrand's signature, and these add what the build found out when it compiled each
// integrand for batches (probe_for in tier.hpp). An integrand whose body does not compile for
// them leaves the tier unavailable for it, with the build's reason, instead of failing inside the kernel.
// Card-side: the tier files include it, the kernel headers never do. (Not in tier.hpp: that is compiled by
// nvcc too, for the cuda tier, and by every file of the harness, neither of which should parse xsimd.)
#pragma once

#include "simd_kernel.hpp"
#include "tier.hpp"
#include "tuned_exp_math.hpp"

namespace ladder {

// What these tiers call f with (EvaluationKind in tier.hpp). The build probes every user integrand on xsimd
// batches (the PROBE simd of the xsimd tier's line in CMakeLists.txt); TunedBatch is xsimd's batch with the
// tuned exp, so its vector maths is xsimd's, and it runs the built-in integrands only.
inline constexpr EvaluationKind simd_batches{.id = "simd", .words = "xsimd batches"};
inline constexpr EvaluationKind tuned_batches{
    .id = "tuned",
    .words = "the tuned tiers' TunedBatch",
    .ulps_of = "simd",
    .built_ins_only =
        "TunedBatch has only the operations of the built-in integrands (arithmetic, exp, sin): "
        "the tuned exp is written and tested for those"};

// Compiled for xsimd batches, and takes one.
template <class F>
concept SimdIntegrand = (probe_for<F>(simd_batches).compiles) && simd::Integrand<F>;

// Compiled for TunedBatch (only the built-in integrands are), and takes a batch.
template <class F>
concept TunedIntegrand = (probe_for<F>(tuned_batches).compiles) && tuned::Integrand<F>;

// For the cards of the tiers built on the tuned exp. tests/tuned_exp_test.cpp checks the second half: bit
// for bit.
inline constexpr const char* tuned_integrands_note =
    "gauss calls exp and gets this one; pi, sin and poly call no exp and run exactly as on the xsimd tier; "
    "user integrands are not run (the tuned exp is written and tested for the built-in ones). On aarch64 "
    "it is the same split Horner and exponent bits on NEON's float64x2_t (xsimd 8.1 has no SVE)";

}  // namespace ladder
