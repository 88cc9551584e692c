// The references themselves, checked against values computed independently.
#include "reference.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <string>

#include "registry.hpp"
#include "worker.hpp"

namespace ladder {
namespace {

const IntegrandInfo& integrand(std::string_view name) { return integrands()[find_integrand(name)]; }

TEST(Reference, ExactIntegralsMatchKnownValues) {
  // ∫₀¹ e^{-x²} = (√π/2)·erf(1), from libquadmath's erfq (../shared/research/tier-measurements.md).
  EXPECT_NEAR(static_cast<double>(reference(integrand("gauss"), {0, 1}, 1).exact.value()),
              0.746824132812427025399, 1e-18);
  EXPECT_NEAR(static_cast<double>(reference(integrand("pi"), {0, 1}, 1).exact.value()), std::numbers::pi,
              1e-17);
  EXPECT_NEAR(static_cast<double>(reference(integrand("sin"), {0, 1}, 1).exact.value()), 1 - std::cos(1.0),
              1e-16);
  EXPECT_NEAR(static_cast<double>(reference(integrand("poly"), {0, 1}, 1).exact.value()),
              1.0 / 4 - 2.0 / 3 + 1.5 + 1, 1e-16);
  EXPECT_NEAR(static_cast<double>(reference(integrand("poly"), {-2, 3}, 1).exact.value()),
              (81.0 - 16) / 4 - 2.0 * (27 + 8) / 3 + 1.5 * (9 - 4) + 5, 1e-14);
}

TEST(Reference, DerivativesMatchFiniteDifferences) {
  for (const auto& f : integrands()) {
    if (f.source != "built-in") continue;  // the closed forms are the built-ins' (user ones: below)
    for (const long double x : {-2.3L, -0.7L, 0.0L, 0.4L, 1.0L, 2.9L}) {
      const long double h = 1e-4L;
      const long double d1 = (f.value(x + h) - f.value(x - h)) / (2 * h);
      const long double d3 =
          (f.value(x + 2 * h) - 2 * f.value(x + h) + 2 * f.value(x - h) - f.value(x - 2 * h)) /
          (2 * h * h * h);
      EXPECT_NEAR(static_cast<double>(f.derivative1(x)), static_cast<double>(d1), 1e-7)
          << f.name << " at " << x;
      EXPECT_NEAR(static_cast<double>(f.derivative3(x)), static_cast<double>(d3), 1e-4)
          << f.name << " at " << x;
      // The antiderivative's derivative is the function.
      const long double dF = (f.antiderivative(x + h) - f.antiderivative(x - h)) / (2 * h);
      EXPECT_NEAR(static_cast<double>(dF), static_cast<double>(f.value(x)), 1e-7) << f.name << " at " << x;
    }
  }
}

TEST(Reference, SmallMidpointSumsMatchHandComputation) {
  // n = 1: one node at the middle. n = 2: nodes at ¼ and ¾.
  const auto& gauss = integrand("gauss");
  EXPECT_DOUBLE_EQ(static_cast<double>(reference(gauss, {0, 1}, 1).midpoint), std::exp(-0.25));
  EXPECT_DOUBLE_EQ(static_cast<double>(reference(gauss, {0, 1}, 2).midpoint),
                   0.5 * (std::exp(-0.0625) + std::exp(-0.5625)));
  EXPECT_DOUBLE_EQ(static_cast<double>(reference(gauss, {1, 0}, 2).midpoint),
                   -0.5 * (std::exp(-0.0625) + std::exp(-0.5625)));
  EXPECT_EQ(reference(gauss, {0.5, 0.5}, 7).midpoint, 0);
}

TEST(Reference, EulerMaclaurinAgreesWithADirectLongDoubleSum) {
  // Above 2^22 nodes the midpoint sum comes from the expansion; check it against a plain compensated
  // long double sum at the first size that uses it, for every integrand: the examples' f′ and f‴ come from
  // autodiff, or (log-atan: Boost 1.74's fvar has no log1p) from finite differences.
  const std::int64_t n = (std::int64_t{1} << 22) + 1;
  for (const auto& f : integrands()) {
    for (const Interval ab : {Interval{0, 1}, Interval{-2, 3}}) {
      const Reference ref = reference(f, ab, n);
      // Built-ins from their closed forms; the others from Boost.Math (autodiff, or finite differences).
      ASSERT_EQ(ref.midpoint_method.rfind("Euler-Maclaurin", 0), 0u) << f.name;
      EXPECT_TRUE(ref.notes.empty()) << f.name << ": " << ref.notes.front();
      const long double step = (static_cast<long double>(ab.b) - ab.a) / n;
      long double sum = 0, compensation = 0;
      for (std::int64_t i = 0; i < n; ++i) {
        const long double term = f.value(ab.a + (i + 0.5L) * step);
        const long double next = sum + term;
        compensation += std::fabs(sum) >= std::fabs(term) ? (sum - next) + term : (term - next) + sum;
        sum = next;
      }
      const long double direct = (sum + compensation) * step;
      EXPECT_LE(std::fabs(static_cast<double>(ref.midpoint - direct)),
                1e-17 * std::fabs(static_cast<double>(direct)))
          << f.name << " on [" << ab.a << ", " << ab.b << "]";
    }
  }
}

TEST(Reference, DirectSumIsUsedUpToTwoToTheTwentySecondOrForCoarseSteps) {
  EXPECT_EQ(reference(integrands()[0], {0, 1}, std::int64_t{1} << 22).midpoint_method, "long double sum");
  EXPECT_EQ(reference(integrands()[0], {0, 1}, (std::int64_t{1} << 22) + 1).midpoint_method,
            "Euler-Maclaurin");
  // A wide interval keeps the step coarse, where the expansion's next term would matter.
  EXPECT_EQ(reference(integrands()[0], {0, 1e5}, 5000000).midpoint_method, "long double sum");
}

TEST(Reference, RelativeErrorIsUndefinedAgainstZero) {
  EXPECT_FALSE(relative_error(1e-20, 0).has_value());
  EXPECT_FALSE(relative_error(1.0, std::optional<long double>()).has_value());  // no reference
  EXPECT_FALSE(relative_error(1.0, std::numeric_limits<long double>::infinity()).has_value());
  EXPECT_DOUBLE_EQ(*relative_error(1.5, 1.0L), 0.5);
  EXPECT_DOUBLE_EQ(*relative_error(-1.5, -1.0L), -0.5);
}

// ---- an integrand that is not finite at a node: said, never a number passed off as right ----------------
// 1/x on [−1, 1]: with an odd n the middle node is x = 0. Known only by its long double function, as a
// user's would be to the references: everything else null.
IntegrandInfo one_over_x() {
  IntegrandInfo info;
  info.name = "one-over-x";
  info.source = "this test";
  info.value = [](long double x) { return 1 / x; };
  return info;
}

bool has_note(const Reference& ref, const std::string& text) {
  for (const auto& note : ref.notes)
    if (note.find(text) != std::string::npos) return true;
  return false;
}

TEST(Reference, ANodeWhereFIsNotFiniteIsSaidAndTheExactIntegralIsUnavailable) {
  const Reference ref = reference(one_over_x(), {-1, 1}, 3);
  EXPECT_EQ(ref.nonfinite_nodes, 1);
  EXPECT_EQ(ref.first_nonfinite_x, 0);
  EXPECT_FALSE(std::isfinite(ref.midpoint));
  EXPECT_TRUE(has_note(ref, "f is not finite at 1 of 3 nodes, first at x = 0")) << to_text(ref);
  // The quadrature meets the same singularity (tanh_sinh evaluates the middle of [a, b]) and says so.
  EXPECT_FALSE(ref.exact.has_value());
  EXPECT_EQ(ref.exact_method, "Boost.Math tanh_sinh in long double");
  EXPECT_TRUE(has_note(ref, "exact integral unavailable: Boost.Math tanh_sinh in long double failed"))
      << to_text(ref);
  // An even n misses 0: the midpoint sum is finite (0 by symmetry), the integral still unavailable.
  const Reference even = reference(one_over_x(), {-1, 1}, 4);
  EXPECT_EQ(even.nonfinite_nodes, 0);
  EXPECT_FALSE(even.exact.has_value());
  EXPECT_TRUE(has_note(even, "exact integral unavailable")) << to_text(even);
  // Above 2^22 nodes the midpoint sum would come from the exact integral: unavailable too, and said.
  const Reference large = reference(one_over_x(), {-1, 1}, (std::int64_t{1} << 22) + 1);
  EXPECT_FALSE(large.exact.has_value());
  EXPECT_FALSE(std::isfinite(large.midpoint));
  EXPECT_TRUE(has_note(large, "midpoint sum unavailable")) << to_text(large);
  // Away from 0 all is well, from the quadrature, with its estimate recorded.
  const Reference away = reference(one_over_x(), {1, 2}, 3);
  ASSERT_TRUE(away.exact.has_value()) << to_text(away);
  EXPECT_NEAR(static_cast<double>(*away.exact), std::log(2.0), 1e-16);
  ASSERT_TRUE(away.exact_error_estimate.has_value());
  EXPECT_LE(*away.exact_error_estimate, 1e-15L * *away.exact);
  EXPECT_TRUE(away.notes.empty()) << to_text(away);
}

TEST(Reference, TextKeepsWhatAUserIntegrandsReferenceAdds) {
  Reference ref = reference(one_over_x(), {-1, 1}, 3);
  ref.ulps = {{"simd", 29000.5}, {"array", 1.5}, {"std_simd", 0.5}, {"sleef", 2.5}, {"highway", 3.5}};
  ref.exact_error_estimate = 1.25e-20L;
  const Reference back = reference_from_text(to_text(ref));
  EXPECT_FALSE(back.exact.has_value());
  EXPECT_EQ(back.exact_method, ref.exact_method);
  EXPECT_EQ(back.exact_error_estimate, ref.exact_error_estimate);
  EXPECT_EQ(back.ulps, ref.ulps);
  EXPECT_EQ(back.nonfinite_nodes, 1);
  EXPECT_EQ(back.first_nonfinite_x, 0);
  EXPECT_EQ(back.notes, ref.notes);
  EXPECT_EQ(back.midpoint_method, ref.midpoint_method);
  EXPECT_FALSE(std::isfinite(back.midpoint));
  // A built-in's reference is one line, as the Python peers read it.
  const std::string built_in = to_text(reference(integrand("gauss"), {0, 1}, 10));
  EXPECT_EQ(built_in.find('\n'), std::string::npos) << built_in;
  EXPECT_EQ(reference_from_text(built_in).exact, reference(integrand("gauss"), {0, 1}, 10).exact);
  EXPECT_THROW(reference_from_text(built_in + "\nsomething: else"), std::invalid_argument);
  EXPECT_THROW(reference_from_text(built_in + "\nulps: simd 0x1p+0 array"), std::invalid_argument);
}

// The bound allows for what the build measured a user integrand's vector maths to lose, on the tiers that
// call it with that vector type only.
TEST(Reference, TheBoundAddsTheProbesUlpsForWhatTheTierCallsFWith) {
  Reference ref = reference(integrand("gauss"), {0, 1}, 1000);
  ref.ulps = {{"simd", 1000}, {"array", 10}};
  TierCard scalar, simd, arrays;
  simd.evaluates.id = "simd";
  arrays.evaluates.id = "array";
  const double u = std::numeric_limits<double>::epsilon() / 2;
  const double plain = rounding_bound(scalar, ref, 1000, 1);
  auto added = [&](double ulps) { return static_cast<double>(2 * u * ulps * ref.absolute_sum); };
  EXPECT_NEAR(rounding_bound(simd, ref, 1000, 1) - plain, added(1000), 1e-6 * plain);
  EXPECT_NEAR(rounding_bound(arrays, ref, 1000, 1) - plain, added(10), 1e-6 * plain);
  // A kind whose type does another kind's vector maths adds that kind's ulps (TunedBatch: xsimd's).
  TierCard tuned;
  tuned.evaluates = {.id = "tuned", .ulps_of = "simd"};
  EXPECT_NEAR(rounding_bound(tuned, ref, 1000, 1) - plain, added(1000), 1e-6 * plain);
  // Every kind the tiers call f with: its own probe's ulps (or the one it names), and only those.
  double distinct = 20;
  for (const auto& kind : evaluation_kinds())
    if (!kind.id.empty()) ref.ulps[std::string(kind.id)] = distinct += 10;
  for (const auto& kind : evaluation_kinds()) {
    TierCard card;
    card.evaluates = kind;
    const double expected = kind.id.empty() ? 0 : ref.ulps.at(std::string(kind.ulps_probe()));
    EXPECT_NEAR(rounding_bound(card, ref, 1000, 1) - plain, added(expected), 1e-6 * plain) << kind.words;
  }
  // The integrand's IntegrandInfo carries its probes into the reference.
  IntegrandInfo measured = integrand("gauss");
  measured.probes = {{"simd", {true, "", 123}}, {"array", {true, "", 4}}, {"highway", {true, "", 7}}};
  const Reference probed = reference(measured, {0, 1}, 10);
  EXPECT_EQ(probed.ulps_on("simd"), 123);
  EXPECT_EQ(probed.ulps_on("array"), 4);
  EXPECT_EQ(probed.ulps_on("highway"), 7);
  EXPECT_EQ(probed.ulps_on("sleef"), 0);
}

// The worker's record of a cell against such a reference: no error against what is absent or not finite
// (null, never 0), never within the bound, and the notes carried into the measurement.
TEST(Reference, TheWorkerRecordsNoErrorAgainstAMissingReference) {
  const Reference ref = reference(one_over_x(), {-1, 1}, 3);
  Measurement measurement;
  record_reference(measurement, 1e300, ref, 1e-15);
  EXPECT_FALSE(measurement.exact.has_value());
  EXPECT_FALSE(measurement.midpoint.has_value());
  EXPECT_FALSE(measurement.rel_error.has_value());
  EXPECT_FALSE(measurement.rounding_error.has_value());
  EXPECT_FALSE(measurement.within_rounding_bound);
  EXPECT_EQ(measurement.exact_method, "Boost.Math tanh_sinh in long double");
  EXPECT_EQ(measurement.reference_notes, ref.notes);
  const nlohmann::json written = measurement;
  EXPECT_TRUE(written.at("exact").is_null());
  EXPECT_TRUE(written.at("midpoint").is_null());
  EXPECT_EQ(written.at("reference_notes").size(), ref.notes.size());

  // A good reference: the errors are numbers, and within the bound where the result is close.
  const Reference good = reference(integrand("gauss"), {0, 1}, 10);
  Measurement checked;
  const double result = static_cast<double>(good.midpoint);
  record_reference(checked, result, good, rounding_bound(TierCard{}, good, 10, 1));
  ASSERT_TRUE(checked.exact.has_value());
  EXPECT_EQ(*checked.exact, static_cast<double>(*good.exact));
  ASSERT_TRUE(checked.rel_error.has_value());
  EXPECT_TRUE(checked.within_rounding_bound);
  EXPECT_EQ(checked.exact_method, "antiderivative");
  EXPECT_TRUE(checked.reference_notes.empty());
  // A result that is not finite is never within the bound.
  record_reference(checked, std::numeric_limits<double>::quiet_NaN(), good, 1.0);
  EXPECT_FALSE(checked.within_rounding_bound);
  EXPECT_FALSE(checked.rounding_error.has_value());
}

}  // namespace
}  // namespace ladder
