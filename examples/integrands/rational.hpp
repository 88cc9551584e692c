// A rational kernel: the [2/2] Padé approximant of e^x,
//
//   f(x) = (x² + 6x + 12) / (x² − 6x + 12),
//
// the kind of function a hot loop uses in place of a transcendental call. Two polynomials in Horner form
// and a division: no library call at all, so it compiles for every type an integrand meets (double, long
// double, xsimd batches, Eigen arrays, Boost's quad and autodiff types) and every tier can run it; the
// division is what the vectorized tiers pay for. The denominator is (x − 3)² + 3 ≥ 3: no pole anywhere,
// so any interval is safe.
//
// No antiderivative is given (it exists, with a log and an atan, but a team rarely has one): the exact
// integral then comes from Boost.Math's tanh_sinh quadrature in cpp_bin_float_quad, with its error
// estimate recorded beside the reference, and f′, f‴ for the Euler–Maclaurin sum from Boost's autodiff.
#pragma once

#include "ladder/integrand.hpp"

struct Rational {
  static constexpr std::string_view name = "rational";

  template <class T>
  T operator()(const T& x) const {
    const T numerator = (x + 6.0) * x + 12.0;
    const T denominator = (x - 6.0) * x + 12.0;
    return numerator / denominator;
  }
};
LADDER_INTEGRAND(Rational);
