// One answer for a machine (issue 38): where the history holds other runs of this same code and build on
// this machine, a cell's interval pools their medians with its own (reports/analysis/intervals.hpp): runs
// measured apart are independent samples, a run's repetitions are not. The pooled interval recomputed by
// hand; which runs count (a clean commit, the same build, not the run itself); under five others, no pooling;
// and a current rung that one run's noise band leaves tied, decided by the runs. Histories are made by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "crafted_results.hpp"
#include "history_store.hpp"
#include "intervals.hpp"
#include "noise_floor_support.hpp"
#include "report.hpp"
#include "run_noise.hpp"

namespace ladder::report {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::CraftedCell;
using testing::TempDir;

const std::string naive_1e6 = "naive/gauss/n:1000000/threads:1";
const std::string commit = "3f2a1b0c9d" + std::string(30, '0');  // record_one_commit's

// A cell's key in RunNoise::other_runs in a run of one build (its build id empty).
std::string pooled(const std::string& name) { return " " + name; }

// naive and xsimd at n = 1e6, each `factor` times its time, on the test CPU.
fs::path crafted(const fs::path& dir, double factor) {
  json cells = json::array();
  testing::add_cell(cells, CraftedCell{"naive", 0, 1000000, 1, testing::around(1e-3 * factor)});
  testing::add_cell(cells, CraftedCell{"xsimd", 6, 1000000, 1, testing::around(1e-4 * factor)});
  const json cards = json::array({testing::crafted_card("naive", 0, {}, false, "minutes", 27),
                                  testing::crafted_card("xsimd", 6, {"xsimd"}, false, "days", 60)});
  return testing::write_results(dir, testing::crafted_results("crafted", cards, cells));
}

// The run a report reads: crafted at `factor`, of `its_commit` (dirty or not), started at `started`.
fs::path asking(const fs::path& dir, const std::string& its_commit, const std::string& dirty,
                const std::string& started) {
  json document = testing::read_json(crafted(dir, 1) / "results.json");
  document["context"]["run"]["started"] = started;
  document["context"]["source"] = {{"git_commit", its_commit},
                                   {"git_branch", "main"},
                                   {"git_dirty", dirty},
                                   {"tier_sources", json::object()}};
  return testing::write_results(dir, document);
}

const CellResult& cell_named(const report::Run& run, const std::string& name) {
  for (const auto& cell : run.cells)
    if (cell.name == name) return cell;
  throw std::logic_error("no cell " + name);
}

TEST(PooledRuns, TheHistorysRunsOfThisBuildArePooledWithTheRunsOwnRecomputedByHand) {
  TempDir dir;
  const std::string database = (dir / "history.sqlite").string();
  {
    // Seven runs of one clean commit: naive at 1 ms in runs 0, 2, 4, 6 and 1 ms × e^a in runs 1, 3, 5.
    history::Store store(database, history::Store::Mode::write);
    testing::record_one_commit(store, dir.str(), 4,
                               [](const fs::path& run, double f) { return crafted(run, f); });
  }
  const double a = std::log1p(0.04) / (1.96 * 1.4826);  // record_one_commit's step for a 4 % floor
  report::Run run = load_run(asking(dir / "run", commit, "no", "2026-12-02T00:00:00Z").string());
  fill_noise(run, database);
  ASSERT_EQ(run.noise.other_runs.count(pooled(naive_1e6)), 1u);
  EXPECT_EQ(run.noise.other_runs.at(pooled(naive_1e6)).size(), 7u);
  // Eight medians: five of 1 ms (four runs and this one), three of e^a ms. For 8 the sign test's 95 %
  // interval is the smallest to the largest: P(Binomial(8, ½) = 0) = 1/256 = 0.4 % ≤ 2.5 % < P(≤ 1) =
  // 9/256 = 3.5 %. The median is the 4th and 5th, both 1 ms.
  const CellInterval together = cell_interval(run, cell_named(run, naive_1e6));
  EXPECT_NEAR(together.median, 1e-3, 1e-15);
  EXPECT_NEAR(together.low, 1e-3, 1e-15);
  EXPECT_NEAR(together.high, 1e-3 * std::exp(a), 1e-15);
  EXPECT_EQ(
      together.noise.source,
      "the median of 8 runs of this build here, this one and 7 in the history, and their 95 % interval");
  EXPECT_EQ(together.runs, 8);
  // Without the pooling the band of the 4 % floor stands: wider than the runs' own spread.
  const CellInterval alone =
      cell_interval(cell_named(run, naive_1e6), run.noise.of(cell_named(run, naive_1e6)));
  EXPECT_LT(alone.low, together.low);
}

TEST(PooledRuns, OnlyOtherRunsOfTheSameCleanCommitCount) {
  TempDir dir;
  const std::string database = (dir / "history.sqlite").string();
  {
    history::Store store(database, history::Store::Mode::write);
    testing::record_one_commit(store, dir.str(), 4,
                               [](const fs::path& run, double f) { return crafted(run, f); });
  }
  // A dirty checkout's code is not the commit's; another commit is other code.
  report::Run dirty = load_run(asking(dir / "dirty", commit, "yes", "2026-12-02T00:00:00Z").string());
  fill_noise(dirty, database);
  EXPECT_TRUE(dirty.noise.other_runs.empty());
  report::Run other = load_run(
      asking(dir / "other", "1111111111" + std::string(30, '1'), "no", "2026-12-02T00:00:00Z").string());
  fill_noise(other, database);
  EXPECT_TRUE(other.noise.other_runs.empty());
  // The history's own run 3 (started 03:00) asking: it is not pooled with itself, the other six are.
  report::Run itself = load_run(asking(dir / "itself", commit, "no", "2026-12-01T03:00:00Z").string());
  fill_noise(itself, database);
  ASSERT_EQ(itself.noise.other_runs.count(pooled(naive_1e6)), 1u);
  EXPECT_EQ(itself.noise.other_runs.at(pooled(naive_1e6)).size(), 6u);
}

TEST(PooledRuns, UnderFiveOtherRunsTheRunDecidesWithItsNoiseBand) {
  TempDir dir;
  report::Run run = load_run(crafted(dir / "run", 1).string());
  const CellResult& naive = cell_named(run, naive_1e6);
  run.noise.other_runs[pooled(naive_1e6)] = {0.9e-3, 1.1e-3, 1.2e-3, 0.8e-3};
  const CellInterval interval = cell_interval(run, naive);
  const CellInterval band = cell_interval(naive, run.noise.of(naive));
  EXPECT_DOUBLE_EQ(interval.median, band.median);
  EXPECT_DOUBLE_EQ(interval.low, band.low);
  EXPECT_DOUBLE_EQ(interval.high, band.high);
  EXPECT_EQ(interval.noise.source, band.noise.source);
}

// streaming 500 ms, inlined 440 ms (12 % faster), on a machine whose runs move 20 %: one run's bands
// (h = √1.2 − 1 = 9.5 %) overlap, and the current rung is the tie's cheapest, streaming. Ten other runs of
// this build, with inlined 12 % ahead in each, settle it: inlined. Disturbed in this run, inlined still
// competes: its figure is the median of eleven runs, which one disturbed run does not decide.
TEST(PooledRuns, TenRunsSettleACurrentRungOneRunsNoiseLeavesTied) {
  TempDir dir;
  json cells = json::array();
  for (const CraftedCell& cell : std::vector<CraftedCell>{{"naive", 0, 1000000, 1, testing::around(1.0)},
                                                          {"streaming", 1, 1000000, 1, testing::around(0.5)}})
    testing::add_cell(cells, cell);
  CellResult inlined = testing::measured_record({"inlined", 2, 1000000, 1, testing::around(0.44)});
  inlined.worker.other_load_cores = 0.8;
  cells.push_back(inlined);
  const json cards = json::array({testing::crafted_card("naive", 0, {}, false, "minutes", 27),
                                  testing::crafted_card("streaming", 1, {}, false, "minutes", 30),
                                  testing::crafted_card("inlined", 2, {}, false, "minutes", 40)});
  report::Run run = load_run(
      testing::write_results(dir / "run", testing::crafted_results("crafted", cards, cells)).string());
  run.noise.fallback = Threshold{20, "a test's 20 %", true};
  const Decided alone = current_rung_choice(analyse(run));
  EXPECT_EQ(alone.row, nullptr) << "inlined, disturbed and within the noise, could be the fastest";
  EXPECT_NE(alone.undecided.find("could not decide"), std::string::npos) << alone.undecided;

  // Each other run moves the three tiers together, by up to ±3 %.
  const std::vector<double> moves = {0.97, 0.98, 0.99, 1.0, 1.01, 1.02, 1.03, 0.985, 1.015, 1.0};
  for (const double move : moves) {
    run.noise.other_runs[pooled("streaming/gauss/n:1000000/threads:1")].push_back(0.5 * move);
    run.noise.other_runs[pooled("inlined/gauss/n:1000000/threads:1")].push_back(0.44 * move);
    run.noise.other_runs[pooled("naive/gauss/n:1000000/threads:1")].push_back(1.0 * move);
  }
  // Eleven medians: for 11 the sign test's 95 % interval is the 2nd smallest to the 2nd largest
  // (P(≤ 1) = 12/2048 = 0.6 % ≤ 2.5 % < P(≤ 2) = 67/2048 = 3.3 %): streaming 0.49–0.51 s, inlined
  // 0.4312–0.4488 s. Apart: inlined is the current rung.
  const Analysis settled = analyse(run);
  const auto interval_of = [&](const std::string& tier) {
    for (const auto& row : settled.rows)
      if (row.card->id == tier) return row.interval;
    throw std::logic_error("no row " + tier);
  };
  EXPECT_NEAR(interval_of("streaming").low, 0.49, 1e-12);
  EXPECT_NEAR(interval_of("streaming").high, 0.51, 1e-12);
  EXPECT_NEAR(interval_of("inlined").low, 0.4312, 1e-12);
  EXPECT_NEAR(interval_of("inlined").high, 0.4488, 1e-12);
  EXPECT_EQ(interval_of("inlined").runs, 11);
  const Decided decided = current_rung_choice(settled);
  ASSERT_NE(decided.row, nullptr) << decided.undecided;
  EXPECT_EQ(decided.row->card->id, "inlined");
  EXPECT_EQ(decided.tied.size(), 1u);

  // Runs that move ±15 % leave them within each other's intervals over the runs (streaming 0.45–0.55 s,
  // inlined 0.396–0.484 s): a tie, and its sentence names the runs, not one run's noise band.
  const std::vector<double> wide = {0.85, 0.9, 0.95, 1.0, 1.05, 1.1, 1.15, 0.92, 1.08, 1.0};
  run.noise.other_runs.clear();
  for (const double move : wide) {
    run.noise.other_runs[pooled("streaming/gauss/n:1000000/threads:1")].push_back(0.5 * move);
    run.noise.other_runs[pooled("inlined/gauss/n:1000000/threads:1")].push_back(0.44 * move);
    run.noise.other_runs[pooled("naive/gauss/n:1000000/threads:1")].push_back(1.0 * move);
  }
  const Analysis spread = analyse(run);
  const Decided tie = current_rung_choice(spread);
  ASSERT_NE(tie.row, nullptr) << tie.undecided;
  EXPECT_EQ(tie.row->card->id, "streaming") << "the tie's cheapest to keep";
  EXPECT_NE(
      tie.tie_why.find("within each other's intervals over the runs of this build here (the median of 11 "
                       "runs of this build here"),
      std::string::npos)
      << tie.tie_why;
}

}  // namespace
}  // namespace ladder::report
