// The hand-written exp of the tuned tiers (variants/tuned_exp.hpp): its error in ulps against long double
// expl over the whole double range, its special values, the figure the cards print, and the claim that
// only exp changes — integrands without exp give the xsimd tiers' bits.
#include "tuned_exp.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

#include "registry.hpp"

namespace ladder::tuned {
namespace {

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

// |computed − e^x| in units of the spacing of doubles at e^x: the ulp of a normal result, the smallest
// subnormal for a subnormal one. +inf counts as 2^1024, the next step after DBL_MAX.
long double ulp_error(double x, double computed) {
  const long double exact = std::exp(static_cast<long double>(x));
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

// Every input in its own batch lane. With `edge_path`, lane 0 of every batch holds NaN, which sends the
// whole batch down the careful path: the ordinary inputs in the other lanes check that path too.
void measure(const std::vector<double>& inputs, bool edge_path, Measurement& measurement) {
  const std::size_t first_lane = edge_path ? 1 : 0;
  for (std::size_t start = 0; start < inputs.size();) {
    std::array<double, width> lanes{};
    lanes.fill(edge_path ? nan : 0.0);
    const std::size_t used = std::min(width - first_lane, inputs.size() - start);
    std::copy_n(inputs.begin() + static_cast<std::ptrdiff_t>(start), used, lanes.begin() + first_lane);
    const Batch results = tuned::exp(Batch::load_unaligned(lanes.data()));
    for (std::size_t index = first_lane; index < first_lane + used; ++index) {
      const long double error = ulp_error(lanes[index], lane(results, index));
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
    measure(inputs, false, result);
    measure(inputs, true, result);
    return result;
  }();
  return measurement;
}

TEST(TunedExp, ErrorIsAtMostTwoUlpsOverTheWholeRange) {
  const auto& measurement = measured();
  EXPECT_GE(measurement.points, 2'000'000u) << "1.7 million inputs, each on both paths";
  EXPECT_LE(measurement.max_ulp, 2.0L) << "worst input " << measurement.worst_input;
  std::printf("max error %.3Lf ulp at x = %.17g over %zu evaluations\n", measurement.max_ulp,
              measurement.worst_input, measurement.points);
}

TEST(TunedExp, TheCardsStateTheMeasuredError) {
  // Not below what is measured (the card would flatter), and not stale: within 0.2 ulp above it (a
  // denser sweep than this test's finds up to 1.11 ulp, so the card leaves room for that).
  const auto measured_error = static_cast<double>(measured().max_ulp);
  EXPECT_GE(max_ulp_error, measured_error);
  EXPECT_LE(max_ulp_error, measured_error + 0.2);
  for (const char* id : {"tuned-exp", "openmp-tuned", "tbb-tuned"}) {
    EXPECT_EQ(find_tier(id).card.max_ulp_error, max_ulp_error) << id;
    EXPECT_EQ(find_tier(id).card.note, integrands_note) << id;
  }
}

TEST(TunedExp, SpecialValues) {
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

TEST(TunedExp, OverflowAndUnderflowHappenExactlyAtTheThresholds) {
  EXPECT_TRUE(std::isfinite(tuned_exp(largest_finite_input)));
  EXPECT_GT(tuned_exp(largest_finite_input), largest * (1 - 1e-13));
  EXPECT_EQ(tuned_exp(std::nextafter(largest_finite_input, infinity)), infinity);
  EXPECT_EQ(tuned_exp(smallest_nonzero_input), smallest_subnormal);
  EXPECT_EQ(tuned_exp(std::nextafter(smallest_nonzero_input, -infinity)), 0.0);
  // Gradual underflow: below e^−708.4 the results are subnormal and still within an ulp of that grid.
  EXPECT_EQ(tuned_exp(-740.0), static_cast<double>(std::exp(-740.0L)));
  EXPECT_LT(tuned_exp(-709.0), std::numeric_limits<double>::min());
}

TEST(TunedExp, EachLaneIsComputedOnItsOwn) {
  // One special lane sends the batch down the careful path; the ordinary lanes must not notice.
  std::array<double, width> inputs{};
  for (std::size_t index = 0; index < width; ++index) inputs[index] = -0.25 * static_cast<double>(index);
  inputs[width - 1] = nan;
  const Batch results = tuned::exp(Batch::load_unaligned(inputs.data()));
  for (std::size_t index = 0; index + 1 < width; ++index)
    EXPECT_EQ(lane(results, index), tuned_exp(inputs[index])) << "lane " << index;
  EXPECT_TRUE(std::isnan(lane(results, width - 1)));
}

TEST(TunedExp, TheAdaptorUsesTheTunedExpForBatchesAndStdExpForTheTail) {
  const auto gauss = with_tuned_exp(Gauss{});
  const Batch x(0.375);
  EXPECT_EQ(lane(gauss(x), 0), lane(tuned::exp(-x * x), 0));
  EXPECT_EQ(gauss(0.375), std::exp(-0.375 * 0.375));
  EXPECT_EQ(lane(with_tuned_exp(Sine{})(x), 0), lane(xsimd::sin(x), 0));
  EXPECT_EQ(lane(with_tuned_exp(Pi{})(x), 0), lane(Pi{}(x), 0));
}

TEST(TunedTiers, IntegrandsWithoutExpGiveTheXsimdTiersBits) {
  // The cards' note says so: only exp changes. Same kernel, same order of additions, same bits.
  const std::pair<const char*, const char*> pairs[] = {
      {"tuned-exp", "xsimd"}, {"openmp-tuned", "openmp"}, {"tbb-tuned", "tbb"}};
  for (std::size_t integrand = 0; integrand < integrands().size(); ++integrand) {
    if (integrands()[integrand].name == "gauss") continue;  // the one that calls exp
    for (const auto& [tuned, plain] : pairs) {
      for (const std::int64_t n : {std::int64_t{7}, std::int64_t{1000}, std::int64_t{1000003}}) {
        const RunOptions options{1, find_tier(tuned).card.reproducible == Reproducible::on_request};
        EXPECT_EQ(integrate(find_tier(tuned), integrand, {-2.0, 3.0}, n, options),
                  integrate(find_tier(plain), integrand, {-2.0, 3.0}, n, options))
            << tuned << " on " << integrands()[integrand].name << ", n = " << n;
      }
    }
  }
}

}  // namespace
}  // namespace ladder::tuned
