// The built-in integrand pi, 4/(1+x²), whose integral over [0, 1] is π: a generic callable, with what the
// references and the error analysis need in long double.
#pragma once

#include <cmath>
#include <string_view>

#include "ladder/integrand.hpp"

namespace ladder {

struct Pi {
  static constexpr std::string_view name = "pi";
  static constexpr std::string_view formula = "4/(1+x^2)";
  template <class T>
  LADDER_HOST_DEVICE auto operator()(const T& x) const {
    return 4.0 / (1.0 + x * x);
  }
  static long double antiderivative(long double x) { return 4 * std::atan(x); }
  static long double derivative1(long double x) { return -8 * x / ((1 + x * x) * (1 + x * x)); }
  static long double derivative3(long double x) {
    const long double q = 1 + x * x;
    return 96 * x * (1 - x * x) / (q * q * q * q);
  }
  static long double magnitude(long double x) { return 4 / (1 + x * x); }
};

}  // namespace ladder
