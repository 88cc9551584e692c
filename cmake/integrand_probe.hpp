// The run-time half of a capability probe (cmake/user_integrands.cmake): the probe has compiled an integrand
// for one kind of argument; this checks that it also computes the same function there. A branch on a
// comparison of SIMD batches compiles with AVX-512 (the lane mask converts to an integer) and quietly takes
// one path for all lanes: compiling alone would not catch it.
//
// The probe file includes the kind's header, the integrand's and this one, and main() calls
// check(scalar, apply, lanes, "what"), where apply(in, out) evaluates the integrand on its argument type at
// `lanes` points from in[] into out[] (a ladder_add_evaluation_kind's EXPR, cmake/user_integrands.cmake).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <vector>

namespace ladder::probe {

// 96 points: 64 across [-4, 4] and 32 across [0, 1], in a shuffled order, so that the lanes of one batch
// hold points far apart (on both sides of any branch).
inline std::vector<double> points() {
  std::vector<double> xs;
  for (int k = 0; k < 64; ++k) xs.push_back(-4.0 + 8.0 * ((k * 37) % 64 + 0.5) / 64);
  for (int k = 0; k < 32; ++k) xs.push_back(((k * 13) % 32 + 0.5) / 32);
  return xs;
}

// Prints "ulps: U", the largest difference from the double values in units of their last place (the
// tiers' rounding bound for this integrand allows for it), or an error and returns 1.
template <class Scalar, class Apply>
int check(Scalar scalar, Apply apply, std::size_t lanes, const char* what) {
  const std::vector<double> xs = points();
  std::vector<double> values(xs.size());
  for (std::size_t i = 0; i + lanes <= xs.size(); i += lanes) apply(xs.data() + i, values.data() + i);
  // Differences are counted in ulps of the value, or of 2^-10 of the largest value where f is near a zero
  // (there a few ulps of its inputs are many ulps of a tiny value, and would widen the bound everywhere).
  double largest = 0;
  for (const double x : xs)
    if (std::isfinite(scalar(x))) largest = std::fmax(largest, std::fabs(scalar(x)));
  double ulps = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double expected = scalar(xs[i]);
    if (!std::isfinite(expected)) continue;  // outside the function's domain
    const double got = values[i], difference = std::fabs(got - expected);
    if (std::isfinite(got) && difference <= 1e-9 * std::fmax(std::fabs(got), std::fabs(expected)) + 1e-300) {
      const double scale = std::fmax(std::fabs(expected), std::ldexp(largest, -10));
      const double ulp = std::nextafter(scale, INFINITY) - scale;
      ulps = std::fmax(ulps, difference / ulp);
      continue;
    }
    std::printf(
        "error: its value on %s at x = %.17g is %.17g, but on a double %.17g (a branch such as `if (x < c)` "
        "takes one path for all lanes of a batch: use select)\n",
        what, xs[i], got, expected);
    return 1;
  }
  std::printf("ulps: %.3g\n", ulps);
  return 0;
}

}  // namespace ladder::probe
