// Builds in the history store: a cell's build is part of its series' key (two builds of one tier are two
// series, named apart), the schema's migration to version 3 adds the cells' build, and a version-2 database
// is read as it is (its cells of no build) and migrates with its cells kept.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <set>
#include <string>

#include "command.hpp"
#include "crafted_builds.hpp"
#include "history_series.hpp"
#include "history_store.hpp"
#include "sqlite_query.hpp"

namespace ladder::history {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::TempDir;

using ladder::testing::query;

void execute(const fs::path& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK) << (error ? error : "");
  sqlite3_free(error);
  sqlite3_close(db);
}

fs::path three_build_results(const TempDir& dir) {
  json document = testing::crafted_builds_run("vm", testing::three_builds());
  document["context"]["run"]["started"] = "2026-12-01T10:00:00Z";
  return testing::write_results(dir / "builds", document);
}

TEST(HistoryBuilds, TwoBuildsOfOneTierAreTwoSeriesNamedByTheirBuild) {
  TempDir dir;
  Store store((dir / "h.sqlite").string(), Store::Mode::write);
  EXPECT_EQ(store.record(three_build_results(dir).string()).cells, 24u);
  EXPECT_EQ(query(dir / "h.sqlite", "SELECT COUNT(DISTINCT build_id) FROM cells"), "3");
  std::set<std::string> builds;
  for (const auto& key : store.series_keys("xsimd")) {
    if (key.n != 10000000) continue;
    builds.insert(key.build);
    const auto points = store.series(key);
    ASSERT_EQ(points.size(), 1u) << key.build;
    EXPECT_EQ(points[0].cell.build, key.build);
    const double expected_ms = key.build == "gcc-native" ? 1.0 : key.build == "gcc-x86-64-v2" ? 2.0 : 2.5;
    EXPECT_NEAR(*points[0].cell.median, expected_ms * 1e6, 1e-3) << key.build;
  }
  EXPECT_EQ(builds, (std::set<std::string>{"gcc-native", "gcc-x86-64-v2", "clang-x86-64-v2"}));
  std::set<std::string> named;
  for (const auto& series : history_series(store, {"xsimd", "", ""}))
    if (series.n == 10000000) named.insert(series.tier);
  EXPECT_EQ(named, (std::set<std::string>{"xsimd, build gcc-native", "xsimd, build gcc-x86-64-v2",
                                          "xsimd, build clang-x86-64-v2"}));
}

TEST(HistoryBuilds, ACellOfARunOfOneBuildHasNoBuildAndItsSeriesIsNamedAsBefore) {
  TempDir dir;
  json cells = json::array();
  testing::add_cell(cells, {"naive", 1, 1000000, 1, testing::around(0.01)});
  const json cards = json::array({testing::crafted_card("naive", 1, {}, false, "hours", 20)});
  Store store((dir / "h.sqlite").string(), Store::Mode::write);
  store.record(testing::write_results(dir / "one", testing::crafted_results("vm", cards, cells)).string());
  const auto keys = store.series_keys("naive");
  ASSERT_EQ(keys.size(), 1u);
  EXPECT_EQ(keys[0].build, "");
  EXPECT_EQ(history_series(store).at(0).tier, "naive");
}

// A version-2 database as that release wrote it: one run, one measured cell with its repetitions.
void version_2_database(const fs::path& file) {
  Store::create_at_version(file.string(), 2);
  execute(
      file,
      "INSERT INTO runs VALUES (1, 'r1', '/old/results.json', '2026-01-01T00:00:00Z', "
      "'2026-01-01T00:00:00Z', '', 'old', 'complete', 'unknown', 'unknown', 'unknown', "
      "'m', 'oldhost', 'cpu', 2, 2, NULL, 'unknown', 'b', 'GNU', 'Release', '-O3', '{}');"
      "INSERT INTO cells (id, run, position, name, tier, integrand, n, threads, ranks, status, reason, "
      "median, "
      "min, max, tier_source_sha256) VALUES (1, 1, 0, 'naive/gauss/n:1000000/threads:1', 'naive', 'gauss', "
      "1000000, 1, 1, 'ok', '', 1.1e7, 1.0e7, 1.2e7, '');"
      "INSERT INTO repetitions VALUES (1, 0, 1.0e7, 1.0e7), (1, 1, 1.1e7, 1.1e7), (1, 2, 1.2e7, 1.2e7);");
}

TEST(HistoryBuilds, AVersion2DatabaseIsReadAsItIsWithItsCellsOfNoBuild) {
  TempDir dir;
  const fs::path file = dir / "v2.sqlite";
  version_2_database(file);
  const std::string before = testing::read_text(file);
  {
    const Store store(file.string(), Store::Mode::read);
    const auto cells = store.cells("r1");
    ASSERT_EQ(cells.size(), 1u);
    EXPECT_EQ(cells[0].build, "");
    const auto keys = store.series_keys("naive");
    ASSERT_EQ(keys.size(), 1u);
    EXPECT_EQ(keys[0].build, "");
    const auto points = store.series(keys[0]);
    ASSERT_EQ(points.size(), 1u);
    EXPECT_EQ(points[0].cell.repetitions.size(), 3u);
  }
  EXPECT_EQ(query(file, "PRAGMA user_version"), "2");
  EXPECT_TRUE(testing::read_text(file) == before) << "reading a version-2 database changed it";
}

TEST(HistoryBuilds, AVersion2DatabaseMigratesKeepingItsCellsWithAnEmptyBuild) {
  TempDir dir;
  const fs::path file = dir / "v2.sqlite";
  version_2_database(file);
  Store store(file.string(), Store::Mode::write);
  EXPECT_EQ(query(file, "PRAGMA user_version"), std::to_string(schema_version));
  EXPECT_GE(schema_version, 3);  // and on: version 4 adds the cells' FLOPs (tests/flops_history_test.cpp)
  EXPECT_EQ(query(file, "SELECT build_id FROM cells WHERE id = 1"), "");
  const auto old_cells = store.cells("r1");
  ASSERT_EQ(old_cells.size(), 1u);
  EXPECT_EQ(old_cells[0].build, "");
  EXPECT_DOUBLE_EQ(*old_cells[0].median, 1.1e7);
  EXPECT_EQ(store.record(three_build_results(dir).string()).cells, 24u);
  std::multiset<std::string> builds;  // naive at 1e6, 1 thread: the old cell's series and one a new build
  for (const auto& key : store.series_keys("naive"))
    if (key.n == 1000000) builds.insert(key.build);
  EXPECT_EQ(builds, (std::multiset<std::string>{"", "clang-x86-64-v2", "gcc-native", "gcc-x86-64-v2"}));
}

}  // namespace
}  // namespace ladder::history
