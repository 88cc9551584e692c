// The built-in integrand poly, x³ − 2x² + 3x + 1: a generic callable, with what the references and the
// error analysis need in long double.
#pragma once

#include <cmath>
#include <string_view>

#include "ladder/integrand.hpp"

namespace ladder {

// A cheap polynomial: with no transcendental function to hide behind, what is left is the cost of the
// loop itself, so the rungs that only remove overhead show most clearly here.
struct Poly {
  static constexpr std::string_view name = "poly";
  static constexpr std::string_view formula = "x^3 - 2x^2 + 3x + 1";
  template <class T>
  LADDER_HOST_DEVICE auto operator()(const T& x) const {
    return ((x - 2.0) * x + 3.0) * x + 1.0;
  }
  static long double antiderivative(long double x) { return ((((x / 4 - 2.0L / 3) * x) + 1.5L) * x + 1) * x; }
  static long double derivative1(long double x) { return (3 * x - 4) * x + 3; }
  static long double derivative3(long double) { return 6; }
  static long double magnitude(long double x) {
    const long double ax = std::fabs(x);
    return ((ax + 2) * ax + 3) * ax + 1;
  }
};

}  // namespace ladder
