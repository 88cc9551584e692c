// `ladder pick` and `ladder compare`: answers from results files, for people and for CI.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "report.hpp"

namespace ladder::report {

struct PickConstraints {
  std::optional<double> max_cost, max_error;
  std::optional<int> threads;  // cores available: threads × ranks at most this
  std::optional<std::int64_t> n;
  std::vector<std::string> without;  // libraries the team will not take on (matched case-insensitively)
  bool include_peers = false;        // the Python peers may win too: staying in Python is an answer
  std::string integrand;             // answer for this integrand only; empty: for each in the file
};

// Prints the fastest tier that meets the constraints, why, and the runner-up, or, when none does, the
// constraint that rules out each tier. Returns 0 when a tier was found, 1 when none meets them. A file of
// several integrands is answered for each in turn (returning 1 when some has no tier), at the size the
// report's answer for each integrand shares, unless --integrand names one; a name the file does not hold
// is an InputError naming it and the integrands it holds.
int pick(const std::string& results, const PickConstraints& constraints);

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
CellComparison compare_cells(const CellResult& old_cell, const CellResult& new_cell, const CompareOptions& options);
// The same from the medians and repetitions alone (compare_cells is this on two cells; `ladder history`
// calls it on two runs of a series).
CellComparison compare_samples(double old_median, const std::vector<double>& old_repetitions,
                               double new_median, const std::vector<double>& new_repetitions,
                               const CompareOptions& options);
// The verdict column: "slower", "no significant difference (too few repetitions for the test)", …
std::string verdict(const CellComparison& comparison);

// The geometric mean of the ratios new/old (1 when there are none): a cell twice as fast and one twice as
// slow average to no change.
double geometric_mean(const std::vector<double>& ratios);

// What differs in where the two runs' threads ran, each a sentence for compare to print before its table:
// a run with no topology recorded (written before Ladder placed threads), two machines' shapes, cells whose
// threads were placed differently (old against new). Empty when both were placed alike.
std::vector<std::string> placement_notes(const Run& before, const Run& after);

// Prints, for each cell in both runs, the ratio of medians, the U test's p-value and a verdict; the
// geometric mean of the ratios; first, a note for each placement_notes. Returns 1 when --fail-above is given
// and some cell is significantly slower by more than it, else 0.
int compare(const std::string& old_results, const std::string& new_results, const CompareOptions& options);

}  // namespace ladder::report
