// The hand-written exp of the tuned tiers (variants/tuned_exp_math.hpp): its error in ulps against long
// double expl over the whole double range, its special values, the figure the cards print, and the claim that
// only exp changes — integrands without exp give the xsimd tiers' bits.
//
// The header has two paths, chosen when it is compiled: with AVX-512F a table of 16 and vscalefpd, without
// it split Horner and the exponent bits. This file tests the one its build compiles, and names it: the
// suite is TunedExpAvx512Path or TunedExpAvx2Path, each test records the path as its `exp_path` property,
// and the ulp test prints it. It is built twice (tests/CMakeLists.txt): into ladder_tests, for the build's
// LADDER_ARCH with its tiers, and into ladder_tuned_exp_x86_64_v3_tests (LADDER_TUNED_EXP_SECOND_BUILD), for
// x86-64-v3 with the x86-64-v3 tiers: the AVX2 path. Where LADDER_ARCH gives no AVX-512F, the AVX-512
// path is compiled nowhere, and ladder_tests reports it as skipped, with the reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

#include "registry.hpp"
#include "simd_integrands.hpp"
#include "tuned_exp_math.hpp"

#if XSIMD_WITH_AVX512F
#define TUNED_EXP_PATH TunedExpAvx512Path
#define TUNED_TIERS_PATH TunedTiersAvx512Path
constexpr const char* exp_path = "AVX-512 (a table of 16, vscalefpd)";
#elif XSIMD_WITH_NEON64
// aarch64: the same split Horner and exponent bits, on NEON's float64x2_t (xsimd 8.1 has no SVE).
#define TUNED_EXP_PATH TunedExpNeonPath
#define TUNED_TIERS_PATH TunedTiersNeonPath
constexpr const char* exp_path = "NEON (split Horner, exponent bits)";
#else
#define TUNED_EXP_PATH TunedExpAvx2Path
#define TUNED_TIERS_PATH TunedTiersAvx2Path
constexpr const char* exp_path = "AVX2 (split Horner, exponent bits)";
#endif

namespace ladder::tuned {
namespace {

// The path under test, on every test's record and in its output. The second build's path needs AVX2 and
// FMA: on a CPU without them its tests are skipped, with the reason.
class TUNED_EXP_PATH : public ::testing::Test {
 protected:
  void SetUp() override {
    RecordProperty("exp_path", exp_path);
    RecordProperty("xsimd_arch", xsimd::default_arch::name());
    std::printf("tuned exp path: %s, xsimd arch %s\n", exp_path, xsimd::default_arch::name());
#ifdef LADDER_TUNED_EXP_SECOND_BUILD
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma"))
      GTEST_SKIP() << "the " << exp_path << " path needs AVX2 and FMA, and this CPU lacks one of them";
#endif
  }
};
class TUNED_TIERS_PATH : public TUNED_EXP_PATH {};

constexpr double infinity = std::numeric_limits<double>::infinity();
constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double largest = std::numeric_limits<double>::max();
constexpr double smallest_subnormal = std::numeric_limits<double>::denorm_min();
constexpr std::size_t width = Batch::size;

// The largest input whose exp is finite, and the smallest whose exp is not 0 (checked with 40-digit
// arithmetic: e^x is 2.4e-14 relatively below DBL_MAX's rounding limit, and 1e-13 above half the
// smallest subnormal).
constexpr double largest_finite_input = 709.782712893384;
constexpr double smallest_nonzero_input = -745.1332191019411;

double lane(const Batch& batch, std::size_t index) {
  std::array<double, width> lanes{};
  batch.store_unaligned(lanes.data());
  return lanes[index];
}

double tuned_exp(double x) { return lane(tuned::exp(Batch(x)), 0); }

// |computed − e^x| in units of the spacing of doubles at e^x (`exact`, in long double): the ulp of a normal
// result, the smallest subnormal for a subnormal one. +inf counts as 2^1024, the next step after DBL_MAX.
long double ulp_error(long double exact, double computed) {
  const int exponent = std::max(std::ilogb(exact), std::numeric_limits<double>::min_exponent - 1);
  const long double spacing = std::ldexp(1.0L, exponent - (std::numeric_limits<double>::digits - 1));
  const long double value = std::isinf(computed) ? std::ldexp(1.0L, 1024) : computed;
  return std::fabs(value - exact) / spacing;
}

struct Measurement {
  long double max_ulp = 0;
  double worst_input = 0;
  std::size_t points = 0;
};

// Every input in its own batch lane, against its e^x in long double (`exact`, one per input). With
// `edge_path`, lane 0 of every batch holds NaN, which sends the whole batch down the careful path: the
// ordinary inputs in the other lanes check that path too.
void measure(const std::vector<double>& inputs, const std::vector<long double>& exact, bool edge_path,
             Measurement& measurement) {
  const std::size_t first_lane = edge_path ? 1 : 0;
  for (std::size_t start = 0; start < inputs.size();) {
    std::array<double, width> lanes{};
    lanes.fill(edge_path ? nan : 0.0);
    const std::size_t used = std::min(width - first_lane, inputs.size() - start);
    std::copy_n(inputs.begin() + static_cast<std::ptrdiff_t>(start), used, lanes.begin() + first_lane);
    const Batch results = tuned::exp(Batch::load_unaligned(lanes.data()));
    for (std::size_t index = first_lane; index < first_lane + used; ++index) {
      const long double error = ulp_error(exact[start + index - first_lane], lane(results, index));
      if (error > measurement.max_ulp) {
        measurement.max_ulp = error;
        measurement.worst_input = lanes[index];
      }
    }
    measurement.points += used;
    start += used;
  }
}

std::vector<double> uniform(double low, double high, std::size_t count, std::uint64_t seed) {
  std::mt19937_64 generator(seed);
  std::uniform_real_distribution<double> distribution(low, high);
  std::vector<double> points(count);
  for (auto& x : points) x = distribution(generator);
  return points;
}

// 1.7 million inputs: the whole range, and dense where exp is hardest or most used.
std::vector<double> test_inputs() {
  std::vector<double> inputs = uniform(-745.0, 709.0, 1'000'000, 1);  // the whole range
  auto add = [&](const std::vector<double>& more) { inputs.insert(inputs.end(), more.begin(), more.end()); };
  add(uniform(-1.0, 0.0, 200'000, 2));                              // what gauss on [0, 1] feeds it
  add(uniform(-1e-3, 1e-3, 100'000, 3));                            // near 0, where e^x ≈ 1 + x
  add(uniform(708.0, largest_finite_input, 100'000, 4));            // up to overflow
  add(uniform(-745.2, -708.0, 200'000, 5));                         // subnormal results, and 0
  add(uniform(smallest_nonzero_input - 1e-12, -745.0, 50'000, 6));  // around the last subnormal
  for (double x = 1e-300; x < 1; x *= 1.01) {                       // tiny to 1, both signs
    inputs.push_back(x);
    inputs.push_back(-x);
  }
  return inputs;
}

const Measurement& measured() {
  static const Measurement measurement = [] {
    Measurement result;
    const auto inputs = test_inputs();
    // Each e^x once, for both paths: expl is most of the test's time, above all on aarch64, where long
    // double is binary128 in software (a minute a sweep under qemu).
    std::vector<long double> exact(inputs.size());
    std::transform(inputs.begin(), inputs.end(), exact.begin(),
                   [](double x) { return std::exp(static_cast<long double>(x)); });
    measure(inputs, exact, false, result);
    measure(inputs, exact, true, result);
    return result;
  }();
  return measurement;
}

TEST_F(TUNED_EXP_PATH, ErrorIsAtMostTwoUlpsOverTheWholeRange) {
  const auto& measurement = measured();
  EXPECT_GE(measurement.points, 2'000'000u) << "1.7 million inputs, each on both paths";
  EXPECT_LE(measurement.max_ulp, 2.0L) << "worst input " << measurement.worst_input;
  std::printf("%s path: max error %.3Lf ulp at x = %.17g over %zu evaluations\n", exp_path,
              measurement.max_ulp, measurement.worst_input, measurement.points);
}

TEST_F(TUNED_EXP_PATH, TheCardsStateTheMeasuredError) {
  // Not below what is measured (the card would flatter), and not stale: within 0.2 ulp above it (a
  // denser sweep than this test's finds up to 1.11 ulp, so the card leaves room for that).
  const auto measured_error = static_cast<double>(measured().max_ulp);
  EXPECT_GE(max_ulp_error, measured_error);
  EXPECT_LE(max_ulp_error, measured_error + 0.2);
  for (const char* id : {"tuned-exp", "openmp-tuned", "tbb-tuned"}) {
    EXPECT_EQ(find_tier(id).card.max_ulp_error, max_ulp_error) << id;
    EXPECT_EQ(find_tier(id).card.note, tuned_integrands_note) << id;
  }
}

TEST_F(TUNED_EXP_PATH, SpecialValues) {
  EXPECT_TRUE(std::isnan(tuned_exp(nan)));
  EXPECT_TRUE(std::isnan(tuned_exp(-nan)));
  EXPECT_EQ(tuned_exp(infinity), infinity);
  EXPECT_EQ(tuned_exp(-infinity), 0.0);
  EXPECT_FALSE(std::signbit(tuned_exp(-infinity)));
  EXPECT_EQ(tuned_exp(0.0), 1.0);
  EXPECT_EQ(tuned_exp(-0.0), 1.0);
  EXPECT_EQ(tuned_exp(1e-300), 1.0);
  EXPECT_EQ(tuned_exp(-1e-300), 1.0);
  EXPECT_EQ(tuned_exp(smallest_subnormal), 1.0);
  EXPECT_EQ(tuned_exp(largest), infinity);
  EXPECT_EQ(tuned_exp(-largest), 0.0);
}

TEST_F(TUNED_EXP_PATH, OverflowAndUnderflowHappenExactlyAtTheThresholds) {
  EXPECT_TRUE(std::isfinite(tuned_exp(largest_finite_input)));
  EXPECT_GT(tuned_exp(largest_finite_input), largest * (1 - 1e-13));
  EXPECT_EQ(tuned_exp(std::nextafter(largest_finite_input, infinity)), infinity);
  EXPECT_EQ(tuned_exp(smallest_nonzero_input), smallest_subnormal);
  EXPECT_EQ(tuned_exp(std::nextafter(smallest_nonzero_input, -infinity)), 0.0);
  // Gradual underflow: below e^−708.4 the results are subnormal and still within an ulp of that grid.
  EXPECT_EQ(tuned_exp(-740.0), static_cast<double>(std::exp(-740.0L)));
  EXPECT_LT(tuned_exp(-709.0), std::numeric_limits<double>::min());
}

TEST_F(TUNED_EXP_PATH, EachLaneIsComputedOnItsOwn) {
  // One special lane sends the batch down the careful path; the ordinary lanes must not notice.
  std::array<double, width> inputs{};
  for (std::size_t index = 0; index < width; ++index) inputs[index] = -0.25 * static_cast<double>(index);
  inputs[width - 1] = nan;
  const Batch results = tuned::exp(Batch::load_unaligned(inputs.data()));
  for (std::size_t index = 0; index + 1 < width; ++index)
    EXPECT_EQ(lane(results, index), tuned_exp(inputs[index])) << "lane " << index;
  EXPECT_TRUE(std::isnan(lane(results, width - 1)));
}

TEST_F(TUNED_EXP_PATH, TheAdaptorUsesTheTunedExpForBatchesAndStdExpForTheTail) {
  const auto gauss = with_tuned_exp(Gauss{});
  const Batch x(0.375);
  EXPECT_EQ(lane(gauss(x), 0), lane(tuned::exp(-x * x), 0));
  EXPECT_EQ(gauss(0.375), std::exp(-0.375 * 0.375));
  EXPECT_EQ(lane(with_tuned_exp(Sine{})(x), 0), lane(xsimd::sin(x), 0));
  EXPECT_EQ(lane(with_tuned_exp(Pi{})(x), 0), lane(Pi{}(x), 0));
}

TEST_F(TUNED_TIERS_PATH, IntegrandsWithoutExpGiveTheXsimdTiersBits) {
  // The cards' note says so: only exp changes. Same kernel, same order of additions, same bits.
  const std::pair<const char*, const char*> pairs[] = {
      {"tuned-exp", "xsimd"}, {"openmp-tuned", "openmp"}, {"tbb-tuned", "tbb"}};
  for (std::size_t integrand = 0; integrand < integrands().size(); ++integrand) {
    if (integrands()[integrand].name == "gauss") continue;  // the one that calls exp
    for (const auto& [tuned, plain] : pairs) {
      // The tuned exp is written and tested for the built-in integrands: a user integrand is refused, with
      // the reason, rather than run as the plain tier's code under the tuned tier's name.
      if (integrands()[integrand].source != "built-in") {
        EXPECT_EQ(find_tier(tuned).kernels.at(integrand), nullptr)
            << tuned << " on " << integrands()[integrand].name;
        EXPECT_NE(unsupported_reason(find_tier(tuned), integrand).find("TunedBatch"), std::string::npos)
            << unsupported_reason(find_tier(tuned), integrand);
        continue;
      }
      for (const std::int64_t n : {std::int64_t{7}, std::int64_t{1000}, std::int64_t{1000003}}) {
        const RunOptions options{1, find_tier(tuned).card.reproducible == Reproducible::on_request};
        EXPECT_EQ(integrate(find_tier(tuned), integrand, {-2.0, 3.0}, n, options),
                  integrate(find_tier(plain), integrand, {-2.0, 3.0}, n, options))
            << tuned << " on " << integrands()[integrand].name << ", n = " << n;
      }
    }
  }
}

#if !XSIMD_WITH_AVX512F && !defined(LADDER_TUNED_EXP_SECOND_BUILD) && defined(__x86_64__)
// The build's own target has no AVX-512F, so the AVX-512 path above was not compiled into any test binary.
TEST(TunedExpAvx512Path, IsTestedWhereTheBuildTargetsAvx512) {
  GTEST_SKIP() << "the AVX-512 path of tuned_exp_math.hpp is not compiled in this build (xsimd arch "
               << xsimd::default_arch::name() << ", no AVX-512F in LADDER_ARCH): "
               << (__builtin_cpu_supports("avx512f")
                       ? "this CPU has AVX-512F; configure with -DLADDER_ARCH=native or x86-64-v4 to test it"
                       : "this CPU has no AVX-512F to run it");
}
#endif

}  // namespace
}  // namespace ladder::tuned
