#include "reference.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace ladder {
namespace {

constexpr std::int64_t direct_sum_limit = std::int64_t{1} << 22;
constexpr long double fine_step = 1e-3L;  // Euler–Maclaurin's h⁶ term is negligible below this step

// Neumaier-compensated long double accumulator.
struct CompensatedSum {
  long double sum = 0, compensation = 0;
  void add(long double term) {
    const long double next = sum + term;
    compensation += std::fabs(sum) >= std::fabs(term) ? (sum - next) + term : (term - next) + sum;
    sum = next;
  }
  long double value() const { return sum + compensation; }
};

struct Sums {
  long double values, absolute, scale;
};

// h·Σ over m midpoint nodes of f, |f| and the evaluation error scale.
Sums midpoint_sums(const IntegrandInfo& f, Interval ab, std::int64_t m) {
  const long double a = ab.a, step = (static_cast<long double>(ab.b) - a) / m;
  CompensatedSum values, absolute, scale;
  for (std::int64_t i = 0; i < m; ++i) {
    const long double x = a + (static_cast<long double>(i) + 0.5L) * step;
    const long double fx = f.value(x);
    values.add(fx);
    absolute.add(std::fabs(fx));
    scale.add(f.magnitude(x) + (std::fabs(a) + std::fabs(x - a)) * std::fabs(f.derivative1(x)));
  }
  return {values.value() * step, absolute.value() * std::fabs(step), scale.value() * std::fabs(step)};
}

}  // namespace

Reference reference(const IntegrandInfo& f, Interval ab, std::int64_t n) {
  // LOCAL GUARD of branch i16-run, until the references part lands (its reference() replaces this): an
  // integrand that leaves out its antiderivative or derivatives has no reference here yet.
  if (!f.antiderivative || !f.derivative1 || !f.derivative3 || !f.magnitude)
    throw std::runtime_error("integrand '" + f.name +
                             "' leaves out its antiderivative or derivatives, and this build has no library "
                             "reference yet");
  Reference ref;
  const long double a = ab.a, b = ab.b;
  ref.exact = f.antiderivative(b) - f.antiderivative(a);
  ref.width = std::fabs(b - a);
  const long double step = (b - a) / n;
  if (n <= direct_sum_limit || std::fabs(step) > fine_step) {
    const Sums sums = midpoint_sums(f, ab, n);
    ref.midpoint = sums.values;
    ref.midpoint_method = "long double sum";
    ref.absolute_sum = sums.absolute;
    ref.evaluation_scale = sums.scale;
    return ref;
  }
  ref.midpoint = euler_maclaurin_midpoint(ref.exact, ab, n, {f.derivative1(a), f.derivative3(a)},
                                          {f.derivative1(b), f.derivative3(b)});
  ref.midpoint_method = "Euler-Maclaurin";
  // The bound's sums only need to be right to a few per cent: estimate them on a coarser grid, with margin.
  const Sums coarse = midpoint_sums(f, ab, std::int64_t{1} << 16);
  ref.absolute_sum = 1.1L * coarse.absolute;
  ref.evaluation_scale = 1.1L * coarse.scale;
  return ref;
}

long double euler_maclaurin_midpoint(long double exact, Interval ab, std::int64_t n, EndDerivatives at_a,
                                     EndDerivatives at_b) {
  const long double step = (static_cast<long double>(ab.b) - ab.a) / n, h2 = step * step;
  return exact - h2 / 24 * (at_b.first - at_a.first) + 7 * h2 * h2 / 5760 * (at_b.third - at_a.third);
}

// Where the bound comes from, with u = 2^-53 the unit roundoff:
// - one evaluation of f at a rounded node x̂_i = a + (i + ½)h errs by at most about 8u·scale(x_i): a few
//   ulps of the function (xsimd 0.8, Eigen 1.6, libmvec up to 4) on the size of the terms it rounds, plus
//   f′ times the node's own rounding (h is rounded, then multiplied and added: ≤ 2u(|a| + |x − a|));
// - a sum whose longest chain of rounded additions is d long errs by at most d·u·Σ|terms|;
// - rounding h and the final multiplication by h add 2u·|M| each, or so;
// - a value below the normal range may come back as anything up to the smallest normal double, η: Eigen
//   3.4's vector exp clamps its argument and returns 2.2e-308 for e^(-10⁶). That adds up to 2η·|b − a|.
double rounding_bound(const TierCard& card, const Reference& ref, std::int64_t n, int threads) {
  constexpr long double u = std::numeric_limits<double>::epsilon() / 2;
  constexpr long double smallest_normal = std::numeric_limits<double>::min();
  const long double depth = card.summation_depth ? card.summation_depth(n, threads) : n;
  return static_cast<double>(u * (8 * ref.evaluation_scale + depth * ref.absolute_sum) +
                             4 * u * std::fabs(ref.midpoint) + 2 * smallest_normal * ref.width);
}

std::string to_text(const Reference& ref) {
  char text[256];
  std::snprintf(text, sizeof text, "%La %La %La %La %La ", ref.exact, ref.midpoint, ref.absolute_sum,
                ref.evaluation_scale, ref.width);
  return text + ref.midpoint_method;
}

Reference reference_from_text(const std::string& text) {
  Reference ref;
  std::istringstream in(text);
  std::string field[5];
  for (auto& each : field) in >> each;
  long double* values[] = {&ref.exact, &ref.midpoint, &ref.absolute_sum, &ref.evaluation_scale, &ref.width};
  for (int i = 0; i < 5; ++i) {
    char* end = nullptr;
    *values[i] = std::strtold(field[i].c_str(), &end);
    if (field[i].empty() || *end != '\0') throw std::invalid_argument("not a reference: " + text);
  }
  std::getline(in >> std::ws, ref.midpoint_method);
  return ref;
}

std::optional<double> relative_error(double result, long double target) {
  if (target == 0) return std::nullopt;
  return static_cast<double>((result - target) / std::fabs(target));
}

}  // namespace ladder
