#include "reference.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "errors.hpp"
#include "reference_library.hpp"

namespace ladder {
namespace {

constexpr std::int64_t direct_sum_limit = std::int64_t{1} << 22;
constexpr long double fine_step = 1e-3L;  // Euler–Maclaurin's h⁶ term is negligible below this step
constexpr std::int64_t coarse_nodes = std::int64_t{1} << 16;
// A quadrature error estimate above this, relative to ∫|f|, is too large for a reference that is meant to
// be right to long double's last bits: said beside the result.
constexpr long double trusted_estimate = 1e-15L;

std::string number(long double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.6Lg", value);
  return text;
}

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
  std::int64_t nonfinite = 0;
  long double first_nonfinite_x = 0;
};

// What an evaluation's error scales with at x: the integrand's magnitude (|f| unless it gives one), and
// f′ (its closed form, else Boost.Math's) for the rounded node.
struct Scale {
  long double (*magnitude)(long double) = nullptr;
  long double (*derivative1)(long double) = nullptr;
  std::function<long double(long double)> library_derivative1;
  long double operator()(long double x, long double fx, long double a) const {
    const long double size = magnitude ? magnitude(x) : std::fabs(fx);
    const long double slope = derivative1 ? derivative1(x) : library_derivative1(x);
    const long double node = (std::fabs(a) + std::fabs(x - a)) * std::fabs(slope);
    return std::isfinite(node) ? size + node : size;
  }
};

// h·Σ over m midpoint nodes of f, |f| and the evaluation error scale. A node where f is not finite is
// counted (the sum of values is then not finite either) and left out of the two sums for the bound.
Sums midpoint_sums(const IntegrandInfo& f, const Scale& scale_at, Interval ab, std::int64_t m) {
  const long double a = ab.a, step = (static_cast<long double>(ab.b) - a) / m;
  CompensatedSum values, absolute, scale;
  Sums sums{};
  for (std::int64_t i = 0; i < m; ++i) {
    const long double x = a + (static_cast<long double>(i) + 0.5L) * step;
    const long double fx = f.value(x);
    values.add(fx);
    if (!std::isfinite(fx)) {
      if (sums.nonfinite++ == 0) sums.first_nonfinite_x = x;
      continue;
    }
    absolute.add(std::fabs(fx));
    scale.add(scale_at(x, fx, a));
  }
  // A non-finite term leaves the compensated sum NaN even when the plain one is ±inf: keep the plain one.
  sums.values = (sums.nonfinite ? values.sum : values.value()) * step;
  sums.absolute = absolute.value() * std::fabs(step);
  sums.scale = scale.value() * std::fabs(step);
  return sums;
}

// The exact integral: the antiderivative's difference when the integrand gives one, else Boost.Math's
// quadrature with its error estimate. A failure or a doubtful estimate becomes a note.
void exact_integral(const IntegrandInfo& f, const LibraryFunctions& library, Interval ab, Reference& ref) {
  if (f.antiderivative) {
    ref.exact_method = "antiderivative";
    const long double exact = f.antiderivative(ab.b) - f.antiderivative(ab.a);
    if (std::isfinite(exact)) {
      ref.exact = exact;
    } else {
      ref.exact.reset();
      ref.notes.push_back("exact integral unavailable: the antiderivative is not finite at a or b");
    }
    return;
  }
  ref.exact_method = library.integral_method;
  ref.exact.reset();
  try {
    const LibraryIntegral integral = library.integral(ab);
    ref.exact_error_estimate = integral.error_estimate;
    if (!std::isfinite(integral.value) || !std::isfinite(integral.error_estimate)) {
      ref.notes.push_back("exact integral unavailable: " + library.integral_method + " gave " +
                          number(integral.value) + " (error estimate " + number(integral.error_estimate) +
                          "): a singularity inside [a, b]?");
      return;
    }
    ref.exact = integral.value;
    if (integral.error_estimate > trusted_estimate * integral.absolute_integral)
      ref.notes.push_back("exact integral doubtful: the quadrature's error estimate " +
                          number(integral.error_estimate) + " is over 1e-15 of the integral of |f| (" +
                          number(integral.absolute_integral) +
                          "): a kink or a singularity inside [a, b]? Give the antiderivative");
  } catch (const std::exception& error) {
    ref.notes.push_back("exact integral unavailable: " + library.integral_method + " failed (" +
                        error.what() + ")");
  }
}

}  // namespace

Reference reference(const IntegrandInfo& f, Interval ab, std::int64_t n) {
  return reference(f, ab, n, MidpointMethod::automatic);
}

Reference reference(const IntegrandInfo& f, Interval ab, std::int64_t n, MidpointMethod method) {
  Reference ref;
  const long double a = ab.a, b = ab.b;
  ref.width = std::fabs(b - a);
  for (const auto& [kind, probe] : f.probes)
    if (probe.ulps != 0) ref.ulps[std::string(kind)] = probe.ulps;
  const bool closed_forms = f.derivative1 && f.derivative3;
  const LibraryFunctions library =
      f.antiderivative && closed_forms && f.magnitude ? LibraryFunctions{} : library_functions(f);
  exact_integral(f, library, ab, ref);
  const Scale scale{f.magnitude, f.derivative1, library.derivative1};

  const long double step = (b - a) / n;
  const bool direct = method == MidpointMethod::automatic
                          ? n <= direct_sum_limit || std::fabs(step) > fine_step
                          : method == MidpointMethod::direct_sum;
  const auto note_nonfinite = [&](const Sums& sums, const std::string& nodes, const std::string& meaning) {
    ref.nonfinite_nodes = sums.nonfinite;
    ref.first_nonfinite_x = sums.first_nonfinite_x;
    if (sums.nonfinite)
      ref.notes.push_back("f is not finite at " + std::to_string(sums.nonfinite) + " of " + nodes +
                          ", first at x = " + number(sums.first_nonfinite_x) + ": " + meaning);
  };
  if (direct) {
    const Sums sums = midpoint_sums(f, scale, ab, n);
    ref.midpoint = sums.values;
    ref.midpoint_method = "long double sum";
    ref.absolute_sum = sums.absolute;
    ref.evaluation_scale = sums.scale;
    note_nonfinite(sums, std::to_string(n) + " nodes",
                   "the midpoint sum is not finite, and no result can be checked against it");
    return ref;
  }
  // The bound's sums only need to be right to a few per cent: estimate them on a coarser grid, with margin.
  const Sums coarse = midpoint_sums(f, scale, ab, coarse_nodes);
  ref.absolute_sum = 1.1L * coarse.absolute;
  ref.evaluation_scale = 1.1L * coarse.scale;
  note_nonfinite(coarse, "the 65536 nodes the bound is estimated on",
                 "a singularity inside [a, b], where the Euler-Maclaurin expansion does not hold");
  EndDerivatives at_a{}, at_b{};
  if (closed_forms) {
    at_a = {f.derivative1(a), f.derivative3(a)};
    at_b = {f.derivative1(b), f.derivative3(b)};
    ref.midpoint_method = "Euler-Maclaurin";
  } else {
    at_a = library.end_derivatives(a);
    at_b = library.end_derivatives(b);
    ref.midpoint_method = "Euler-Maclaurin, f' and f''' from " + library.derivatives_method;
  }
  if (!ref.exact) {
    ref.midpoint = std::numeric_limits<long double>::quiet_NaN();
    ref.notes.push_back("midpoint sum unavailable: above 2^22 nodes it is computed from the exact integral");
    return ref;
  }
  ref.midpoint = euler_maclaurin_midpoint(*ref.exact, ab, n, at_a, at_b);
  // The expansion assumes f is smooth on [a, b]; a kink breaks it. Where the coarse grid's step is fine
  // enough for it, the expansion must reproduce the coarse direct sum.
  if (std::fabs(ref.width / coarse_nodes) <= fine_step && std::isfinite(coarse.values)) {
    const long double expanded = euler_maclaurin_midpoint(*ref.exact, ab, coarse_nodes, at_a, at_b);
    const long double gap = std::fabs(expanded - coarse.values);
    if (!(gap <= trusted_estimate * coarse.absolute + 1e-300L))
      ref.notes.push_back("Euler-Maclaurin doubtful: at 2^16 nodes it differs from the direct sum by " +
                          number(gap) + ": f or a derivative jumps inside [a, b] (a kink)?");
  }
  if (!std::isfinite(ref.midpoint))
    ref.notes.push_back(
        "midpoint sum unavailable: the Euler-Maclaurin terms are not finite (f' or f''' at a "
        "or b)");
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
// - a user integrand's vector maths may lose more, measured by the build's probes in ulps of the double
//   value (one ulp ≤ 2u·|f|): 2u·ulps·|f(x_i)| more a node, for the tiers that call f on batches or arrays;
// - a sum whose longest chain of rounded additions is d long errs by at most d·u·Σ|terms|;
// - rounding h and the final multiplication by h add 2u·|M| each, or so;
// - a value below the normal range may come back as anything up to the smallest normal double, η: Eigen
//   3.4's vector exp clamps its argument and returns 2.2e-308 for e^(-10⁶). That adds up to 2η·|b − a|.
double rounding_bound(const TierCard& card, const Reference& ref, std::int64_t n, int threads) {
  constexpr long double u = std::numeric_limits<double>::epsilon() / 2;
  constexpr long double smallest_normal = std::numeric_limits<double>::min();
  const long double depth = card.summation_depth ? card.summation_depth(n, threads) : n;
  const long double ulps = ref.ulps_on(card.evaluates.ulps_probe());
  return static_cast<double>(u * (8 * ref.evaluation_scale + (2 * ulps + depth) * ref.absolute_sum) +
                             4 * u * std::fabs(ref.midpoint) + 2 * smallest_normal * ref.width);
}

std::string to_text(const Reference& ref) {
  char text[256];
  const std::string exact = ref.exact ? [&] {
    char value[64];
    std::snprintf(value, sizeof value, "%La", *ref.exact);
    return std::string(value);
  }()
                                      : std::string("none");
  std::snprintf(text, sizeof text, "%s %La %La %La %La ", exact.c_str(), ref.midpoint, ref.absolute_sum,
                ref.evaluation_scale, ref.width);
  std::string out = text + ref.midpoint_method;
  // What a built-in's reference leaves at its default is not written: its text stays one line.
  if (ref.exact_method != "antiderivative") out += "\nexact_method: " + ref.exact_method;
  if (ref.exact_error_estimate) {
    std::snprintf(text, sizeof text, "%La", *ref.exact_error_estimate);
    out += std::string("\nexact_error_estimate: ") + text;
  }
  if (!ref.ulps.empty()) {  // "ulps: simd 0x1.c5p+14 array 0x1.8p+0"
    out += "\nulps:";
    for (const auto& [probe, ulps] : ref.ulps) {
      std::snprintf(text, sizeof text, "%a", ulps);
      out += " " + probe + " " + text;
    }
  }
  if (ref.nonfinite_nodes) {
    std::snprintf(text, sizeof text, "%lld %La", static_cast<long long>(ref.nonfinite_nodes),
                  ref.first_nonfinite_x);
    out += std::string("\nnonfinite: ") + text;
  }
  for (const auto& note : ref.notes) out += "\nnote: " + note;
  return out;
}

namespace {

long double read_long_double(const std::string& field, const std::string& text) {
  char* end = nullptr;
  const long double value = std::strtold(field.c_str(), &end);
  if (field.empty() || *end != '\0') throw InputError("not a reference: " + text);
  return value;
}

}  // namespace

Reference reference_from_text(const std::string& text) {
  Reference ref;
  std::istringstream lines(text);
  std::string first;
  std::getline(lines, first);
  std::istringstream in(first);
  std::string field[5];
  for (auto& each : field) in >> each;
  if (field[0] == "none")
    ref.exact.reset();
  else
    ref.exact = read_long_double(field[0], text);
  long double* values[] = {&ref.midpoint, &ref.absolute_sum, &ref.evaluation_scale, &ref.width};
  for (int i = 0; i < 4; ++i) *values[i] = read_long_double(field[i + 1], text);
  std::getline(in >> std::ws, ref.midpoint_method);
  for (std::string line; std::getline(lines, line);) {
    const auto colon = line.find(": ");
    if (colon == std::string::npos) throw InputError("not a reference: " + text);
    const std::string key = line.substr(0, colon), value = line.substr(colon + 2);
    std::istringstream words(value);
    std::string one, two;
    words >> one >> two;
    if (key == "exact_method") {
      ref.exact_method = value;
    } else if (key == "exact_error_estimate") {
      ref.exact_error_estimate = read_long_double(value, text);
    } else if (key == "ulps") {
      std::istringstream pairs(value);  // each probe, then its ulps
      for (std::string probe, ulps; pairs >> probe;) {
        ulps.clear();
        pairs >> ulps;
        ref.ulps[probe] = static_cast<double>(read_long_double(ulps, text));
      }
    } else if (key == "nonfinite") {
      ref.nonfinite_nodes = static_cast<std::int64_t>(read_long_double(one, text));
      ref.first_nonfinite_x = read_long_double(two, text);
    } else if (key == "note") {
      ref.notes.push_back(value);
    } else {
      throw InputError("not a reference (unknown line '" + key + "'): " + text);
    }
  }
  return ref;
}

double Reference::ulps_on(std::string_view probe) const {
  const auto found = ulps.find(probe);
  return found == ulps.end() ? 0 : found->second;
}

std::optional<double> relative_error(double result, long double target) {
  if (target == 0 || !std::isfinite(target) || !std::isfinite(result)) return std::nullopt;
  return static_cast<double>((result - target) / std::fabs(target));
}

std::optional<double> relative_error(double result, std::optional<long double> target) {
  if (!target) return std::nullopt;
  return relative_error(result, *target);
}

}  // namespace ladder
