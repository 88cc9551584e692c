// The files a run leaves behind, on crafted journals: results.csv's columns and values against
// results.json, a failed cell in both, and rewrites that fail midway (common/atomic_file, the journal's
// append) leaving the old file whole and no temporary file behind.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "atomic_file.hpp"
#include "command.hpp"
#include "crafted_journal.hpp"
#include "errors.hpp"
#include "file_size_limit.hpp"
#include "results.hpp"

namespace ladder::testing {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// The header as the README promises it: one row a cell, under Google Benchmark's and Ladder's names.
const std::string csv_header =
    "tier,rung,integrand,a,b,n,threads,reproducible_requested,status,reason,repetitions,iterations,"
    "real_time_median_ns,real_time_min_ns,real_time_max_ns,real_time_mean_ns,real_time_stddev_ns,real_time_"
    "cv,"
    "cpu_time_median_ns,ns_per_node,nodes_per_second,parallel_efficiency,result,rel_error,rounding_error,"
    "within_rounding_bound,bit_identical,reproducible,peak_heap_bytes,allocations,peak_rss_bytes,"
    "peak_rss_growth_bytes,minor_faults,major_faults,instruction_set,ipc,cache_misses,branch_misses,"
    "counters_unavailable,other_load_cores";

// One CSV line's fields (RFC 4180 quoting: "" inside quotes is a quote).
std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"', ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

// results.csv as rows keyed by column.
std::vector<std::map<std::string, std::string>> rows_of(const std::string& csv, std::string& header_line) {
  std::istringstream lines(csv);
  std::string line;
  std::getline(lines, header_line);
  const auto header = fields_of(header_line);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(lines, line)) {
    const auto fields = fields_of(line);
    EXPECT_EQ(fields.size(), header.size()) << line;
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < std::min(fields.size(), header.size()); ++i) row[header[i]] = fields[i];
    rows.push_back(row);
  }
  return rows;
}

// The entries of one cell in a results document, by aggregate name ("" for the first repetition).
std::map<std::string, json> entries_of(const json& document, const std::string& cell) {
  std::map<std::string, json> entries;
  for (const auto& entry : document.at("benchmarks"))
    if (entry.at("cell") == cell) entries.emplace(entry.value("aggregate_name", ""), entry);
  return entries;
}

// A CSV field against the JSON value it was written from: numbers to the last bit, booleans and strings
// as written.
void expect_field(const std::string& field, const json& value, const std::string& what) {
  if (value.is_number()) {
    ASSERT_FALSE(field.empty()) << what;
    EXPECT_EQ(std::strtod(field.c_str(), nullptr), value.get<double>()) << what << ": " << field;
  } else if (value.is_string()) {
    EXPECT_EQ(field, value.get<std::string>()) << what;
  } else if (value.is_null()) {
    EXPECT_EQ(field, "") << what;
  } else {
    EXPECT_EQ(field, value.dump()) << what;
  }
}

TEST(ResultsCsv, HasTheDocumentedColumnsAndEachRowAgreesWithResultsJson) {
  CellResult measured = measured_cell("openmp", 2, 2e6);
  measured.measurement->memory.peak_heap_bytes = 8e5;
  measured.worker.other_load_cores = 0.125;
  const Journal journal =
      crafted_journal({measured, failed_cell("naive", "the kernel threw: \"no\", twice")});
  const json document = results_document(journal, complete_run);
  std::string header;
  const auto rows = rows_of(results_csv(journal), header);
  EXPECT_EQ(header, csv_header);
  ASSERT_EQ(rows.size(), 2u) << "one row a cell";

  // The measured cell: its known figures, then every column against the entry it comes from.
  const auto& row = rows[0];
  EXPECT_EQ(row.at("tier"), "openmp");
  EXPECT_EQ(row.at("status"), "ok");
  EXPECT_EQ(row.at("threads"), "2");
  EXPECT_EQ(row.at("real_time_median_ns"), "2009000");  // 2e6 × 1.0045
  EXPECT_EQ(row.at("real_time_min_ns"), "2000000");
  EXPECT_EQ(row.at("real_time_max_ns"), "2018000");
  EXPECT_EQ(row.at("real_time_cv"), "0.0030000000000000001") << "a fraction, to 17 digits";
  EXPECT_DOUBLE_EQ(std::strtod(row.at("ns_per_node").c_str(), nullptr), 2009000.0 / 100'000) << "median / n";
  EXPECT_DOUBLE_EQ(std::strtod(row.at("nodes_per_second").c_str(), nullptr), 100'000 / (2009000.0 * 1e-9));
  EXPECT_EQ(row.at("parallel_efficiency"), "1") << "CPU = 2 threads × wall";
  EXPECT_EQ(row.at("result"), "0.74682413281242699");
  EXPECT_EQ(row.at("peak_heap_bytes"), "800000");
  EXPECT_EQ(row.at("other_load_cores"), "0.125");
  EXPECT_EQ(row.at("counters_unavailable"), "unavailable: not recorded by this version of Ladder");

  const auto entries = entries_of(document, measured.name);
  const json& first = entries.at("");
  // The columns taken from the cell's entries as they are; the times, rates and counters are checked below.
  const std::set<std::string> derived = {
      "cpu_time_median_ns", "ns_per_node",   "nodes_per_second",    "parallel_efficiency", "ipc",
      "cache_misses",       "branch_misses", "counters_unavailable"};
  for (const auto& column : fields_of(header))
    if (column.rfind("real_time_", 0) != 0 && !derived.count(column))
      expect_field(row.at(column), first.value(column, json()), column);
  for (const char* aggregate : {"median", "min", "max", "mean", "stddev"})
    expect_field(row.at(std::string("real_time_") + aggregate + "_ns"), entries.at(aggregate).at("real_time"),
                 aggregate);
  expect_field(row.at("real_time_cv"), entries.at("cv").at("real_time"), "cv");
  expect_field(row.at("cpu_time_median_ns"), entries.at("median").at("cpu_time"), "cpu median");
  for (const char* rate : {"ns_per_node", "nodes_per_second", "parallel_efficiency"})
    expect_field(row.at(rate), entries.at("median").at(rate), rate);

  // The failed cell: its status and reason (quoted, as it holds a comma and quotes), and no figures.
  const auto& failed = rows[1];
  EXPECT_EQ(failed.at("status"), "failed");
  EXPECT_EQ(failed.at("reason"), "the kernel threw: \"no\", twice");
  for (const char* empty : {"real_time_median_ns", "ns_per_node", "result", "within_rounding_bound"})
    EXPECT_EQ(failed.at(empty), "") << empty;
}

TEST(ResultsJson, AFailedCellIsAnErroredRunWithItsReasonAndNoFigures) {
  const CellResult failed = failed_cell("naive", "the worker exited with code 3 and no result");
  const json document = results_document(crafted_journal({failed}), complete_run);
  const auto entries = entries_of(document, failed.name);
  ASSERT_EQ(entries.size(), 1u) << "one entry, as Google Benchmark writes a run that stopped with an error";
  const json& entry = entries.begin()->second;
  EXPECT_EQ(entry.at("status"), "failed");
  EXPECT_EQ(entry.at("error_occurred"), true);
  EXPECT_EQ(entry.at("error_message"), "the worker exited with code 3 and no result");
  EXPECT_FALSE(entry.contains("result"));
  EXPECT_FALSE(entry.contains("within_rounding_bound"));
  EXPECT_TRUE(is_failure(CellStatus::failed)) << "a failed cell makes the run's exit code 1";
}

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(AtomicFile, ARewriteReplacesTheWholeFileAndLeavesNothingElse) {
  TempDir dir;
  const std::string path = dir / "results.json";
  write_file_atomically(path, std::string(10'000, 'a'));
  write_file_atomically(path, "short");
  EXPECT_EQ(read_text(path), "short");
  EXPECT_EQ(names_in(dir / ""), std::vector<std::string>{"results.json"}) << "no temporary file left";
}

TEST(AtomicFile, ARewriteThatFailsMidwayLeavesTheOldFileWholeAndNoTemporary) {
  TempDir dir;
  const std::string path = dir / "results.csv";
  const std::string old_contents = "tier,n\nxsimd,1000\n";
  write_file_atomically(path, old_contents);
  {
    FileSizeLimit limit(4096);
    ASSERT_TRUE(limit.set());
    try {
      write_file_atomically(path, std::string(100'000, 'b'));  // the first 4 KiB are written, then EFBIG
      ADD_FAILURE() << "a write past the file size limit succeeded";
    } catch (const WriteError& failure) {
      const std::string message = failure.what();
      EXPECT_NE(message.find("cannot write " + path + ".tmp."), std::string::npos) << message;
      EXPECT_NE(message.find("File too large"), std::string::npos) << message;
    }
  }
  EXPECT_EQ(read_text(path), old_contents);
  EXPECT_EQ(names_in(dir / ""), std::vector<std::string>{"results.csv"}) << "the temporary file is removed";
}

TEST(AtomicFile, ARenameThatFailsLeavesNoTemporaryAndSaysWhichFile) {
  TempDir dir;
  fs::create_directories(dir / "results.json/in-the-way");  // a directory where the file would go
  try {
    write_file_atomically(dir / "results.json", "{}");
    ADD_FAILURE() << "a file replaced a non-empty directory";
  } catch (const WriteError& failure) {
    EXPECT_NE(std::string(failure.what()).find("cannot replace " + (dir / "results.json").string()),
              std::string::npos)
        << failure.what();
  }
  EXPECT_EQ(names_in(dir / ""), std::vector<std::string>{"results.json"});
  EXPECT_TRUE(fs::is_directory(dir / "results.json/in-the-way"));
}

// The journal is appended, not rewritten: a line cut short by a failed write is dropped by the next read,
// and cut from the file by --resume's repair, leaving the journal byte for byte as it was.
TEST(Journal, AnAppendThatFailsMidwayIsCutOffAndTheJournalIsAsBefore) {
  TempDir dir;
  const std::string path = dir / "journal.jsonl";
  const CellResult first = measured_cell("xsimd");
  write_file_atomically(path, nlohmann::json(crafted_header()).dump() + "\n");
  append_journal(path, first);
  const std::string before = read_text(path);
  {
    FileSizeLimit limit(before.size() + 100);
    ASSERT_TRUE(limit.set());
    EXPECT_THROW(append_journal(path, measured_cell("openmp", 2)), WriteError);
  }
  ASSERT_GT(read_text(path).size(), before.size()) << "the failed append wrote part of its line";
  const Journal journal = read_journal(path, true);
  ASSERT_EQ(journal.cells.size(), 1u);
  EXPECT_EQ(journal.cells[0].name, first.name);
  EXPECT_EQ(read_text(path), before);
}

}  // namespace
}  // namespace ladder::testing
