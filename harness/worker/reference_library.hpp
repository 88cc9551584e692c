// The references of an integrand given without a formula: what a user integrand with no antiderivative
// (issue 16) uses, from a well-kept library (Boost.Math) rather than hand-written numerics.
//
// - library_integral: the exact integral by Boost.Math's tanh-sinh quadrature, carried out in
//   cpp_bin_float_quad (113-bit significand, plain C++20) so that the long double it returns is right to
//   its last bits, with the quadrature's own error estimate kept beside it; or in long double for an
//   integrand that does not compute on cpp_bin_float_quad (its `wide` probe failed). __float128 would be
//   faster but its Boost header needs GNU extensions (-std=gnu++20), which every file instantiating this
//   template would then need.
// - library_end_derivatives: f′ and f‴ at a point by Boost.Math's forward-mode automatic differentiation,
//   for the Euler–Maclaurin terms of the midpoint sum (euler_maclaurin_midpoint in reference.hpp).
// - finite_difference_end_derivatives: the same by Boost.Math's finite differences (f‴ as the difference
//   of differences), for an integrand autodiff cannot take (Boost 1.74's fvar has no log1p, for one).
//
// Each takes any generic callable written with unqualified math calls (`using std::exp; exp(x)`), as every
// Ladder integrand is: the same code runs on the wide type and on autodiff's fvar.
// The built-in integrands keep their closed forms; the tests show the two agree.
#pragma once

#include <boost/math/differentiation/autodiff.hpp>
#include <boost/math/differentiation/finite_difference.hpp>
#include <boost/math/quadrature/tanh_sinh.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <string>

#include "reference.hpp"

namespace ladder {

using WideReal = boost::multiprecision::cpp_bin_float_quad;

struct LibraryIntegral {
  long double value = 0;
  long double error_estimate = 0;     // Boost.Math's: the difference between the last two refinements
  long double absolute_integral = 0;  // ∫|f|, the scale the error estimate is to be read against
  std::size_t levels = 0;             // refinements used
};

// One integrator per type and thread: its tables of abscissas take a while to build in the wide type.
template <class Real>
boost::math::quadrature::tanh_sinh<Real>& tanh_sinh_integrator() {
  static thread_local boost::math::quadrature::tanh_sinh<Real> integrator;
  return integrator;
}

// Throws what Boost.Math throws (boost::math::evaluation_error, a std::runtime_error) for a function that is
// not finite where the quadrature evaluates it: a singularity inside [a, b].
template <class Real = WideReal, class Integrand>
LibraryIntegral library_integral(const Integrand& f, Interval ab) {
  if (ab.a == ab.b) return {};
  // tanh_sinh refuses a reversed interval: integrate over the ordered one and change the sign.
  const bool reversed = ab.b < ab.a;
  const Real low = reversed ? ab.b : ab.a, high = reversed ? ab.a : ab.b;
  // Well below long double's precision (2^-64 ≈ 5e-20) in the wide type, so the returned value is not the
  // limit; a few ulps in long double, which cannot do better.
  const Real tolerance = std::numeric_limits<Real>::digits > 64 ? Real(1e-25) : Real(1e-18);
  auto& integrator = tanh_sinh_integrator<Real>();
  Real error = 0, absolute = 0;
  std::size_t levels = 0;
  const Real value = integrator.integrate([&f](const Real& x) -> Real { return f(x); }, low, high, tolerance,
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

// f′ alone by autodiff, for the per-node scale of the rounding bound (cheaper than the third order).
template <class Integrand>
long double library_derivative1(const Integrand& f, long double x) {
  return static_cast<long double>(
      f(boost::math::differentiation::make_fvar<long double, 1>(x)).derivative(1));
}

// f′ and f‴ by sixth-order finite differences (Boost.Math), nested for f‴, in Real (the wide type where the
// integrand computes on it: the nesting loses digits, which 113 bits can spare).
template <class Real = WideReal, class Integrand>
EndDerivatives finite_difference_end_derivatives(const Integrand& f, long double x) {
  using boost::math::differentiation::finite_difference_derivative;
  const auto value = [&f](Real y) -> Real { return f(y); };
  const auto first = [&](Real y) { return finite_difference_derivative(value, y); };
  const auto second = [&](Real y) { return finite_difference_derivative(first, y); };
  const Real at = x;
  return {static_cast<long double>(first(at)),
          static_cast<long double>(finite_difference_derivative(second, at))};
}

// What Boost.Math computes for one integrand, each with its method in words. Filled for the integrands of
// this build from their code (on cpp_bin_float_quad and autodiff's fvar where their probes passed), or, for
// an integrand known only by its long double function (a test's), from that function in long double.
struct LibraryFunctions {
  std::function<LibraryIntegral(Interval)> integral;
  std::string integral_method;  // "Boost.Math tanh_sinh in cpp_bin_float_quad"
  std::function<EndDerivatives(long double)> end_derivatives;
  std::string derivatives_method;  // "Boost.Math autodiff", "Boost.Math finite differences in …"
  std::function<long double(long double)> derivative1;  // per node, for the bound's scale
};
LibraryFunctions library_functions(const IntegrandInfo& integrand);

}  // namespace ladder
