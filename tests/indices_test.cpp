// Indices are 64-bit everywhere: n up to 2^62 must neither overflow nor wrap.
#include <gtest/gtest.h>

#include <cmath>

#include "simd_kernel.hpp"
#include "test_support.hpp"

namespace ladder::testing {
namespace {

TEST(Indices, SimdKernelComputesTheLastNodesOfTwoToTheSixtySecond) {
  // The last 100 nodes of n = 2^62 on [0, 1]: x_i = (i + ½)/2^62, all just below 1.
  const std::int64_t n = max_nodes;
  const double step = 1.0 / static_cast<double>(n);
  const std::int64_t first = n - 100;
  long double expected = 0;
  for (std::int64_t i = first; i < n; ++i)
    expected += Gauss{}((static_cast<long double>(i) + 0.5L) / static_cast<long double>(n));
  const double sum = simd::block_sum(Gauss{}, 0.0, step, first, n);
  EXPECT_NEAR(sum, static_cast<double>(expected), 1e-13);
  EXPECT_NEAR(sum / 100, std::exp(-1.0), 1e-15);  // every node is 1 − 2^-62·(…): e^{-1} each
}

class IndicesOfEachTier : public EachTier {};

TEST_P(IndicesOfEachTier, CountsPastTwoToTheThirtyFirst) {
  // A 32-bit index would wrap here. The cheap polynomial keeps this to seconds; its midpoint sum is
  // known in closed form (Euler–Maclaurin ends at h² for a cubic).
  if (tier().card.heap_bytes_per_node > 0)
    GTEST_SKIP() << "tier '" << GetParam() << "' would hold 2^31 nodes ("
                 << tier().card.heap_bytes_per_node * 2 << " GiB); its summing loop is streaming's";
  const std::size_t poly = find_integrand("poly");
  const std::int64_t n = (std::int64_t{1} << 31) + 11;
  const Reference& ref = cached_reference(poly, {0.0, 1.0}, n);
  const int threads = tier().card.parallel ? 2 : 1;
  const double result = integrate(tier(), poly, {0.0, 1.0}, n, {threads, false});
  EXPECT_LE(std::fabs(result - ref.midpoint), pinned_rounding_bound(tier(), ref, n, threads));
}

INSTANTIATE_TEST_SUITE_P(EveryTier, IndicesOfEachTier, ::testing::ValuesIn(every_tier_id()), tier_test_name);

TEST(Indices, SizesUpToTwoToTheSixtySecondAndNoMore) {
  EXPECT_EQ(max_nodes, std::int64_t{4611686018427387904});
  for (const auto& tier : tiers()) EXPECT_THROW(integrate(tier, 0, {0, 1}, max_nodes + 1, {}), InputError);
}

}  // namespace
}  // namespace ladder::testing
