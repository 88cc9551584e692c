// What each card promises about reproducibility, checked bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "test_support.hpp"

namespace ladder::testing {
namespace {

constexpr std::int64_t sizes[] = {1000003, 10000019};

// The tiers whose card promises the same bits (always, or on request); a tier that promises nothing is not
// among them, and one this machine cannot run is reported as skipped.
std::vector<std::string> promising_tiers() {
  return tier_ids_where([](const TierCard& card) { return card.reproducible != Reproducible::never; });
}
std::vector<std::string> promising_parallel_tiers() {
  return tier_ids_where(
      [](const TierCard& card) { return card.parallel && card.reproducible != Reproducible::never; });
}

class ReproducibilityOfEachTier : public EachTier {};

TEST_P(ReproducibilityOfEachTier, SameBitsWhenCalledAgain) {
  for (const std::int64_t n : sizes) {
    const double first = integrate(tier(), 0, {0.0, 1.0}, n, {1, true});
    for (int repeat = 0; repeat < 3; ++repeat)
      EXPECT_EQ(first, integrate(tier(), 0, {0.0, 1.0}, n, {1, true})) << "n = " << n;
  }
}

INSTANTIATE_TEST_SUITE_P(TiersThatPromiseIt, ReproducibilityOfEachTier,
                         ::testing::ValuesIn(promising_tiers()), tier_test_name);

class ReproducibilityAcrossThreads : public EachTier {};

TEST_P(ReproducibilityAcrossThreads, SameBitsAtEveryThreadCount) {
  for (const std::int64_t n : sizes) {
    const double one_thread = integrate(tier(), 0, {0.0, 1.0}, n, {1, true});
    for (const int threads : {2, 3, 4})
      EXPECT_EQ(one_thread, integrate(tier(), 0, {0.0, 1.0}, n, {threads, true}))
          << "n = " << n << ", threads = " << threads;
  }
}

INSTANTIATE_TEST_SUITE_P(ParallelTiersThatPromiseIt, ReproducibilityAcrossThreads,
                         ::testing::ValuesIn(promising_parallel_tiers()), tier_test_name);

TEST(Reproducibility, SomeParallelTierOffersReproducibleResults) {
  EXPECT_FALSE(promising_parallel_tiers().empty()) << "no parallel tier offers reproducible results";
}

TEST(Reproducibility, CompensatedSumStaysWithinAFewUlpsAtAnyN) {
  // One long sum's error grows with n; the compensated tier's must not.
  const Tier& compensated = find_tier("compensated");
  const Tier& inlined = find_tier("inlined");
  for (const std::int64_t n :
       {std::int64_t{10007}, std::int64_t{100003}, std::int64_t{1000003}, std::int64_t{4000037}}) {
    const Reference& ref = cached_reference(0, {0.0, 1.0}, n);
    const double ulp = std::numeric_limits<double>::epsilon() * static_cast<double>(ref.midpoint);
    EXPECT_LE(std::fabs(compensated.kernels[0]({0.0, 1.0}, n, {}) - ref.midpoint), 4 * ulp) << "n = " << n;
    if (n == 4000037) {
      // At this size one accumulator is visibly worse: the property the compensated rung buys.
      EXPECT_GT(std::fabs(inlined.kernels[0]({0.0, 1.0}, n, {}) - ref.midpoint), 4 * ulp);
    }
  }
}

}  // namespace
}  // namespace ladder::testing
