// Rung 19 — highway: the card; the kernel is kernels/highway.hpp.
#include "kernels/highway.hpp"

#include <cstdint>

#include "tier.hpp"

namespace {

// What it calls f with: its own Vector (highway_vector.hpp), on which the build probes every user integrand
// (the PROBE highway of this tier's line in CMakeLists.txt).
constexpr ladder::EvaluationKind highway_vectors{.id = "highway", .words = "the highway tier's Vector"};

// Compiled for the highway tier's Vector by the build, and takes one.
template <class F>
concept HighwayIntegrand =
    (ladder::probe_for<F>(highway_vectors).compiles) && ladder::highway_simd::Integrand<F>;

const ladder::Registration registration{
    {.id = "highway",
     .rung = 19,
     .summary = "the SIMD kernel in Google's Highway, with its vector maths (hwy/contrib/math), four "
                "accumulators, the widest registers available",
     .libraries = {"Highway 1.0.3"},
     .concepts = {"SIMD descriptors and vectors", "static vs dynamic dispatch", "vector math functions",
                  "loop remainders", "a library's build switches"},
     .learning_time = ladder::LearningTime::days,
     .evaluates = highway_vectors,
     .summation = "4 × width SIMD lanes, then a horizontal add (SumOfLanes)",
     .summation_depth = ladder::lanes_depth<4 * ladder::highway_simd::width>,
     .note =
         "Static dispatch: the target is the best the build's -march allows, as for every tier. "
         "highway_vector.hpp sets two of Highway 1.0.3's switches before including it: "
         "HWY_COMPILE_ONLY_STATIC (that one target; it also avoids 1.0.3's \"#error Logic error: best "
         "baseline\" under -march=native on a CPU with AVX-512 VBMI2, and needs no libhwy at run time) "
         "and HWY_DISABLE_PCLMUL_AES (without it x86-64-v2, v3 and v4 builds silently get the 2-lane "
         "SSSE3 target; a static_assert refuses that). Dynamic dispatch (HWY_EXPORT) would serve every "
         "CPU from one binary, but exports only plain functions: one wrapper per integrand. exp, sin, "
         "log1p, atan and the rest are Highway's; it has no erfc, so normal-cdf is not run. Below SSSE3 (the "
         "x86-64 baseline) Highway 1.0.3 has no x86 target: GCC 12 gets HWY_SCALAR, 1 lane, and clang "
         "its portable 2-lane emulation (EMU128). On aarch64: NEON, 2 lanes, under an -march with SVE too: "
         "Highway's SVE vectors are sizeless types, which the Vector the integrands compute on cannot hold "
         "as a member, so SVE is disabled (HWY_DISABLED_TARGETS); Highway's NEON functions lose their "
         "run-time-dispatch target(\"+crypto\") mark (TOOLCHAIN_MISS_SYS_AUXV_H), which -march=armv8-a "
         "cannot inline."},
    [](HighwayIntegrand auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions&) {
      return ladder::highway(f, ab.a, ab.b, n);
    }};

}  // namespace
