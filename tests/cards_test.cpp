// The ladder as the issue defines it, and cards filled in by the build rather than typed.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <utility>

#include "registry.hpp"

namespace ladder {
namespace {

TEST(Cards, TheRungsInOrderWithTheOptionalOnesAtTheirPlaces) {
  const std::vector<std::pair<std::string, int>> expected = {
      {"naive", 0},   {"streaming", 1},  {"inlined", 2},       {"std-algorithms", 3}, {"eigen", 4},
      {"autovec", 5}, {"xsimd", 6},      {"compensated", 7},   {"openmp", 8},         {"tbb", 9},
      {"stdpar", 10}, {"tuned-exp", 13}, {"openmp-tuned", 14}, {"tbb-tuned", 15}};
  // Tiers built only where their toolkit is found (rungs 11 and 12) sit between, in rung order.
  const std::map<std::string, int> optional = {{"mpi", 11}, {"cuda", 12}};
  std::vector<std::pair<std::string, int>> always_built;
  for (std::size_t index = 0; index < tiers().size(); ++index) {
    const auto& card = tiers()[index].card;
    if (index > 0) {
      EXPECT_GT(card.rung, tiers()[index - 1].card.rung) << card.id;
    }
    if (optional.count(card.id)) {
      EXPECT_EQ(card.rung, optional.at(card.id));
    } else {
      always_built.emplace_back(card.id, card.rung);
    }
  }
  EXPECT_EQ(always_built, expected);
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
    else if (tier.card.id == "openmp" || tier.card.id == "openmp-tuned" ||
             tier.card.id == "mpi")  // mpi runs the openmp kernel in each rank
      EXPECT_EQ(flags, (std::vector<std::string>{"-fopenmp"}));
    else
      EXPECT_TRUE(flags.empty()) << tier.card.id;
  }
}

TEST(Cards, SimdTiersNameTheKernelTheyShare) {
  for (const char* id : {"xsimd", "compensated", "openmp", "tbb"})
    EXPECT_EQ(find_tier(id).card.shares, (std::vector<std::string>{"simd_kernel.hpp"})) << id;
  for (const char* id : {"tuned-exp", "openmp-tuned", "tbb-tuned"})
    EXPECT_EQ(find_tier(id).card.shares, (std::vector<std::string>{"simd_kernel.hpp", "tuned_exp.hpp"}))
        << id;
}

}  // namespace
}  // namespace ladder
