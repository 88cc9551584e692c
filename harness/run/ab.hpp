// `ladder ab`'s measurement: each cell of the matrix measured in the two versions' worker processes, one
// after the other in time, in ABBA order (A B, B A, A B, …), so that what drifts on the machine hits both
// alike. A pair of processes adjacent in time gives one log ratio head/base of their medians (a few
// repetitions each). The unit of evidence is two adjacent pairs, A B then B A: the mean of their two log
// ratios (balanced_log_ratios). A position effect, the first process of a pair slower than the second,
// enters the two with opposite signs and cancels, as does a linear drift; on this 2-vCPU VM one came and
// went, ±8 % for minutes (2026-12-07), and alone it made the pairs' ratios two heaps 16 % apart, the
// interval wide at 100 pairs and the A/A floors 17-30 %. These units give the interval (common/noise/
// noise.hpp). A cell stops as soon as its verdict is clear (after the fewest pairs an interval needs), or
// when its share of the budget is spent, or at the most pairs.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "matrix.hpp"
#include "noise.hpp"

namespace ladder {

// The order of pair `index` (from 0): base first in the even pairs, head first in the odd ones, so the
// processes run A B B A A B B A …
bool base_runs_first(int index);

// The fewest pairs a verdict needs: two a unit of evidence, and interval_min_pairs units. An A/A run (one
// revision against itself, measuring the noise floor) runs this many.
inline constexpr int ab_min_pairs = 2 * interval_min_pairs;

struct AbSettings {
  Matrix matrix;  // its cells; repetitions and min_time are a process's
  int min_pairs = ab_min_pairs;
  int max_pairs = 40;
  // Run every cell to this many pairs even when decided (an A/A run measuring the noise floor); 0: none.
  int fixed_pairs = 0;
  double budget_seconds = 600;   // for all the cells; a cell's share is what is left over the cells left
  double process_timeout = 120;  // seconds a worker process may take
  std::function<Threshold(const CellKey&)> threshold;  // each cell's
  // The cell's threshold: `threshold`'s, else the documented default.
  Threshold threshold_of(const CellKey& cell) const {
    return threshold ? threshold(cell) : default_threshold();
  }
};

struct AbPair {
  double base_seconds = 0, head_seconds = 0;  // the processes' medians, seconds a call
  bool base_first = true;
  double log_ratio() const;
};

// The units of evidence of pairs in ABBA order (pair 2k base first, pair 2k + 1 head first): the mean of
// each two's log ratios. A lone last pair is left out.
std::vector<double> balanced_log_ratios(const std::vector<AbPair>& pairs);

struct AbCell {
  CellKey cell;
  std::string name;
  std::vector<AbPair> pairs;
  Threshold threshold;
  std::string failure;  // why it has no verdict: a process that failed ("head: crashed: …")
  double seconds = 0;   // its wall time
  bool budget_spent = false;
  bool interrupted = false;  // Ctrl-C or SIGTERM stopped it: its pairs are those before
  // Its interval and verdict (common/noise/noise.hpp), from its pairs' balanced log ratios; the interval's
  // `pairs` are the pairs of processes behind it.
  VerdictRow row() const;
};

// What one side's process gives: its median, seconds a call, or why it gave none.
struct AbSample {
  double seconds = 0;
  std::string failure;
  bool interrupted = false;  // Ctrl-C or SIGTERM stopped it
};

// Runs one process of a cell: the base revision's when `base`, else the head's.
using AbSide = std::function<AbSample(bool base)>;

// The pairs of `cell` (its identity and threshold set), in ABBA order, until its verdict is clear
// (`settings`' fewest and most pairs, or its fixed pairs), a process fails (its failure, "head: …"), an
// interrupt, or a further pair would overrun `share` seconds. Every `ladder ab` measures its cells here:
// Ladder's tiers and a repository's own benchmarks (ab_bench.hpp) alike.
AbCell measure_pairs(AbCell cell, const AbSettings& settings, double share, const AbSide& side);

// The line a cell prints as it ends: "  [3/8] NAME  VERDICT (NOTE, SECONDS)".
void print_cell_line(const AbCell& cell, std::size_t index, std::size_t count);

// Runs each cell of `settings.matrix` in `base` and `head` (worker executables), printing a line a cell as
// it ends. A process that fails ends its cell with the reason. Once interrupted() (catch_interrupts, as
// `ladder run` does) the pair in progress is dropped and the run ends with the cells so far: the cell it
// stopped keeps its whole pairs and says so, a cell with none is left out.
std::vector<AbCell> run_ab(const AbSettings& settings, const std::string& base, const std::string& head);

// What `ladder plan` and --budget expect an ab of these cells to take, in seconds, from the calibration of
// the build at hand (plan.hpp): a pair is two processes of `repetitions` repetitions.
double estimated_ab_seconds(const AbSettings& settings, const std::string& executable);

}  // namespace ladder
