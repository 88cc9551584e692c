// The machine's run-to-run noise a cell, kept with the machine in the history store (schema version 5's
// noise_floors table): what two runs of the same code differ by on this machine, the default threshold of
// every verdict (common/noise/noise.hpp). Two figures answer it:
// - an A/A `ladder ab` (the same revision against itself), recorded here, one row a measurement: the
//   median of a cell's newest few is its figure; its pairs are adjacent processes;
// - the history's own runs of one clean commit (history_detect.hpp's same_commit_noise), computed when
//   asked, never stored: runs measured apart.
// One query, noise_of, gives a verdict the figure that describes what it compares (Compared).
// A database of schema version 4 or older, read without migrating it, has no recorded figures: only the
// history's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "history_store.hpp"

namespace ladder::history {

// A cell on one machine: a noise floor holds for any build of it.
struct NoiseKey : CellCoordinates {
  std::string machine;  // the machine's fingerprint (identity.hpp)
};

// One measurement of a cell's noise floor.
struct NoiseFigure {
  double percent = 0;  // noise_floor_percent of the same-code pairs
  int pairs = 0;       // the same-code pairs behind it
  // Where it came from, in words: "A/A `ladder ab` of 3f2a1b0c9d, 12 pairs, 2026-12-03", or "history: 10
  // runs of clean commit 3f2a1b0c9d".
  std::string source;
  std::string measured;  // when (UTC, ISO 8601): the newest recorded figure of a cell wins
  // The revisions an A/A ran (the same commit twice, as `ladder ab` resolved them); empty for a figure
  // computed from the history.
  std::string base{}, head{};
  // Which figure it is: true, a recorded A/A's (adjacent processes); false, the history's runs of one clean
  // commit (runs measured apart) or a caller's own.
  bool adjacent{};
};

// Records one measurement of the cell's noise floor on that machine, in one transaction. InputError for a
// percent that is negative, not a number or max_change_percent or more, or a database of an older schema
// opened for reading (open it for writing: that migrates it).
void record_noise(Store& store, const NoiseKey& key, const NoiseFigure& figure);

// The least percentage that is no threshold at all: `ladder ab`'s --min-change and --fail-above accept
// less, and a recorded noise floor at or above it (or not finite) is a damaged or edited
// database's, refused rather than taken (it would turn every verdict into "no change").
inline constexpr double max_change_percent = 1000;

// How many of a cell's newest A/A figures its recorded figure is the median of.
inline constexpr int recorded_noise_runs = 5;

// What a verdict compares, which decides the figure that describes its noise (noise_of). An A/A's adjacent
// processes understate how far runs measured apart move (A/A floors here 0.5-1 %, runs apart up to 56 %),
// and runs apart jump more than adjacent processes: so each comparison takes the figure of its own kind
// first.
enum class Compared {
  // Two runs measured apart (`ladder compare`): the history's figure alone; an A/A's is no floor for them.
  runs_apart,
  // A run's cells against each other (the report, `ladder run`'s report and `ladder pick`,
  // reports/analysis/run_noise.hpp): the history's figure, else the A/A's, better than another machine's
  // default (`adjacent` is set, for the caller to say that it understates).
  cells_of_one_run,
  // `ladder ab`'s pairs of adjacent processes: the A/A's figure (adjacent, as ab's pairs are), else the
  // history's (a larger, safe figure).
  adjacent_processes,
};

// The noise of the cell on that machine for a verdict comparing `compared`; nullopt: unknown.
// - The A/A figure: the median of the cell's newest recorded_noise_runs recorded figures (its pairs their
//   sum, its other fields the newest's); none when none is, or the database predates the table. InputError
//   (the database is damaged) for a figure that is not finite or is max_change_percent or more.
// - The history's figure: among the cell's series on that machine (each build apart, never mixed), the one
//   whose clean commit has the most runs (same_commit_noise); none under 6 runs of one commit.
// `ladder history check` applies the history's rule (same_commit_noise) to the one series it checks, which
// it holds already: history_detect.hpp's noise_floor_of.
std::optional<NoiseFigure> noise_of(const Store& store, const NoiseKey& key, Compared compared);

// The cell's medians in the history's runs of the same code, built the same way, on that machine: runs of
// the host `host` (key.machine is a kind of machine, which a fleet of identical hosts shares; another host's
// runs are no replicates of this one's) and the clean commit `commit` whose build fingerprint is `build`
// (build_fingerprint), in the series of the cell's build `cell_build` (empty in a run of one build), started
// at another time than `started` (the run asking, which the history may already hold), in seconds. Oldest
// first; empty when `commit` is empty or none is held. These are process-level replicates of one cell: pooled
// with the run's own median they decide as no run alone can (reports/analysis/run_noise.hpp).
std::vector<double> same_build_medians(const Store& store, const NoiseKey& key, const std::string& cell_build,
                                       const std::string& build, const std::string& commit,
                                       const std::string& started, const std::string& host);

}  // namespace ladder::history
