// The std-simd, sleef and highway rungs (17–19): their vectors are as wide as the build's registers (the
// tests pin their summation depth to xsimd's lanes on that ground), each exp is what its card says, and each
// tier runs exactly the integrands its vector type has the functions for. The tiers' results against the
// references are tier_correctness_test.cpp's; which registers their hot loops use, vectorization_test.cpp's.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <experimental/simd>
#include <limits>
#include <random>
#include <string>
#include <vector>
#include <xsimd/xsimd.hpp>

#include "highway_vector.hpp"
#include "kernels/std_simd.hpp"
#include "registry.hpp"
#include "sleef_exp.hpp"

namespace ladder {
namespace {

namespace hn = highway_simd::hn;
namespace stdx = std::experimental;

constexpr std::int64_t xsimd_width = xsimd::batch<double>::size;

TEST(NewRungs, EveryVectorIsAsWideAsTheBuildsXsimdBatch) {
  EXPECT_EQ(stdsimd::width, xsimd_width);
#if defined(__aarch64__)
  // xsimd 8.1 and GCC 12's std-simd have NEON alone: 2 doubles, under any -march; so has the highway tier,
  // whose Vector cannot hold Highway's sizeless SVE vectors (highway_vector.hpp).
  EXPECT_EQ(xsimd_width, 2);
  EXPECT_EQ(std::string(hwy::TargetName(HWY_TARGET)), "NEON");
  EXPECT_EQ(static_cast<std::int64_t>(hn::Lanes(highway_simd::Tag())), highway_simd::width);
  EXPECT_EQ(highway_simd::width, xsimd_width);
#else
#if defined(__SSSE3__)
  EXPECT_EQ(highway_simd::width, xsimd_width);
#else  // Highway 1.0.3 has no target for SSE2 alone: EMU128 (2 lanes) or HWY_SCALAR (1), the card says
  EXPECT_LE(highway_simd::width, xsimd_width);
#endif
  EXPECT_EQ(static_cast<std::int64_t>(hn::Lanes(highway_simd::Tag())), highway_simd::width);
  // Highway's target, by its own name: AVX-512 where xsimd has 8 lanes, AVX2 where 4, SSE4 or SSSE3 where 2.
  const std::string target = hwy::TargetName(HWY_TARGET);
  if (xsimd_width == 8) {
    EXPECT_EQ(target.rfind("AVX3", 0), 0u) << target;
  } else if (xsimd_width == 4) {
    EXPECT_EQ(target, "AVX2");
  } else {
    EXPECT_TRUE(target == "SSE4" || target == "SSSE3" || target == "EMU128" || target == "SCALAR") << target;
  }
#endif
}

// The distance between two doubles of the same sign in units in the last place (adjacent doubles: 1).
std::int64_t ulps_apart(double x, double y) {
  return std::abs(std::bit_cast<std::int64_t>(x) - std::bit_cast<std::int64_t>(y));
}

// Points over the range where exp is finite and normal, and the arguments −x² of gauss.
std::vector<double> exp_arguments() {
  std::mt19937_64 random(29);
  std::uniform_real_distribution<double> wide(-708.0, 709.0), gauss(-1.0, 0.0);
  std::vector<double> xs;
  for (int i = 0; i < 8 * 4096; ++i) xs.push_back(i % 2 ? wide(random) : gauss(random));
  return xs;
}

double sleef_exp_of(double x) { return sleef_exp::exp(simd::Batch(x)).get(0); }
double highway_exp_of(double x) {
  return hn::GetLane(hn::Exp(highway_simd::Tag(), hn::Set(highway_simd::Tag(), x)));
}

// Both libraries state a 1-ulp bound; glibc's exp is within 0.5 ulp of the true value, so the two may be one
// ulp apart, never more.
TEST(NewRungs, SleefAndHighwayExpAreWithinOneUlpOfStdExp) {
  std::int64_t sleef_worst = 0, highway_worst = 0;
  for (const double x : exp_arguments()) {
    sleef_worst = std::max(sleef_worst, ulps_apart(sleef_exp_of(x), std::exp(x)));
    highway_worst = std::max(highway_worst, ulps_apart(highway_exp_of(x), std::exp(x)));
  }
  EXPECT_LE(sleef_worst, 1);
  EXPECT_LE(highway_worst, 1);
}

TEST(NewRungs, SleefAndHighwayExpGiveSubnormalsAndInfinityAsStdExp) {
  for (const double x : {-720.0, -740.0, 709.5, 710.0, -1000.0}) {
    EXPECT_LE(ulps_apart(sleef_exp_of(x), std::exp(x)), 1) << x;
    EXPECT_LE(ulps_apart(highway_exp_of(x), std::exp(x)), 1) << x;
  }
  EXPECT_EQ(sleef_exp_of(std::numeric_limits<double>::infinity()), std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(sleef_exp_of(std::numeric_limits<double>::quiet_NaN())));
}

// What the std-simd card says the disassembly shows, at run time: every lane of exp(native_simd) is glibc's
// scalar exp of that lane, bit for bit.
TEST(NewRungs, StdSimdExpIsTheScalarExpOfEveryLane) {
  const auto xs = exp_arguments();
  for (std::size_t i = 0; i + stdsimd::width <= xs.size(); i += stdsimd::width) {
    const stdsimd::Vector x(xs.data() + i, stdx::element_aligned), y = exp(x);
    for (std::int64_t lane = 0; lane < stdsimd::width; ++lane)
      ASSERT_EQ(std::bit_cast<std::uint64_t>(double(y[lane])),
                std::bit_cast<std::uint64_t>(std::exp(x[lane])))
          << "x = " << double(x[lane]);
  }
}

TEST(NewRungs, SleefIntegrandsWithoutExpGiveTheXsimdTiersBits) {
  // The card's note says so: only exp is SLEEF's. Same kernel, same order of additions, same bits.
  for (const char* name : {"pi", "sin", "poly", "rational"}) {
    const std::size_t integrand = find_integrand(name);
    for (const std::int64_t n : {std::int64_t{7}, std::int64_t{1000}, std::int64_t{1000003}})
      EXPECT_EQ(integrate(find_tier("sleef"), integrand, {-2.0, 3.0}, n, {}),
                integrate(find_tier("xsimd"), integrand, {-2.0, 3.0}, n, {}))
          << name << ", n = " << n;
  }
}

// Each tier runs the integrands whose functions its vector type has, and refuses the others with the
// compiler's reason, naming the function it lacks.
void expect_refused(const char* tier, const char* integrand, const std::string& named) {
  const std::string reason = unsupported_reason(find_tier(tier), find_integrand(integrand));
  EXPECT_NE(reason.find(named), std::string::npos) << tier << " on " << integrand << ": " << reason;
  EXPECT_THROW(integrate(find_tier(tier), find_integrand(integrand), {0, 1}, 100, {}), Unavailable);
}

void expect_runs(const char* tier, const char* integrand) {
  EXPECT_TRUE(unsupported_reason(find_tier(tier), find_integrand(integrand)).empty())
      << tier << " on " << integrand;
  EXPECT_TRUE(std::isfinite(integrate(find_tier(tier), find_integrand(integrand), {0, 1}, 100, {})));
}

TEST(NewRungs, EachRunsTheIntegrandsItsVectorTypeHasTheFunctionsFor) {
  for (const char* tier : {"std-simd", "sleef", "highway"})
    for (const char* integrand : {"gauss", "pi", "sin", "poly", "rational"}) expect_runs(tier, integrand);
  expect_runs("std-simd", "log-atan");
  expect_runs("std-simd", "normal-cdf");  // libstdc++'s erfc, one scalar call a lane
  expect_refused("std-simd", "piecewise-select", "piecewise.hpp");  // the TS chooses with where, not select
  expect_refused("sleef", "log-atan", "log1p");
  expect_refused("sleef", "normal-cdf", "erfc");
  expect_runs("sleef", "piecewise-select");
  expect_runs("highway", "log-atan");
  expect_runs("highway", "piecewise-select");
  expect_refused("highway", "normal-cdf", "erfc");  // Highway 1.0.3's contrib/math has none
}

}  // namespace
}  // namespace ladder
