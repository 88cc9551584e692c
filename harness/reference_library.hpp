// The references of an integrand given without a formula: what a user integrand with no antiderivative
// (issue 16) will use, from a well-kept library (Boost.Math) rather than hand-written numerics.
//
// - library_integral: the exact integral by Boost.Math's tanh-sinh quadrature, carried out in
//   cpp_bin_float_quad (113-bit significand, plain C++20) so that the long double it returns is right to
//   its last bits, with the quadrature's own error estimate kept beside it. __float128 would be faster but
//   its Boost header needs GNU extensions (-std=gnu++20), which every file instantiating this template
//   would then need.
// - library_end_derivatives: f′ and f‴ at a point by Boost.Math's forward-mode automatic differentiation,
//   for the Euler–Maclaurin terms of the midpoint sum (euler_maclaurin_midpoint in reference.hpp).
//
// Both take any generic callable written with unqualified math calls (`using std::exp; exp(x)`), as every
// Ladder integrand is: the same code runs on the wide type and on autodiff's fvar.
// The built-in integrands keep their closed forms; the tests show the two agree.
#pragma once

#include <boost/math/differentiation/autodiff.hpp>
#include <boost/math/quadrature/tanh_sinh.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <cmath>
#include <cstddef>

#include "reference.hpp"

namespace ladder {

struct LibraryIntegral {
  long double value = 0;
  long double error_estimate = 0;     // Boost.Math's: the difference between the last two refinements
  long double absolute_integral = 0;  // ∫|f|, the scale the error estimate is to be read against
  std::size_t levels = 0;             // refinements used
};

template <class Integrand>
LibraryIntegral library_integral(const Integrand& f, Interval ab) {
  using Wide = boost::multiprecision::cpp_bin_float_quad;
  if (ab.a == ab.b) return {};
  // tanh_sinh refuses a reversed interval: integrate over the ordered one and change the sign.
  const bool reversed = ab.b < ab.a;
  const Wide low = reversed ? ab.b : ab.a, high = reversed ? ab.a : ab.b;
  // Well below long double's precision (2^-64 ≈ 5e-20), so the returned value is not the limit.
  const Wide tolerance = 1e-25;
  static thread_local boost::math::quadrature::tanh_sinh<Wide> integrator;
  Wide error = 0, absolute = 0;
  std::size_t levels = 0;
  const Wide value = integrator.integrate([&f](const Wide& x) -> Wide { return f(x); }, low, high, tolerance,
                                          &error, &absolute, &levels);
  const long double sign = reversed ? -1 : 1;
  return {sign * static_cast<long double>(value), static_cast<long double>(error),
          static_cast<long double>(absolute), levels};
}

template <class Integrand>
EndDerivatives library_end_derivatives(const Integrand& f, long double x) {
  const auto value = f(boost::math::differentiation::make_fvar<long double, 3>(x));
  return {static_cast<long double>(value.derivative(1)), static_cast<long double>(value.derivative(3))};
}

}  // namespace ladder
