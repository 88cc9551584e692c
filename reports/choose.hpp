// `ladder pick` and `ladder compare`: answers from results files, for people and for CI.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ladder::report {

struct PickConstraints {
  std::optional<double> max_cost, max_error;
  std::optional<int> threads;  // cores available: threads × ranks at most this
  std::optional<std::int64_t> n;
  std::vector<std::string> without;  // libraries the team will not take on (matched case-insensitively)
  bool include_peers = false;        // the Python peers may win too: staying in Python is an answer
};

// Prints the fastest tier that meets the constraints, why, and the runner-up, or, when none does, the
// constraint that rules out each tier. Returns 0 when a tier was found, 1 when none meets them.
int pick(const std::string& results, const PickConstraints& constraints);

struct CompareOptions {
  std::optional<double> fail_above_percent;
  bool across_machines = false;
  double alpha = 0.05;
  // A significant change smaller than this is not called faster or slower: with tight spreads the U test
  // finds a 0.5 % drift between two runs of the same build significant, and it means nothing.
  double min_change_percent = 2;
};

// Two-sided Mann–Whitney U test: the p-value that the two samples come from one distribution (exact for
// small samples without ties, the normal approximation with tie correction otherwise).
double mann_whitney_p(const std::vector<double>& x, const std::vector<double>& y);

// Prints, for each cell in both runs, the ratio of medians, the U test's p-value and a verdict; the
// geometric mean of the ratios. Returns 1 when --fail-above is given and some cell is significantly slower
// by more than it, else 0.
int compare(const std::string& old_results, const std::string& new_results, const CompareOptions& options);

}  // namespace ladder::report
