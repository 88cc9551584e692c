// What a run will cost before it runs (`ladder plan`, and `ladder run`'s estimate and ETA): every cell
// with its predicted wall time, the run's wall time in parts, its peak memory; and --budget, which cuts a
// matrix until its estimate fits a duration, saying what it dropped and why.
//
// A cell's time is the calibration's (calibration.hpp: each tier with each integrand once at a small n on
// 1 thread) scaled by n and ideal threading (a parallel tier's call takes 1/threads of the serial one), put
// through Google Benchmark's warm-up, iteration sizing and repetitions (cell_parts), plus the worker's own
// cost. A cell an earlier run measured here, with the same repetitions and minimum times, takes what it
// took then.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "calibration.hpp"
#include "matrix.hpp"
#include "run_request.hpp"
#include "topology.hpp"

namespace ladder {

// Why a cell is not attempted (its tier cannot run here, or cannot run its integrand, it would not fit in
// `available` bytes of memory, a pure-Python peer would take minutes), or {ok, ""} when it is.
std::pair<CellStatus, std::string> not_attempted(const CellKey& cell, const Matrix& matrix, double available);

// What the estimate needs besides the matrix and the calibration.
struct PlanSettings {
  bool instructions = true;     // counted under callgrind before the cells (and possible in this build)
  int parallel = 1;             // hardware threads the instruction counting shares out its tiers to
  double available_memory = 0;  // bytes; 0 when unknown (nothing is skipped for memory)
  // Planning for a machine that is only described (HWLOC_SYNTHETIC, HWLOC_XMLFILE): earlier runs here say
  // nothing about its cells, and which tiers can run and what fits in memory are this machine's.
  bool described = false;
  double limits_seconds = 0;  // the machine's limits, measured before the first cell and after the last
  int remeasure = 0;          // --remeasure: the tries a disturbed cell gets at the end (remeasure.hpp)
};
// For `args` on a machine of this topology: its --no-instructions, the profiling build's availability and
// whether the matrix's counts are kept from an earlier run, the topology's hardware threads, this machine's
// available memory.
PlanSettings plan_settings(const RunRequest& args, const Topology& topology, const Matrix& matrix);

struct PlannedCell {
  CellKey cell;
  std::string name;
  CellStatus status = CellStatus::ok;
  std::string reason;  // why it is not attempted
  CellParts parts;
  double seconds = 0;
  std::string source;     // "calibration", "an earlier run here", "not calibrated: …"
  double peak_bytes = 0;  // the worker's resident set: its base, plus the card's bytes a node × n
};

// The part of the estimate that measures disturbed cells again (PlanSettings::remeasure).
inline constexpr const char* remeasure_part = "measuring disturbed cells again";

struct Estimate {
  std::vector<PlannedCell> cells;  // in the matrix's order of tiers, integrands, sizes, threads
  std::vector<std::pair<std::string, double>> parts;  // the run's wall time, part by part
  double seconds = 0;
  double peak_bytes = 0;
  std::vector<std::string> notes;  // what the estimate assumed
};

// The estimate for `cells` (a matrix's, or what is left of it on --resume).
Estimate estimate(const Matrix& matrix, const std::vector<CellKey>& cells, const Calibration& calibration,
                  const PlanSettings& settings);
inline Estimate estimate(const Matrix& matrix, const Calibration& calibration, const PlanSettings& settings) {
  return estimate(matrix, matrix.cells(), calibration, settings);
}
// "about 1:52 (instruction counting 20 s, process starts and warm-up 30 s, …); peak memory about 812 MiB"
std::string describe(const Estimate& estimate);
nlohmann::json to_json(const Estimate& estimate);

// The thread counts of a matrix, each with why it is there: the topology's ladder's reasons, or "given
// with --threads".
std::vector<ThreadStep> thread_reasons(const Matrix& matrix, const Topology& topology, bool given);

// --budget. The floor the repetitions and minimum time come down to before anything is dropped
// (README: "A time budget").
struct BudgetFloor {
  static constexpr int repetitions = 3;
  static constexpr double min_time = 0.01, min_warmup_time = 0.005;
};
// The estimate is fitted to this share of the budget: the rest is kept for the estimate's own error.
constexpr double budget_share = 0.9;

struct Budgeted {
  double budget_seconds = 0;
  std::string budget_text;           // as typed
  double unbudgeted_seconds = 0;     // the matrix's estimate before fitting
  Matrix matrix;                     // fitted
  Estimate estimate;                 // of the fitted matrix
  std::vector<std::string> dropped;  // what was cut, in order, each with why; empty when it fitted
  BudgetRecord record() const;       // as the run's record carries it
};

// Fits `matrix` to the budget: first fewer repetitions and a shorter minimum time down to the floor, then
// the intermediate thread counts (the powers of two first, then the topology's steps, largest first; 1 and
// the most are kept), then the largest sizes (the smallest is kept), and last one repetition. Throws
// InputError when even one repetition of each tier at the smallest size does not fit, naming the minimum.
Budgeted fit_budget(const Matrix& matrix, const Budget& budget, const Calibration& calibration,
                    const PlanSettings& settings, const std::vector<ThreadStep>& threads);

// A new run's matrix as `ladder run` and `ladder plan` both make it: the calibration measures what it
// lacks, and the matrix is fitted to the budget when one is given (InputError when it is too small). Returns
// the fit, or nullopt without a budget.
std::optional<Budgeted> calibrate_and_fit(Matrix& matrix, const RunRequest& args, const Topology& topology,
                                          Calibration& calibration, const std::string& executable);

// Everything `ladder plan` shows, made as `ladder run` would make its matrix: the topology (read_topology:
// HWLOC_SYNTHETIC and HWLOC_XMLFILE describe another machine), the matrix, the reasons for its thread
// counts, the calibration (measured first where it lacks a tier) and the estimate, fitted to --budget
// when given.
struct Plan {
  Topology topology;
  Matrix matrix;
  std::vector<ThreadStep> threads;
  Estimate estimate;
  std::optional<Budgeted> budget;
  nlohmann::json to_json() const;
  std::string text() const;
};
Plan make_plan(const RunRequest& args, const std::string& executable);

}  // namespace ladder
