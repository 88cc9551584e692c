// Synthetic histories whose answer is known, for the change detection's tests and the history page's:
// series of runs with noise like a shared 2-core VM's (history_detect_test.cpp says how much).
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "history_detect.hpp"
#include "text.hpp"

namespace ladder::report::test {

using namespace history;

inline constexpr int seeds = 20;
inline constexpr int runs = 30;

// Normal deviates by Box–Muller on mt19937 (whose output the standard fixes), so every library draws the
// same series.
class Noise {
 public:
  explicit Noise(std::uint32_t seed) : engine_(seed) {}
  double uniform() { return (static_cast<double>(engine_()) + 0.5) / 4294967296.0; }
  double normal() {
    const double radius = std::sqrt(-2 * std::log(uniform())), angle = 2 * M_PI * uniform();
    return radius * std::cos(angle);
  }

 private:
  std::mt19937 engine_;
};

struct VmNoise {
  double run_jitter = 0.02;        // the run's level, run to run
  double repetition_cv = 0.02;     // the repetitions around it
  double outlier_rate = 1.0 / 30;  // a repetition 1.3-2× its run's level
  int repetitions = 7;
};

inline std::string commit_of(std::size_t index) {
  std::string commit = "c" + std::to_string(100 + index);
  return commit + std::string(40 - commit.size(), 'a');
}

inline CellRun noisy_run(double level, std::size_t index, Noise& noise, const VmNoise& vm) {
  CellRun run{
      std::to_string(index + 1),
      "2026-11-" + std::to_string(10 + index / 24) + "T" + std::to_string(10 + index % 24) + ":00:00Z",
      commit_of(index)};
  const double run_level = level * std::exp(vm.run_jitter * noise.normal());
  for (int r = 0; r < vm.repetitions; ++r) {
    double value = run_level * (1 + vm.repetition_cv * noise.normal());
    if (noise.uniform() < vm.outlier_rate) value = run_level * (1.3 + 0.7 * noise.uniform());
    run.repetitions.push_back(value);
  }
  std::vector<double> sorted = run.repetitions;
  std::sort(sorted.begin(), sorted.end());
  run.min = sorted.front(), run.max = sorted.back(), run.median = sorted[sorted.size() / 2];
  return run;
}

// A series whose true level of run i is levels[i] (seconds), instructions per node 40 throughout.
inline HistorySeries synthetic(const std::vector<double>& levels, std::uint32_t seed,
                               const VmNoise& vm = {}) {
  Noise noise(seed);
  HistorySeries series{"simd", 100000000, 2, "vm"};
  for (std::size_t i = 0; i < levels.size(); ++i) {
    series.runs.push_back(noisy_run(levels[i], i, noise, vm));
    series.runs.back().instructions_per_node = 40;
  }
  return series;
}

inline std::vector<double> flat(double level = 1e-3) { return std::vector<double>(runs, level); }
inline std::vector<double> step_at(std::size_t start, double ratio) {
  std::vector<double> levels = flat();
  for (std::size_t i = start; i < levels.size(); ++i) levels[i] *= ratio;
  return levels;
}

inline std::string listed(const std::vector<DetectedChange>& changes) {
  std::ostringstream out;
  for (const auto& change : changes)
    out << "[" << (change.kind == ChangeKind::time ? "time" : "instructions") << " at run " << change.index
        << ", " << change.before << " -> " << change.after << "] ";
  return out.str();
}

// Where the data themselves put a step between the true levels: the start that leaves every run nearest its
// level (L1 on the logs). Noise can put the last run before a step nearer the new level (a 2.2 % jitter, 5
// draws in 200; 2.7 %, 21 in 200): then no detector working from the medians can name the true start.
inline std::size_t nearest_start(const HistorySeries& series, double before, double after) {
  std::size_t best_start = 0;
  double best = INFINITY;
  for (std::size_t start = 2; start + 2 <= series.runs.size(); ++start) {
    double cost = 0;
    for (std::size_t i = 0; i < series.runs.size(); ++i)
      cost += std::fabs(std::log(series.runs[i].median / (i < start ? before : after)));
    if (cost < best) best = cost, best_start = start;
  }
  return best_start;
}

}  // namespace ladder::report::test
