// The ladder as the issue defines it, and cards filled in by the build rather than typed.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "registry.hpp"

namespace ladder {
namespace {

TEST(Cards, TheElevenRungsInOrderThenTheOptionalOnes) {
  const std::vector<std::string> expected = {"naive",  "streaming", "inlined", "std-algorithms",
                                             "eigen",  "autovec",   "xsimd",   "compensated",
                                             "openmp", "tbb",       "stdpar"};
  ASSERT_GE(tiers().size(), expected.size());
  for (std::size_t rung = 0; rung < expected.size(); ++rung) {
    EXPECT_EQ(tiers()[rung].card.id, expected[rung]);
    EXPECT_EQ(tiers()[rung].card.rung, static_cast<int>(rung));
  }
  // Tiers built only where their toolkit is found come after, above rung 10, in rung order.
  const std::map<std::string, int> optional = {{"mpi", 11}, {"cuda", 12}};
  for (std::size_t index = expected.size(); index < tiers().size(); ++index) {
    const auto& card = tiers()[index].card;
    ASSERT_TRUE(optional.count(card.id)) << "unexpected tier " << card.id;
    EXPECT_EQ(card.rung, optional.at(card.id));
    EXPECT_GT(card.rung, tiers()[index - 1].card.rung);
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
    const auto extension = card.source_file.substr(card.source_file.find_last_of('.'));
    EXPECT_TRUE(extension == ".cpp" || extension == ".cu") << card.source_file;
    EXPECT_EQ(card.shares.empty(), card.shared_lines == 0);
  }
}

TEST(Cards, OnlyAutovecAndTheOpenmpTiersAddFlagsToTheCommonSet) {
  for (const auto& tier : tiers()) {
    const auto& flags = tier.card.flags;
    if (tier.card.id == "autovec")
      EXPECT_EQ(flags, (std::vector<std::string>{"-ffast-math", "-fopenmp-simd"}));
    else if (tier.card.id == "openmp" || tier.card.id == "mpi")  // mpi runs the openmp kernel in each rank
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
