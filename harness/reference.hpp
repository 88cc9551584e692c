// The two references every result is measured against, and the rounding bound a tier must stay within.
//
// - exact: the integral itself, from the integrand's antiderivative, in long double.
// - midpoint: the exact midpoint sum M_n = h·Σ f(a + (i + ½)h) for this n, so that result − M_n is
//   rounding alone, with the discretization error removed. Up to 2^22 nodes (or for a coarse step) it is
//   summed in long double with compensation; beyond, the Euler–Maclaurin expansion
//     M_n = I − (h²/24)(f′(b) − f′(a)) + (7h⁴/5760)(f‴(b) − f‴(a)) − …
//   is used, whose next term is below 1e-21 relative once |h| ≤ 1e-3.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "registry.hpp"

namespace ladder {

struct Reference {
  long double exact = 0;
  long double midpoint = 0;
  std::string midpoint_method;  // "long double sum" or "Euler-Maclaurin"
  // For the rounding bound: h·Σ|f(x_i)|, and h·Σ of the error scale of one evaluation at x_i
  // (the integrand's magnitude plus the effect of the rounded node, (|a| + |x_i − a|)·|f′(x_i)|).
  long double absolute_sum = 0;
  long double evaluation_scale = 0;
  long double width = 0;  // |b − a|
};

Reference reference(const IntegrandInfo& integrand, Interval ab, std::int64_t n);

// f′ and f‴ at one end of the interval: what the Euler–Maclaurin terms need.
struct EndDerivatives {
  long double first = 0, third = 0;
};

// The midpoint sum M_n by the expansion above, from the exact integral and the derivatives at a and b
// (closed forms for the built-in integrands; reference_library.hpp computes them for any callable).
long double euler_maclaurin_midpoint(long double exact, Interval ab, std::int64_t n, EndDerivatives at_a,
                                     EndDerivatives at_b);

// A reference as text that keeps every bit of its long doubles (for the worker processes of `ladder run`,
// which get the references computed once per size instead of once per cell), and back.
std::string to_text(const Reference& ref);
Reference reference_from_text(const std::string& text);

// Largest |result − midpoint| that rounding can explain for this tier (the bound is documented in
// reference.cpp): u·(8·evaluation_scale + depth·absolute_sum) + 4u·|midpoint| + 2η·width, u = 2^-53, η the
// smallest normal double, where depth is the card's summation_depth(n, threads).
double rounding_bound(const TierCard& card, const Reference& ref, std::int64_t n, int threads);

// (result − target)/|target|; empty when the target is 0 (then only the absolute error means anything).
std::optional<double> relative_error(double result, long double target);

}  // namespace ladder
