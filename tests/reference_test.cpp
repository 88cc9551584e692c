// The references themselves, checked against values computed independently.
#include "reference.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "registry.hpp"

namespace ladder {
namespace {

const IntegrandInfo& integrand(std::string_view name) { return integrands()[find_integrand(name)]; }

TEST(Reference, ExactIntegralsMatchKnownValues) {
  // ∫₀¹ e^{-x²} = (√π/2)·erf(1), from libquadmath's erfq (../shared/research/tier-measurements.md).
  EXPECT_NEAR(static_cast<double>(reference(integrand("gauss"), {0, 1}, 1).exact), 0.746824132812427025399,
              1e-18);
  EXPECT_NEAR(static_cast<double>(reference(integrand("pi"), {0, 1}, 1).exact), std::numbers::pi, 1e-17);
  EXPECT_NEAR(static_cast<double>(reference(integrand("sin"), {0, 1}, 1).exact), 1 - std::cos(1.0), 1e-16);
  EXPECT_NEAR(static_cast<double>(reference(integrand("poly"), {0, 1}, 1).exact), 1.0 / 4 - 2.0 / 3 + 1.5 + 1,
              1e-16);
  EXPECT_NEAR(static_cast<double>(reference(integrand("poly"), {-2, 3}, 1).exact),
              (81.0 - 16) / 4 - 2.0 * (27 + 8) / 3 + 1.5 * (9 - 4) + 5, 1e-14);
}

TEST(Reference, DerivativesMatchFiniteDifferences) {
  for (const auto& f : integrands()) {
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
  // long double sum at the first size that uses it.
  const std::int64_t n = (std::int64_t{1} << 22) + 1;
  for (const auto& f : integrands()) {
    for (const Interval ab : {Interval{0, 1}, Interval{-2, 3}}) {
      const Reference ref = reference(f, ab, n);
      ASSERT_EQ(ref.midpoint_method, "Euler-Maclaurin");
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
  EXPECT_DOUBLE_EQ(*relative_error(1.5, 1.0L), 0.5);
  EXPECT_DOUBLE_EQ(*relative_error(-1.5, -1.0L), -0.5);
}

}  // namespace
}  // namespace ladder
