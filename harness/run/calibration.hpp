// What a cell costs on this machine, for `ladder plan`'s estimate and `ladder run --budget`: a short
// calibration (each tier twice at a small n, the faster kept on 1 thread, in a worker process as `ladder run`
// starts it, a few seconds in all) and the wall time of every cell an earlier run measured here. Kept in a
// cache file per build and machine, in $LADDER_CACHE_DIR, else $XDG_CACHE_HOME/ladder, else ~/.cache/ladder.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "matrix.hpp"

namespace ladder {

struct Calibration {
  // One tier with one integrand ("tier/integrand"), on 1 thread: the seconds a node of one call (from
  // Google Benchmark's timed repetition at the calibration's n), and the seconds a worker costs beyond
  // its calls and minimum times (process start and exit, a launcher or an interpreter, the counters).
  struct TierCost {
    double seconds_per_node = 0;
    double worker_seconds = 0;
    double peak_rss_bytes = 0;  // the worker's resident set at the calibration's n: its base
  };
  std::map<std::string, TierCost> tiers;
  // The tiers whose calibration worker failed (crashed, timed out, …), with why: not tried again.
  std::map<std::string, std::string> failed;
  // The long double midpoint sum of the reference (n ≤ 2^22; above, Euler–Maclaurin costs nothing), a
  // node, by integrand: a user integrand's reference may cost far more than gauss's.
  std::map<std::string, double> reference_seconds_per_node;
  // Instruction counting under callgrind, a tier, as a run here last took it (wall × parallel ÷ tiers);
  // none before a run has counted here.
  std::optional<double> instructions_seconds_per_tier;
  // The runner's own time a cell (results rewritten, the journal), as the last run here of at least 8
  // cells took it; none before such a run.
  std::optional<double> runner_seconds_per_cell;
  // Earlier runs here: a cell's worker wall time, by cell_key().
  std::map<std::string, double> cells;

  nlohmann::json to_json() const;
  static Calibration from_json(const nlohmann::json& in);  // what it cannot read, it leaves out
};

// A cell's wall time, in parts, from the seconds of one call. Google Benchmark warms up for the minimum
// warm-up time (at least one call), sizes the iterations once (the last sizing run is the first repetition;
// the ones before it cost about half the minimum time), then runs each repetition for the whole calls
// that make 1.4 × the minimum time (its own target), or one call when that is longer. The worker then makes
// two more calls: the memory pass and the hardware counters.
struct CellParts {
  double start = 0;   // the worker: process start and exit, launcher, interpreter
  double warmup = 0;  // warm-up and iteration sizing
  double timed = 0;   // the timed repetitions
  double passes = 0;  // the memory pass and the counters' call
  double total() const { return start + warmup + timed + passes; }
};
// rounds: the worker processes a cell (rounds.hpp), each started and warmed up, the repetitions shared.
CellParts cell_parts(double call_seconds, int repetitions, double min_time, double min_warmup_time,
                     double worker_seconds, int rounds = 1);

// The calibration's size and settings: one repetition of at least 10 ms.
constexpr std::int64_t calibration_n = 100'000;

// "tier/integrand", the key of Calibration::tiers.
std::string tier_key(const std::string& tier, const std::string& integrand);
// A cell with the settings that decide its wall time: its name, repetitions, minimum and warm-up times.
std::string cell_key(const CellKey& cell, const Matrix& matrix);

// The cache directory, and this build's and machine's file in it (keyed by the binary at `executable`,
// its version, compiler and flags, the host name and the CPU model).
std::string cache_directory();
std::string cache_file(const std::string& executable);
// The machine, as the cache files are keyed by it: the host name, the CPU model and the CPUs online.
std::string machine_identity();

// The cached calibration, or an empty one when there is none (or it cannot be read).
Calibration load_calibration(const std::string& executable);
// Writes it atomically; a cache that cannot be written is no error (returns false).
bool save_calibration(const std::string& executable, const Calibration& calibration);

// The tiers (of `tiers`, with `integrand`) the calibration lacks and that can run here and run it.
std::vector<std::string> uncalibrated(const Calibration& calibration, const std::vector<std::string>& tiers,
                                      const std::string& integrand);
// Measures those tiers with each of `integrands`, each pair in two workers of `executable` (the faster
// kept) at calibration_n on 1 thread (stopped after `timeout` seconds, or at 2 GiB), and each integrand's
// reference, then saves the calibration. Prints one line (to stderr) while it works. A pair whose worker
// fails, or whose integrand has no reference, goes into `failed`.
void calibrate(const std::string& executable, Calibration& calibration, const std::vector<std::string>& tiers,
               const std::vector<std::string>& integrands, double timeout = 10);

// A finished cell's worker wall time, and the instruction counting's, into the cache (the plan prefers
// them). Never throws.
void record_cell(const std::string& executable, const CellKey& cell, const Matrix& matrix,
                 double wall_seconds);
void record_instructions(const std::string& executable, std::size_t tiers, int parallel, double wall_seconds);
void record_runner(const std::string& executable, double seconds_per_cell);

}  // namespace ladder
