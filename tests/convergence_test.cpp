// The midpoint rule's error falls as h²: doubling n divides it by 4. This catches what a fixed tolerance
// at one n can miss, such as nodes shifted by half a step — shown below on a tier broken on purpose.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "test_support.hpp"

namespace ladder::testing {
namespace {

// Sizes where the discretization error (≈ 1e-5 … 1e-7) dwarfs rounding (≈ 1e-16).
constexpr std::int64_t first_n = 64;
constexpr int doublings = 4;

bool converges_with_order_two(const std::vector<double>& orders) {
  return std::all_of(orders.begin(), orders.end(), [](double order) { return std::fabs(order - 2) < 0.1; });
}

std::string describe(const std::vector<double>& orders) {
  std::string text;
  for (double order : orders) text += std::to_string(order) + " ";
  return text;
}

class Convergence : public EachTierAndIntegrand {};

// On intervals where every integrand here is smooth enough for the h² law (f″ continuous; the piecewise
// examples' f‴ jump at 0.3 leaves it intact) and the leading term f′(b) − f′(a) is far from 0.
TEST_P(Convergence, OrderTwo) {
  for (const Interval ab : {Interval{0.0, 1.0}, Interval{-0.5, 2.0}}) {
    const auto threads = tier().card.parallel ? 2 : 1;
    const auto orders =
        observed_orders(tier().kernels[integrand()], integrand(), ab, first_n, doublings, threads);
    EXPECT_TRUE(converges_with_order_two(orders))
        << GetParam().tier << " on " << integrands()[integrand()].name << " over [" << ab.a << ", " << ab.b
        << "]: observed orders " << describe(orders);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryTierAndIntegrand, Convergence, ::testing::ValuesIn(all_cases()), case_name);

// A tier with a classic bug: nodes at a + i·h instead of a + (i + ½)·h (a left Riemann sum).
double shifted_nodes(Interval ab, std::int64_t n, const RunOptions&) {
  const double step = (ab.b - ab.a) / static_cast<double>(n);
  double sum = 0.0;
  for (std::int64_t i = 0; i < n; ++i) sum += Gauss{}(ab.a + static_cast<double>(i) * step);
  return sum * step;
}

TEST(ConvergenceCheck, HalfStepShiftPassesAFixedToleranceButFailsTheOrderCheck) {
  const std::size_t gauss = find_integrand("gauss");
  const Interval unit{0.0, 1.0};
  const std::int64_t n = 1000003;
  const long double exact = cached_reference(gauss, unit, n).exact.value();

  // At one large n the broken tier looks fine to a relative tolerance of 1e-6 …
  const double relative_error = static_cast<double>(std::fabs(shifted_nodes(unit, n, {}) - exact) / exact);
  EXPECT_LT(relative_error, 1e-6);

  // … but its error only halves when n doubles: order 1, and the order check rejects it.
  const auto orders = observed_orders(&shifted_nodes, gauss, unit, first_n, doublings);
  EXPECT_FALSE(converges_with_order_two(orders)) << "observed orders " << describe(orders);
  for (double order : orders) EXPECT_NEAR(order, 1.0, 0.1);

  // The correct rule through the same check, for contrast.
  EXPECT_TRUE(converges_with_order_two(
      observed_orders(find_tier("inlined").kernels[gauss], gauss, unit, first_n, doublings)));
}

}  // namespace
}  // namespace ladder::testing
