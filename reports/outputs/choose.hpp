// `ladder pick` and `ladder compare`: answers from results files, for people and for CI.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "decision.hpp"
#include "report.hpp"
#include "verdict_outputs.hpp"

namespace ladder::report {

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
  // The history database that knows this machine's noise (--history; run_noise.hpp); unset:
  // history::database_path's default. A database that does not exist knows nothing: the default figure.
  std::optional<std::string> history;
};

// Prints the fastest tier that meets the constraints, why, and the runner-up, or, when none does, the
// constraint that rules out each tier. Returns 0 when a tier was found, 1 when none meets them. A file of
// several integrands is answered for each in turn (returning 1 when some has no tier), at the size the
// report's answer for each integrand shares, unless --integrand names one; a name the file does not hold
// is an InputError naming it and the integrands it holds.
int pick(const std::string& results, const PickConstraints& constraints);
// `ladder pick` of an emulated run (emulated.cpp): no pick, the sentence why, each cell's error against the
// references and each tier's vectorization, in words or (json) as JSON with a null answer. Returns 1.
int pick_emulated(const Run& run, bool json);

// The report's answer as `ladder pick --json` carries it (its "answer"): the size, the tier recommended and
// why; how the fastest within the noise and the likely current rung (`current`, when the team named it) were
// decided (the tie, its break, the disturbed rows kept out, or why it could not be decided); and each row's
// interval (median, low and high in seconds a call, the noise it was widened by and where that came from).
nlohmann::json answer_json(const Analysis& analysis, const std::string& current = "");

// The geometric mean of the ratios new/old (1 when there are none): a cell twice as fast and one twice as
// slow average to no change.
double geometric_mean(const std::vector<double>& ratios);

// What differs in where the two runs' threads ran, each a sentence for compare to print before its table:
// a run with no topology recorded (written before Ladder placed threads), two machines' shapes, cells whose
// threads were placed differently (old against new). Empty when both were placed alike.
std::vector<std::string> placement_notes(const Run& before, const Run& after);

// `ladder compare`'s options.
struct CompareOptions {
  // The threshold in per cent (--min-change); unset: each cell's noise floor on this machine.
  std::optional<double> min_change_percent;
  bool across_machines = false;
  // The history database that knows this machine's noise (--history); unset: history::database_path's
  // default. A database that does not exist knows nothing: every cell's noise is then unknown.
  std::optional<std::string> history;
  VerdictOutputs outputs;  // --summary, --bmf, --annotations and --fail-above
};

// Two runs measured apart, cell by cell, on the noise model (common/noise/noise.hpp): for each cell in both,
// the ratio new/old, its interval the machine's noise floor either side (apart_interval) where the history
// knows the cell's floor on this machine, and the verdict judge() gives it against --min-change or else that
// floor. A cell whose floor is unknown gets no verdict, and the output says once why and what answers it
// (`ladder ab`): within-run repetitions are not independent samples, so they never make a verdict. First, a
// note for each placement_notes; last, the count of each verdict and the geometric mean of new/old. Writes
// what options.outputs asks for. Returns 1 when some cell fails the gate (fails_gate: slower, and by more
// than --fail-above when given), or when --fail-above is given and no cell is in both runs; else 0.
int compare(const std::string& old_results, const std::string& new_results, const CompareOptions& options);

}  // namespace ladder::report
