// Whether this build has the cuda tier at all. The cuda tests (cuda_test.cpp) are built only where CMake
// found nvcc; on a machine without it this test, built everywhere, is what says the tier was not tested:
// it is reported as skipped, with the reason cmake/cuda_tier.cmake recorded.
#include <gtest/gtest.h>

#include <string>

#include "registry.hpp"

namespace ladder {
namespace {

bool registered(const std::string& id) {
  for (const auto& tier : tiers())
    if (tier.card.id == id) return true;
  return false;
}

TEST(CudaTierBuild, TheBuildHasTheCudaTierOrSaysWhyNot) {
#if LADDER_CUDA_TIER_BUILT
  EXPECT_TRUE(registered("cuda")) << "the build compiled variants/cuda.cu, but no tier 'cuda' registered";
  EXPECT_EQ(find_tier("cuda").card.rung, 12);
#else
  EXPECT_FALSE(registered("cuda")) << "configured without the cuda tier, yet a tier 'cuda' is registered";
  GTEST_SKIP() << "the build has no cuda tier: " << LADDER_CUDA_MISSING_REASON
               << "; the cuda tests (cuda_test.cpp) were not built";
#endif
}

}  // namespace
}  // namespace ladder
