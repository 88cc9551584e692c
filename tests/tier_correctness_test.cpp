// Every tier × every integrand, at every edge size, interval and thread count, against the exact
// midpoint sum (rounding alone, within the tier's documented bound) and the exact integral.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "test_support.hpp"

namespace ladder::testing {
namespace {

struct Case {
  std::string tier;
  std::size_t integrand;
};

void PrintTo(const Case& c, std::ostream* out) { *out << c.tier << " on " << integrands()[c.integrand].name; }

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (const auto& tier : tiers())
    for (std::size_t integrand = 0; integrand < integrands().size(); ++integrand)
      cases.push_back({tier.card.id, integrand});
  return cases;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string name = info.param.tier + "_" + integrands()[info.param.integrand].name;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

std::vector<int> thread_counts(const Tier& tier) {
  return tier.card.parallel ? std::vector<int>{1, 2, 3} : std::vector<int>{1};
}

class TierCorrectness : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    if (const auto reason = unavailable_reason(find_tier(GetParam().tier)); !reason.empty())
      GTEST_SKIP() << "cannot run on this machine: " << reason;
  }
};

TEST_P(TierCorrectness, RoundingErrorStaysWithinBoundAtEveryEdgeCase) {
  const Tier& tier = find_tier(GetParam().tier);
  const std::size_t integrand = GetParam().integrand;
  for (const auto& interval : edge_intervals) {
    for (const std::int64_t n : edge_sizes) {
      const Reference& ref = cached_reference(integrand, interval.ab, n);
      for (const int threads : thread_counts(tier)) {
        SCOPED_TRACE(interval.name + ", n = " + std::to_string(n) + ", threads = " + std::to_string(threads));
        const double result = integrate(tier, integrand, interval.ab, n, {threads, false});
        const double bound = rounding_bound(tier.card, ref, n, threads);
        EXPECT_LE(std::fabs(result - ref.midpoint), bound)
            << "result " << result << ", exact midpoint sum " << static_cast<double>(ref.midpoint);
        // The distance to the integral is the discretization error plus the rounding.
        EXPECT_LE(std::fabs(result - ref.exact), std::fabs(ref.midpoint - ref.exact) + bound);
      }
    }
  }
}

TEST_P(TierCorrectness, EmptyIntervalGivesExactlyZero) {
  const Tier& tier = find_tier(GetParam().tier);
  for (const std::int64_t n : edge_sizes)
    for (const int threads : thread_counts(tier))
      EXPECT_EQ(integrate(tier, GetParam().integrand, {0.5, 0.5}, n, {threads, false}), 0.0) << "n = " << n;
}

TEST_P(TierCorrectness, ReversedIntervalNegatesTheSum) {
  // ∫_b^a = −∫_a^b, and the midpoint rule visits the same nodes in reverse: the results agree to rounding.
  const Tier& tier = find_tier(GetParam().tier);
  const std::size_t integrand = GetParam().integrand;
  for (const std::int64_t n : {std::int64_t{7}, std::int64_t{1000}, std::int64_t{1000003}}) {
    const double forward = integrate(tier, integrand, {-2.0, 3.0}, n, {});
    const double backward = integrate(tier, integrand, {3.0, -2.0}, n, {});
    const Reference& ref = cached_reference(integrand, {-2.0, 3.0}, n);
    EXPECT_LE(std::fabs(forward + backward), 2 * rounding_bound(tier.card, ref, n, 1)) << "n = " << n;
  }
}

TEST_P(TierCorrectness, WideIntervalAndLargeOffset) {
  // Nodes far from zero: the rounding of the node itself dominates, and the bound accounts for it.
  const Tier& tier = find_tier(GetParam().tier);
  const std::size_t integrand = GetParam().integrand;
  for (const Interval ab : {Interval{-20.0, 20.0}, Interval{1000.0, 1001.0}}) {
    const std::int64_t n = 100003;
    const Reference& ref = cached_reference(integrand, ab, n);
    const double result = integrate(tier, integrand, ab, n, {});
    EXPECT_LE(std::fabs(result - ref.midpoint), rounding_bound(tier.card, ref, n, 1))
        << "[" << ab.a << ", " << ab.b << "]";
  }
}

INSTANTIATE_TEST_SUITE_P(EveryTierAndIntegrand, TierCorrectness, ::testing::ValuesIn(all_cases()), case_name);

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
