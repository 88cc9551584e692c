// The machine's run-to-run noise a cell, kept with the machine in the history store (schema version 5's
// noise_floors table): what two runs of the same code differ by on this machine, the default threshold of
// every verdict (common/noise.hpp). Two sources give it:
// - an A/A `ladder ab` (the same revision against itself), recorded here, one row a measurement: the
//   newest row of a cell is its figure;
// - the history's own runs of one clean commit (history_detect.hpp's same_commit_noise), computed when
//   asked, never stored.
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
};

// Records one measurement of the cell's noise floor on that machine, in one transaction. InputError for a
// percent that is negative, not a number or max_change_percent or more, or a database of an older schema
// opened for reading (open it for writing: that migrates it).
void record_noise(Store& store, const NoiseKey& key, const NoiseFigure& figure);

// The least percentage that is no threshold at all: `ladder ab`'s --min-change and --fail-above accept
// less, and a recorded noise floor at or above it (or not finite) is a damaged or edited
// database's, refused rather than taken (it would turn every verdict into "no change").
inline constexpr double max_change_percent = 1000;

// How many of a cell's newest A/A figures recorded_noise takes the median of.
inline constexpr int recorded_noise_runs = 5;
// The cell's recorded figure: the median of its newest recorded_noise_runs A/A figures (its pairs their
// sum, its other fields the newest's); nullopt when none is, or the database predates the table. InputError
// (the database is damaged) for a figure that is not finite or is max_change_percent or more.
std::optional<NoiseFigure> recorded_noise(const Store& store, const NoiseKey& key);
// The cell's figure from the history's runs of one clean commit: among its series on that machine (each
// build apart, never mixed), the one whose clean commit has the most runs (same_commit_noise); nullopt
// under 6 runs of one commit.
std::optional<NoiseFigure> history_noise(const Store& store, const NoiseKey& key);

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

// `ladder ab`'s floor for the cell on that machine: the recorded A/A figure (adjacent processes, as ab's
// pairs are), else the history's (runs apart jump more: a larger, safe figure); nullopt: unknown. compare
// and history check take history_noise alone: an A/A's adjacent processes understate how far runs measured
// apart move (A/A floors here 0.5-1 %, runs apart up to 56 %), so an A/A figure is no floor for them.
std::optional<NoiseFigure> ab_noise_floor(const Store& store, const NoiseKey& key);

}  // namespace ladder::history
