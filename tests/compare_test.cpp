// The statistics of two samples of timings, on crafted repetitions whose answers are known: the
// Mann–Whitney U test the history page's pairwise rule still uses (against an enumeration of every ordering
// and against scipy), what common/sample_comparison.hpp calls a change, and compare's geometric mean.
// `ladder compare` itself, on the noise model, is tested in compare_command_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "choose.hpp"
#include "crafted_results.hpp"
#include "report.hpp"
#include "sample_comparison.hpp"

namespace ladder::report {
namespace {

using ladder::Change;
using ladder::mann_whitney;
using ladder::UTest;

// U for x, counted pair by pair (a tie a half): the definition, not the ranks compare uses.
double u_by_pairs(const std::vector<double>& x, const std::vector<double>& y) {
  double u = 0;
  for (const double a : x)
    for (const double b : y) u += a > b ? 1 : a == b ? 0.5 : 0;
  return u;
}

// The exact two-sided p-value of samples without ties, by enumerating every way of giving m of the ranks
// 1 … m + n to x: the share of them whose U is at least as far from m·n/2 as the observed one.
double p_by_enumeration(const std::vector<double>& x, const std::vector<double>& y) {
  const int m = static_cast<int>(x.size()), total = static_cast<int>(x.size() + y.size());
  const double centre = m * (total - m) / 2.0, observed = std::fabs(u_by_pairs(x, y) - centre);
  std::int64_t as_far = 0, all = 0;
  for (std::uint32_t chosen = 0; chosen < (1u << total); ++chosen) {
    if (__builtin_popcount(chosen) != m) continue;
    double rank_sum = 0;
    for (int rank = 1; rank <= total; ++rank)
      if (chosen & (1u << (rank - 1))) rank_sum += rank;
    ++all;
    as_far += std::fabs(rank_sum - m * (m + 1) / 2.0 - centre) >= observed - 1e-9;
  }
  return static_cast<double>(as_far) / static_cast<double>(all);
}

// Distinct values from a fixed generator, `shift` added: samples that overlap more or less.
std::vector<double> sample(int size, std::uint32_t seed, double shift) {
  std::vector<double> values;
  for (int i = 0; i < size; ++i) {
    seed = seed * 1664525u + 1013904223u;
    values.push_back(shift + (seed >> 8) / double(1 << 24));
  }
  return values;
}

TEST(MannWhitney, ExactPValueIsTheShareOfOrderingsAsExtreme) {
  const struct {
    int m, n;
    double shift;
  } cases[] = {{3, 3, 0},   {3, 3, 2},    {4, 6, 0.3},  {6, 6, 0},
               {6, 6, 0.5}, {7, 8, -0.4}, {5, 10, 0.2}, {2, 13, 1}};
  std::uint32_t seed = 1;
  for (const auto& c : cases) {
    const auto x = sample(c.m, seed++, 0), y = sample(c.n, seed++, c.shift);
    const UTest test = mann_whitney(x, y);
    EXPECT_DOUBLE_EQ(test.u, u_by_pairs(x, y)) << c.m << " against " << c.n << ", shift " << c.shift;
    EXPECT_NEAR(test.p, p_by_enumeration(x, y), 1e-12) << c.m << " against " << c.n << ", shift " << c.shift;
  }
}

// The answers of scipy 1.10.1, from /usr/bin/python3 on Debian 12:
//   from scipy.stats import mannwhitneyu as mw
//   mw([1.0, 1.3, 2.2, 2.9, 4.1, 5.0, 6.2], [1.1, 2.5, 3.3, 4.4, 5.9, 7.1, 8.0, 9.2], method='exact')
//     statistic=16.0, pvalue=0.1892773892773893
//   mw([1.0, 1.01, …, 1.09], [1.1, 1.111, …, 1.199], method='exact')   (steps of 0.01 and 0.011)
//     statistic=0.0, pvalue=1.082508822446903e-05
//   mw([1, 2, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9], [3, 4, 5, 5, 6, 7, 8, 9, 9, 10, 11, 12], method='asymptotic')
//     statistic=36.5, pvalue=0.04240032552303027
//   mw([1, 2, 3, 3, 5], [3, 4, 6, 7, 8], method='asymptotic')
//     statistic=3.0, pvalue=0.057007942464885414
//   mw([2.0 * i for i in range(25)], [3.25 + 2.5 * k for k in range(20)], method='asymptotic')
//     statistic=221.0, pvalue=0.5150556053381978
// compare uses the exact distribution for m + n ≤ 40 without ties, the normal approximation (with scipy's
// continuity and tie corrections) otherwise: the last three are ties, ties, and 45 values.
TEST(MannWhitney, AgreesWithScipy) {
  std::vector<double> steady, slower;
  for (int i = 0; i < 10; ++i) steady.push_back(1.0 + 0.01 * i), slower.push_back(1.1 + 0.011 * i);
  std::vector<double> many, more;
  for (int i = 0; i < 25; ++i) many.push_back(2.0 * i);
  for (int k = 0; k < 20; ++k) more.push_back(3.25 + 2.5 * k);
  const struct {
    std::vector<double> x, y;
    double u, p;
  } cases[] = {
      {{1.0, 1.3, 2.2, 2.9, 4.1, 5.0, 6.2}, {1.1, 2.5, 3.3, 4.4, 5.9, 7.1, 8.0, 9.2}, 16, 0.1892773892773893},
      {steady, slower, 0, 1.082508822446903e-05},
      {{1, 2, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9},
       {3, 4, 5, 5, 6, 7, 8, 9, 9, 10, 11, 12},
       36.5,
       0.04240032552303027},
      {{1, 2, 3, 3, 5}, {3, 4, 6, 7, 8}, 3, 0.057007942464885414},
      {many, more, 221, 0.5150556053381978},
  };
  for (const auto& c : cases) {
    const UTest test = mann_whitney(c.x, c.y);
    EXPECT_DOUBLE_EQ(test.u, c.u) << c.x.size() << " against " << c.y.size();
    EXPECT_NEAR(test.p, c.p, 1e-12 + 1e-9 * c.p) << c.x.size() << " against " << c.y.size();
  }
}

TEST(MannWhitney, IsSymmetricAndSaysNothingWithoutData) {
  const auto x = sample(6, 7, 0), y = sample(8, 8, 0.3);
  EXPECT_DOUBLE_EQ(mann_whitney(x, y).p, mann_whitney(y, x).p);
  EXPECT_DOUBLE_EQ(mann_whitney(x, y).u + mann_whitney(y, x).u, 6 * 8);
  EXPECT_DOUBLE_EQ(mann_whitney({1, 2, 3}, {1, 2, 3}).p, 1) << "the same values";
  EXPECT_DOUBLE_EQ(mann_whitney({}, {1, 2, 3}).p, 1) << "no data, no evidence";
}

// A cell of a run, from its repetitions; its median is theirs, as the harness writes it.
CellResult cell(const std::vector<double>& repetitions) {
  return testing::measured_record({"naive", 0, 1000000, 1, repetitions});
}

// Two cells by compare_samples, as the history page's pairwise rule compares two runs of a series (compare
// itself judges runs on the noise model: tests below and tests/verdict_outputs_test.cpp).
using SampleOptions = ladder::CompareOptions;
ladder::CellComparison compare_cells(const CellResult& old_cell, const CellResult& new_cell,
                                     const SampleOptions& options) {
  return ladder::compare_samples(old_cell.median(), old_cell.repetition_seconds(), new_cell.median(),
                                 new_cell.repetition_seconds(), options);
}

std::vector<double> scaled(std::vector<double> values, double factor) {
  for (auto& value : values) value *= factor;
  return values;
}

// Ten repetitions, 1.00 s to 1.09 s: every change below moves each of them by the same factor.
const std::vector<double> ten = {1.00, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.07, 1.08, 1.09};

TEST(SampleComparison, SlowerAndFasterWhenSignificantAndLargeEnough) {
  const SampleOptions defaults;  // p < 0.05 and a change of 2 % or more
  const auto slower = compare_cells(cell(ten), cell(scaled(ten, 1.10)), defaults);
  EXPECT_NEAR(slower.ratio, 1.10, 1e-12);
  EXPECT_NEAR(slower.test.p, 2.0 / 184756, 1e-15) << "every new repetition above every old: 2 / C(20, 10)";
  EXPECT_EQ(slower.change, Change::slower);
  const auto faster = compare_cells(cell(ten), cell(scaled(ten, 0.90)), defaults);
  EXPECT_EQ(faster.change, Change::faster);
  EXPECT_FALSE(slower.too_few || faster.too_few);
}

TEST(SampleComparison, NoDifferenceWhenTheRepetitionsInterleave) {
  // Old at 1.00, 1.02, …; new at 1.01, 1.03, …: a 1 % shift the U test cannot tell from chance.
  std::vector<double> even, odd;
  for (int i = 0; i < 10; ++i) even.push_back(1.0 + 0.02 * i), odd.push_back(1.01 + 0.02 * i);
  const auto same = compare_cells(cell(even), cell(odd), {});
  EXPECT_GT(same.test.p, 0.05);
  EXPECT_EQ(same.change, Change::none);
}

TEST(SampleComparison, ASignificantChangeUnderMinChangeIsNotMeaningful) {
  // Ten repetitions within 0.9 ‰, then all ten new ones above them, by 1 %: significant, under the default 2
  // %.
  std::vector<double> tight;
  for (int i = 0; i < 10; ++i) tight.push_back(1.0 + 1e-4 * i);
  const auto small = compare_cells(cell(tight), cell(scaled(tight, 1.01)), {});
  EXPECT_LT(small.test.p, 0.05);
  EXPECT_EQ(small.change, Change::not_meaningful);
  SampleOptions finer;
  finer.min_change_percent = 0.5;
  EXPECT_EQ(compare_cells(cell(tight), cell(scaled(tight, 1.01)), finer).change, Change::slower);
  SampleOptions stricter;
  stricter.alpha = 1e-6;  // above 2 / C(20, 10) ≈ 1.1e-5: not significant at this level
  EXPECT_EQ(compare_cells(cell(ten), cell(scaled(ten, 1.10)), stricter).change, Change::none);
}

TEST(SampleComparison, FewerThanFiveRepetitionsOnASideAreTooFew) {
  // 3 against 3, every new one slower: the smallest p the test can give, 0.1, is not significant.
  const auto three = compare_cells(cell({1.0, 1.01, 1.02}), cell({2.0, 2.01, 2.02}), {});
  EXPECT_NEAR(three.test.p, 0.1, 1e-12);
  EXPECT_EQ(three.change, Change::none);
  EXPECT_TRUE(three.too_few);
  const std::vector<double> four = {1.0, 1.01, 1.02, 1.03}, five = {1.0, 1.01, 1.02, 1.03, 1.04};
  EXPECT_TRUE(compare_cells(cell(four), cell(scaled(ten, 2)), {}).too_few) << "4 old against 10 new";
  EXPECT_TRUE(compare_cells(cell(ten), cell(scaled(four, 2)), {}).too_few) << "10 old against 4 new";
  const auto enough = compare_cells(cell(five), cell(scaled(five, 2)), {});
  EXPECT_FALSE(enough.too_few);
  EXPECT_EQ(enough.change, Change::slower) << "5 against 5 apart: p = 2 / 252";
}

TEST(SampleComparison, FailAboveCountsOnlySignificantSlowdownsOverIt) {
  SampleOptions options;
  options.fail_above_percent = 5;
  const auto over = compare_cells(cell(ten), cell(scaled(ten, 1.10)), options);
  EXPECT_TRUE(over.over_fail_above);
  options.fail_above_percent = 20;
  EXPECT_FALSE(compare_cells(cell(ten), cell(scaled(ten, 1.10)), options).over_fail_above) << "10 % < 20 %";
  options.fail_above_percent = 5;
  EXPECT_FALSE(compare_cells(cell(ten), cell(scaled(ten, 0.5)), options).over_fail_above) << "faster";
  EXPECT_FALSE(compare_cells(cell({1.0, 1.01, 1.02}), cell({2.0, 2.01, 2.02}), options).over_fail_above)
      << "2× slower, but 3 against 3 is not significant";
}

TEST(CompareSummary, TheMeanOfTheRatiosIsGeometric) {
  EXPECT_NEAR(geometric_mean({2.0, 0.5}), 1.0, 1e-15) << "twice as slow and twice as fast: no change";
  EXPECT_NEAR(geometric_mean({2.0, 8.0}), 4.0, 1e-14);
  EXPECT_NEAR(geometric_mean({1.1, 1.1, 1.1}), 1.1, 1e-15);
  EXPECT_DOUBLE_EQ(geometric_mean({}), 1.0);
}

}  // namespace
}  // namespace ladder::report
