// Two samples of timings compared, by `ladder compare` (reports/) and by the history's change detection
// (history/): the Mann–Whitney U test on the repetitions, the ratio of the medians, and what the two call a
// change.
#pragma once

#include <optional>
#include <vector>

namespace ladder {

struct CompareOptions {
  std::optional<double> fail_above_percent;
  bool across_machines = false;
  double alpha = 0.05;
  // A significant change smaller than this is not called faster or slower: with tight spreads the U test
  // finds a 0.5 % drift between two runs of the same build significant, and it means nothing.
  double min_change_percent = 2;
};

// The two-sided Mann–Whitney U test of x against y (exact for small samples without ties, the normal
// approximation with continuity and tie correction otherwise). u is the statistic for x: the pairs
// (x_i, y_j) with x_i > y_j, a tie counting a half, as scipy.stats.mannwhitneyu reports it; p, the
// probability of a U as far from m·n/2 when both samples come from one distribution.
struct UTest {
  double u = 0, p = 1;
};
UTest mann_whitney(const std::vector<double>& x, const std::vector<double>& y);

// One cell in both runs: the ratio of medians, the U test on the repetitions, and what compare calls it.
enum class Change {
  none,            // no significant difference
  not_meaningful,  // significant, but under --min-change
  faster,
  slower
};
struct CellComparison {
  double ratio = 1;  // new median / old median
  UTest test;
  Change change = Change::none;
  bool too_few = false;          // under 5 repetitions on a side: the test cannot find a difference
  bool over_fail_above = false;  // significantly slower by more than --fail-above
};
// The same from the medians and repetitions alone (reports' compare_cells is this on two cells;
// the history calls it on two runs of a series).
CellComparison compare_samples(double old_median, const std::vector<double>& old_repetitions,
                               double new_median, const std::vector<double>& new_repetitions,
                               const CompareOptions& options);

}  // namespace ladder
