// SLEEF's vector exp for xsimd batches, and the adaptor that runs the integrands with it (the sleef tier).
//
// SLEEF names each function after its precision and instruction set: Sleef_expd8_u10avx512f is exp on 8
// doubles, within 1.0 ulp, for AVX-512F. Debian's SLEEF 3.5.1 ships a shared library (no inline headers),
// so each call is an out-of-line call, and its declarations appear only under the instruction set's macro
// (__AVX512F__, __AVX2__, …; __ARM_NEON on aarch64). The function is chosen here for the width of the
// build's xsimd batch, so the batch's register passes straight through: an xsimd batch converts to __m512d
// (or __m256d, __m128d, float64x2_t) and back.
#pragma once

#include <sleef.h>

#include <type_traits>
#include <xsimd/xsimd.hpp>

#include "simd_kernel.hpp"

namespace ladder::sleef_exp {

using simd::Batch;

// e^x for every lane of x, by SLEEF (1.0 ulp bound, subnormals, infinities and NaN as std::exp gives them).
inline Batch exp(Batch x) {
#if XSIMD_WITH_AVX512F
  return Batch(Sleef_expd8_u10avx512f(x));
#elif XSIMD_WITH_FMA3_AVX2
  return Batch(Sleef_expd4_u10avx2(x));
#elif XSIMD_WITH_AVX
  return Batch(Sleef_expd4_u10avx(x));
#elif XSIMD_WITH_SSE4_1
  return Batch(Sleef_expd2_u10sse4(x));
#elif XSIMD_WITH_NEON64
  // aarch64: xsimd 8.1 has no SVE, so the batch is a NEON register (float64x2_t) under any -march; SLEEF's
  // SVE exp (Sleef_expdx_u10sve) takes a scalable register no xsimd batch holds.
  return Batch(Sleef_expd2_u10advsimd(x));
#else
  return Batch(Sleef_expd2_u10sse2(x));
#endif
}

// ---- the integrands with this exp ---------------------------------------------------------------------
// The integrands call `exp` unqualified, so argument-dependent lookup picks it by the type of x. SleefBatch
// is xsimd's batch under another name: its arithmetic, comparisons and sin are xsimd's, and only its exp is
// SLEEF's. It has what the built-in integrands use, plus comparisons and select, and no other function: an
// integrand that calls one (log1p, erfc, …) does not compile for it, and the build refuses it, with the
// reason, instead of running it on functions this tier does not describe.
struct SleefBatch {
  Batch value;

  explicit SleefBatch(Batch batch) : value(batch) {}
  SleefBatch(double constant) : value(constant) {}  // implicit: a constant in a formula, on either side

  friend SleefBatch operator-(SleefBatch x) { return SleefBatch(-x.value); }
  friend SleefBatch operator+(SleefBatch x, SleefBatch y) { return SleefBatch(x.value + y.value); }
  friend SleefBatch operator-(SleefBatch x, SleefBatch y) { return SleefBatch(x.value - y.value); }
  friend SleefBatch operator*(SleefBatch x, SleefBatch y) { return SleefBatch(x.value * y.value); }
  friend SleefBatch operator/(SleefBatch x, SleefBatch y) { return SleefBatch(x.value / y.value); }
  friend auto operator<(SleefBatch x, SleefBatch y) { return x.value < y.value; }
  friend auto operator<=(SleefBatch x, SleefBatch y) { return x.value <= y.value; }
  friend auto operator>(SleefBatch x, SleefBatch y) { return x.value > y.value; }
  friend auto operator>=(SleefBatch x, SleefBatch y) { return x.value >= y.value; }
  friend SleefBatch select(xsimd::batch_bool<double> mask, SleefBatch yes, SleefBatch no) {
    return SleefBatch(xsimd::select(mask, yes.value, no.value));
  }
  friend SleefBatch exp(SleefBatch x) { return SleefBatch(sleef_exp::exp(x.value)); }
  friend SleefBatch sin(SleefBatch x) { return SleefBatch(xsimd::sin(x.value)); }
};

// What the sleef tier needs of an integrand: that it works on batches, as simd::Integrand says (the
// signature only); Ladder's build compiles each integrand for SleefBatch and refuses those that fail.
template <class F>
concept Integrand = simd::Integrand<F>;

// A generic integrand → the callable simd::block_sum takes: batches go through SleefBatch, and the loop's
// scalar remainder stays on double (and std::exp), as in the xsimd tier.
template <class F>
auto with_sleef_exp(F f) {
  return [f](auto x) {
    if constexpr (std::is_same_v<decltype(x), double>)
      return f(x);
    else
      return f(SleefBatch(x)).value;
  };
}

}  // namespace ladder::sleef_exp
