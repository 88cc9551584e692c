// The built-in integrand gauss, exp(-x²): a generic callable (double, long double, xsimd batches, Eigen
// arrays, and on the GPU), with what the references and the error analysis need in long double.
#pragma once

#include <cmath>
#include <numbers>
#include <string_view>

#include "ladder/integrand.hpp"

namespace ladder {

struct Gauss {
  static constexpr std::string_view name = "gauss";
  static constexpr std::string_view formula = "exp(-x^2)";
  template <class T>
  LADDER_HOST_DEVICE auto operator()(const T& x) const {
    using std::exp;
    return exp(-x * x);
  }
  static long double antiderivative(long double x) {
    return std::sqrt(std::numbers::pi_v<long double>) / 2 * std::erf(x);
  }
  static long double derivative1(long double x) { return -2 * x * std::exp(-x * x); }
  static long double derivative3(long double x) { return (12 * x - 8 * x * x * x) * std::exp(-x * x); }
  static long double magnitude(long double x) { return std::exp(-x * x); }
};

}  // namespace ladder
