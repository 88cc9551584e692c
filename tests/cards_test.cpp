// The ladder as the issue defines it, and cards filled in by the build rather than typed.
#include <gtest/gtest.h>

#include <set>

#include "registry.hpp"

namespace ladder {
namespace {

TEST(Cards, TheElevenRungsInOrder) {
  const std::vector<std::string> expected = {"naive",  "streaming", "inlined", "std-algorithms",
                                             "eigen",  "autovec",   "xsimd",   "compensated",
                                             "openmp", "tbb",       "stdpar"};
  ASSERT_EQ(tiers().size(), expected.size());
  for (std::size_t rung = 0; rung < expected.size(); ++rung) {
    EXPECT_EQ(tiers()[rung].card.id, expected[rung]);
    EXPECT_EQ(tiers()[rung].card.rung, static_cast<int>(rung));
  }
}

TEST(Cards, EveryCardIsComplete) {
  std::set<std::string> ids;
  for (const auto& tier : tiers()) {
    const auto& card = tier.card;
    SCOPED_TRACE(card.id);
    EXPECT_TRUE(ids.insert(card.id).second) << "duplicate id";
    EXPECT_FALSE(card.summary.empty());
    EXPECT_FALSE(card.concepts.empty());
    EXPECT_FALSE(card.summation.empty());
    EXPECT_NE(card.summation_depth, nullptr);
    EXPECT_EQ(tier.kernels.size(), integrands().size());
    // Counted by the build from the file itself.
    EXPECT_GT(card.source_lines, 10);
    EXPECT_LT(card.source_lines, 200);
    EXPECT_EQ(card.source_file.substr(card.source_file.size() - 4), ".cpp");
    EXPECT_EQ(card.shares.empty(), card.shared_lines == 0);
  }
}

TEST(Cards, OnlyAutovecAndOpenmpAddFlagsToTheCommonSet) {
  for (const auto& tier : tiers()) {
    const auto& flags = tier.card.flags;
    if (tier.card.id == "autovec")
      EXPECT_EQ(flags, (std::vector<std::string>{"-ffast-math", "-fopenmp-simd"}));
    else if (tier.card.id == "openmp")
      EXPECT_EQ(flags, (std::vector<std::string>{"-fopenmp"}));
    else
      EXPECT_TRUE(flags.empty()) << tier.card.id;
  }
}

TEST(Cards, SimdTiersNameTheKernelTheyShare) {
  for (const char* id : {"xsimd", "compensated", "openmp", "tbb"})
    EXPECT_EQ(find_tier(id).card.shares, (std::vector<std::string>{"simd_kernel.hpp"})) << id;
}

}  // namespace
}  // namespace ladder
