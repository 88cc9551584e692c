// A log/atan-heavy integrand, f(x) = log(1 + x²)·atan(x), written with log1p (accurate where x² is tiny).
// Two transcendental calls per node: on SIMD tiers their vectorized versions (xsimd::log1p, xsimd::atan;
// Eigen's log1p and atan) decide the speed, and their costs differ from exp's.
//
// Boost 1.74's autodiff has no log1p, so this header does not compile for its fvar type: the f′ and f‴
// the Euler–Maclaurin sum needs (above 2^22 nodes) come from the fallback the build reports (finite
// differences) instead. Writing log(1 + x * x) would let autodiff through, at the price of log1p's
// accuracy near 0. No antiderivative is given either: the exact integral comes from Boost.Math's
// tanh_sinh quadrature in cpp_bin_float_quad, with its error estimate.
#pragma once

#include "ladder/integrand.hpp"

struct LogAtan {
  static constexpr std::string_view name = "log-atan";

  template <class T>
  T operator()(const T& x) const {
    using std::atan;  // unqualified calls: std for scalars, xsimd/Eigen/Boost by argument-dependent lookup
    using std::log1p;
    return log1p(x * x) * atan(x);
  }
};
LADDER_INTEGRAND(LogAtan);
