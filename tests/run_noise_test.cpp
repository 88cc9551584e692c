// Where each cell's noise figure comes from (reports/analysis/run_noise.hpp): fill_noise reads the history of
// the machine a run was measured on, the runs of one clean commit first, then a recorded A/A figure, else the
// documented default; it never creates or writes the database. `ladder report` and `ladder pick` take
// --history as compare does. Histories are made by hand (the store's own record and record_noise); nothing is
// timed.
#include "run_noise.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "command.hpp"
#include "crafted_results.hpp"
#include "history_store.hpp"
#include "noise_floor_support.hpp"
#include "noise_store.hpp"
#include "results_file.hpp"

namespace ladder::report {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::CraftedCell;
using testing::TempDir;

const std::string naive_1e6 = "naive/gauss/n:1000000/threads:1";
const std::string xsimd_1e6 = "xsimd/gauss/n:1000000/threads:1";
const std::string tbb_1e6 = "tbb/gauss/n:1000000/threads:2";
const std::string naive_1e7 = "naive/gauss/n:10000000/threads:1";

// A crafted run on a machine of `cpu`: naive and xsimd at n = 1e6, each `factor` times its time; with
// `whole`, tbb on two threads at n = 1e6 and naive at n = 1e7 as well (the run a report reads; the
// history's runs have the first two alone, so that tbb's figure can only be an A/A one).
fs::path crafted(const fs::path& dir, double factor, bool whole = true,
                 const std::string& cpu = "a test CPU") {
  json cells = json::array();
  testing::add_cell(cells, CraftedCell{"naive", 0, 1000000, 1, testing::around(1e-3 * factor)});
  testing::add_cell(cells, CraftedCell{"xsimd", 6, 1000000, 1, testing::around(1e-4 * factor)});
  if (whole) {
    testing::add_cell(cells, CraftedCell{"tbb", 9, 1000000, 2, testing::around(5e-5)});
    testing::add_cell(cells, CraftedCell{"naive", 0, 10000000, 1, testing::around(1e-2)});
  }
  const json cards = json::array({testing::crafted_card("naive", 0, {}, false, "minutes", 27),
                                  testing::crafted_card("xsimd", 6, {"xsimd"}, false, "days", 60),
                                  testing::crafted_card("tbb", 9, {"oneTBB"}, true, "days", 80)});
  json document = testing::crafted_results("crafted", cards, cells);
  document["context"]["cpu_model"] = cpu;
  return testing::write_results(dir, document);
}

// A history at DIR/history.sqlite: seven runs of one clean commit give naive and xsimd at n = 1e6 a floor of
// 4 % between runs; recorded A/A figures give tbb 2.5 % and naive 1.5 % (which the history's figure beats).
// Returns its path and sets `machine` to the runs' fingerprint.
std::string history_of_one_commit(const TempDir& dir, std::string& machine) {
  const std::string path = (dir / "history.sqlite").string();
  history::Store store(path, history::Store::Mode::write);
  machine = testing::record_one_commit(
      store, dir.str(), 4, [](const fs::path& run, double factor) { return crafted(run, factor, false); });
  testing::record_aa(store, machine, "tbb", 2, 2.5);
  testing::record_aa(store, machine, "naive", 1, 1.5);
  return path;
}

// The names of the files in a directory.
std::set<std::string> files_in(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.insert(entry.path().filename().string());
  return names;
}

bool says(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(RunNoise, TheHistorysRunsOfOneCommitComeFirstThenTheRecordedAAFigure) {
  TempDir dir;
  std::string machine;
  const std::string database = history_of_one_commit(dir, machine);
  report::Run run = load_run(crafted(dir / "run", 1).string());
  fill_noise(run, database);

  ASSERT_EQ(run.noise.by_cell.count(naive_1e6), 1u);
  const Threshold& naive = run.noise.by_cell.at(naive_1e6);
  EXPECT_NEAR(naive.percent, 4, 0.01) << "the history's figure, not naive's A/A 1.5 %";
  EXPECT_TRUE(naive.measured);
  EXPECT_TRUE(says(naive.source, "between runs")) << naive.source;
  EXPECT_TRUE(says(naive.source, "history: 7 runs of clean commit 3f2a1b0c9d")) << naive.source;
  EXPECT_NEAR(run.noise.by_cell.at(xsimd_1e6).percent, 4, 0.01);

  ASSERT_EQ(run.noise.by_cell.count(tbb_1e6), 1u) << "no history of tbb: its A/A figure";
  const Threshold& tbb = run.noise.by_cell.at(tbb_1e6);
  EXPECT_DOUBLE_EQ(tbb.percent, 2.5);
  EXPECT_TRUE(tbb.measured);
  EXPECT_TRUE(says(tbb.source, "A/A `ladder ab` of 3f2a1b0c9d, 12 pairs")) << tbb.source;
  EXPECT_TRUE(says(tbb.source, "understate how far runs measured apart move")) << tbb.source;

  EXPECT_EQ(run.noise.by_cell.count(naive_1e7), 0u) << "nothing known of naive at 1e7";
  const auto at_1e7 = std::find_if(run.cells.begin(), run.cells.end(),
                                   [](const CellResult& cell) { return cell.name == naive_1e7; });
  ASSERT_NE(at_1e7, run.cells.end());
  EXPECT_EQ(run.noise.of(*at_1e7).source, default_threshold().source);
  EXPECT_FALSE(run.noise.of(*at_1e7).measured);
}

TEST(RunNoise, PerCallCellsAndOtherBuildsCellsGetTheirFiguresToo) {
  TempDir dir;
  std::string machine;
  const std::string database = history_of_one_commit(dir, machine);
  {
    history::Store store(database, history::Store::Mode::write);
    history::record_noise(store, {{"xsimd", "gauss", 1000, 1, 1}, machine},
                          {3, 10, "A/A at 1000", "2026-12-03"});
    history::record_noise(store, {{"xsimd", "gauss", 1 << 20, 1, 1}, machine},
                          {6, 10, "A/A at 2^20", "2026-12-03"});
  }
  report::Run run = load_run(crafted(dir / "run", 1).string());
  run.per_call_cells.push_back(testing::measured_record(CraftedCell{"xsimd", 6, 1000, 1, {1e-6}}));
  run.other_builds.push_back(
      {"clang", {testing::measured_record(CraftedCell{"xsimd", 6, 1 << 20, 1, {1e-4}})}, {}});
  fill_noise(run, database);
  EXPECT_DOUBLE_EQ(run.noise.by_cell.at("xsimd/gauss/n:1000/threads:1").percent, 3);
  EXPECT_DOUBLE_EQ(run.noise.by_cell.at("xsimd/gauss/n:1048576/threads:1").percent, 6);
  EXPECT_NEAR(run.noise.by_cell.at(xsimd_1e6).percent, 4, 0.01);
}

TEST(RunNoise, AMissingDatabaseLeavesTheDefaultAndIsNotCreated) {
  TempDir dir;
  report::Run run = load_run(crafted(dir / "run", 1).string());
  const fs::path missing = dir / "history" / "none.sqlite";
  fill_noise(run, missing.string());
  EXPECT_TRUE(run.noise.by_cell.empty());
  for (const CellResult& cell : run.cells) {
    EXPECT_EQ(run.noise.of(cell).percent, default_noise_percent) << cell.name;
    EXPECT_FALSE(run.noise.of(cell).measured) << cell.name;
  }
  EXPECT_FALSE(fs::exists(missing));
  EXPECT_FALSE(fs::exists(missing.parent_path())) << "not even its directory";
  EXPECT_TRUE(load_run_with_noise((dir / "run").string(), missing.string()).noise.by_cell.empty());
  EXPECT_FALSE(fs::exists(missing));
}

TEST(RunNoise, ReadingTheDatabaseChangesNoByteAndLeavesNoFileBeside) {
  TempDir dir;
  std::string machine;
  const std::string database = history_of_one_commit(dir, machine);
  const std::string before = testing::read_text(database);
  const auto files_before = files_in(dir / "");
  report::Run run = load_run(crafted(dir / "run", 1).string());
  fill_noise(run, database);
  ASSERT_FALSE(run.noise.by_cell.empty());
  EXPECT_EQ(testing::read_text(database), before);
  auto files_after = files_in(dir / "");
  files_after.erase("run");
  EXPECT_EQ(files_after, files_before) << "no -wal, -shm or journal left beside it";
}

TEST(RunNoise, CellsOfAnotherMachineGetNothing) {
  TempDir dir;
  std::string machine;
  const std::string database = history_of_one_commit(dir, machine);
  report::Run run = load_run(crafted(dir / "run", 1, true, "another CPU").string());
  fill_noise(run, database);
  EXPECT_TRUE(run.noise.by_cell.empty()) << "a figure of this machine given to another's cells";
}

// `ladder report` and `ladder pick` take --history as compare does: a database that does not exist is no
// error and is not created; a directory is refused by name.
TEST(RunNoise, ReportAndPickTakeHistoryAndNeverCreateIt) {
  TempDir dir;
  const fs::path run = crafted(dir / "run", 1);
  const fs::path missing = dir / "none.sqlite";
  for (const std::string& command : {"pick " + run.string(), "pick --json " + run.string(),
                                     "report " + run.string() + " --out " + (dir / "report").string()}) {
    const auto outcome = testing::run_command(LADDER_BINARY, command + " --history " + missing.string());
    EXPECT_EQ(outcome.exit_code, 0) << command << "\n" << outcome.output;
    EXPECT_FALSE(fs::exists(missing)) << command;
  }
  for (const char* command : {"pick ", "report "}) {
    const auto outcome =
        testing::run_command(LADDER_BINARY, std::string(command) + run.string() + " --history " + dir.str());
    EXPECT_EQ(outcome.exit_code, 2) << command << "\n" << outcome.output;
    EXPECT_TRUE(says(outcome.output, dir.str())) << command << "\n" << outcome.output;
  }
}

}  // namespace
}  // namespace ladder::report
