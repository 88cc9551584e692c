// The noise model every verdict shares (common/noise/noise.hpp), on simulated processes whose true ratio is
// known: the sign-test interval's coverage under drift and outliers, the false verdicts of an A/A at the
// measured noise floor, the exact interval at small n, and judge() and pairs_to_settle() at their edges.
// Draws come from mt19937 with fixed seeds (history_series_support.hpp's Noise), so every run of the test
// sees the same numbers; nothing is timed.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "history_series_support.hpp"
#include "noise.hpp"

namespace ladder {
namespace {

using report::test::Noise;

// An interleaved A/B of `pairs` pairs of worker processes in ABBA order (AB, BA, AB, …): B's true time is
// `ratio` × A's; every process's time drifts up 0.2 % a process, carries lognormal noise of σ 3 %, and one
// process in 20 is an outlier 1.3× slower, A or B alike. Returns the log ratio B/A of each adjacent pair.
std::vector<double> abba_log_ratios(Noise& noise, double ratio, int pairs = 12) {
  int process = 0;
  const auto time = [&](bool head) {
    double seconds = 1e-3 * (1 + 0.002 * process++) * (head ? ratio : 1) * std::exp(0.03 * noise.normal());
    if (noise.uniform() < 0.05) seconds *= 1.3;
    return seconds;
  };
  std::vector<double> log_ratios;
  for (int pair = 0; pair < pairs; ++pair) {
    const bool head_first = pair % 2 == 1;
    const double first = time(head_first), second = time(!head_first);
    log_ratios.push_back(head_first ? std::log(first / second) : std::log(second / first));
  }
  return log_ratios;
}

TEST(NoiseModel, TheIntervalCoversAKnownRatioInAtLeast93Of100DrawsWithDriftAndOutliers) {
  Noise noise(35);
  int covered = 0;
  for (int draw = 0; draw < 100; ++draw) {
    const RatioInterval interval = paired_interval(abba_log_ratios(noise, 1.05));
    ASSERT_TRUE(interval.known());
    EXPECT_EQ(interval.pairs, 12);
    EXPECT_LE(interval.low, interval.ratio);
    EXPECT_GE(interval.high, interval.ratio);
    covered += interval.low <= 1.05 && 1.05 <= interval.high;
  }
  EXPECT_GE(covered, 93);
  // Nor wider than 95 % asks: over 2000 draws the exact level of the sign test at 12 pairs (1 − 2 × 79/4096
  // = 96.1 %) shows, ± 0.5 % (1 σ).
  covered = 0;
  for (int draw = 0; draw < 2000; ++draw) {
    const RatioInterval interval = paired_interval(abba_log_ratios(noise, 1.05));
    covered += interval.low <= 1.05 && 1.05 <= interval.high;
  }
  EXPECT_GE(covered, 1880);
  EXPECT_LE(covered, 1950);
}

// The threshold is the noise floor an A/A measured (ladder ab --base HEAD --head HEAD); the verdicts are
// those of other A/As of the same code judged against it: faster or slower is false.
TEST(NoiseModel, SimulatedAAGivesAtMostFivePercentFalseVerdictsAtTheMeasuredNoiseFloor) {
  for (std::uint32_t seed = 1; seed <= 5; ++seed) {
    Noise noise(seed);
    const auto floor = noise_floor_percent(abba_log_ratios(noise, 1.0));
    ASSERT_TRUE(floor) << "12 pairs measure a floor";
    EXPECT_GT(*floor, 2) << "seed " << seed << ": the pairs differ by 4 % (1 σ)";
    EXPECT_LT(*floor, 20) << "seed " << seed;
    int false_verdicts = 0, no_change = 0;
    for (int draw = 0; draw < 100; ++draw) {
      const Verdict verdict = judge(paired_interval(abba_log_ratios(noise, 1.0)), *floor);
      false_verdicts += verdict == Verdict::faster || verdict == Verdict::slower;
      no_change += verdict == Verdict::no_change;
    }
    EXPECT_LE(false_verdicts, 5) << "seed " << seed << ", floor " << *floor << " %";
    EXPECT_GE(no_change, 50) << "seed " << seed << ": most A/As settle as no change";
  }
}

TEST(NoiseModel, SixPairsGiveTheirWholeRangeAndFiveNoInterval) {
  const RatioInterval six = paired_interval({0.03, -0.02, 0.0, 0.01, -0.01, 0.02});
  ASSERT_TRUE(six.known());
  EXPECT_EQ(six.pairs, 6);
  EXPECT_NEAR(six.ratio, std::exp(0.005), 1e-12) << "the median of the six";
  EXPECT_NEAR(six.low, std::exp(-0.02), 1e-12) << "P(B = 0) = 1/64 ≤ 2.5 %: the smallest pair";
  EXPECT_NEAR(six.high, std::exp(0.03), 1e-12);
  // Ten pairs: P(B ≤ 1) = 11/1024 ≤ 2.5 % < P(B ≤ 2) = 56/1024, so the second smallest and second largest.
  const RatioInterval ten = paired_interval({0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.5});
  EXPECT_NEAR(ten.ratio, std::exp(0.055), 1e-12);
  EXPECT_NEAR(ten.low, std::exp(0.02), 1e-12);
  EXPECT_NEAR(ten.high, std::exp(0.09), 1e-12)
      << "the outlier pair (0.5) moves the interval by one rank only";
  const RatioInterval five = paired_interval({0.01, 0.02, 0.03, 0.04, 0.05});
  EXPECT_FALSE(five.known());
  EXPECT_NEAR(five.ratio, std::exp(0.03), 1e-12) << "the estimate without an interval";
  EXPECT_EQ(judge(five, 5), Verdict::undecided);
}

TEST(NoiseModel, ApartIntervalIsTheNoiseFloorEitherSide) {
  const RatioInterval apart = apart_interval(1.2, 5);
  EXPECT_DOUBLE_EQ(apart.ratio, 1.2);
  EXPECT_DOUBLE_EQ(apart.low, 1.2 / 1.05);
  EXPECT_DOUBLE_EQ(apart.high, 1.2 * 1.05);
  EXPECT_EQ(apart.pairs, 1);
  EXPECT_EQ(judge(apart, 5), Verdict::slower);
  EXPECT_EQ(judge(apart_interval(1.1, 5), 5), Verdict::undecided) << "1.1 / 1.05 is not above 1.05";
  EXPECT_EQ(judge(apart_interval(1.01, 2), 5), Verdict::no_change) << "within ± 5 % with a floor of 2 %";
  EXPECT_EQ(judge(apart_interval(0.8, 5), 5), Verdict::faster);
}

TEST(NoiseModel, JudgeAtTheEdgesOfTheThreshold) {
  const auto interval = [](double low, double high) {
    return RatioInterval{std::sqrt(low * high), low, high, 12};
  };
  EXPECT_EQ(judge(interval(1.0501, 1.10), 5), Verdict::slower);
  EXPECT_EQ(judge(interval(1.0499, 1.10), 5), Verdict::undecided);
  EXPECT_EQ(judge(interval(1 / 1.10, 1 / 1.0501), 5), Verdict::faster);
  EXPECT_EQ(judge(interval(1 / 1.10, 1 / 1.0499), 5), Verdict::undecided);
  EXPECT_EQ(judge(interval(1 / 1.0499, 1.0499), 5), Verdict::no_change) << "in log terms: 1/1.05 below";
  EXPECT_EQ(judge(interval(0.9, 1.2), 5), Verdict::undecided) << "straddles both edges";
  EXPECT_EQ(judge(interval(1.001, 1.002), 0), Verdict::slower)
      << "threshold 0: any change beyond the interval";
  EXPECT_EQ(judge(RatioInterval{1.5, 0, 0, 3}, 5), Verdict::undecided) << "no interval";
  EXPECT_EQ(to_string(Verdict::no_change), "no change");
}

TEST(NoiseModel, PairsToSettleShrinkTheIntervalUntilItClearsTheNearerEdge) {
  EXPECT_EQ(pairs_to_settle({1.2, 1.1, 1.3, 12}, 5), 0) << "decided";
  EXPECT_EQ(pairs_to_settle({1.0, 0, 0, 2}, 5), interval_min_pairs - 2) << "no interval yet";
  const RatioInterval undecided{1.06, 1.02, 1.10, 12};
  ASSERT_EQ(judge(undecided, 5), Verdict::undecided);
  const auto more = pairs_to_settle(undecided, 5);
  ASSERT_TRUE(more);
  // The half-width, shrunk as 1/√pairs, fits between the centre and the nearer edge (log 1.05) with the
  // pairs it names, and not with one fewer.
  const double half = (std::log(1.10) - std::log(1.02)) / 2, room = std::log(1.06) - std::log(1.05);
  EXPECT_LE(half * std::sqrt(12.0 / (12 + *more)), room);
  EXPECT_GT(half * std::sqrt(12.0 / (12 + *more - 1)), room);
  EXPECT_FALSE(pairs_to_settle({1.05, 1.0, 1.1, 12}, 5)) << "its centre on the edge: no number settles it";
}

TEST(NoiseModel, NoiseFloorIsTheRobustSpreadOfSameCodePairs) {
  EXPECT_FALSE(noise_floor_percent({0.01, -0.01, 0.02, -0.02})) << "four pairs are too few";
  const auto floor = noise_floor_percent({0.01, -0.01, 0.02, -0.02, 0.0});
  ASSERT_TRUE(floor);
  EXPECT_NEAR(*floor, 100 * std::expm1(1.96 * 1.4826 * 0.01), 1e-9) << "median 0, MAD 0.01";
  const auto drifting = noise_floor_percent({0.03, 0.01, 0.02, 0.04, 0.0});
  ASSERT_TRUE(drifting);
  EXPECT_NEAR(*drifting, 100 * std::expm1(1.96 * std::hypot(0.02, 1.4826 * 0.01)), 1e-9)
      << "a drift between same-code runs is noise too";
}

}  // namespace
}  // namespace ladder

namespace ladder {
namespace {

TEST(NoiseModel, AMeasuredFloorUnderOnePercentThresholdsAtOnePercentAndSaysSo) {
  const Threshold quiet = floor_threshold(0.23, "this machine's noise floor 0.23 %");
  EXPECT_EQ(quiet.percent, min_threshold_percent);
  EXPECT_TRUE(quiet.measured);
  EXPECT_EQ(quiet.source, "this machine's noise floor 0.23 %, raised to the least threshold, 1 %");
  const Threshold noisy = floor_threshold(2.5, "this machine's noise floor 2.5 %");
  EXPECT_EQ(noisy.percent, 2.5);
  EXPECT_EQ(noisy.source, "this machine's noise floor 2.5 %");
  // An A/A interval within ± 0.23 % is no change at the raised threshold, and 1.5 % slower is slower.
  EXPECT_EQ(judge({1.001, 0.997, 1.004, 10}, quiet.percent), Verdict::no_change);
  EXPECT_EQ(judge({1.015, 1.012, 1.018, 10}, quiet.percent), Verdict::slower);
}

}  // namespace
}  // namespace ladder

namespace ladder {
namespace {

TEST(NoiseModel, AnApartFloorSeesTheJumpsTheMADDoesNot) {
  // Nine consecutive runs of one commit: eight within 0.5 %, one jump of 83 % (a memory-bound cell's).
  const std::vector<double> runs = {0.004, -0.003, 0.002, -0.004, 0.003, -0.002, 0.001, std::log(1.835), 0.0};
  const double robust = *noise_floor_percent(runs);
  EXPECT_LT(robust, 2) << "the MAD does not see the one jump";
  const double apart = *apart_noise_floor_percent(runs);
  // The 95th percentile of nine |log ratios|: 0.6 of the way from the 8th smallest (0.004) to the jump.
  EXPECT_NEAR(apart, 100 * std::expm1(0.004 + 0.6 * (std::log(1.835) - 0.004)), 1e-9);
  EXPECT_GT(apart, 40);
  EXPECT_EQ(*apart_noise_floor_percent({0.01, -0.01, 0.02, -0.02, 0.0}),
            *noise_floor_percent({0.01, -0.01, 0.02, -0.02, 0.0}))
      << "without a tail the robust figure is the larger";
  EXPECT_FALSE(apart_noise_floor_percent({0.01, 0.02, 0.03, 0.04})) << "four pairs are too few";
}

}  // namespace
}  // namespace ladder
