// The cuda tier: against the exact midpoint sum on a GPU, and honest about it when there is none. Without
// a GPU the tests that need one are reported as skipped, with the reason, never as passed.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>

#include "test_support.hpp"

namespace ladder::testing {
namespace {

const Tier& cuda() { return find_tier("cuda"); }

// The tier's grid holds 1024 blocks × 256 threads: beyond this many nodes each thread adds several.
constexpr std::int64_t grid_nodes = 1024 * 256;

// Tests that need a GPU: skipped, with the reason, where the tier cannot run.
class CudaTierOnGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const auto reason = unavailable_reason(cuda()); !reason.empty())
      GTEST_SKIP() << "the cuda tier cannot run here: " << reason;
  }
};

// The integrands the tier runs. A user integrand is compiled for the host only, so the tier has no kernel
// for it and refuses it by name; every built-in one must be there (a missing one would shrink these tests
// silently, so that is a failure, not a skip).
std::vector<std::size_t> gpu_integrands() {
  std::vector<std::size_t> runs;
  for (std::size_t integrand = 0; integrand < integrands().size(); ++integrand)
    if (cuda().kernels[integrand]) runs.push_back(integrand);
  return runs;
}

TEST_F(CudaTierOnGpu, RunsEveryBuiltInIntegrandAndRefusesAUserOneByName) {
  const auto runs = gpu_integrands();
  for (const char* name : {"gauss", "pi", "sin", "poly"})
    EXPECT_NE(std::find(runs.begin(), runs.end(), find_integrand(name)), runs.end()) << name;
  for (std::size_t integrand = 0; integrand < integrands().size(); ++integrand) {
    if (cuda().kernels[integrand]) continue;
    try {
      integrate(cuda(), integrand, {0.0, 1.0}, 10, {});
      ADD_FAILURE() << integrands()[integrand].name << ": accepted without a kernel";
    } catch (const Unavailable& refused) {
      EXPECT_NE(std::string(refused.what()).find("host only"), std::string::npos) << refused.what();
    }
  }
}

TEST_F(CudaTierOnGpu, AgreesWithTheExactMidpointSumAtEveryEdgeCase) {
  std::vector<std::int64_t> sizes = edge_sizes;  // 1, 2, 3, 7, …, 1000003
  // Around one block and one grid, and many grids' worth of nodes: each thread then adds several.
  sizes.insert(sizes.end(), {255, 256, 257, grid_nodes - 1, grid_nodes, grid_nodes + 1, 3 * grid_nodes + 5,
                             std::int64_t{10000019}});
  for (const std::size_t integrand : gpu_integrands()) {
    for (const auto& interval : edge_intervals) {
      for (const std::int64_t n : sizes) {
        SCOPED_TRACE(integrands()[integrand].name + " on " + interval.name + ", n = " + std::to_string(n));
        const Reference& ref = cached_reference(integrand, interval.ab, n);
        const double result = integrate(cuda(), integrand, interval.ab, n, {});
        EXPECT_LE(std::fabs(result - ref.midpoint), pinned_rounding_bound(cuda(), ref, n, 1))
            << "result " << result << ", exact midpoint sum " << static_cast<double>(ref.midpoint);
      }
    }
  }
}

TEST_F(CudaTierOnGpu, EmptyIntervalGivesExactlyZero) {
  for (const std::size_t integrand : gpu_integrands())
    for (const std::int64_t n : {std::int64_t{1}, std::int64_t{1000003}, 3 * grid_nodes + 5})
      EXPECT_EQ(integrate(cuda(), integrand, {0.5, 0.5}, n, {}), 0.0) << "n = " << n;
}

TEST_F(CudaTierOnGpu, WideIntervalAndLargeOffset) {
  for (const std::size_t integrand : gpu_integrands()) {
    for (const Interval ab : {Interval{-20.0, 20.0}, Interval{1000.0, 1001.0}}) {
      const std::int64_t n = 100003;
      const Reference& ref = cached_reference(integrand, ab, n);
      EXPECT_LE(std::fabs(integrate(cuda(), integrand, ab, n, {}) - ref.midpoint),
                pinned_rounding_bound(cuda(), ref, n, 1))
          << integrands()[integrand].name << " on [" << ab.a << ", " << ab.b << "]";
    }
  }
}

TEST_F(CudaTierOnGpu, CountsPastTwoToTheThirtyFirst) {
  const std::size_t poly = find_integrand("poly");
  const std::int64_t n = (std::int64_t{1} << 31) + 11;
  const Reference& ref = cached_reference(poly, {0.0, 1.0}, n);
  EXPECT_LE(std::fabs(integrate(cuda(), poly, {0.0, 1.0}, n, {}) - ref.midpoint),
            pinned_rounding_bound(cuda(), ref, n, 1));
}

TEST_F(CudaTierOnGpu, GivesTheSameBitsWhenCalledAgain) {
  ASSERT_EQ(cuda().card.reproducible, Reproducible::always);
  for (const std::int64_t n : {std::int64_t{1000003}, std::int64_t{10000019}}) {
    const double first = integrate(cuda(), 0, {0.0, 1.0}, n, {1, true});
    for (int repeat = 0; repeat < 5; ++repeat)
      EXPECT_EQ(first, integrate(cuda(), 0, {0.0, 1.0}, n, {1, true})) << "n = " << n;
  }
}

// Not skipped: on this machine either the tier runs, or integrate refuses with the reason.
TEST(CudaTierAvailability, IntegrateRunsOrThrowsUnavailableWithTheReason) {
  const std::string reason = unavailable_reason(cuda());
  if (reason.empty()) {
    const Reference& ref = cached_reference(0, {0.0, 1.0}, 1000);
    EXPECT_LE(std::fabs(integrate(cuda(), 0, {0.0, 1.0}, 1000, {}) - ref.midpoint),
              pinned_rounding_bound(cuda(), ref, 1000, 1));
    return;
  }
  try {
    integrate(cuda(), 0, {0.0, 1.0}, 1000, {});
    FAIL() << "integrate ran a tier that reports itself unavailable: " << reason;
  } catch (const Unavailable& error) {
    EXPECT_NE(std::string(error.what()).find(reason), std::string::npos) << error.what();
  }
}

// Not skipped: with every GPU hidden from it, the command line says why and exits with 3 on any machine.
TEST(CudaTierAvailability, CommandLineReportsWhyWhenNoDeviceIsVisible) {
  const std::string command = "CUDA_VISIBLE_DEVICES= " LADDER_BINARY " eval --tier cuda --n 1e6 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  std::array<char, 4096> buffer{};
  while (const std::size_t read = fread(buffer.data(), 1, buffer.size(), pipe))
    output.append(buffer.data(), read);
  const int status = pclose(pipe);
  ASSERT_TRUE(WIFEXITED(status)) << output;
  EXPECT_EQ(WEXITSTATUS(status), 3) << output;
  EXPECT_NE(output.find("tier 'cuda' cannot run on this machine: no CUDA device"), std::string::npos)
      << output;
}

}  // namespace
}  // namespace ladder::testing
