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
// smallest subnormal), over [−745, 709]. Measured: 1.08 by tests/tuned_exp_test.cpp (3.6 million
// evaluations), 1.11 over 2·10^7 uniform random inputs; the test keeps this figure within 0.2 of its own.
// Most of it is the final rounding of 1 + (r + r²·q) plus the rounding of r itself.
inline constexpr double max_ulp_error = 1.2;

// For the cards of the tiers built on it. tests/tuned_exp_test.cpp checks the second half: bit for bit.
inline constexpr const char* integrands_note =
    "gauss calls exp and gets this one; pi, sin and poly call no exp and run exactly as on the xsimd tier";

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

// Step 1: x = k·ln2 + r. Returns r and `shifted` = k + 1.5·2^52, whose bit pattern holds k in its low bits.
struct Reduction {
  Batch shifted;
  Batch r;
};

inline Reduction reduce(Batch x) {
  using namespace constants;
  const Batch shifted = xsimd::fma(x, Batch(log2e), Batch(shifter));  // rounds x·log2e to an integer
  const Batch k = shifted - Batch(shifter);                           // exact
  const Batch r_hi = xsimd::fnma(k, Batch(ln2_hi), x);                // x − k·ln2_hi, exact
  return {shifted, xsimd::fnma(k, Batch(ln2_lo), r_hi)};
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
  const auto [shifted, r] = reduce(clamped);
  const Batch k = shifted - Batch(shifter);
  const Batch k1 = xsimd::floor(k * 0.5), k2 = k - k1;
  const Batch result = exp_reduced(r) * two_to(k1) * two_to(k2);
  return xsimd::select(xsimd::isnan(x), x, result);
}

// e^x for every lane of x.
inline Batch exp(Batch x) {
  // NaN fails the comparison and takes the careful path too.
  if (!xsimd::all(xsimd::abs(x) <= Batch(constants::fast_path_limit))) [[unlikely]]
    return exp_near_the_edges(x);
  const auto [shifted, r] = reduce(x);
  // Step 3: shifting `shifted`'s bits left by 52 drops 1.5·2^52's own bits and leaves k·2^52 (mod 2^64,
  // so a negative k works too); adding it to e^r's bits adds k to its exponent field.
  const Bits exponent = xsimd::bitwise_cast<Bits>(shifted) << 52;
  return xsimd::bitwise_cast<Batch>(xsimd::bitwise_cast<Bits>(exp_reduced(r)) + exponent);
}

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

// A generic integrand → the callable simd::block_sum takes: batches go through TunedBatch, and the loop's
// scalar remainder stays on double (and std::exp), as in the xsimd tier.
template <class Integrand>
auto with_tuned_exp(Integrand f) {
  return [f](auto x) {
    if constexpr (std::is_same_v<decltype(x), double>)
      return f(x);
    else
      return f(TunedBatch(x)).value;
  };
}

}  // namespace ladder::tuned
