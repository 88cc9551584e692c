// Every tier × every integrand it can run (the built-in ones and the shipped examples), at every edge size,
// interval and thread count, against the exact midpoint sum (rounding alone, within the bound for the
// summation depth the tests pin for the tier) and against the exact integral (the midpoint rule's leading
// error term, with derivatives written here). The largest edge size is checked by integrand, every tier in
// one test, so that its references are computed once. A tier that cannot run an integrand is skipped with
// the reason; the scalar tiers run every one (ScalarTiersRunEveryIntegrand).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <experimental/simd>
#include <functional>
#include <map>
#include <numbers>
#include <string>

#include "test_support.hpp"
#include "text.hpp"

namespace ladder::testing {
namespace {

std::vector<int> thread_counts(const Tier& tier) {
  return tier.card.parallel ? std::vector<int>{1, 2, 3} : std::vector<int>{1};
}

class TierCorrectness : public EachTierAndIntegrand {};

// The rounding check at one size, edge interval and thread count.
void expect_within_rounding_bound(const Tier& tier, std::size_t integrand, const NamedInterval& interval,
                                  std::int64_t n, int threads) {
  SCOPED_TRACE(tier.card.id + ", " + interval.name + ", n = " + std::to_string(n) +
               ", threads = " + std::to_string(threads));
  const Reference& ref = cached_reference(integrand, interval.ab, n);
  const double result = integrate(tier, integrand, interval.ab, n, {threads, false});
  EXPECT_LE(std::fabs(result - ref.midpoint), pinned_rounding_bound(tier, ref, n, threads))
      << "result " << result << ", exact midpoint sum " << static_cast<double>(ref.midpoint);
}

// The largest edge size, 1000003, is checked by integrand (TiersAtAMillionNodes below), every tier in one
// test: its references take a third of a second each, and a test process computes each once.
TEST_P(TierCorrectness, RoundingErrorStaysWithinBoundAtEveryEdgeCase) {
  for (const auto& interval : edge_intervals)
    for (const std::int64_t n : edge_sizes)
      if (n != edge_sizes.back())
        for (const int threads : thread_counts(tier()))
          expect_within_rounding_bound(tier(), integrand(), interval, n, threads);
}

TEST_P(TierCorrectness, EmptyIntervalGivesExactlyZero) {
  const Tier& tier = this->tier();
  for (const std::int64_t n : edge_sizes)
    for (const int threads : thread_counts(tier))
      EXPECT_EQ(integrate(tier, integrand(), {0.5, 0.5}, n, {threads, false}), 0.0) << "n = " << n;
}

void expect_reversal_negates(const Tier& tier, std::size_t integrand, std::int64_t n) {
  const double forward = integrate(tier, integrand, {-2.0, 3.0}, n, {});
  const double backward = integrate(tier, integrand, {3.0, -2.0}, n, {});
  const Reference& ref = cached_reference(integrand, {-2.0, 3.0}, n);
  EXPECT_LE(std::fabs(forward + backward), 2 * pinned_rounding_bound(tier, ref, n, 1))
      << tier.card.id << ", n = " << n;
}

TEST_P(TierCorrectness, ReversedIntervalNegatesTheSum) {
  // ∫_b^a = −∫_a^b, and the midpoint rule visits the same nodes in reverse: the results agree to rounding.
  const Tier& tier = this->tier();
  const std::size_t integrand = this->integrand();
  for (const std::int64_t n : {std::int64_t{7}, std::int64_t{1000}})
    expect_reversal_negates(tier, integrand, n);
}

TEST_P(TierCorrectness, WideIntervalAndLargeOffset) {
  // Nodes far from zero: the rounding of the node itself dominates, and the bound accounts for it.
  const Tier& tier = this->tier();
  const std::size_t integrand = this->integrand();
  for (const Interval ab : {Interval{-20.0, 20.0}, Interval{1000.0, 1001.0}}) {
    const std::int64_t n = 100003;
    const Reference& ref = cached_reference(integrand, ab, n);
    const double result = integrate(tier, integrand, ab, n, {});
    EXPECT_LE(std::fabs(result - ref.midpoint), pinned_rounding_bound(tier, ref, n, 1))
        << "[" << ab.a << ", " << ab.b << "]";
  }
}

// The midpoint rule's error, from the Euler–Maclaurin expansion, with h = (b − a)/n (negative for b < a):
//   I − M_n = (h²/24)·(f′(b) − f′(a)) − (7h⁴/5760)·(f‴(b) − f‴(a)) + O(h⁶).
// The leading term is (b − a)·h²/24 times the mean of f″ over [a, b], which is (f′(b) − f′(a))/(b − a):
// there is no further factor b − a. The derivatives are written here, apart from integrands.hpp and the
// references, so that a wrong derivative there cannot hide a wrong tier here.
struct Derivatives {
  long double (*first)(long double x);
  long double (*third)(long double x);
  // Where f‴ jumps (piecewise laws), and by how much: the h⁴ term then has a part of its own.
  long double jump_at = 0, third_jump = 0;
};

// The examples of examples/integrands. normal-cdf is ½erfc(−cx) with c = 0.70710678118654752440 as a
// double: its derivatives are written for that c (f′ = c/√π·e^(−c²x²)).
constexpr long double normal_c = 0.70710678118654752440;
long double normal_density(long double x) {
  return normal_c / std::sqrt(std::numbers::pi_v<long double>) * std::exp(-normal_c * normal_c * x * x);
}
constexpr long double piecewise_c = 0.3;
long double piecewise_first(long double x) {
  return x < piecewise_c ? std::exp(x - piecewise_c) : 1 + (x - piecewise_c);
}
long double piecewise_third(long double x) { return x < piecewise_c ? std::exp(x - piecewise_c) : 0; }

const std::map<std::string, Derivatives, std::less<>>& derivatives() {
  static const std::map<std::string, Derivatives, std::less<>> table = {
      {"gauss",  // e^(−x²)
       {[](long double x) { return -2 * x * std::exp(-x * x); },
        [](long double x) { return (12 * x - 8 * x * x * x) * std::exp(-x * x); }}},
      {"pi",  // 4/(1 + x²)
       {[](long double x) { return -8 * x / ((1 + x * x) * (1 + x * x)); },
        [](long double x) { return 96 * x * (1 - x * x) / std::pow(1 + x * x, 4); }}},
      {"sin", {[](long double x) { return std::cos(x); }, [](long double x) { return -std::cos(x); }}},
      {"poly",  // x³ − 2x² + 3x + 1: the expansion ends at h², so only rounding is left
       {[](long double x) { return 3 * x * x - 4 * x + 3; }, [](long double) { return 6.0L; }}},
      {"normal-cdf",  // ½erfc(−cx)
       {normal_density,
        [](long double x) {
          return normal_density(x) * (4 * std::pow(normal_c, 4) * x * x - 2 * normal_c * normal_c);
        }}},
      {"rational",  // (x² + 6x + 12)/(x² − 6x + 12) = 1 + 12x/D, D = x² − 6x + 12
       {[](long double x) {
          const long double d = (x - 6) * x + 12;
          return 12 * (12 - x * x) / (d * d);
        },
        [](long double x) {
          const long double d = (x - 6) * x + 12;
          return -72 * (((x * x - 72) * x + 288) * x - 288) / (d * d * d * d);
        }}},
      {"log-atan",  // L·A, L = log(1 + x²), A = atan(x): f‴ = L‴A + 3L″A′ + 3L′A″ + LA‴
       {[](long double x) {
          const long double q = 1 + x * x;
          return 2 * x / q * std::atan(x) + std::log(q) / q;
        },
        [](long double x) {
          const long double q = 1 + x * x;
          return 4 * x * (x * x - 3) / (q * q * q) * std::atan(x) + 6 * (1 - x * x) / (q * q * q) -
                 12 * x * x / (q * q * q) + std::log(q) * (6 * x * x - 2) / (q * q * q);
        }}},
      // e^(x−c) below c, 1 + u + u²/2 above (u = x − c): f‴ drops from 1 to 0 at c.
      {"piecewise-branch", {piecewise_first, piecewise_third, piecewise_c, -1}},
      {"piecewise-select", {piecewise_first, piecewise_third, piecewise_c, -1}},
  };
  return table;
}

// Sizes where the leading term (10⁻⁴ … 10⁻⁹) dwarfs rounding (≤ 10⁻¹²), none a multiple of the SIMD
// lanes, so every remainder path runs.
constexpr std::int64_t discretization_sizes[] = {129, 1001, 4099};

TEST_P(TierCorrectness, ErrorAgainstTheIntegralIsTheMidpointRulesLeadingTerm) {
  const Tier& tier = this->tier();
  const std::size_t integrand = this->integrand();
  const auto found = derivatives().find(integrands()[integrand].name);
  if (found == derivatives().end() && integrands()[integrand].source != "built-in")
    GTEST_SKIP()
        << "integrand '" << integrands()[integrand].name << "' (" << integrands()[integrand].source
        << ") is your own: this test knows the derivatives of the built-in and example integrands only";
  ASSERT_NE(found, derivatives().end())
      << "no derivatives written in this test for integrand " << integrands()[integrand].name << ": add them";
  const Derivatives& f = found->second;
  for (const auto& interval : edge_intervals) {
    const long double a = interval.ab.a, b = interval.ab.b;
    // The empty interval's error is exactly 0 (EmptyIntervalGivesExactlyZero). Every other edge interval
    // has f′(b) ≠ f′(a) for every integrand, so the leading term does not vanish: checked, since where it
    // did (sin on [−1, 1], say) this test would compare the error with 0 and say nothing of the h² law.
    if (a == b) continue;
    const long double slope_change = f.first(b) - f.first(a);
    ASSERT_GT(std::fabs(slope_change), 0.01L) << interval.name;
    for (const std::int64_t n : discretization_sizes) {
      const int threads = thread_counts(tier).back();
      SCOPED_TRACE(interval.name + ", n = " + std::to_string(n) + ", threads = " + std::to_string(threads));
      const long double h = (b - a) / n;
      const long double leading = h * h / 24 * slope_change;
      const long double next = 7 * h * h * h * h / 5760 * (f.third(b) - f.third(a));
      const Reference& ref = cached_reference(integrand, interval.ab, n);
      ASSERT_TRUE(ref.exact) << "no exact integral: " << (ref.notes.empty() ? "" : ref.notes.front());
      const long double error = *ref.exact - integrate(tier, integrand, interval.ab, n, {threads, false});
      // What is left after the leading term: the h⁴ term, the h⁶ one and the tier's rounding. At these
      // steps the h⁶ term is far below the h⁴ one, so twice the h⁴ term covers both; where the h⁴ term
      // vanishes (pi on [0, 1]: f‴(0) = f‴(1) = 0) the h⁶ term, under 2·10⁻¹⁵, is within the rounding
      // bound. Measured, error − leading is −next to 4 digits at n = 129: the expansion's sign is right.
      // A jump J in f‴ at c inside [a, b] adds J·h⁴·B̃₄(θ)/4! for c's place θ in its cell (the Peano kernel
      // of the midpoint rule), at most |J|·h⁴/720: twice that is allowed.
      const bool jump_inside = (f.jump_at - a) * (f.jump_at - b) < 0;
      const long double jump = jump_inside ? std::fabs(f.third_jump) * h * h * h * h / 360 : 0;
      const long double tolerance = 2 * std::fabs(next) + jump + pinned_rounding_bound(tier, ref, n, threads);
      EXPECT_LE(std::fabs(error - leading), tolerance) << "measured error " << static_cast<double>(error)
                                                       << ", leading term " << static_cast<double>(leading);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryTierAndIntegrand, TierCorrectness, ::testing::ValuesIn(all_cases()), case_name);

// The largest edge size, for each integrand: every tier that runs it, at every edge interval and thread
// count, and reversed, against the references computed once here. A tier that cannot run on this machine
// is left out and named (its own tests above are skipped with the reason).
class TiersAtAMillionNodes : public ::testing::TestWithParam<std::size_t> {};

TEST_P(TiersAtAMillionNodes, RoundingErrorStaysWithinBoundAndReversalNegates) {
  const std::size_t integrand = GetParam();
  const std::int64_t n = edge_sizes.back();
  std::vector<std::string> ran, left_out;
  for (const Case& each : all_cases()) {
    if (each.integrand != integrand) continue;
    const Tier& tier = find_tier(each.tier);
    if (const auto reason = unavailable_reason(tier); !reason.empty()) {
      left_out.push_back(each.tier + " (" + reason + ")");
      continue;
    }
    ran.push_back(each.tier);
    for (const auto& interval : edge_intervals)
      for (const int threads : thread_counts(tier))
        expect_within_rounding_bound(tier, integrand, interval, n, threads);
    expect_reversal_negates(tier, integrand, n);
  }
  if (ran.empty())
    GTEST_SKIP() << "no tier that runs this integrand can run on this machine: " << join(left_out);
  std::printf("n = %lld on %s; not run on this machine: %s\n", static_cast<long long>(n), join(ran).c_str(),
              left_out.empty() ? "none" : join(left_out).c_str());
}

std::vector<std::size_t> every_integrand() {
  std::vector<std::size_t> all(integrands().size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  return all;
}

INSTANTIATE_TEST_SUITE_P(EveryIntegrand, TiersAtAMillionNodes, ::testing::ValuesIn(every_integrand()),
                         [](const ::testing::TestParamInfo<std::size_t>& info) {
                           std::string name = integrands()[info.param].name;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// The examples are in every tier's tests above: the scalar tiers run every integrand there is, the SIMD and
// Eigen tiers every one whose header computes on their types, and the tests know what each calls f with.
TEST(TierCoverage, ScalarTiersRunEveryIntegrand) {
  std::size_t user = 0;
  for (const auto& integrand : integrands()) user += integrand.source != "built-in";
  if (user == 0) GTEST_SKIP() << "no user integrands in this build (LADDER_EXAMPLE_INTEGRANDS=OFF?)";
  for (const char* example : {"normal-cdf", "rational", "piecewise-branch", "piecewise-select", "log-atan"})
    EXPECT_NO_THROW(find_integrand(example)) << "example " << example << " is missing from the build";
  std::size_t scalar_tiers = 0;
  for (const auto& tier : tiers()) {
    if (tier.card.evaluates.id != doubles.id) continue;
    ++scalar_tiers;
    for (std::size_t integrand = 0; integrand < integrands().size(); ++integrand)
      EXPECT_EQ(unsupported_reason(tier, integrand), "")
          << "scalar tier '" << tier.card.id << "' cannot run '" << integrands()[integrand].name << "'";
  }
  EXPECT_GE(scalar_tiers, 6u);  // naive, streaming, inlined, std-algorithms, autovec, stdpar
}

TEST(TierCoverage, WhatEachTierCallsTheIntegrandWithIsThePinnedOne) {
  for (const auto& tier : tiers()) {
    const auto found = pinned_depths().find(tier.card.id);
    ASSERT_NE(found, pinned_depths().end()) << tier.card.id;
    EXPECT_EQ(tier.card.evaluates.ulps_probe(), found->second.ulps_probe) << tier.card.id;
  }
}

// xsimd 8.1's erfc is about 3e-12 relative off below x = −3.11 (a rational fit; 2.9e4 ulps, what the build's
// probe measured): on normal-cdf far in the left tail, the xsimd tier's error is that, not its summation.
// Its bound allows for the probe's ulps, and needs them: without, the same result would be outside.
TEST(TierBounds, XsimdsErfcInTheLeftTailIsWithinTheBoundOnlyWithTheProbesUlps) {
  const auto& all = integrands();
  const auto found =
      std::find_if(all.begin(), all.end(), [](const auto& f) { return f.name == "normal-cdf"; });
  if (found == all.end())
    GTEST_SKIP() << "example 'normal-cdf' is not in this build (LADDER_EXAMPLE_INTEGRANDS=OFF)";
  const std::size_t normal_cdf = static_cast<std::size_t>(found - all.begin());
  const Tier& xsimd = find_tier("xsimd");
  ASSERT_EQ(unsupported_reason(xsimd, normal_cdf), "");
  const Interval tail{-6.0, -3.2};
  const std::int64_t n = 1001;
  const Reference& ref = cached_reference(normal_cdf, tail, n);
  EXPECT_GT(ref.ulps_on("simd"), 1e4);
  const double error =
      std::fabs(integrate(xsimd, normal_cdf, tail, n, {}) - static_cast<double>(ref.midpoint));
  EXPECT_LE(error, pinned_rounding_bound(xsimd, ref, n, 1));
  Reference without = ref;
  without.ulps.erase("simd");
  EXPECT_GT(error, pinned_rounding_bound(xsimd, without, n, 1));
  // The scalar tiers call glibc's erfc: within the bound without any ulps added.
  EXPECT_LE(
      std::fabs(integrate(find_tier("naive"), normal_cdf, tail, n, {}) - static_cast<double>(ref.midpoint)),
      pinned_rounding_bound(find_tier("naive"), without, n, 1));
}

// A defect of the compiler and library the build has (std_simd.cpp: the std-simd kind's built-in probe)
// refuses what it breaks, and only that: std::experimental::sin on native_simd<double>, lane by lane against
// std::sin, is wrong exactly where std-simd has no sin kernel, and the reason names the defect.
TEST(TierDefects, StdSimdRefusesSinExactlyWhereTheLibrarysSinIsWrong) {
  using Vector = std::experimental::native_simd<double>;
  double worst = 0;
  for (int k = 0; k < 2000; ++k) {
    const Vector x([&](auto lane) { return -5 + 0.005 * k + 0.0003 * static_cast<double>(lane); });
    const Vector y = std::experimental::sin(x);
    for (std::size_t lane = 0; lane < Vector::size(); ++lane)
      worst = std::max(worst, std::fabs(y[lane] - std::sin(x[lane])));
  }
  const bool sin_is_wrong = worst > 1e-12;
  const auto& tier = find_tier("std-simd");
  const std::size_t sine = find_integrand("sin");
  EXPECT_EQ(tier.kernels[sine] == nullptr, sin_is_wrong)
      << "worst difference from std::sin: " << worst << "; " << unsupported_reason(tier, sine);
  EXPECT_EQ(probe_for(integrands()[sine], tier.card.evaluates).compiles, !sin_is_wrong);
  if (sin_is_wrong) {
    EXPECT_NE(unsupported_reason(tier, sine).find("wrong values"), std::string::npos);
  }
}

TEST(TierInputs, BadInputIsRejectedWithTheValueAndWhatIsAccepted) {
  const Tier& tier = find_tier("tbb");
  auto message_of = [&](Interval ab, std::int64_t n, int threads) -> std::string {
    try {
      integrate(tier, 0, ab, n, {threads, false});
    } catch (const InputError& error) {
      return error.what();
    }
    return "no error";
  };
  EXPECT_EQ(message_of({0, 1}, 0, 1), "n = 0 is out of range; n must be between 1 and 2^62");
  EXPECT_EQ(message_of({0, 1}, -5, 1), "n = -5 is out of range; n must be between 1 and 2^62");
  EXPECT_EQ(message_of({0, 1}, max_nodes + 1, 1),
            "n = 4611686018427387905 is out of range; n must be between 1 and 2^62");
  EXPECT_EQ(message_of({NAN, 1}, 10, 1), "a = nan is not a finite number");
  EXPECT_EQ(message_of({0, INFINITY}, 10, 1), "b = inf is not a finite number");
  EXPECT_EQ(message_of({0, 1}, 10, 0), "threads = 0 is invalid; threads must be at least 1");
  EXPECT_THROW(integrate(find_tier("naive"), 0, {0, 1}, 10, {2, false}), InputError);
  EXPECT_THROW(integrate(find_tier("openmp"), 0, {0, 1}, 10, {2, true}),
               InputError);  // it cannot promise that
  EXPECT_THROW(find_tier("no-such-tier"), InputError);
  EXPECT_THROW(find_integrand("no-such-integrand"), InputError);
}

}  // namespace
}  // namespace ladder::testing
