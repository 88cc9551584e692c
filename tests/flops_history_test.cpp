// FLOPs a node in the history: a recorded cell keeps its tier's count (schema 4), a version-3 database reads
// with none and migrates keeping its cells, and a change of the count is flagged as the instruction count's
// is: found by detect_flops_changes, and failing history check when it grows.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <string>

#include "command.hpp"
#include "crafted_results.hpp"
#include "history_detect.hpp"
#include "history_store.hpp"
#include "sqlite_query.hpp"

namespace ladder::history {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::TempDir;

// A run of naive at n = 1e6 whose instruction counts carry `flops` a node (null: not counted).
fs::path run_with_flops(const fs::path& dir, const std::string& started, std::optional<double> flops) {
  json cells = json::array();
  testing::add_cell(cells, {"naive", 0, 1000000, 1, testing::around(0.01)});
  json document = testing::crafted_results(
      "vm", json::array({testing::crafted_card("naive", 0, {}, false, "minutes", 9)}), cells);
  document["context"]["run"]["started"] = started;
  InstructionCounts counts;
  counts.available = true;
  counts.tool = "callgrind";
  counts.target = "x86-64-v3";
  counts.integrand = "gauss";
  counts.n = {10000, 30000};
  counts.flops_method = "callgrind × the opcode table";
  counts.tiers = {
      {"naive", 83.0, {8.3e5, 2.49e6}, "", flops, flops ? std::optional<double>(9.0) : std::nullopt}};
  document["instructions"] = counts;
  return testing::write_results(dir, document);
}

TEST(FlopsHistory, ARecordedCellKeepsItsTiersFlopsANode) {
  TempDir dir;
  Store store((dir / "h.sqlite").string(), Store::Mode::write);
  store.record(run_with_flops(dir / "one", "2026-12-01T10:00:00Z", 25.0).string());
  store.record(run_with_flops(dir / "two", "2026-12-01T11:00:00Z", std::nullopt).string());
  const auto keys = store.series_keys("naive");
  ASSERT_EQ(keys.size(), 1u);
  const auto points = store.series(keys[0]);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].cell.flops_per_node, 25.0);
  EXPECT_EQ(points[0].cell.instructions_per_node, 83.0);
  EXPECT_FALSE(points[1].cell.flops_per_node) << "a run that counted no FLOPs records none";
}

TEST(FlopsHistory, AVersion3DatabaseReadsWithNoFlopsAndMigratesKeepingItsCells) {
  TempDir dir;
  const fs::path file = dir / "v3.sqlite";
  Store::create_at_version(file.string(), 3);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(
      sqlite3_exec(db,
                   "INSERT INTO runs VALUES (1, 'r1', '/old/results.json', '2026-01-01T00:00:00Z', "
                   "'2026-01-01T00:00:00Z', '', 'old', 'complete', 'unknown', 'unknown', 'unknown', "
                   "'m', 'oldhost', 'cpu', 2, 2, NULL, 'unknown', 'b', 'GNU', 'Release', '-O3', '{}');"
                   "INSERT INTO cells (id, run, position, name, tier, integrand, n, threads, ranks, status, "
                   "reason, median, instructions_per_node, tier_source_sha256) VALUES (1, 1, 0, "
                   "'naive/gauss/n:1000000/threads:1', 'naive', 'gauss', 1000000, 1, 1, 'ok', '', 1e7, "
                   "83, '');",
                   nullptr, nullptr, nullptr),
      SQLITE_OK);
  sqlite3_close(db);
  {
    const Store store(file.string(), Store::Mode::read);
    const auto cells = store.cells("r1");
    ASSERT_EQ(cells.size(), 1u);
    EXPECT_EQ(cells[0].instructions_per_node, 83.0);
    EXPECT_FALSE(cells[0].flops_per_node);
  }
  EXPECT_EQ(testing::query(file, "PRAGMA user_version"), "3") << "reading migrated the database";
  Store store(file.string(), Store::Mode::write);
  EXPECT_EQ(testing::query(file, "PRAGMA user_version"), std::to_string(schema_version));
  store.record(run_with_flops(dir / "new", "2026-12-01T10:00:00Z", 34.0).string());
  EXPECT_EQ(testing::query(file, "SELECT COUNT(*) FROM cells WHERE flops_per_node IS NULL"), "1");
  EXPECT_EQ(testing::query(file, "SELECT flops_per_node FROM cells WHERE flops_per_node IS NOT NULL"),
            "34.0");
}

// Ten runs of one cell, FLOPs a node `before` then, from run `at`, `after`; flat timings.
HistorySeries flops_series(double before, double after, std::size_t at) {
  HistorySeries series{"tuned-exp", 1000000, 1, "vm"};
  for (std::size_t i = 0; i < 10; ++i) {
    CellRun run;
    run.run_id = "r" + std::to_string(i);
    run.commit = "c" + std::to_string(i);
    run.median = run.min = run.max = 1e-3;
    run.repetitions = {1e-3, 1e-3, 1e-3};
    run.instructions_per_node = 11.0;
    run.flops_per_node = i < at ? before : after;
    series.runs.push_back(run);
  }
  return series;
}

TEST(FlopsHistory, AChangeOfTheCountIsFoundAndAGrowthFailsTheCheck) {
  const auto more = detect_flops_changes(flops_series(27, 34, 6));
  ASSERT_EQ(more.size(), 1u);
  EXPECT_EQ(more[0].index, 6u);
  EXPECT_EQ(more[0].kind, ChangeKind::flops);
  EXPECT_EQ(direction(more[0]), "more FLOPs");
  EXPECT_DOUBLE_EQ(more[0].before, 27);
  EXPECT_DOUBLE_EQ(more[0].after, 34);
  EXPECT_TRUE(detect_instruction_changes(flops_series(27, 34, 6)).empty()) << "the instructions did not move";
  EXPECT_EQ(direction(detect_flops_changes(flops_series(34, 27, 3)).at(0)), "fewer FLOPs");
  EXPECT_TRUE(detect_flops_changes(flops_series(34, 34, 3)).empty());

  const auto reasons = check_newest(flops_series(27, 34, 9));
  ASSERT_EQ(reasons.size(), 1u);
  EXPECT_NE(reasons[0].find("more FLOPs per node"), std::string::npos) << reasons[0];
  EXPECT_NE(reasons[0].find("34 against 27"), std::string::npos) << reasons[0];
  EXPECT_TRUE(check_newest(flops_series(34, 27, 9)).empty()) << "fewer FLOPs is not a failure";
}

}  // namespace
}  // namespace ladder::history
