// Older schema-2 files (common/schema_v2.hpp): a file written before schema 2 gained its later fields reads
// through the migration to the values those fields mean (the ones the readers fell back to before), and
// gives the same report as the file written out whole; past the migration every field is read strictly.
#include "schema_v2.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "command.hpp"
#include "crafted_results.hpp"
#include "errors.hpp"
#include "json_reader.hpp"
#include "results_file.hpp"

namespace ladder {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::Outcome;

// A schema-2 document as an early schema-2 Ladder wrote it: cards with only their first fields (and one
// vectorization record with only its build), cells without their ranks, oversubscription, finishing time,
// null errors and null memory figures.
json older_document() {
  json cards = json::array({testing::crafted_card("naive", 1, {}, false, "minutes", 12),
                            testing::crafted_card("xsimd", 7, {"xsimd"}, false, "days", 40)});
  cards[1]["vectorization"] = json::array({{{"build", "native"}}});
  json cells = json::array();
  testing::add_cell(cells, {"naive", 1, 1000000, 1, testing::around(0.01)});
  testing::add_cell(cells, {"xsimd", 7, 1000000, 1, testing::around(0.002)});
  testing::add_cell_not_run(cells, {"xsimd", 7, 10000000, 1, {}}, "failed", "the kernel threw: crafted");
  cells[1]["measurement"]["exact"] = nullptr;
  cells[1]["measurement"]["memory"]["allocations"] = nullptr;
  json document = testing::crafted_results("older-box", cards, cells);
  // Written as this Ladder writes (schema 3), then made the version-2 file it stands for: no rounds.
  EXPECT_EQ(document.at("schema_version"), results_schema_version);
  document["schema_version"] = 2;
  document["context"]["matrix"].erase("rounds");
  for (auto& cell : document.at("cells")) {
    for (const char* key : {"oversubscribed", "finished"}) cell.erase(key);
    cell["cell"].erase("ranks");
    if (!cell.contains("measurement")) continue;
    json& measurement = cell["measurement"];
    for (const char* key : {"exact", "midpoint", "rel_error", "rounding_error", "rounding_bound"})
      if (measurement[key].is_null()) measurement.erase(key);
    for (auto key : {"peak_heap_bytes", "allocations", "peak_rss_bytes", "peak_rss_growth_bytes",
                     "minor_faults", "major_faults"})
      if (measurement["memory"][key].is_null()) measurement["memory"].erase(key);
  }
  return document;
}

// DIR/results.json holding `document` as it is (write_results would read its cells to write Google
// Benchmark's entries anew, and an older file's cells are read only through the migration).
void write_older(const fs::path& dir, const json& document) {
  fs::create_directories(dir);
  testing::write_text(dir / "results.json", document.dump(1));
}

TEST(OlderVersion2, ItsLaterFieldsReadAsWhatAFileWrittenBeforeThemMeans) {
  testing::TempDir dir;
  const json older = older_document();
  ASSERT_FALSE(older.at("tiers")[0].contains("kernel_header"));
  ASSERT_FALSE(older.at("cells")[1].at("measurement").contains("exact"));
  write_older(dir.str(), older);
  const ResultsFile read = read_results_file(dir.str());

  ASSERT_EQ(read.tiers.size(), 2u);
  for (const CardRecord& card : read.tiers) {
    EXPECT_EQ(card.summation, "") << card.id;
    EXPECT_EQ(card.source_file, "") << card.id;
    EXPECT_EQ(card.kernel_header, "") << card.id;
    EXPECT_TRUE(card.shares.empty()) << card.id;
    EXPECT_TRUE(card.environment.empty()) << card.id;
    EXPECT_EQ(card.heap_bytes_per_node, 0) << card.id;
    EXPECT_EQ(card.memory_bytes_per_node, 0) << card.id;
    EXPECT_EQ(card.memory_bytes_counted, "") << card.id;
    EXPECT_FALSE(card.peer) << card.id;
    EXPECT_EQ(card.language, "C++") << card.id;
    EXPECT_FALSE(card.size_limit) << card.id;
    EXPECT_EQ(card.note, "") << card.id;
    EXPECT_FALSE(card.max_ulp_error) << card.id;
  }
  EXPECT_TRUE(read.tiers[0].vectorization.empty());
  ASSERT_EQ(read.tiers[1].vectorization.size(), 1u);
  const VectorizationRecord& loop = read.tiers[1].vectorization[0];
  EXPECT_EQ(loop.build, "native");
  EXPECT_EQ(loop.status, "");
  EXPECT_EQ(loop.lanes, 0);
  EXPECT_EQ(loop.register_bits, 0);
  EXPECT_FALSE(loop.linked);
  EXPECT_FALSE(loop.flops_per_node);
  EXPECT_FALSE(loop.fp_instructions_per_node);
  EXPECT_EQ(loop.flops_evidence, "");

  ASSERT_EQ(read.cells.size(), 3u);
  for (const CellResult& cell : read.cells) {
    EXPECT_EQ(cell.ranks, 1) << cell.name;
    EXPECT_FALSE(cell.oversubscribed) << cell.name;
    EXPECT_EQ(cell.finished, "") << cell.name;
  }
  EXPECT_FALSE(read.cells[1].exact());
  EXPECT_EQ(read.cells[0].exact(), 0.7468) << "a figure that is there is read as it is";
  EXPECT_FALSE(read.cells[1].measurement->memory.allocations);
  EXPECT_FALSE(read.cells[1].measurement->memory.peak_rss_growth_bytes);
  EXPECT_EQ(read.cells[1].peak_rss(), 1 << 20);
  EXPECT_EQ(read.cells[2].status, CellStatus::failed);
}

// report.md and report.html of `ladder report DIR --out OUT`.
std::pair<std::string, std::string> report_of(const fs::path& dir, const fs::path& out) {
  const Outcome made =
      testing::run_command(LADDER_BINARY, "report " + dir.string() + " --out " + out.string());
  EXPECT_EQ(made.exit_code, 0) << made.output;
  return {testing::read_text(out / "report.md"), testing::read_text(out / "report.html")};
}

TEST(OlderVersion2, GivesTheSameReportAsTheFileWrittenOutWhole) {
  testing::TempDir dir;
  const fs::path run = fs::path(dir.str()) / "run";
  write_older(run, older_document());
  const auto [older_markdown, older_html] = report_of(run, fs::path(dir.str()) / "older");

  json whole = testing::read_json(run / "results.json");
  const ResultsFile read = read_results_file(run.string());
  whole["tiers"] = read.tiers;
  whole["cells"] = read.cells;
  testing::write_text(run / "results.json", whole.dump(1));  // the same path: the report names it
  json completed = whole;
  complete_results_v2(completed);
  EXPECT_EQ(completed, whole) << "a file that has every field is left as it is";
  const auto [whole_markdown, whole_html] = report_of(run, fs::path(dir.str()) / "whole");
  EXPECT_FALSE(older_markdown.empty());
  EXPECT_EQ(whole_markdown, older_markdown);
  EXPECT_EQ(whole_html, older_html);
}

// A field schema 2 had from its first file is not filled in: its absence is a damaged file, named by its
// path; and past the migration the readers take nothing for granted.
TEST(OlderVersion2, AMissingFieldThatIsNotALaterOneIsStillAnError) {
  testing::TempDir dir;
  json document = older_document();
  document["tiers"][1].erase("summary");
  write_older(dir.str(), document);
  try {
    (void)read_results_file(dir.str());
    FAIL() << "a card without its summary was read";
  } catch (const InputError& problem) {
    EXPECT_NE(std::string(problem.what()).find("tiers[1]"), std::string::npos) << problem.what();
    EXPECT_NE(std::string(problem.what()).find("summary"), std::string::npos) << problem.what();
  }
  const json card = testing::crafted_card("naive", 1, {}, false, "minutes", 12);
  try {
    (void)read_card_record(JsonReader(card));
    FAIL() << "a card of an older file was read without its migration";
  } catch (const SchemaError& problem) {
    EXPECT_NE(std::string(problem.what()).find("summation"), std::string::npos) << problem.what();
  }
}

}  // namespace
}  // namespace ladder
