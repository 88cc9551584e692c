// Rung 17 — std-simd: the card; the kernel is kernels/std_simd.hpp.
#include "kernels/std_simd.hpp"

#include <cstdint>

#include "tier.hpp"

namespace {

// A known defect of a build's compiler and library, found by Ladder's own tests: with Clang (16, 17) and GCC
// 12's libstdc++, std::experimental::sin on the 8-lane (AVX-512) native_simd<double> returns wrong values,
// off by up to 1.41 near 3π/4, at every optimization level; GCC, and the 4- and 2-lane vectors, are right.
// tests/tier_correctness_test.cpp (TierDefects) checks the library errs exactly where sin is refused.
#if defined(__clang__) && defined(__AVX512F__)
constexpr bool sin_is_wrong = true;
#else
constexpr bool sin_is_wrong = false;
#endif
constexpr ladder::Probe built_in_probe(std::string_view integrand) {
  if (sin_is_wrong && integrand == "sin")
    return {
        false,
        "Clang with libstdc++'s std::experimental::sin on 8-lane native_simd<double> returns wrong values "
        "(off by up to 1.41 near 3π/4): refused in this build"};
  return {};
}

// What it calls f with: native_simd<double>, on which the build probes every user integrand (the PROBE
// std_simd of this tier's line in CMakeLists.txt).
constexpr ladder::EvaluationKind std_simd_vectors{
    .id = "std_simd", .words = "std::experimental::native_simd<double>", .built_in = built_in_probe};

// Compiled for native_simd<double> by the build, and takes one.
template <class F>
concept StdSimdIntegrand = (ladder::probe_for<F>(std_simd_vectors).compiles) && ladder::stdsimd::Integrand<F>;

const ladder::Registration registration{
    {.id = "std-simd",
     .rung = 17,
     .summary = "explicit SIMD with the standard library alone: std::experimental::native_simd, four "
                "accumulators, the widest registers available",
     .concepts = {"SIMD vector types", "the Parallelism TS 2 (std::simd in C++26)", "loop remainders",
                  "reading the disassembly"},
     .learning_time = ladder::LearningTime::hours,
     .evaluates = std_simd_vectors,
     .summation = "4 × width SIMD lanes, then a horizontal add (std::experimental::reduce)",
     .summation_depth = ladder::lanes_depth<ladder::stdsimd::accumulators * ladder::stdsimd::width>,
     .note = "No library to install: <experimental/simd> ships with GCC 11 and later. The standard gives "
             "the maths functions for simd but not how: GCC 12's libstdc++ computes sin and cos in vector "
             "registers, and exp, log1p, atan and erfc as one call of the scalar function per lane. "
             "Ladder's own build shows it: the gauss kernel's hot loop calls exp 32 times with AVX-512 "
             "(4 accumulators × 8 lanes; 16 with AVX2; 8 with NEON on aarch64, where it has no SVE), so "
             "gauss runs at about the scalar loop's speed; "
             "the arithmetic of pi, poly and rational is fully vectorized. Integrands that branch on x or "
             "call select (xsimd's name; the TS has where) do not compile for it and are not run. Built with "
             "Clang for AVX-512, libstdc++'s sin on 8 lanes returns wrong values (off by up to 1.41 near "
             "3π/4; Ladder's tests found it), so that build refuses sin."},
    [](StdSimdIntegrand auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions&) {
      return ladder::std_simd(f, ab.a, ab.b, n);
    }};

}  // namespace
