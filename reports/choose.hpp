// `ladder pick` and `ladder compare`: answers from results files, for people and for CI.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "decision.hpp"
#include "report.hpp"
#include "sample_comparison.hpp"

namespace ladder::report {

// compare's statistics, shared with the history (common/sample_comparison.hpp).
using ladder::CellComparison;
using ladder::Change;
using ladder::compare_samples;
using ladder::CompareOptions;
using ladder::mann_whitney;
using ladder::UTest;

struct PickConstraints {
  std::optional<double> max_cost, max_error;
  std::optional<int> threads;  // cores available: threads × ranks at most this
  std::optional<std::int64_t> n;
  std::vector<std::string> without;  // libraries the team will not take on (matched case-insensitively)
  bool include_peers = false;        // the Python peers may win too: staying in Python is an answer
  std::string integrand;             // answer for this integrand only; empty: for each in the file
  // The money and latency answer too (decision.hpp), from these figures and this use; with `json`, it
  // alone, as JSON, for the one integrand asked for (or the file's first).
  struct Money : MoneyInputs {
    bool json = false;
  };
  std::optional<Money> money;
};

// Prints the fastest tier that meets the constraints, why, and the runner-up, or, when none does, the
// constraint that rules out each tier. Returns 0 when a tier was found, 1 when none meets them. A file of
// several integrands is answered for each in turn (returning 1 when some has no tier), at the size the
// report's answer for each integrand shares, unless --integrand names one; a name the file does not hold
// is an InputError naming it and the integrands it holds.
int pick(const std::string& results, const PickConstraints& constraints);

// One cell in both runs: compare_samples on their medians and repetitions.
CellComparison compare_cells(const CellResult& old_cell, const CellResult& new_cell,
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
