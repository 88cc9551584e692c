// Results schema 1, read through its one migration (common/schema_v1.hpp): every results file under
// tests/fixtures (all of schema 1, written by `ladder run` before schema 2) reads back, and a report made
// from one is the same report as one made from that file rewritten as schema 2, and as schema 3 (rounds:
// common/schema_v2.hpp's migrate_to_v3).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "cell_result.hpp"
#include "command.hpp"
#include "results_file.hpp"
#include "schema_v1.hpp"
#include "schema_v2.hpp"

namespace ladder {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::Outcome;
using testing::read_text;
using testing::run_command;

// tests/fixtures/NAME.json.gz, unpacked to DIR/results.json.
void unpack(const std::string& name, const fs::path& dir) {
  fs::create_directories(dir);
  const Outcome unpacked = run_command("gzip", "-dc " + std::string(LADDER_FIXTURES_DIR) + "/" + name +
                                                   ".json.gz > " + (dir / "results.json").string());
  ASSERT_EQ(unpacked.exit_code, 0) << unpacked.output;
}

// report.md and report.html of `ladder report DIR --out OUT`.
std::pair<std::string, std::string> report_of(const fs::path& dir, const fs::path& out) {
  const Outcome made = run_command(LADDER_BINARY, "report " + dir.string() + " --out " + out.string());
  EXPECT_EQ(made.exit_code, 0) << made.output;
  return {read_text(out / "report.md"), read_text(out / "report.html")};
}

class Version1Fixture : public ::testing::TestWithParam<const char*> {};

TEST_P(Version1Fixture, ReadsBackAndGivesTheSameReportAsItsVersion2Rewrite) {
  const fs::path dir = fs::temp_directory_path() / ("ladder-migration-" + std::string(GetParam()));
  fs::remove_all(dir);
  unpack(GetParam(), dir / "run");
  const json v1 = testing::read_json(dir / "run" / "results.json");
  ASSERT_EQ(v1.at("schema_version"), 1) << "the fixtures are schema 1, as the previous release wrote them";
  std::set<std::string> names;
  for (const auto& entry : v1.at("benchmarks")) names.insert(entry.at("cell").get<std::string>());

  const ResultsFile read = read_results_file((dir / "run").string());
  ASSERT_EQ(read.cells.size(), names.size()) << "one record a cell";
  std::size_t measured = 0;
  for (const auto& cell : read.cells) {
    EXPECT_TRUE(names.count(cell.name)) << cell.name;
    if (!cell.ok()) continue;
    ++measured;
    EXPECT_GT(cell.median(), 0) << cell.name;
    EXPECT_FALSE(cell.measurement->repetitions.empty()) << cell.name;
    EXPECT_LE(cell.min(), cell.median()) << cell.name;
    EXPECT_LE(cell.median(), cell.max()) << cell.name;
  }
  EXPECT_GT(measured, 0u);

  const auto [v1_markdown, v1_html] = report_of(dir / "run", dir / "report-v1");
  const json v2 = migrate_results_v1(v1);
  EXPECT_EQ(v2.at("schema_version"), 2);
  EXPECT_EQ(v2.at("benchmarks"), v1.at("benchmarks")) << "Google Benchmark's view is kept as it was";
  testing::write_text(dir / "run" / "results.json", v2.dump(1));  // the same path: the report names it
  const ResultsFile rewritten = read_results_file((dir / "run").string());
  ASSERT_EQ(rewritten.cells.size(), read.cells.size());
  for (std::size_t i = 0; i < read.cells.size(); ++i)
    EXPECT_EQ(json(rewritten.cells[i]), json(read.cells[i])) << read.cells[i].name;
  const auto [v2_markdown, v2_html] = report_of(dir / "run", dir / "report-v2");
  EXPECT_FALSE(v1_markdown.empty());
  EXPECT_EQ(v2_markdown, v1_markdown);
  EXPECT_EQ(v2_html, v1_html);
  // And rewritten as schema 3: its matrix ran one round a cell, no cell has rounds, the noise is the
  // documented default as before, and the report is the same again.
  json v3 = v2;
  migrate_to_v3(v3);
  v3["schema_version"] = 3;
  EXPECT_EQ(v3.at("context").at("matrix").at("rounds"), 1);
  testing::write_text(dir / "run" / "results.json", v3.dump(1));
  const ResultsFile third = read_results_file((dir / "run").string());
  for (const auto& cell : third.cells) EXPECT_TRUE(cell.rounds.empty()) << cell.name;
  const auto [v3_markdown, v3_html] = report_of(dir / "run", dir / "report-v3");
  EXPECT_EQ(v3_markdown, v1_markdown);
  EXPECT_EQ(v3_html, v1_html);
  EXPECT_NE(v3_markdown.find("the documented default 5 %"), std::string::npos);
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, Version1Fixture,
                         ::testing::Values("default_run_results", "quick_peers_results",
                                           "six_integrands_results"));

// Schema 1 kept a cell's thread placement as comma strings; the migration makes them lists.
TEST(Migration, AVersion1ThreadPlacementBecomesListsOfCpus) {
  json line = {
      {"kind", "cell"},
      {"measurement",
       {{"memory",
         {{"thread_placement",
           {{"threads", 2}, {"cpus", 3}, {"union_of_cpus", "0,1,4"}, {"per_thread", {"0-1", "4"}}}}}}}}};
  migrate_journal_line_v1(line);
  EXPECT_EQ(line.at("measurement").at("memory").at("thread_placement"),
            json({{"threads", 2}, {"union_of_cpus", {0, 1, 4}}, {"per_thread", {{0, 1}, {4}}}}));
  const json again = line;
  migrate_journal_line_v1(line);  // a resumed schema-1 journal has lines of both schemas
  EXPECT_EQ(line, again);
}

// An entry the migration cannot read is named by its path, as a reader names it.
TEST(Migration, ADamagedVersion1EntryIsNamedByItsPath) {
  const json entry = {{"name", "naive/gauss/n:10/threads:1"},
                      {"cell", "naive/gauss/n:10/threads:1"},
                      {"run_type", "iteration"},
                      {"tier", "naive"},
                      {"integrand", "gauss"},
                      {"n", 10},
                      {"threads", 1},
                      {"rung", 0},
                      {"status", "ok"},
                      {"real_time", "fast"},
                      {"cpu_time", 1}};
  const json document = {{"schema_version", 1}, {"benchmarks", {entry}}};
  try {
    migrate_results_v1(document);
    FAIL() << "a damaged entry was migrated";
  } catch (const SchemaError& problem) {
    EXPECT_NE(std::string(problem.what()).find("benchmarks[0].real_time"), std::string::npos)
        << problem.what();
  }
  json without = document;
  without["benchmarks"][0]["run_type"] = "aggregate";
  without["benchmarks"][0]["aggregate_name"] = "median";
  without["benchmarks"][0]["real_time"] = 5;
  try {
    migrate_results_v1(without);
    FAIL() << "an ok cell with no repetitions was migrated";
  } catch (const SchemaError& problem) {
    EXPECT_NE(std::string(problem.what()).find("is ok but has no repetitions"), std::string::npos)
        << problem.what();
  }
}

// A file written before a peer's card said its place in the report: the peers the report knew by id get it
// (py-list the baseline, py-inlined and the Cython peers their staircase); a file whose cards say it is left.
TEST(Migration, PeersPlacesInTheReportComeFromTheirIdsInAnOlderFile) {
  const auto card = [](const std::string& id, bool peer) { return json{{"id", id}, {"peer", peer}}; };
  json document = {{"tiers",
                    {card("naive", false), card("py-list", true), card("py-inlined", true),
                     card("cython", true), card("numpy", true)}}};
  complete_results_v2(document);
  const json& cards = document.at("tiers");
  EXPECT_EQ(cards[1].value("baseline", false), true);
  EXPECT_EQ(cards[2].value("staircase", ""), "py-inlined compiled by Cython");
  EXPECT_EQ(cards[3].value("staircase", ""), "py-inlined compiled by Cython");
  for (const int plain : {0, 4})
    EXPECT_FALSE(cards[plain].contains("staircase") || cards[plain].contains("baseline")) << cards[plain];
  EXPECT_FALSE(cards[2].contains("baseline"));

  json newer = {{"tiers", {card("py-list", true), card("cython", true)}}};
  newer["tiers"][1]["staircase"] = "its own title";
  complete_results_v2(newer);
  EXPECT_FALSE(newer.at("tiers")[0].contains("baseline")) << "a file whose cards say it is as written";
  EXPECT_EQ(newer.at("tiers")[1].at("staircase"), "its own title");
}

}  // namespace
}  // namespace ladder
