// The built-in integrand sin, sin(x): a generic callable, with what the references and the error analysis
// need in long double.
#pragma once

#include <cmath>
#include <string_view>

#include "ladder/integrand.hpp"

namespace ladder {

struct Sine {
  static constexpr std::string_view name = "sin";
  static constexpr std::string_view formula = "sin(x)";
  template <class T>
  LADDER_HOST_DEVICE auto operator()(const T& x) const {
    using std::sin;
    return sin(x);
  }
  static long double antiderivative(long double x) { return -std::cos(x); }
  static long double derivative1(long double x) { return std::cos(x); }
  static long double derivative3(long double x) { return -std::cos(x); }
  // Near its zeros sin(x) is tiny but its rounding error is not (range reduction works on x): use 1.
  static long double magnitude(long double) { return 1; }
};

}  // namespace ladder
