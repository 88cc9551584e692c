// The two references every result is measured against, and the rounding bound a tier must stay within.
//
// - exact: the integral itself, from the integrand's antiderivative, in long double; for an integrand that
//   gives none, from Boost.Math's quadrature (reference_library.hpp), with its error estimate.
// - midpoint: the exact midpoint sum M_n = h·Σ f(a + (i + ½)h) for this n, so that result − M_n is
//   rounding alone, with the discretization error removed. Up to 2^22 nodes (or for a coarse step) it is
//   summed in long double with compensation; beyond, the Euler–Maclaurin expansion
//     M_n = I − (h²/24)(f′(b) − f′(a)) + (7h⁴/5760)(f‴(b) − f‴(a)) − …
//   is used, whose next term is below 1e-21 relative once |h| ≤ 1e-3. f′ and f‴ come from the closed forms
//   of a built-in, else Boost.Math's autodiff, else its finite differences (reference_library.hpp).
//
// What cannot be trusted is said in `notes`, never silently: a node where f is not finite, a quadrature
// that failed or whose error estimate is too large, an expansion that disagrees with a direct sum.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "registry.hpp"

namespace ladder {

struct Reference {
  // The integral; absent when it could not be computed (the quadrature failed, or gave no finite number):
  // then there is no error against it, and `notes` says why.
  std::optional<long double> exact = 0;
  std::string exact_method = "antiderivative";      // or "Boost.Math tanh_sinh in cpp_bin_float_quad", …
  std::optional<long double> exact_error_estimate;  // the quadrature's; absent for an antiderivative
  long double midpoint = 0;
  // "long double sum", or "Euler-Maclaurin" (f′ and f‴ from the closed forms), or "Euler-Maclaurin, f' and
  // f''' from Boost.Math autodiff" / "… from Boost.Math finite differences in cpp_bin_float_quad".
  std::string midpoint_method;
  // For the rounding bound: h·Σ|f(x_i)|, and h·Σ of the error scale of one evaluation at x_i
  // (the integrand's magnitude plus the effect of the rounded node, (|a| + |x_i − a|)·|f′(x_i)|).
  long double absolute_sum = 0;
  long double evaluation_scale = 0;
  long double width = 0;  // |b − a|
  // What the build measured the integrand to lose on each kind of argument a tier calls it with, in ulps of
  // the double value, by the kind's probe (KindProbe: "simd" → xsimd's erfc is 2.9e4 ulps off below
  // x = −3.11). Only what is not 0: none for a built-in.
  std::map<std::string, double, std::less<>> ulps;
  double ulps_on(std::string_view probe) const;  // 0 where none was measured
  // Nodes where f is not finite (the midpoint sum is not then), and the first of them.
  std::int64_t nonfinite_nodes = 0;
  long double first_nonfinite_x = 0;
  // What cannot be trusted, in words, one line each. Empty when all is well.
  std::vector<std::string> notes;
};

Reference reference(const IntegrandInfo& integrand, Interval ab, std::int64_t n);

// For the tests: the midpoint sum by this method, whatever n is (automatic: as above).
enum class MidpointMethod { automatic, direct_sum, euler_maclaurin };
Reference reference(const IntegrandInfo& integrand, Interval ab, std::int64_t n, MidpointMethod method);

// f′ and f‴ at one end of the interval: what the Euler–Maclaurin terms need.
struct EndDerivatives {
  long double first = 0, third = 0;
};

// The midpoint sum M_n by the expansion above, from the exact integral and the derivatives at a and b
// (closed forms for the built-in integrands; reference_library.hpp computes them for any callable).
long double euler_maclaurin_midpoint(long double exact, Interval ab, std::int64_t n, EndDerivatives at_a,
                                     EndDerivatives at_b);

// A reference as text that keeps every bit of its long doubles (for the worker processes of `ladder run`,
// which get the references computed once per size instead of once per cell), and back. The first line is
// "exact midpoint absolute_sum evaluation_scale width midpoint_method" (exact "none" when absent; the
// Python peers read this line); what differs from a built-in's follows as "key: value" lines.
std::string to_text(const Reference& ref);
Reference reference_from_text(const std::string& text);

// Largest |result − midpoint| that rounding can explain for this tier (the bound is documented in
// reference.cpp): u·(8·evaluation_scale + (2·ulps + depth)·absolute_sum) + 4u·|midpoint| + 2η·width,
// u = 2^-53, η the smallest normal double, depth the card's summation_depth(n, threads), and ulps what the
// build measured the integrand to lose on what the tier calls it with (the reference's ulps of its card's
// evaluates.ulps_probe(); 0 for doubles).
double rounding_bound(const TierCard& card, const Reference& ref, std::int64_t n, int threads);

// (result − target)/|target|; empty when the target is 0 (then only the absolute error means anything),
// absent or not finite, or when the result is not finite.
std::optional<double> relative_error(double result, long double target);
std::optional<double> relative_error(double result, std::optional<long double> target);

}  // namespace ladder
