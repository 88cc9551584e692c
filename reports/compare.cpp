#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>

#include "choose.hpp"
#include "errors.hpp"
#include "report.hpp"
#include "text.hpp"

namespace ladder::report {
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

double mann_whitney_p(const std::vector<double>& x, const std::vector<double>& y) {
  const auto m = static_cast<int>(x.size()), n = static_cast<int>(y.size());
  if (m == 0 || n == 0) return 1;
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
  const double u = rank_sum_x - m * (m + 1) / 2.0;
  if (!ties && m + n <= 40) {
    const int low = static_cast<int>(std::floor(std::min(u, m * n - u)));
    return std::min(1.0, 2 * exact_cdf(low, m, n));
  }
  const double total = m + n;
  const double mean = m * n / 2.0;
  const double variance = m * n / 12.0 * ((total + 1) - tie_term / (total * (total - 1)));
  if (variance <= 0) return 1;
  const double z = (std::fabs(u - mean) - 0.5) / std::sqrt(variance);
  return std::min(1.0, std::erfc(std::max(0.0, z) / std::sqrt(2.0)));
}

int compare(const std::string& old_results, const std::string& new_results, const CompareOptions& options) {
  const Run before = load_run(old_results);
  const Run after = load_run(new_results);
  if ((before.machine != after.machine || before.cpu != after.cpu) && !options.across_machines)
    throw InputError("'" + before.path + "' was measured on " + before.machine + " (" + before.cpu +
                     ") and '" + after.path + "' on " + after.machine + " (" + after.cpu +
                     "): a difference would be the machines'; give --across-machines to compare anyway");
  std::map<std::string, const Cell*> old_cells;
  for (const auto& cell : before.cells)
    if (cell.ok()) old_cells[cell.name] = &cell;

  std::printf("old: %s (%s)\nnew: %s (%s)\n\n", before.path.c_str(), before.machine.c_str(),
              after.path.c_str(), after.machine.c_str());
  std::printf("%-44s %11s %11s %8s %9s  %s\n", "cell", "old median", "new median", "new/old", "p", "verdict");
  double log_sum = 0;
  int compared = 0, slower = 0, faster = 0, too_few = 0;
  bool fail = false;
  for (const auto& cell : after.cells) {
    if (!cell.ok() || !old_cells.count(cell.name)) continue;
    const Cell& old = *old_cells.at(cell.name);
    const double ratio = cell.median / old.median;
    const double p = mann_whitney_p(old.repetitions, cell.repetitions);
    const bool significant = p < options.alpha && std::fabs(ratio - 1) * 100 >= options.min_change_percent;
    std::string verdict = "no significant difference";
    if (significant) verdict = ratio > 1 ? "slower" : "faster";
    if (p < options.alpha && !significant)
      verdict = "no meaningful difference (significant, under --min-change)";
    if (std::min(old.repetitions.size(), cell.repetitions.size()) < 5) {
      verdict += " (too few repetitions for the test)";
      ++too_few;
    }
    if (significant && ratio > 1) ++slower;
    if (significant && ratio < 1) ++faster;
    if (significant && options.fail_above_percent && (ratio - 1) * 100 > *options.fail_above_percent) {
      fail = true;
      verdict += " — over --fail-above";
    }
    std::printf("%-44s %11s %11s %8.3f %9.2g  %s\n", cell.name.c_str(), format_seconds(old.median).c_str(),
                format_seconds(cell.median).c_str(), ratio, p, verdict.c_str());
    log_sum += std::log(ratio);
    ++compared;
  }
  if (compared == 0) {
    std::printf("no cell was measured in both runs\n");
    return options.fail_above_percent ? 1 : 0;
  }
  std::printf(
      "\n%d cells in both: %d significantly faster, %d significantly slower (Mann–Whitney U, two-sided, "
      "p < %.2f, and a change of %g %% or more); geometric mean of new/old: %.3f\n",
      compared, faster, slower, options.alpha, options.min_change_percent, std::exp(log_sum / compared));
  if (too_few)
    std::printf(
        "warning: %d cells have fewer than 5 repetitions on a side; with 3 against 3 the smallest possible "
        "p is 0.1, so the test cannot find a difference: run with --reps 10 or more\n",
        too_few);
  return fail ? 1 : 0;
}

}  // namespace ladder::report
