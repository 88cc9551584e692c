// Which integrands the SIMD tiers take: the kernel headers' concepts (simd_kernel.hpp, tuned_exp_math.hpp)
// check only an integrand's signature, and these add what the build found out when it compiled each
// integrand for batches (IntegrandBuild in integrands.hpp). An integrand whose body does not compile for
// them leaves the tier unavailable for it, with the build's reason, instead of failing inside the kernel.
// Card-side: the tier files include it, the kernel headers never do. (Not in tier.hpp: that is compiled by
// nvcc too, for the cuda tier, and by every file of the harness, neither of which should parse xsimd.)
#pragma once

#include "simd_kernel.hpp"
#include "tier.hpp"
#include "tuned_exp_math.hpp"

namespace ladder {

// Compiled for xsimd batches, and takes one.
template <class F>
concept SimdIntegrand = IntegrandBuild<F>::simd.compiles&& simd::Integrand<F>;

// Compiled for TunedBatch (only the built-in integrands are), and takes a batch.
template <class F>
concept TunedIntegrand = IntegrandBuild<F>::tuned.compiles&& tuned::Integrand<F>;

// For the cards of the tiers built on the tuned exp. tests/tuned_exp_test.cpp checks the second half: bit
// for bit.
inline constexpr const char* tuned_integrands_note =
    "gauss calls exp and gets this one; pi, sin and poly call no exp and run exactly as on the xsimd tier; "
    "user integrands are not run (the tuned exp is written and tested for the built-in ones)";

}  // namespace ladder
