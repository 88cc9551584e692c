// The standard normal CDF, Φ(x) = ½·erfc(−x/√2): the pricing case (Black–Scholes evaluates it twice per
// option). Written through erfc rather than ½(1 + erf(x/√2)) because erfc keeps its relative accuracy in
// the left tail, where 1 + erf(…) cancels.
//
// Copy this file into integrands/ (or pass it with -DLADDER_USER_INTEGRANDS=…) and edit it: a struct with a
// `name`, a generic call operator, and optionally the antiderivative, registered by LADDER_INTEGRAND.
// The same operator serves double, long double, xsimd batches (xsimd::erfc) and Boost's types (the
// references); Eigen 3.4's core arrays have no erfc, so the eigen tier is unavailable for this one.
//
// What the ladder shows here: vectorized erfc is not vectorized exp. xsimd 8.1's double erfc is within
// 8 ulps of the true Φ on [0, 1] and 31 on [−3, 0], but from |argument| ≥ 2.2 (x below −3.11) it switches
// to a rational fit good to about 4e-12 relative (34 000 ulps at x = −3.11; through glibc's erfc, Φ stays
// under 15 ulps there). On an interval reaching that far, a SIMD tier's rounding error exceeds its bound
// because of the library, not the summation, and Ladder's reference check says so.
#pragma once

#include "ladder/integrand.hpp"

struct NormalCdf {
  static constexpr std::string_view name = "normal-cdf";

  // 1/√2 as the nearest double. Every type evaluates the function with this same number (a double converts
  // exactly to long double and to Boost's quad), and the antiderivative below is exact for it: then the
  // references describe what the loop really computes, not a function 1e-17 away from it.
  static constexpr double inv_sqrt2 = 0.70710678118654752440;

  template <class T>
  T operator()(const T& x) const {
    using std::erfc;  // std::erfc for scalars; xsimd and Boost find theirs by argument-dependent lookup
    return 0.5 * erfc(-x * inv_sqrt2);
  }

  // ∫Φ = x·Φ(x) + φ(x), φ the density e^(−x²/2)/√(2π). With c = inv_sqrt2: x·½erfc(−cx) + e^(−c²x²)/(2c√π),
  // whose derivative is ½erfc(−cx) exactly (the two e^(−c²x²) terms cancel). Only scalars call it.
  template <class T>
  static T antiderivative(const T& x) {
    using std::atan;
    using std::erfc;
    using std::exp;
    using std::sqrt;
    const T z = x * inv_sqrt2;
    const T sqrt_pi = sqrt(4 * atan(T(1)));
    return x * (0.5 * erfc(-z)) + exp(-z * z) / (2 * inv_sqrt2 * sqrt_pi);
  }
};
LADDER_INTEGRAND(NormalCdf);
