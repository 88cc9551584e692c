#include "sample_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

namespace ladder {
namespace {

// P(U ≤ u) for samples of m and n without ties: the number of orderings giving each U, by recursion on
// which sample holds the largest value.
double exact_cdf(int u, int m, int n) {
  // table[i][j][v]: the orderings of i values of x and j of y giving U = v.
  const int most = m * n;
  std::vector<std::vector<std::vector<double>>> table(
      static_cast<std::size_t>(m + 1), std::vector<std::vector<double>>(static_cast<std::size_t>(n + 1)));
  for (int i = 0; i <= m; ++i)
    for (int j = 0; j <= n; ++j) {
      auto& here = table[i][j];
      here.assign(static_cast<std::size_t>(i * j + 1), 0.0);
      if (i == 0 || j == 0) {
        here[0] = 1;
        continue;
      }
      // The largest value is from x (adds j to U) or from y (adds nothing).
      for (int v = 0; v <= i * j; ++v) {
        if (v - j >= 0 && v - j <= (i - 1) * j) here[v] += table[i - 1][j][v - j];
        if (v <= i * (j - 1)) here[v] += table[i][j - 1][v];
      }
    }
  const auto& all = table[m][n];
  const double total = std::accumulate(all.begin(), all.end(), 0.0);
  double below = 0;
  for (int v = 0; v <= std::min(u, most); ++v) below += all[v];
  return below / total;
}

}  // namespace

UTest mann_whitney(const std::vector<double>& x, const std::vector<double>& y) {
  const auto m = static_cast<int>(x.size()), n = static_cast<int>(y.size());
  if (m == 0 || n == 0) return {};
  // Ranks of the pooled sample, ties sharing the mean rank.
  std::vector<std::pair<double, int>> pooled;
  for (double v : x) pooled.push_back({v, 0});
  for (double v : y) pooled.push_back({v, 1});
  std::sort(pooled.begin(), pooled.end());
  double rank_sum_x = 0, tie_term = 0;
  bool ties = false;
  for (std::size_t i = 0; i < pooled.size();) {
    std::size_t j = i;
    while (j < pooled.size() && pooled[j].first == pooled[i].first) ++j;
    const double rank = (static_cast<double>(i + j) + 1) / 2;
    const double count = static_cast<double>(j - i);
    if (count > 1) ties = true, tie_term += count * count * count - count;
    for (std::size_t k = i; k < j; ++k)
      if (pooled[k].second == 0) rank_sum_x += rank;
    i = j;
  }
  UTest test;
  test.u = rank_sum_x - m * (m + 1) / 2.0;
  if (!ties && m + n <= 40) {
    const int low = static_cast<int>(std::floor(std::min(test.u, m * n - test.u)));
    test.p = std::min(1.0, 2 * exact_cdf(low, m, n));
    return test;
  }
  const double total = m + n;
  const double mean = m * n / 2.0;
  const double variance = m * n / 12.0 * ((total + 1) - tie_term / (total * (total - 1)));
  if (variance <= 0) return test;
  const double z = (std::fabs(test.u - mean) - 0.5) / std::sqrt(variance);
  test.p = std::min(1.0, std::erfc(std::max(0.0, z) / std::sqrt(2.0)));
  return test;
}

CellComparison compare_samples(double old_median, const std::vector<double>& old_repetitions,
                               double new_median, const std::vector<double>& new_repetitions,
                               const CompareOptions& options) {
  CellComparison comparison;
  comparison.ratio = new_median / old_median;
  comparison.test = mann_whitney(old_repetitions, new_repetitions);
  const bool significant = comparison.test.p < options.alpha;
  if (significant)
    comparison.change = std::fabs(comparison.ratio - 1) * 100 < options.min_change_percent
                            ? Change::not_meaningful
                        : comparison.ratio > 1 ? Change::slower
                                               : Change::faster;
  comparison.too_few = std::min(old_repetitions.size(), new_repetitions.size()) < 5;
  comparison.over_fail_above = comparison.change == Change::slower && options.fail_above_percent &&
                               (comparison.ratio - 1) * 100 > *options.fail_above_percent;
  return comparison;
}

}  // namespace ladder
