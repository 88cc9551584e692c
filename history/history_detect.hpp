// Change detection over a benchmark's history: pure functions on runs in memory, independent of how they
// are stored. One HistorySeries is one cell (tier × n × threads) on one machine and build configuration,
// its runs in commit order; the caller never mixes machines in one series, so runs on different machines
// are never compared.
//
// Detectors, each documented with its parameters (DetectOptions):
// - steps in time over the whole series: a piecewise-constant fit of the log of the medians with an L1
//   cost (optimal partitioning, every segment at least `min_segment_runs` runs, a penalty per change of
//   `penalty` × ln(runs) in units of the series' noise), then every step that does not exceed
//   max(`step_threshold_percent`, the noise of the segments on either side) is merged away, until all that
//   remain do. With two runs a segment at least, one outlier run never forms a level of its own: the L1
//   cost of a pair is the same whichever level it sits at. A slow drift comes out as a staircase: a change
//   each time the fitted level has moved by the threshold or more, so about one every
//   threshold / drift-per-run runs, each slower by the threshold or more (never a drift of its own kind).
// - instruction counts: deterministic, so no statistics: any change over `instructions_percent` between a
//   run and the previous run that has a count (a run without a count is skipped, never a change). FLOPs a
//   node, counted from the same callgrind runs, by the same rule (detect_flops_changes).
// history check (check_newest) judges time on the noise model of common/noise/noise.hpp instead: two runs are
// measured apart, so the newest run's ratio to the runs before it carries the machine's noise floor either
// side, and only an interval wholly beyond the threshold is slower. The repetitions inside a run are never
// taken for independent samples there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cell_coordinates.hpp"
#include "noise.hpp"

namespace ladder::history {

// One run of one cell, as the history store gives it.
struct CellRun {
  std::string run_id{};                 // the store's id for the run
  std::string time{};                   // when it ran, as recorded (ISO 8601 text sorts in time order)
  std::string commit{};                 // the Ladder checkout's commit
  bool dirty = false;                   // the checkout had uncommitted changes
  double median = 0, min = 0, max = 0;  // seconds
  std::vector<double> repetitions{};    // seconds, one per repetition
  std::optional<double> instructions_per_node{};
  std::optional<double> flops_per_node{};  // counted with the instructions; null when not
};

// One cell on one machine and build configuration, its runs oldest (earliest commit) first.
struct HistorySeries {
  std::string tier{};  // as the sentences name it: "simd", or "simd, gauss, 2 ranks, build gcc-native"
  std::int64_t n = 0;
  int threads = 1;
  std::string machine{};
  std::vector<CellRun> runs{};
  // The cell as the store keys it, for a verdict row's name: the tier's id (empty: `tier` is the id, as in
  // a series made in memory), the integrand (empty: not known), the ranks and the cell's build.
  std::string tier_id{}, integrand{};
  int ranks = 1;
  std::string cell_build{};

  // The cell's coordinates as the store keys them (its tier's id), to name it in a verdict row.
  CellCoordinates coordinates() const {
    return {tier_id.empty() ? tier : tier_id, integrand, n, threads, ranks};
  }
};

struct DetectOptions {
  // The threshold in per cent (--min-change): history check calls a change slower only when its interval
  // lies wholly above it. Unset: the cell's noise floor on this machine (noise_floor_of).
  std::optional<double> min_change_percent{};
  // Steps over the series: a step is reported when the new level differs from the old by more than this
  // and more than the noise of the segments on either side (their mean absolute deviation from their
  // median); asv's default threshold is 5 % as well.
  double step_threshold_percent = 5;
  // The fewest runs a level spans: 2, so a single outlier run is never a change.
  int min_segment_runs = 2;
  // The cost of one more change, × ln(runs), in units of the series' noise (a robust estimate from the
  // differences of consecutive runs); larger finds fewer steps.
  double penalty = 2;
  // Instruction counts per node (and FLOPs per node): a change over this between consecutive runs that have
  // one.
  double instructions_percent = 0.5;
  // history check (--fail-above): a slower verdict fails the check only when the change is also larger than
  // this; unset, every slower verdict fails it (the threshold already holds the machine's noise).
  std::optional<double> fail_above_percent{};
  // The baseline of history check: the medians of the last this-many runs before the newest one, or
  // before the level it belongs to when a step starts within that many runs of the end.
  int baseline_runs = 5;
};

// InputError naming the first parameter out of range and what is accepted: the percentages
// (those given) and the penalty ≥ 0, min_segment_runs and baseline_runs ≥ 1. Every function below calls it.
void validate(const DetectOptions& options);

enum class ChangeKind { time, instructions, flops };

// A change found in a series: the run where the new level starts, the levels on either side (the segments'
// medians for time, the two counts for instructions) and their ratio.
struct DetectedChange {
  ChangeKind kind = ChangeKind::time;
  std::size_t index = 0;  // of the first run at the new level, in HistorySeries::runs
  std::string run_id{}, commit{}, time{};
  double before = 0, after = 0;             // seconds (time), instructions or FLOPs per node
  double ratio = 1;                         // after / before
  bool worse() const { return ratio > 1; }  // slower, or more instructions or FLOPs
};
// "slower", "faster", "more instructions", "fewer instructions", "more FLOPs", "fewer FLOPs".
std::string direction(const DetectedChange& change);

// The steps in time over the whole series, oldest first (see the top of this file).
std::vector<DetectedChange> detect_steps(const HistorySeries& series, const DetectOptions& options = {});
// The changes of the instruction count per node, oldest first.
std::vector<DetectedChange> detect_instruction_changes(const HistorySeries& series,
                                                       const DetectOptions& options = {});
// The changes of the FLOPs per node, oldest first: a change in the work the code does.
std::vector<DetectedChange> detect_flops_changes(const HistorySeries& series,
                                                 const DetectOptions& options = {});
// Time, instructions and FLOPs, ordered by the run where they start (in that order at the same run).
std::vector<DetectedChange> detect_changes(const HistorySeries& series, const DetectOptions& options = {});

// The noise of the series' own runs of one clean commit: the commit (known, no uncommitted changes) with
// the most runs (the newest such commit on a tie), the log ratios of its consecutive runs' medians in time
// order, and noise_floor_percent of them. nullopt under 6 runs of one commit (5 pairs).
struct SameCommitNoise {
  double percent = 0;
  int runs = 0;
  std::string commit{};
  std::string newest{};  // the time of its newest run
};
std::optional<SameCommitNoise> same_commit_noise(const HistorySeries& series);
std::optional<double> same_commit_noise_percent(const HistorySeries& series);

// The cell's noise floor on this machine as history check takes it, with where it came from: the series'
// own runs of one clean commit (same_commit_noise: two runs measured apart, as the check's are), else the
// documented default (default_threshold(): not this machine's). An A/A `ladder ab` figure is not taken:
// adjacent processes understate how far runs measured apart move.
Threshold noise_floor_of(const HistorySeries& series);

// What history check found for one series: why its newest run fails, one sentence a reason naming the
// tier, n, threads, commit and figures (empty when it passes), and its verdict row (none with one run).
struct NewestCheck {
  std::vector<std::string> reasons{};
  std::optional<VerdictRow> row{};
};
// history check, for CI. The newest run's median is judged against the previous run's, and against the
// baseline: the median of the medians of the `baseline_runs` runs before it; when a slower step
// (detect_steps) starts within the last `baseline_runs` runs, the runs before that step instead, so a
// regression two runs old still fails. Each is judge(apart_interval(ratio, floor), threshold), floor
// noise_floor_of(series), threshold --min-change or else that floor; it fails when the verdict is slower
// and (with --fail-above) the change is larger than fail_above_percent. It fails too when its instruction
// count per node, or its FLOPs per node, is more than `instructions_percent` above the previous count.
// The row is the newest against the baseline, or against the previous run where only that fails.
NewestCheck check_newest_run(const HistorySeries& series, const DetectOptions& options = {});
// check_newest_run's reasons.
std::vector<std::string> check_newest(const HistorySeries& series, const DetectOptions& options = {});

// "tier 'simd' at n = 1e8, 2 threads on 'host'": how the sentences name a series.
std::string describe(const HistorySeries& series);

}  // namespace ladder::history
