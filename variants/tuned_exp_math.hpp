// A hand-written exp for SIMD batches, and the adaptor that runs the integrands with it.
//
// xsimd's exp is general and accurate (0.8 ulp) but costs about 33 vector instructions a batch, one of
// them a divide, and on an AVX2-only build its double → int64 conversion becomes scalar code. This one
// is the textbook method, kept short enough to check by hand:
//
//   1. range reduction   x = k·ln2 + r, k an integer, |r| ≤ ln2/2       (Cody–Waite, two-part ln2)
//   2. polynomial        e^r ≈ 1 + r + r²·q(r), q of degree 9           (split Horner)
//   3. reconstruction    e^x = 2^k · e^r, by adding k to the exponent bits of e^r
//
// With AVX-512 the same three steps use two instructions AVX2 lacks: a 16-entry table lookup in
// registers (reduce by ln2/16, a polynomial of degree 6) and a scale instruction (see below).
//
// Every step stays in vector registers, with no vector double → int64 conversion anywhere. Accuracy:
// at most `max_ulp_error` ulp over the whole double range, measured by tests/tuned_exp_test.cpp.
#pragma once

#include <cstdint>
#include <type_traits>
#include <xsimd/xsimd.hpp>

#include "simd_kernel.hpp"

namespace ladder::tuned {

using simd::Batch;
using Bits = xsimd::batch<std::int64_t>;  // the same register, read as 64-bit integers

// The largest error of exp below, in ulps of the double result (for a subnormal result, in units of the
// smallest subnormal), over [−745, 709]; the test keeps this figure within 0.2 of what it measures.
// AVX-512 (a table of 16, vscalefpd): 1.19 by tests/tuned_exp_test.cpp, 1.22 over 2·10^7 uniform random
// inputs. Otherwise (split Horner, exponent bits): 1.08 by the test (3.6 million evaluations), 1.10 over
// 2·10^7. Most of it is the final rounding plus that of r (and, with the table, of 2^(j/16)).
#if XSIMD_WITH_AVX512F
inline constexpr double max_ulp_error = 1.3;
#else
inline constexpr double max_ulp_error = 1.2;
#endif

namespace constants {

constexpr double log2e = 0x1.71547652b82fep0;  // 1/ln2
// ln2 = ln2_hi + ln2_lo. ln2_hi has only 32 significant bits, so k·ln2_hi is exact for |k| < 2^21 and
// x − k·ln2_hi is exact too (x and k·ln2_hi are close): only the tiny k·ln2_lo term is rounded.
constexpr double ln2_hi = 0x1.62e42feep-1;
constexpr double ln2_lo = 0x1.a39ef35793c76p-33;
// 1.5·2^52: adding it to a double of magnitude below 2^51 leaves no bits for a fraction, so the sum is
// rounded to an integer, and that integer sits in the low bits of the sum's bit pattern.
constexpr double shifter = 0x1.8p52;

// q(r) ≈ (e^r − 1 − r)/r² on [−ln2/2, ln2/2]: a Chebyshev fit of degree 9 (mpmath's chebyfit, 50
// digits), its coefficients rounded to double. 1 + r + r²·q(r) is then within 1.6e-17 (0.14 ulp) of e^r;
// the Taylor coefficients 1/2!, 1/3!, … would need four more degrees for the same error.
constexpr double c2 = 0x1.0000000000001p-1;
constexpr double c3 = 0x1.5555555555556p-3;
constexpr double c4 = 0x1.5555555553d63p-5;
constexpr double c5 = 0x1.11111111109b3p-7;
constexpr double c6 = 0x1.6c16c1788bd90p-10;
constexpr double c7 = 0x1.a01a01a7c41d5p-13;
constexpr double c8 = 0x1.a019b90d2ae7ap-16;
constexpr double c9 = 0x1.71de0dae63bb3p-19;
constexpr double c10 = 0x1.289185613a3d6p-22;
constexpr double c11 = 0x1.af38a9b0ec855p-26;

// Below this |x| the result and 2^k are normal doubles and no special value can occur: the fast path.
// (|k| ≤ round(708·log2e) = 1021, and e^r ∈ [0.70, 1.42] has the biased exponent 1022 or 1023.)
constexpr double fast_path_limit = 708.0;
// Beyond these e^x is +inf or 0 anyway; clamping keeps k small enough for the two-step scale.
constexpr double overflow_clamp = 710.0;
constexpr double underflow_clamp = -746.0;

}  // namespace constants

// Step 1: x = k·(ln2/N) + r with |r| ≤ ln2/(2N), N a power of two (1 here, 16 for the AVX-512 table).
// Returns k, r, and `shifted` = k + 1.5·2^52, whose bit pattern holds k in its low bits. Dividing the
// constants by N is exact. The products are subtracted as fma(k, −ln2, x): no negation instruction.
struct Reduction {
  Batch shifted;
  Batch k;
  Batch r;
};

template <int N = 1>
Reduction reduce(Batch x) {
  using namespace constants;
  const Batch shifted = xsimd::fma(x, Batch(N * log2e), Batch(shifter));  // rounds x·N·log2e to an integer
  const Batch k = shifted - Batch(shifter);                               // exact
  const Batch r_hi = xsimd::fma(k, Batch(-ln2_hi / N), x);                // x − k·ln2_hi/N, exact
  return {shifted, k, xsimd::fma(k, Batch(-ln2_lo / N), r_hi)};
}

// Step 2: e^r for |r| ≤ ln2/2. q is split into its even and odd powers, q(r) = even(r²) + r·odd(r²):
// two independent Horner chains in r², each half as long as one chain in r (split Horner). Fewer
// operations than Estrin's scheme (no r⁴, r⁸), and a chain short enough for the pipelines to overlap.
inline Batch exp_reduced(Batch r) {
  using namespace constants;
  using xsimd::fma;
  const Batch s = r * r;
  const Batch even = fma(fma(fma(fma(Batch(c10), s, Batch(c8)), s, Batch(c6)), s, Batch(c4)), s, Batch(c2));
  const Batch odd = fma(fma(fma(fma(Batch(c11), s, Batch(c9)), s, Batch(c7)), s, Batch(c5)), s, Batch(c3));
  const Batch q = fma(r, odd, even);
  // 1 is added last: r + r²·q is small, so its rounding error shrinks against 1.
  return Batch(1.0) + fma(q, s, r);
}

// 2^k for integer-valued k in [−1022, 1023], built from the exponent bits: (k + 1023) << 52.
inline Batch two_to(Batch k) {
  const Bits k_bits = xsimd::bitwise_cast<Bits>(k + Batch(constants::shifter));  // k in the low bits
  return xsimd::bitwise_cast<Batch>((k_bits + Bits(1023)) << 52);
}

// Step 3 near the edges of the range, and the special values. The scale 2^k is applied in two halves,
// 2^k1 · 2^k2 with k1 = ⌊k/2⌋, since 2^k alone is not a normal double for k > 1023 or k < −1022:
//  - overflow: e^r·2^k1 is exact, and the second product overflows to +inf exactly when e^x does;
//  - subnormal results: e^r·2^k1 is exact and normal, so the product with 2^k2 is rounded once, to the
//    subnormal grid, as IEEE 754 gradual underflow prescribes; below half the smallest subnormal it is 0.
// +inf clamps to 710 (→ +inf), −inf to −746 (→ 0); NaN is returned as it came.
// Out of line on purpose: inlined into the caller's loop four times, its registers pushed GCC to keep the
// loop's accumulators on the stack. A call that almost never happens costs less than that.
[[gnu::noinline]] inline Batch exp_near_the_edges(Batch x) {
  using namespace constants;
  const Batch clamped = xsimd::min(xsimd::max(x, Batch(underflow_clamp)), Batch(overflow_clamp));
  const auto [shifted, k, r] = reduce(clamped);
  const Batch k1 = xsimd::floor(k * 0.5), k2 = k - k1;
  const Batch result = exp_reduced(r) * two_to(k1) * two_to(k2);
  return xsimd::select(xsimd::isnan(x), x, result);
}

#if XSIMD_WITH_AVX512F
// With AVX-512, two more instructions shorten the polynomial (Tang's method, a table of 16):
//  - vpermt2pd looks up 16 doubles held in two registers, so x = (16m + j)·ln2/16 + r can be reduced by
//    ln2/16: e^x = 2^m · 2^(j/16) · e^r with |r| ≤ ln2/32, and e^r − 1 needs degree 6, not 11;
//  - vscalefpd multiplies by 2^m in one step and rounds once, so overflow to +inf and gradual underflow
//    to subnormals and 0 come out right with no test and no branch.
// Clamping first keeps k in range for every input; min and max return their second operand when either
// is NaN, so a NaN passes through. +inf clamps to 710 (→ +inf), −inf to −746 (→ 0).
// Subnormal results (x < −708.4) are rounded correctly, not flushed to 0 as xsimd's exp does, and each
// costs what the CPU charges for making a subnormal: a microcode assist, about a hundred cycles. ~2.5 %
// of uniform inputs over [−745, 709] land there (2.5 ns an element instead of 0.5); gauss's never do.
namespace table {

// 2^(j/16) for j = 0 … 15, each correctly rounded (so each is within 0.5 ulp).
alignas(64) inline constexpr double low[8] = {
    0x1.0000000000000p+0, 0x1.0b5586cf9890fp+0, 0x1.172b83c7d517bp+0, 0x1.2387a6e756238p+0,
    0x1.306fe0a31b715p+0, 0x1.3dea64c123422p+0, 0x1.4bfdad5362a27p+0, 0x1.5ab07dd485429p+0};
alignas(64) inline constexpr double high[8] = {
    0x1.6a09e667f3bcdp+0, 0x1.7a11473eb0187p+0, 0x1.8ace5422aa0dbp+0, 0x1.9c49182a3f090p+0,
    0x1.ae89f995ad3adp+0, 0x1.c199bdd85529cp+0, 0x1.d5818dcfba487p+0, 0x1.ea4afa2a490dap+0};
// (e^r − 1 − r)/r² ≈ d2 + d3·r + … + d6·r⁴ on [−ln2/32, ln2/32]: a Chebyshev fit (mpmath, 60 digits);
// 1 + r + r²·(…) is then within 2.8e-17 (0.13 ulp) of e^r.
constexpr double d2 = 0x1.0000000000000p-1;
constexpr double d3 = 0x1.55555554dd44dp-3;
constexpr double d4 = 0x1.55555555194d2p-5;
constexpr double d5 = 0x1.11120af701debp-7;
constexpr double d6 = 0x1.6c17bb51f236dp-10;

}  // namespace table

inline Batch exp(Batch x) {
  using namespace table;
  using xsimd::fma;
  const Batch clamped =
      _mm512_max_pd(Batch(constants::underflow_clamp), _mm512_min_pd(Batch(constants::overflow_clamp), x));
  // k = round(16·x/ln2), |k| ≤ 17 200, so k·ln2_hi/16 is exact; the low 4 bits of k are j = k mod 16.
  const auto [shifted, k, r] = reduce<16>(clamped);
  // vpermt2pd takes each lane's index from the low 4 bits of `shifted`'s bit pattern: j itself.
  const Batch power = _mm512_permutex2var_pd(Batch::load_aligned(low), _mm512_castpd_si512(shifted),
                                             Batch::load_aligned(high));
  // e^r − 1 = r·(1 + r·(d2 + d3·r + … + d6·r⁴)), then 2^(j/16)·e^r = power + power·(e^r − 1), one rounding.
  const Batch inner = fma(fma(fma(fma(Batch(d6), r, Batch(d5)), r, Batch(d4)), r, Batch(d3)), r, Batch(d2));
  const Batch expm1 = fma(inner, r, Batch(1.0)) * r;
  // vscalefpd multiplies by 2^⌊k/16⌋ = 2^m.
  return _mm512_scalef_pd(fma(power, expm1, power), k * Batch(1.0 / 16));
}
#else
// e^x for every lane of x.
inline Batch exp(Batch x) {
  // NaN fails the comparison and takes the careful path too.
  if (!xsimd::all(xsimd::abs(x) <= Batch(constants::fast_path_limit))) [[unlikely]]
    return exp_near_the_edges(x);
  const auto [shifted, k, r] = reduce(x);
  // Step 3: shifting `shifted`'s bits left by 52 drops 1.5·2^52's own bits and leaves k·2^52 (mod 2^64,
  // so a negative k works too); adding it to e^r's bits adds k to its exponent field.
  const Bits exponent = xsimd::bitwise_cast<Bits>(shifted) << 52;
  return xsimd::bitwise_cast<Batch>(xsimd::bitwise_cast<Bits>(exp_reduced(r)) + exponent);
}
#endif

// ---- the integrands with this exp ---------------------------------------------------------------------
// The integrands call `exp` and `sin` unqualified, so argument-dependent lookup picks them by the type of
// x. TunedBatch is xsimd's batch under another name: its arithmetic is the batch's, its sin is xsimd's,
// and only its exp is the one above. An integrand that calls no exp compiles to exactly the xsimd tier.
struct TunedBatch {
  Batch value;

  explicit TunedBatch(Batch batch) : value(batch) {}
  TunedBatch(double constant) : value(constant) {}  // implicit: a constant in a formula, on either side

  friend TunedBatch operator-(TunedBatch x) { return TunedBatch(-x.value); }
  friend TunedBatch operator+(TunedBatch x, TunedBatch y) { return TunedBatch(x.value + y.value); }
  friend TunedBatch operator-(TunedBatch x, TunedBatch y) { return TunedBatch(x.value - y.value); }
  friend TunedBatch operator*(TunedBatch x, TunedBatch y) { return TunedBatch(x.value * y.value); }
  friend TunedBatch operator/(TunedBatch x, TunedBatch y) { return TunedBatch(x.value / y.value); }
  friend TunedBatch exp(TunedBatch x) { return TunedBatch(tuned::exp(x.value)); }
  friend TunedBatch sin(TunedBatch x) { return TunedBatch(xsimd::sin(x.value)); }
};

// What the tuned tiers need of an integrand: that it works on batches, as simd::Integrand says (the
// signature only). TunedBatch has the operations the built-in integrands use and no more, so Ladder's build
// refuses the integrands whose body does not compile for it (ladder::TunedIntegrand in tier.hpp): on a user
// integrand the tier would be the xsimd tier's code under another name.
template <class F>
concept Integrand = simd::Integrand<F>;

// A generic integrand → the callable simd::block_sum takes: batches go through TunedBatch, and the loop's
// scalar remainder stays on double (and std::exp), as in the xsimd tier.
template <class F>
auto with_tuned_exp(F f) {
  return [f](auto x) {
    if constexpr (std::is_same_v<decltype(x), double>)
      return f(x);
    else
      return f(TunedBatch(x)).value;
  };
}

}  // namespace ladder::tuned
