// The lanes of the SIMD tiers on aarch64, at run time, against the CPU the test asked qemu-user for
// (tests/aarch64_tiers_test.sh sets LADDER_EXPECTED_SVE_BITS: 0 for NEON alone, else SVE's vector length).
// The oracle is the script's choice of CPU, not the code under test. No tier computes on SVE's registers:
// xsimd 8.1 and GCC 12's std-simd have NEON alone, and the highway tier's Vector cannot hold Highway's
// sizeless SVE vectors (highway_vector.hpp). So every SIMD tier has NEON's 2 lanes on every CPU, in the
// SVE build too, and the tiers visit every node once whatever the CPU's vector length (the SVE build's
// compiler-vectorized loops read it at run time).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <xsimd/xsimd.hpp>

#include "highway_vector.hpp"
#include "registry.hpp"

#if defined(__aarch64__)
#include <sys/auxv.h>
#include <sys/prctl.h>
#endif

namespace ladder {
namespace {

namespace hn = highway_simd::hn;

#if defined(__aarch64__)

// The vector length the script asked for, in bits (0: a CPU without SVE); skips where no script set it.
int expected_sve_bits() {
  const char* text = std::getenv("LADDER_EXPECTED_SVE_BITS");
  if (!text) return -1;
  return std::atoi(text);
}

// SVE's vector length as the kernel reports it to this process, in bits (0 without SVE).
int cpu_sve_bits() {
  if ((getauxval(AT_HWCAP) & HWCAP_SVE) == 0) return 0;
  return 8 * (prctl(PR_SVE_GET_VL) & PR_SVE_VL_LEN_MASK);
}

class Aarch64Lanes : public ::testing::Test {
 protected:
  void SetUp() override {
    if (expected_sve_bits() < 0)
      GTEST_SKIP()
          << "LADDER_EXPECTED_SVE_BITS is not set: tests/aarch64_tiers_test.sh sets it to the CPU it "
             "runs this under";
  }
};

TEST_F(Aarch64Lanes, TheCpuIsTheOneTheScriptAskedFor) { EXPECT_EQ(cpu_sve_bits(), expected_sve_bits()); }

TEST_F(Aarch64Lanes, HighwayComputesOnEveryLaneOfANeonVector) {
  const auto lanes = static_cast<int>(hn::Lanes(highway_simd::Tag()));
  EXPECT_EQ(lanes, 2) << hwy::TargetName(HWY_TARGET);
  EXPECT_EQ(std::string(hwy::TargetName(HWY_TARGET)), "NEON");
  // Every lane computes its own value: exp of lane i is exp(i), within an ulp or two of std::exp.
  const auto y = hn::Exp(highway_simd::Tag(), hn::Iota(highway_simd::Tag(), 0.0));
  double values[2];
  hn::StoreU(y, highway_simd::Tag(), values);
  for (int lane = 0; lane < 2; ++lane)
    EXPECT_NEAR(values[lane], std::exp(lane), 4e-16 * std::exp(lane)) << "lane " << lane;
}

TEST_F(Aarch64Lanes, TheXsimdKernelsTiersComputeOnNeon) {
  EXPECT_EQ(xsimd::batch<double>::size, 2u);
  EXPECT_EQ(std::string(xsimd::default_arch::name()), xsimd::neon64::name());
}

// Every SIMD tier over every n from 1 to 80 (all the remainder paths of 2 lanes × 4 accumulators, and of
// the SVE build's loops at up to 512 bits): each node is added once. The oracle sums poly, x³ − 2x² + 3x + 1,
// at the same nodes in long double; a node missed or added twice moves the sum by about 1/n.
TEST_F(Aarch64Lanes, EveryTierVisitsEveryNodeOnceAtThisVectorLength) {
  const std::size_t poly = find_integrand("poly");
  for (const Tier& tier : tiers()) {
    if (!unavailable_reason(tier).empty() || !unsupported_reason(tier, poly).empty()) continue;
    for (std::int64_t n = 1; n <= 80; ++n) {
      const double step = 1.0 / static_cast<double>(n);
      long double sum = 0;
      for (std::int64_t i = 0; i < n; ++i) {
        const long double x = std::fma(static_cast<double>(i) + 0.5, step, 0.0);
        sum += ((x - 2) * x + 3) * x + 1;
      }
      EXPECT_NEAR(integrate(tier, poly, {0.0, 1.0}, n, {}), static_cast<double>(sum * step), 1e-14)
          << tier.card.id << ", n = " << n;
    }
  }
}

#else

TEST(Aarch64Lanes, RunOnAarch64Only) {
  GTEST_SKIP() << "these tests check an aarch64 build's lanes (tests/aarch64_tiers_test.sh runs them)";
}

#endif

}  // namespace
}  // namespace ladder
