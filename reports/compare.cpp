#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>

#include "choose.hpp"
#include "errors.hpp"
#include "report.hpp"
#include "scaling.hpp"
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

CellComparison compare_cells(const CellResult& old_cell, const CellResult& new_cell, const CompareOptions& options) {
  return compare_samples(old_cell.median(), old_cell.repetition_seconds(), new_cell.median(), new_cell.repetition_seconds(),
                         options);
}

std::string verdict(const CellComparison& comparison) {
  std::string text = comparison.change == Change::slower   ? "slower"
                     : comparison.change == Change::faster ? "faster"
                     : comparison.change == Change::not_meaningful
                         ? "no meaningful difference (significant, under --min-change)"
                         : "no significant difference";
  if (comparison.too_few) text += " (too few repetitions for the test)";
  if (comparison.over_fail_above) text += " — over --fail-above";
  return text;
}

double geometric_mean(const std::vector<double>& ratios) {
  if (ratios.empty()) return 1;
  double log_sum = 0;
  for (const double ratio : ratios) log_sum += std::log(ratio);
  return std::exp(log_sum / static_cast<double>(ratios.size()));
}

std::vector<std::string> placement_notes(const Run& before, const Run& after) {
  if (before.topology.has_value() != after.topology.has_value()) {
    const Run& unplaced = before.topology ? after : before;
    // Its cells have no placement either: a note for each would say the same again.
    return {std::string(before.topology ? "the new run" : "the old run") + " (" + unplaced.path +
            ") has no topology or placement recorded (written before Ladder pinned threads): a difference "
            "may be the placement, not the code"};
  }
  std::vector<std::string> notes;
  if (before.topology && before.topology->describe() != after.topology->describe())
    notes.push_back("the machines differ: " + before.topology->describe() + " against " +
                    after.topology->describe() + ": a difference may be the machine's shape, not the code");

  std::map<std::string, const CellResult*> old_cells;
  for (const auto& cell : before.cells)
    if (cell.ok()) old_cells[cell.name] = &cell;
  std::vector<std::string> moved;  // "name (old placement against new)"
  for (const auto& cell : after.cells) {
    if (!cell.ok() || !old_cells.count(cell.name)) continue;
    // Compared as worded: the same span on other hardware threads of one shape runs alike.
    const std::string old_place = placement_text(old_cells.at(cell.name)->placement);
    const std::string new_place = placement_text(cell.placement);
    if (old_place != new_place) moved.push_back(cell.name + " (" + old_place + " against " + new_place + ")");
  }
  constexpr std::size_t shown = 3;
  if (const std::size_t count = moved.size(); count > 0) {
    moved.resize(std::min(count, shown));
    notes.push_back(std::to_string(count) + (count == 1 ? " cell's" : " cells'") +
                    " threads were placed differently, old against new: " + join(moved, "; ") +
                    (count > shown ? "; and " + std::to_string(count - shown) + " more" : "") +
                    ": a difference there may be the placement, not the code");
  }
  return notes;
}

int compare(const std::string& old_results, const std::string& new_results, const CompareOptions& options) {
  const Run before = load_run(old_results);
  const Run after = load_run(new_results);
  if ((before.machine != after.machine || before.cpu != after.cpu) && !options.across_machines)
    throw InputError("'" + before.path + "' was measured on " + before.machine + " (" + before.cpu +
                     ") and '" + after.path + "' on " + after.machine + " (" + after.cpu +
                     "): a difference would be the machines'; give --across-machines to compare anyway");
  std::map<std::string, const CellResult*> old_cells;
  for (const auto& cell : before.cells)
    if (cell.ok()) old_cells[cell.name] = &cell;

  std::printf("old: %s (%s)\nnew: %s (%s)\n", before.path.c_str(), before.machine.c_str(), after.path.c_str(),
              after.machine.c_str());
  for (const auto& note : placement_notes(before, after)) std::printf("note: %s\n", note.c_str());
  std::printf("\n");
  std::printf("%-44s %11s %11s %8s %9s  %s\n", "cell", "old median", "new median", "new/old", "p", "verdict");
  std::vector<double> ratios;
  int slower = 0, faster = 0, too_few = 0;
  bool fail = false;
  for (const auto& cell : after.cells) {
    if (!cell.ok() || !old_cells.count(cell.name)) continue;
    const CellResult& old = *old_cells.at(cell.name);
    const CellComparison comparison = compare_cells(old, cell, options);
    slower += comparison.change == Change::slower;
    faster += comparison.change == Change::faster;
    too_few += comparison.too_few;
    fail = fail || comparison.over_fail_above;
    std::printf("%-44s %11s %11s %8.3f %9.2g  %s\n", cell.name.c_str(), format_seconds(old.median()).c_str(),
                format_seconds(cell.median()).c_str(), comparison.ratio, comparison.test.p,
                verdict(comparison).c_str());
    ratios.push_back(comparison.ratio);
  }
  if (ratios.empty()) {
    std::printf("no cell was measured in both runs\n");
    return options.fail_above_percent ? 1 : 0;
  }
  std::printf(
      "\n%zu cells in both: %d significantly faster, %d significantly slower (Mann–Whitney U, two-sided, "
      "p < %.2f, and a change of %g %% or more); geometric mean of new/old: %.3f\n",
      ratios.size(), faster, slower, options.alpha, options.min_change_percent, geometric_mean(ratios));
  if (too_few)
    std::printf(
        "warning: %d cells have fewer than 5 repetitions on a side; with 3 against 3 the smallest possible "
        "p is 0.1, so the test cannot find a difference: run with --reps 10 or more\n",
        too_few);
  return fail ? 1 : 0;
}

}  // namespace ladder::report
