// The ladder as the issue defines it, and cards filled in by the build rather than typed.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <utility>

#include "registry.hpp"
#include "test_support.hpp"

namespace ladder {
namespace {

TEST(Cards, TheRungsInOrderWithTheOptionalOnesAtTheirPlaces) {
  const std::vector<std::pair<std::string, int>> expected = {
      {"naive", 0},     {"streaming", 1},  {"inlined", 2},       {"std-algorithms", 3}, {"eigen", 4},
      {"autovec", 5},   {"xsimd", 6},      {"compensated", 7},   {"openmp", 8},         {"tbb", 9},
      {"stdpar", 10},   {"tuned-exp", 13}, {"openmp-tuned", 14}, {"tbb-tuned", 15},     {"dispatch", 16},
      {"std-simd", 17}, {"sleef", 18},     {"highway", 19}};
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
    // Counted by the build from the kernel header (the smallest, xsimd's, is a call of simd_kernel.hpp).
    EXPECT_GT(card.source_lines, 5);
    EXPECT_LT(card.source_lines, 200);
    const auto extension = card.source_file.substr(card.source_file.find_last_of('.'));
    EXPECT_TRUE(extension == ".cpp" || extension == ".cu") << card.source_file;
    EXPECT_EQ(card.shares.empty(), card.shared_lines == 0);
  }
}

// Each tier's kernel is a header of its own, named after the tier's file (variants/kernels/xsimd.hpp for
// xsimd.cpp, kernels/cuda.cuh for cuda.cu), that the build found and counted: its lines are the card's.
TEST(Cards, EveryTierHasItsKernelHeaderNamedAfterItsFile) {
  for (const auto& tier : tiers()) {
    const auto& card = tier.card;
    SCOPED_TRACE(card.id);
    const auto dot = card.source_file.find_last_of('.');
    const std::string stem = card.source_file.substr(0, dot);
    const std::string extension = card.source_file.substr(dot) == ".cu" ? ".cuh" : ".hpp";
    EXPECT_EQ(card.kernel_header, "variants/kernels/" + stem + extension);
    EXPECT_TRUE(
        std::filesystem::is_regular_file(std::filesystem::path(LADDER_SOURCE_DIR) / card.kernel_header))
        << card.kernel_header << " is not a file of " << LADDER_SOURCE_DIR;
  }
}

// The depth each card states, held to the one the tests pin (test_support.hpp) at sizes from 1 to 2^62
// and thread counts from 1 to 64: a card that loosens it (n where the order is lanes or blocks, n·10⁶)
// fails here, and a tier the table does not know fails too.
TEST(Cards, SummationDepthIsThePinnedOne) {
  const std::int64_t sizes[] = {1, 7, 4096, 65537, 1000003, (std::int64_t{1} << 31) + 11, max_nodes};
  for (const auto& tier : tiers()) {
    const auto& card = tier.card;
    SCOPED_TRACE(card.id);
    const auto pinned = testing::pinned_depths().find(card.id);
    ASSERT_NE(pinned, testing::pinned_depths().end())
        << "tier '" << card.id << "' has no summation depth pinned in tests/test_support.hpp: add one "
        << "written from its summation order (" << card.summation << ")";
    ASSERT_NE(card.summation_depth, nullptr);
    for (const std::int64_t n : sizes)
      for (const int threads : {1, 2, 3, 64})
        EXPECT_EQ(card.summation_depth(n, threads), pinned->second.stated(n, threads))
            << "n = " << n << ", threads = " << threads;
  }
}

TEST(Cards, PinnedDepthsAreCappedAtNAndGrowSlowerThanNWhereTheOrderSaysSo) {
  // The cap: no chain over n terms is longer than n. And a pinned depth that grew like n for a tier whose
  // order is lanes, blocks or a tree would be no pin at all: at 2^30 those stay below n/4.
  const std::int64_t large = std::int64_t{1} << 30;
  int capped_somewhere = 0;
  for (const auto& [id, pinned] : testing::pinned_depths()) {
    SCOPED_TRACE(id);
    for (const std::int64_t n : {std::int64_t{1}, std::int64_t{3}, std::int64_t{1000003}}) {
      const double n_terms = static_cast<double>(n);
      EXPECT_EQ(pinned.capped(n, 3), std::min(pinned.stated(n, 3), n_terms)) << "n = " << n;
      capped_somewhere += pinned.stated(n, 3) > n_terms;
    }
    const bool sequential = pinned.stated == &testing::depth::sequential;
    EXPECT_EQ(pinned.stated(large, 1) < static_cast<double>(large) / 4, !sequential);
  }
  EXPECT_GT(capped_somewhere, 0) << "no stated depth exceeds n at these sizes: the cap is not exercised";
}

TEST(Cards, OnlyAutovecAndTheOpenmpTiersAddFlagsToTheCommonSet) {
  for (const auto& tier : tiers()) {
    const auto& flags = tier.card.flags;
    if (tier.card.id == "autovec")  // Clang reaches libmvec only through -fveclib (CMakeLists.txt says why)
#if defined(__clang__)
      EXPECT_EQ(flags, (std::vector<std::string>{"-ffast-math", "-fopenmp-simd", "-fveclib=libmvec",
                                                 "-Wno-error=pass-failed"}));
#else
      EXPECT_EQ(flags, (std::vector<std::string>{"-ffast-math", "-fopenmp-simd"}));
#endif
    else if (tier.card.id == "openmp" || tier.card.id == "openmp-tuned" ||
             tier.card.id == "mpi")  // mpi runs the openmp kernel in each rank
      EXPECT_EQ(flags, (std::vector<std::string>{"-fopenmp"}));
    else if (tier.card.id == "dispatch")  // its own file for the baseline, each path file for its level
      EXPECT_EQ(flags, (std::vector<std::string>{"-march=x86-64", "dispatch_sse2.cpp:-march=x86-64",
                                                 "dispatch_avx2.cpp:-march=x86-64-v3",
                                                 "dispatch_avx512.cpp:-march=x86-64-v4"}));
    else
      EXPECT_TRUE(flags.empty()) << tier.card.id;
  }
}

TEST(Cards, SimdTiersNameTheKernelTheyShare) {
  for (const char* id : {"xsimd", "compensated", "openmp"})
    EXPECT_EQ(find_tier(id).card.shares, (std::vector<std::string>{"simd_kernel.hpp"})) << id;
  for (const char* id : {"tuned-exp", "openmp-tuned"})
    EXPECT_EQ(find_tier(id).card.shares, (std::vector<std::string>{"simd_kernel.hpp", "tuned_exp_math.hpp"}))
        << id;
  // mpi's kernel starts MPI through the runtime's header (where the build has the tier).
  if (std::any_of(tiers().begin(), tiers().end(), [](const Tier& tier) { return tier.card.id == "mpi"; })) {
    EXPECT_EQ(find_tier("mpi").card.shares, (std::vector<std::string>{"simd_kernel.hpp", "mpi_runtime.hpp"}));
  }
  // The oneTBB tiers share the thread pinning as well: its lines count toward their upkeep.
  EXPECT_EQ(find_tier("tbb").card.shares, (std::vector<std::string>{"simd_kernel.hpp", "tbb_pinning.hpp"}));
  EXPECT_EQ(find_tier("tbb-tuned").card.shares,
            (std::vector<std::string>{"simd_kernel.hpp", "tuned_exp_math.hpp", "tbb_pinning.hpp"}));
  EXPECT_EQ(find_tier("stdpar").card.shares,
            (std::vector<std::string>{"counting_iterator.hpp", "tbb_pinning.hpp"}));
  // sleef swaps exp inside the xsimd kernel, as tuned-exp does; highway's vector type is a header of its own.
  EXPECT_EQ(find_tier("sleef").card.shares, (std::vector<std::string>{"simd_kernel.hpp", "sleef_exp.hpp"}));
  EXPECT_EQ(find_tier("highway").card.shares, (std::vector<std::string>{"highway_vector.hpp"}));
  EXPECT_TRUE(find_tier("std-simd").card.shares.empty());
}

// What a tier calls the integrand with (its card) decides which integrands it runs: exactly those that work
// on that kind of argument (the build's probes), each of the others with the probe's reason. A tier whose
// card and kernel disagree (a constrained kernel on a card that says doubles, say) fails here.
TEST(Cards, ATierRunsExactlyTheIntegrandsThatWorkOnWhatItCallsThemWith) {
  for (const auto& tier : tiers()) {
    for (std::size_t i = 0; i < integrands().size(); ++i) {
      const auto& integrand = integrands()[i];
      SCOPED_TRACE(tier.card.id + " on " + integrand.name);
      const Probe probe = probe_for(integrand, tier.card.evaluates);
      EXPECT_EQ(tier.kernels.at(i) != nullptr, probe.compiles);
      const std::string reason = unsupported_reason(tier, i);
      EXPECT_EQ(reason.empty(), probe.compiles) << reason;
      if (!probe.compiles) {
        EXPECT_NE(reason.find(std::string(tier.card.evaluates.words)), std::string::npos) << reason;
        EXPECT_NE(reason.find(std::string(probe.error)), std::string::npos) << reason;
      }
    }
  }
}

// The table of what the tiers call f with: one row a kind, each tier's among them, and each row's words as
// the reasons and reports have always said them. A user integrand is probed on every kind a tier brings (its
// PROBE in CMakeLists.txt), or the kind takes the built-in integrands only, saying why.
TEST(Cards, EachKindOfArgumentIsOneRowOfTheTableWithItsWords) {
  std::set<std::string_view> ids;
  for (const auto& kind : evaluation_kinds()) EXPECT_TRUE(ids.insert(kind.id).second) << kind.id;
  for (const auto& tier : tiers()) EXPECT_TRUE(ids.count(tier.card.evaluates.id)) << tier.card.id;
  const std::map<std::string_view, std::string_view> words = {
      {"", "doubles"},
      {"simd", "xsimd batches"},
      {"tuned", "the tuned tiers' TunedBatch"},
      {"array", "Eigen arrays"},
      {"device", "GPU device code"},
      {"std_simd", "std::experimental::native_simd<double>"},
      {"sleef", "the sleef tier's SleefBatch"},
      {"highway", "the highway tier's Vector"}};
  for (const auto& kind : evaluation_kinds()) {
    if (const auto found = words.find(kind.id); found != words.end()) {
      EXPECT_EQ(kind.words, found->second) << kind.id;
    }
    EXPECT_FALSE(kind.words.empty()) << kind.id;
  }
  for (const auto& integrand : integrands()) {
    if (integrand.source == "built-in") continue;
    for (const auto& kind : evaluation_kinds()) {
      if (kind.id.empty()) continue;
      const bool probed = std::any_of(integrand.probes.begin(), integrand.probes.end(),
                                      [&](const KindProbe& probe) { return probe.kind == kind.id; });
      EXPECT_NE(probed, !kind.built_ins_only.empty()) << integrand.name << " on " << kind.words;
    }
  }
}

// The shipped example written with a plain `if` does not work on SIMD batches or Eigen arrays: those tiers
// are unavailable for it, with the reason, and every tier that calls it on doubles runs it.
TEST(Cards, TheBranchingExampleRunsOnTheScalarTiersOnly) {
  const std::size_t branch = find_integrand("piecewise-branch");
  std::vector<std::string> scalar, refused;
  for (const auto& tier : tiers()) {
    const bool runs = tier.kernels.at(branch) != nullptr;
    if (tier.card.evaluates.id == doubles.id) {
      EXPECT_TRUE(runs) << tier.card.id;
      scalar.push_back(tier.card.id);
    } else {
      EXPECT_FALSE(runs) << tier.card.id;
      refused.push_back(tier.card.id);
      EXPECT_THROW(integrate(tier, branch, {0, 1}, 1000, {}), Unavailable) << tier.card.id;
    }
  }
  for (const char* id : {"naive", "streaming", "inlined", "std-algorithms", "autovec", "stdpar"})
    EXPECT_NE(std::find(scalar.begin(), scalar.end(), id), scalar.end())
        << id << " does not call f on doubles";
  for (const char* id :
       {"eigen", "xsimd", "compensated", "openmp", "tbb", "tuned-exp", "std-simd", "sleef", "highway"})
    EXPECT_NE(std::find(refused.begin(), refused.end(), id), refused.end()) << id << " runs piecewise-branch";
  // With AVX-512 the branch compiles (a lane mask converts to an integer) and the probe's values catch it;
  // with AVX2 it does not compile: either way the reason points at the fix or at the header's line.
  const std::string reason = unsupported_reason(find_tier("xsimd"), branch);
  EXPECT_TRUE(reason.find("use select") != std::string::npos ||
              reason.find("piecewise.hpp") != std::string::npos)
      << reason;
}

}  // namespace
}  // namespace ladder
