// Change detection over a history (history/history_detect.hpp) on synthetic series whose answer is known,
// with noise like a shared 2-core VM's: each run's level moves by 2.5 % (normal, run to run), its 7
// repetitions by 2 % around it, and one repetition in 30 is a heavy outlier (1.3-2× its run's level). Every
// claim is checked over 20 seeds, so it holds for the noise, not for one draw; nothing is timed. Then the
// history page (reports/history_page.hpp) on a crafted history: its charts, its table of changes newest
// first, escaping, and headless Chromium where it is installed.
#include "history_detect.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "command.hpp"
#include "errors.hpp"
#include "history_page.hpp"
#include "svg_markup.hpp"
#include "text.hpp"

namespace ladder::report {
namespace {

using namespace history;  // the detection under test, beside the page (report's) that draws it

constexpr int seeds = 20;
constexpr int runs = 30;

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

std::string commit_of(std::size_t index) {
  std::string commit = "c" + std::to_string(100 + index);
  return commit + std::string(40 - commit.size(), 'a');
}

CellRun noisy_run(double level, std::size_t index, Noise& noise, const VmNoise& vm) {
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
HistorySeries synthetic(const std::vector<double>& levels, std::uint32_t seed, const VmNoise& vm = {}) {
  Noise noise(seed);
  HistorySeries series{"simd", 100000000, 2, "vm"};
  for (std::size_t i = 0; i < levels.size(); ++i) {
    series.runs.push_back(noisy_run(levels[i], i, noise, vm));
    series.runs.back().instructions_per_node = 40;
  }
  return series;
}

std::vector<double> flat(double level = 1e-3) { return std::vector<double>(runs, level); }
std::vector<double> step_at(std::size_t start, double ratio) {
  std::vector<double> levels = flat();
  for (std::size_t i = start; i < levels.size(); ++i) levels[i] *= ratio;
  return levels;
}

std::string listed(const std::vector<DetectedChange>& changes) {
  std::ostringstream out;
  for (const auto& change : changes)
    out << "[" << (change.kind == ChangeKind::time ? "time" : "instructions") << " at run " << change.index
        << ", " << change.before << " -> " << change.after << "] ";
  return out.str();
}

// Where the data themselves put a step between the true levels: the start that leaves every run nearest its
// level (L1 on the logs). Noise can put the last run before a step nearer the new level (a 2.2 % jitter, 5
// draws in 200; 2.7 %, 21 in 200): then no detector working from the medians can name the true start.
std::size_t nearest_start(const HistorySeries& series, double before, double after) {
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

TEST(HistoryDetect, TenPercentSlowdownAtCommit12IsOneChangeStartingThere) {
  for (std::uint32_t seed = 1; seed <= seeds; ++seed) {
    const HistorySeries series = synthetic(step_at(12, 1.10), seed);
    const auto changes = detect_changes(series);
    ASSERT_EQ(changes.size(), 1u) << "seed " << seed << ": " << listed(changes);
    const DetectedChange& step = changes[0];
    EXPECT_EQ(step.kind, ChangeKind::time);
    ASSERT_EQ(nearest_start(series, 1e-3, 1.1e-3), 12u) << "seed " << seed << ": the data are not ambiguous";
    EXPECT_EQ(step.index, 12u) << "seed " << seed << ": the first run at the new level";
    EXPECT_EQ(step.commit, commit_of(12));
    EXPECT_EQ(step.run_id, "13");
    EXPECT_EQ(direction(step), "slower");
    EXPECT_NEAR(step.before, 1e-3, 0.03e-3) << "seed " << seed;  // a median of 12 runs: ±0.8 % (1 σ)
    EXPECT_NEAR(step.after, 1.1e-3, 0.033e-3) << "seed " << seed;
    EXPECT_NEAR(step.ratio, 1.10, 0.03) << "seed " << seed;
  }
}

TEST(HistoryDetect, StepIsFoundWithAnOutlierRunInTheNewLevel) {
  for (std::uint32_t seed = 1; seed <= seeds; ++seed) {
    std::vector<double> levels = step_at(12, 1.10);
    levels[20] *= 1.4;
    const auto changes = detect_changes(synthetic(levels, seed));
    ASSERT_EQ(changes.size(), 1u) << "seed " << seed << ": " << listed(changes);
    EXPECT_EQ(changes[0].index, 12u) << "seed " << seed;
  }
}

// Here one draw (seed 17) puts run 11 nearer the new level: the start named is where the data put it.
TEST(HistoryDetect, TenPercentSpeedupIsFoundAsFaster) {
  int at_12 = 0;
  for (std::uint32_t seed = 1; seed <= seeds; ++seed) {
    const HistorySeries series = synthetic(step_at(12, 1 / 1.10), seed);
    const auto changes = detect_changes(series);
    ASSERT_EQ(changes.size(), 1u) << "seed " << seed << ": " << listed(changes);
    EXPECT_EQ(changes[0].index, nearest_start(series, 1e-3, 1e-3 / 1.10)) << "seed " << seed;
    at_12 += changes[0].index == 12;
    EXPECT_EQ(direction(changes[0]), "faster");
  }
  EXPECT_GE(at_12, seeds - 1);
}

TEST(HistoryDetect, SingleOutlierRunIsNotAChange) {
  for (std::uint32_t seed = 1; seed <= seeds; ++seed)
    for (const double outlier : {1.4, 2.0, 0.6}) {
      std::vector<double> levels = flat();
      levels[20] *= outlier;
      const auto changes = detect_changes(synthetic(levels, seed));
      EXPECT_TRUE(changes.empty()) << "seed " << seed << ", run 20 × " << outlier << ": " << listed(changes);
    }
}

TEST(HistoryDetect, FlatSeriesHasNoChange) {
  for (std::uint32_t seed = 1; seed <= seeds; ++seed) {
    const auto changes = detect_changes(synthetic(flat(), seed));
    EXPECT_TRUE(changes.empty()) << "seed " << seed << ": " << listed(changes);
  }
}

// As history_detect.hpp says: a slow drift comes out as a staircase of slower steps, each of the threshold
// (5 %) or more and at least two runs apart, together about the drift seen across the series.
TEST(HistoryDetect, SlowDriftIsAStaircaseOfSlowerSteps) {
  std::vector<double> levels;
  for (int i = 0; i < runs; ++i) levels.push_back(1e-3 * std::pow(1.005, i));  // +15.6 % over 30 runs
  for (std::uint32_t seed = 1; seed <= seeds; ++seed) {
    const auto changes = detect_changes(synthetic(levels, seed));
    ASSERT_FALSE(changes.empty()) << "seed " << seed << ": the drift is reported";
    double total = 1;
    for (std::size_t k = 0; k < changes.size(); ++k) {
      EXPECT_EQ(changes[k].kind, ChangeKind::time);
      EXPECT_EQ(direction(changes[k]), "slower") << "seed " << seed << ": " << listed(changes);
      EXPECT_GT(changes[k].ratio, 1.05) << "seed " << seed;
      if (k > 0) {
        EXPECT_GE(changes[k].index - changes[k - 1].index, 2u) << "seed " << seed;
      }
      total *= changes[k].ratio;
    }
    EXPECT_GT(total, 1.05) << "seed " << seed;
    EXPECT_LT(total, 1.20) << "seed " << seed << ": no more than the drift (+15.6 % end to end)";
  }
}

HistorySeries with_counts(double ratio_at_17, std::uint32_t seed) {
  HistorySeries series = synthetic(flat(), seed, {.run_jitter = 0.05});  // timings noisier still
  for (std::size_t i = 17; i < series.runs.size(); ++i)
    series.runs[i].instructions_per_node = 40 * ratio_at_17;
  return series;
}

TEST(HistoryDetect, OnePercentMoreInstructionsIsReportedWhateverTheTimings) {
  for (std::uint32_t seed = 1; seed <= seeds; ++seed) {
    const auto changes = detect_instruction_changes(with_counts(1.01, seed));
    ASSERT_EQ(changes.size(), 1u) << "seed " << seed << ": " << listed(changes);
    EXPECT_EQ(changes[0].index, 17u);
    EXPECT_EQ(changes[0].commit, commit_of(17));
    EXPECT_DOUBLE_EQ(changes[0].before, 40);
    EXPECT_DOUBLE_EQ(changes[0].after, 40.4);
    EXPECT_EQ(direction(changes[0]), "more instructions");
  }
  const auto fewer = detect_instruction_changes(with_counts(0.99, 1));
  ASSERT_EQ(fewer.size(), 1u);
  EXPECT_EQ(direction(fewer[0]), "fewer instructions");
}

TEST(HistoryDetect, InstructionChangeUnderHalfAPercentIsNot) {
  for (std::uint32_t seed = 1; seed <= seeds; ++seed)
    EXPECT_TRUE(detect_instruction_changes(with_counts(1.003, seed)).empty()) << "seed " << seed;
}

TEST(HistoryDetect, RunWithoutInstructionCountIsNoChange) {
  HistorySeries series = synthetic(flat(), 7);
  series.runs[10].instructions_per_node.reset();
  series.runs[11].instructions_per_node.reset();
  EXPECT_TRUE(detect_instruction_changes(series).empty());
  series.runs[12].instructions_per_node = 41;  // compared with run 9, the last one with a count
  const auto changes = detect_instruction_changes(series);
  ASSERT_EQ(changes.size(), 2u) << listed(changes);  // up at 12, back down at 13
  EXPECT_EQ(changes[0].index, 12u);
  EXPECT_EQ(changes[1].index, 13u);
}

// The newest run against the previous one, both drawn independently with 7 repetitions, cv 2 %. Without
// heavy outliers: two of them among one run's 7 repetitions (4 draws in 200 at one in 30) overlap the
// samples so that the U test cannot call even 10 % (p 0.13): that is the test's power, as compare has it.
TEST(HistoryDetect, PairwiseNewestTenPercentSlowerIsSlower) {
  const VmNoise clean{.run_jitter = 0, .outlier_rate = 0};
  for (std::uint32_t seed = 1; seed <= seeds; ++seed) {
    HistorySeries series = synthetic(flat(), seed, clean);
    Noise noise(seed + 1000);
    series.runs.back() = noisy_run(1.1e-3, runs - 1, noise, clean);
    const auto pairwise = pairwise_newest(series);
    ASSERT_TRUE(pairwise);
    EXPECT_EQ(pairwise->change, Change::slower) << "seed " << seed << ": p = " << pairwise->test.p;
  }
}

// With tight repetitions the U test finds 1 % significant; --min-change (2 %) says it means nothing.
TEST(HistoryDetect, PairwiseNewestOnePercentSlowerIsNotMeaningful) {
  for (std::uint32_t seed = 1; seed <= seeds; ++seed) {
    const VmNoise tight{.run_jitter = 0, .repetition_cv = 0.002, .outlier_rate = 0};
    HistorySeries series = synthetic(flat(), seed, tight);
    Noise noise(seed + 1000);
    series.runs.back() = noisy_run(1.01e-3, runs - 1, noise, tight);
    const auto pairwise = pairwise_newest(series);
    ASSERT_TRUE(pairwise);
    EXPECT_LT(pairwise->test.p, 0.05) << "seed " << seed;
    EXPECT_EQ(pairwise->change, Change::not_meaningful) << "seed " << seed << ": ratio " << pairwise->ratio;
  }
  EXPECT_FALSE(pairwise_newest(HistorySeries{"simd", 100, 1, "vm", {CellRun{}}})) << "one run";
}

TEST(HistoryDetect, ParametersOutOfRangeAreRefusedByName) {
  const HistorySeries series = synthetic(flat(), 1);
  const auto message = [&](const DetectOptions& options) {
    try {
      check_newest(series, options);
    } catch (const InputError& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message({.alpha = 1.5}), "history detection: alpha 1.5 is out of range (between 0 and 1)");
  EXPECT_EQ(message({.penalty = -1}), "history detection: penalty -1 is out of range (a number, 0 or more)");
  EXPECT_EQ(message({.min_segment_runs = 0}),
            "history detection: min segment runs 0 is out of range (1 or more)");
  EXPECT_EQ(message({.fail_above_percent = NAN}),
            "history detection: fail-above nan is out of range (a number, 0 or more)");
  EXPECT_EQ(message({}), "accepted");
}

std::string joined(const std::vector<std::string>& reasons) {
  std::string text;
  for (const auto& reason : reasons) text += reason + "\n";
  return text;
}

TEST(HistoryCheck, FlatHistoryPasses) {
  for (std::uint32_t seed = 1; seed <= seeds; ++seed) {
    const auto reasons = check_newest(synthetic(flat(), seed));
    EXPECT_TRUE(reasons.empty()) << "seed " << seed << ": " << joined(reasons);
  }
}

// Each reason names the cell, the newest run's commit and the figures; the previous run or the runs before
// it (a heavy outlier in the previous run can hide the slowdown from the pairwise test, not from both).
TEST(HistoryCheck, NewestRunThirtyPercentSlowerFailsNamingTheCell) {
  for (std::uint32_t seed = 1; seed <= seeds; ++seed) {
    const auto reasons = check_newest(synthetic(step_at(runs - 1, 1.3), seed));
    ASSERT_FALSE(reasons.empty()) << "seed " << seed;
    for (const auto& reason : reasons)
      for (const std::string& part :
           {std::string("tier 'simd' at n = 1e8, 2 threads on 'vm': the newest run 30 "
                        "(commit ") +
                commit_of(29).substr(0, 10) + ") is ",
            std::string("% slower than the "), std::string("Mann–Whitney p = "),
            std::string(" and 7 repetitions, more than --fail-above 10 %")})
        EXPECT_NE(reason.find(part), std::string::npos) << part << "\nin: " << reason;
    const std::string all = joined(reasons);
    EXPECT_TRUE(all.find("slower than the previous run 29 (commit " + commit_of(28).substr(0, 10) + ")") !=
                    std::string::npos ||
                all.find("slower than the 5 runs from run 25") != std::string::npos)
        << all;
  }
  const VmNoise clean{.outlier_rate = 0};
  const auto pairwise = check_newest(synthetic(step_at(runs - 1, 1.3), 1, clean));
  ASSERT_FALSE(pairwise.empty());
  EXPECT_NE(pairwise[0].find("slower than the previous run 29"), std::string::npos) << pairwise[0];
  EXPECT_NE(pairwise[0].find("over 7 and 7 repetitions"), std::string::npos) << pairwise[0];
}

// Runs of one clean commit ran the same code: the check still fails on the threshold, and says the change
// is the machine's; runs of different commits, or a dirty one, are not said to be.
TEST(HistoryCheck, ASlowdownBetweenRunsOfOneCleanCommitIsSaidToBeTheMachines) {
  const VmNoise clean{.outlier_rate = 0};
  HistorySeries series = synthetic(step_at(runs - 1, 1.3), 1, clean);
  const std::string note = "both of one clean commit: the machine or its load changed, not the code";
  for (const auto& reason : check_newest(series)) EXPECT_EQ(reason.find(note), std::string::npos) << reason;
  for (auto& run : series.runs) run.commit = commit_of(0);
  const auto same = check_newest(series);
  ASSERT_FALSE(same.empty());
  for (const auto& reason : same) EXPECT_NE(reason.find(note), std::string::npos) << reason;
  series.runs.back().dirty = true;
  for (const auto& reason : check_newest(series)) EXPECT_EQ(reason.find(note), std::string::npos) << reason;
}

// Two runs at the new level: the newest against the previous passes, against the runs before the step fails.
TEST(HistoryCheck, RegressionTwoRunsOldStillFailsAgainstTheRunsBeforeIt) {
  for (std::uint32_t seed = 1; seed <= seeds; ++seed) {
    const HistorySeries series = synthetic(step_at(runs - 2, 1.3), seed);
    const std::string reasons = joined(check_newest(series));
    EXPECT_NE(reasons.find("slower than the 5 runs from run 24 (commit " + commit_of(23).substr(0, 10) +
                           ") to run 28 (commit " + commit_of(27).substr(0, 10) + ")"),
              std::string::npos)
        << "seed " << seed << ": " << reasons;
    EXPECT_NE(reasons.find("over 35 and 7 repetitions"), std::string::npos) << reasons;
  }
}

TEST(HistoryCheck, InstructionIncreaseFailsAndDecreasePasses) {
  HistorySeries series = synthetic(flat(), 3);
  series.runs.back().instructions_per_node = 40.4;
  series.runs.back().dirty = true;
  const auto reasons = check_newest(series);
  ASSERT_EQ(reasons.size(), 1u) << joined(reasons);
  EXPECT_NE(
      reasons[0].find("tier 'simd' at n = 1e8, 2 threads on 'vm': the newest run 30 (commit c129aaaaaa, "
                      "with uncommitted changes) counts 1.00 % more instructions per node than run 29 "
                      "(commit c128aaaaaa): 40.4 against 40, more than 0.5 %"),
      std::string::npos)
      << reasons[0];
  series.runs.back().instructions_per_node = 39.6;
  EXPECT_TRUE(check_newest(series).empty());
  series.runs.back().instructions_per_node = 40.1;  // 0.25 %: under the 0.5 % threshold
  EXPECT_TRUE(check_newest(series).empty());
}

// The page: a crafted history of two series, one with a step in time and one with an instruction change.
HistoryPageInput crafted_page() {
  HistoryPageInput input;
  HistorySeries slowed = synthetic(step_at(12, 1.10), 5);
  slowed.tier = "<script>alert('tier')</script>";
  slowed.runs[3].commit = "<img\"'&>x";                             // the page shows 7 characters of a commit
  for (auto& run : slowed.runs) run.instructions_per_node.reset();  // no counts: no right axis
  HistorySeries counted_series = synthetic(flat(2e-3), 6);
  counted_series.tier = "scalar";
  for (std::size_t i = 20; i < counted_series.runs.size(); ++i)
    counted_series.runs[i].instructions_per_node = 41;
  input.series = {slowed, counted_series};
  return input;
}

// The markup of one chart of the page, from its <svg> to its </svg>.
std::string chart_markup(const std::string& html, const std::string& id) {
  const auto start = html.find("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"" + id + "\"");
  if (start == std::string::npos) return {};
  return html.substr(start, html.find("</svg>", start) + 6 - start);
}

TEST(HistoryPage, DrawsEachSeriesAndListsChangesNewestFirst) {
  const std::string html = history_page_html(crafted_page());
  // One chart per series: the median, its min–max band, and the count on the right axis where runs have one.
  const std::string first = chart_markup(html, "history-1"), second = chart_markup(html, "history-2");
  ASSERT_FALSE(first.empty());
  ASSERT_FALSE(second.empty());
  EXPECT_EQ(html.find("<svg", html.find("</svg>", html.find(second))), std::string::npos)
      << "two charts only";
  for (const std::string* chart : {&first, &second}) {
    EXPECT_NE(chart->find("<g class=\"series\" data-series=\"median time\""), std::string::npos);
    EXPECT_NE(chart->find("<path class=\"band\" data-band=\"median time\""), std::string::npos);
    EXPECT_NE(chart->find("<title>min–max of each run</title>"), std::string::npos);
  }
  EXPECT_EQ(first.find("data-series=\"instructions per node\""), std::string::npos)
      << "no counts in series 1";
  EXPECT_EQ(first.find("class=\"axis y2\""), std::string::npos);
  EXPECT_NE(second.find("<g class=\"series\" data-series=\"instructions per node\""), std::string::npos);
  EXPECT_NE(second.find("<g class=\"axis y2\""), std::string::npos);
  EXPECT_NE(second.find("instructions per node</text>\n</g>"), std::string::npos) << "the right axis' title";
  // The x axis: commits in run order, as tick labels where they fit (the first run's always does).
  EXPECT_NE(first.find(">" + commit_of(0).substr(0, 7) + "</text>"), std::string::npos);
  // The changes: run 21 of the second series (instructions), then run 13 of the first (time).
  const auto table = html.find("Detected changes, newest first");
  ASSERT_NE(table, std::string::npos);
  const auto instructions_row = html.find("<td>" + commit_of(20).substr(0, 7) + "</td>", table);
  const auto time_row = html.find("<td>" + commit_of(12).substr(0, 7) + "</td>", table);
  ASSERT_NE(instructions_row, std::string::npos);
  ASSERT_NE(time_row, std::string::npos);
  EXPECT_LT(instructions_row, time_row) << "newest first";
  // Each change marked on its chart with the commit where it starts, its figures in the tooltip.
  EXPECT_NE(first.find("data-marker=\"" + commit_of(12).substr(0, 7) + "\" data-x=\"12\""),
            std::string::npos);
  EXPECT_NE(
      first.find("<title>Time from commit " + commit_of(12).substr(0, 7) + " (run 13): 1.01 ms → 1.11 ms"),
      std::string::npos);
  EXPECT_EQ(second.find("data-marker=\"" + commit_of(12).substr(0, 7) + "\""), std::string::npos);
  EXPECT_NE(second.find("data-marker=\"" + commit_of(20).substr(0, 7) + " instructions\" data-x=\"20\""),
            std::string::npos);
  EXPECT_NE(second.find("<title>Instructions per node from commit " + commit_of(20).substr(0, 7) +
                        " (run 21): 40 → 41, +2.5 % more instructions</title>"),
            std::string::npos);
  EXPECT_NE(html.find("<td>+2.5 % more instructions</td>"), std::string::npos) << "41 against 40 per node";
  EXPECT_NE(html.find("<td>1.01 ms → 1.11 ms</td>"), std::string::npos);
  EXPECT_NE(html.find(">scalar, n = 1e8, 2 threads</td>"), std::string::npos);
  // Each run's point carries its figures.
  const CellRun run = crafted_page().series[0].runs[12];
  EXPECT_NE(first.find("<title>run 13, commit " + commit_of(12).substr(0, 7) + ", " + run.time + ": median " +
                       format_seconds(run.median) + ", min " + format_seconds(run.min) + ", max " +
                       format_seconds(run.max) + ", 7 repetitions</title>"),
            std::string::npos);
  EXPECT_NE(second.find("<title>run 21, commit " + commit_of(20).substr(0, 7)), std::string::npos);
  EXPECT_NE(second.find(", 41 instructions per node</title>"), std::string::npos);
}

// The band follows each run's min and max: it spans, at each run's x, exactly the y range from the point
// of its max to that of its min on the same scale as the median's markers.
TEST(HistoryPage, TheBandSpansEachRunsMinToMax) {
  HistoryPageInput input;
  input.series = {synthetic(flat(2e-3), 7)};
  for (std::size_t i = 0; i < input.series[0].runs.size(); ++i) {  // a wide band, far from the medians
    CellRun& run = input.series[0].runs[i];
    run.median = (2 + 0.05 * static_cast<double>(i % 5)) * 1e-3;
    run.min = run.median * (i % 2 == 0 ? 0.8 : 0.9);
    run.max = run.median * (i % 3 == 0 ? 1.25 : 1.1);
  }
  const std::string chart = chart_markup(history_page_html(input), "history-1");
  const auto band = testing::svg_elements(chart, "<path class=\"band\"");
  ASSERT_EQ(band.size(), 1u);
  std::vector<std::pair<double, double>> vertices;
  std::istringstream path(band[0].at("d"));
  char command = 0;
  double x = 0, y = 0;
  while (path >> command && command != 'Z' && path >> x >> y) vertices.emplace_back(x, y);
  ASSERT_EQ(vertices.size(), 2 * input.series[0].runs.size()) << band[0].at("d");
  const auto points = testing::svg_elements(
      testing::svg_group(chart, "<g class=\"series\" data-series=\"median time\""), "class=\"point\"");
  ASSERT_EQ(points.size(), input.series[0].runs.size());
  // The scale from two medians (pixels are linear in seconds on this axis).
  const auto& runs = input.series[0].runs;
  std::size_t a = 0, b = 1;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (runs[i].median < runs[a].median) a = i;
    if (runs[i].median > runs[b].median) b = i;
  }
  const double ya = std::stod(points[a].at("data-cy")), yb = std::stod(points[b].at("data-cy"));
  const auto pixel = [&](double seconds) {
    return ya + (seconds - runs[a].median) / (runs[b].median - runs[a].median) * (yb - ya);
  };
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& high = vertices[i];
    const auto& low = vertices[vertices.size() - 1 - i];
    EXPECT_EQ(std::to_string(high.first), std::to_string(std::stod(points[i].at("data-cx")))) << i;
    EXPECT_EQ(low.first, high.first) << i;
    EXPECT_NEAR(high.second, pixel(runs[i].max), 0.5) << i;
    EXPECT_NEAR(low.second, pixel(runs[i].min), 0.5) << i;
  }
}

TEST(HistoryPage, EscapesHostileNamesAndHasNoScript) {
  const std::string html = history_page_html(crafted_page());
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(&#39;tier&#39;)&lt;/script&gt;"), std::string::npos)
      << html.substr(0, 3000);
  EXPECT_NE(html.find("&lt;img&quot;&#39;&amp;"), std::string::npos);
}

// The page in headless Chromium: no error, no request, its charts and series drawn, and the charts'
// readability checks (no two texts overlap, no label on a point, series told apart and drawn as declared,
// every point titled). The page and its screenshots are kept in the build tree (history-page/).
TEST(HistoryPage, WritesIndexHtmlThatOpensInChromium) {
  const std::filesystem::path out = LADDER_HISTORY_PAGE_DIR;
  std::filesystem::remove_all(out);
  write_history_page(crafted_page(), out.string());
  std::ifstream file(out / "index.html");
  const std::string written{std::istreambuf_iterator<char>(file), {}};
  EXPECT_EQ(written, history_page_html(crafted_page()));
  const auto browser = testing::run_command(
      "python3", std::string(LADDER_SOURCE_DIR) + "/tests/browser_check.py " + (out / "index.html").string() +
                     " --screenshot " + (out / "history.png").string() + " --screenshots " +
                     (out / "screenshots").string() +
                     " --check-labels --check-series --check-titles --timeout 150"
                     " --expect-chart history-1 --expect-chart history-2"
                     " --expect-series 'history-1:median time' --expect-series 'history-2:median time'"
                     " --expect-series 'history-2:instructions per node'"
                     " --expect-text 'Detected changes, newest first'");
  if (browser.exit_code == 77) GTEST_SKIP() << browser.output;
  EXPECT_EQ(browser.exit_code, 0) << browser.output;
  for (const char* check : {"PASS labels of chart history-1", "PASS labels of chart history-2",
                            "PASS series of chart history-2", "PASS titles of chart history-2"})
    EXPECT_NE(browser.output.find(check), std::string::npos) << check << "\n" << browser.output;
  if (const char* keep = std::getenv("LADDER_KEEP_SCREENSHOT"))
    std::filesystem::copy_file(out / "history.png", keep, std::filesystem::copy_options::overwrite_existing);
}

}  // namespace
}  // namespace ladder::report
