// Highway 1.0.3's vectors for the integrands (the highway tier): the widest vector of doubles the target
// has, with the arithmetic and maths functions the integrands call by their usual names, all Highway's.
//
// Static dispatch: one target, the best the compiler's -march allows, as for every other tier. Two of
// Highway 1.0.3's defaults are set aside before its first include, here rather than on a command line, so
// that every file including this header (the tier, the build's probes, a team's copy) gets the same target:
//  - HWY_COMPILE_ONLY_STATIC compiles that one target and nothing else. It also sidesteps 1.0.3's
//    `#error "Logic error: best baseline should be included in dynamic targets"` under -march=native on a
//    CPU with AVX-512 VBMI2 (the static target AVX3_DL is left out of the attainable ones: the test reads
//    an undefined HWY_BASELINE, fixed in later releases), and no libhwy is linked.
//  - HWY_DISABLE_PCLMUL_AES: Highway uses SSE4, AVX2 and AVX-512 only where AES and PCLMUL are enabled too,
//    for its own crypto operations. The x86-64-v2, v3 and v4 levels enable neither, so without this a
//    build for x86-64-v3 silently gets the SSSE3 target: 2 lanes where the CPU has 4. The static_assert
//    below refuses such a build.
#pragma once

#ifndef HWY_COMPILE_ONLY_STATIC
#define HWY_COMPILE_ONLY_STATIC 1
#endif
#ifndef HWY_DISABLE_PCLMUL_AES
#define HWY_DISABLE_PCLMUL_AES 1
#endif
// On aarch64 Highway 1.0.3 marks every NEON function target("+crypto"), for the run-time dispatch this tier
// does not use; under -march=armv8-a (no crypto) GCC then refuses to inline them. Its switch for a toolchain
// without run-time dispatch on Arm drops the mark: the functions compile for the -march as given.
#if (defined(__aarch64__) || defined(__arm__)) && !defined(TOOLCHAIN_MISS_SYS_AUXV_H)
#define TOOLCHAIN_MISS_SYS_AUXV_H 1
#endif
// Under an -march with SVE, NEON all the same: Highway 1.0.3's SVE vectors are sizeless types (svfloat64_t,
// as long as the CPU's vectors), which no struct may hold ("member variables cannot have SVE type"), and the
// Vector below must hold one to give the integrands their operators.
#if defined(__ARM_FEATURE_SVE) && !defined(HWY_DISABLED_TARGETS)
#define HWY_DISABLED_TARGETS (HWY_SVE | HWY_SVE2 | HWY_SVE_256 | HWY_SVE2_128)
#endif

#include <hwy/highway.h>

#include <concepts>
#include <cstdint>
// After highway.h: Exp, Sin, Log1p, Atan, … for Highway's vectors (header-only; within 1 ulp for Exp to 4 for
// Log and Tanh, as math-inl.h states for each).
#include <hwy/contrib/math/math-inl.h>

namespace ladder::highway_simd {

namespace hn = hwy::HWY_NAMESPACE;  // the static target's namespace: hwy::N_AVX3, hwy::N_AVX2, …

using Tag = hn::ScalableTag<double>;  // the widest vector of doubles of the target
using Raw = hn::Vec<Tag>;
constexpr std::int64_t width = hn::MaxLanes(Tag());

// The silent fallback, refused: as many doubles a vector as the widest registers the -march enables. Below
// SSSE3 (the x86-64 baseline, SSE2 alone) Highway 1.0.3 has no x86 target at all: it compiles its portable
// EMU128 (2 lanes in arrays) or, with GCC before 12.3, HWY_SCALAR (1 lane).
#if defined(__AVX512F__)
static_assert(width == 8, "Highway chose a target narrower than AVX-512: is HWY_DISABLE_PCLMUL_AES set?");
#elif defined(__AVX2__)
static_assert(width == 4, "Highway chose a target narrower than AVX2: is HWY_DISABLE_PCLMUL_AES set?");
#elif defined(__SSSE3__)
static_assert(width == 2, "Highway's vector of doubles is not one SSE register");
#elif defined(__ARM_NEON)
static_assert(HWY_TARGET == HWY_NEON && width == 2, "Highway's vector of doubles is not one NEON register");
#endif

// A Highway vector with the operators and function names the integrands use. Highway's own vectors have
// operators between vectors only, and name their maths functions Exp(d, v), Sin(d, v): the integrands
// write `4.0 / (1.0 + x * x)` and `exp(-x * x)`. Functions Highway 1.0.3 lacks (erfc, pow, …) are not
// given, so an integrand calling one does not compile for Vector, and the build refuses it with the reason.
struct Vector {
  Raw value;

  explicit Vector(Raw raw) : value(raw) {}
  Vector(double constant) : value(hn::Set(Tag(), constant)) {}  // implicit: a constant in a formula

  friend Vector operator-(Vector x) { return Vector(hn::Neg(x.value)); }
  friend Vector operator+(Vector x, Vector y) { return Vector(hn::Add(x.value, y.value)); }
  friend Vector operator-(Vector x, Vector y) { return Vector(hn::Sub(x.value, y.value)); }
  friend Vector operator*(Vector x, Vector y) { return Vector(hn::Mul(x.value, y.value)); }
  friend Vector operator/(Vector x, Vector y) { return Vector(hn::Div(x.value, y.value)); }
  friend auto operator<(Vector x, Vector y) { return hn::Lt(x.value, y.value); }
  friend auto operator<=(Vector x, Vector y) { return hn::Le(x.value, y.value); }
  friend auto operator>(Vector x, Vector y) { return hn::Gt(x.value, y.value); }
  friend auto operator>=(Vector x, Vector y) { return hn::Ge(x.value, y.value); }
  friend Vector select(hn::Mask<Tag> mask, Vector yes, Vector no) {
    return Vector(hn::IfThenElse(mask, yes.value, no.value));
  }

  friend Vector exp(Vector x) { return Vector(hn::Exp(Tag(), x.value)); }
  friend Vector expm1(Vector x) { return Vector(hn::Expm1(Tag(), x.value)); }
  friend Vector log(Vector x) { return Vector(hn::Log(Tag(), x.value)); }
  friend Vector log1p(Vector x) { return Vector(hn::Log1p(Tag(), x.value)); }
  friend Vector sin(Vector x) { return Vector(hn::Sin(Tag(), x.value)); }
  friend Vector cos(Vector x) { return Vector(hn::Cos(Tag(), x.value)); }
  friend Vector atan(Vector x) { return Vector(hn::Atan(Tag(), x.value)); }
  friend Vector tanh(Vector x) { return Vector(hn::Tanh(Tag(), x.value)); }
  friend Vector sqrt(Vector x) { return Vector(hn::Sqrt(x.value)); }
  friend Vector abs(Vector x) { return Vector(hn::Abs(x.value)); }
};

// What the highway tier needs of an integrand: it takes a Vector of nodes and gives one of values (the
// signature only); Ladder's build compiles each integrand for Vector and refuses those that fail.
template <class F>
concept Integrand = requires(const F& f, const Vector& x) {
  { f(x) } -> std::convertible_to<Vector>;
};

}  // namespace ladder::highway_simd
