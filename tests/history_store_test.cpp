// Issue 18, the store: every run kept in SQLite (history/history_store.hpp). Crafted results files are
// recorded and read back field by field; `ladder history import` is idempotent; a database of the previous
// release lists the same runs. Two writers at once, a writer killed mid-record, corrupt, foreign and
// read-only files, and `ladder run` recording itself: history_integrity_test.cpp.
#include "history_store.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "history_store_support.hpp"

namespace ladder::testing {
namespace {

using history::Store;

TEST(HistoryStore, Sha256MatchesTheStandardsTestVectors) {
  EXPECT_EQ(history::sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(history::sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(history::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(HistoryStore, RecordsAndReadsBackEveryField) {
  TempDir scratch;
  const fs::path dir = write_results(scratch / "run", crafted_run("alpha", "2026-11-30T10:00:00Z"));
  Store store((scratch / "h.sqlite").string(), Store::Mode::write);
  const auto recorded = store.record(dir.string());
  EXPECT_TRUE(recorded.added);
  EXPECT_EQ(recorded.cells, 4u);
  EXPECT_EQ(recorded.run_id, history::sha256_hex(read_text(dir / "results.json")));

  const auto runs = store.runs();
  ASSERT_EQ(runs.size(), 1u);
  const auto& run = runs[0];
  EXPECT_EQ(run.run_id, recorded.run_id);
  EXPECT_EQ(run.results_path, fs::absolute(dir / "results.json").lexically_normal().string());
  EXPECT_EQ(run.started, "2026-11-30T10:00:00Z");
  EXPECT_EQ(run.finished, "2026-11-30T23:59:59Z");
  EXPECT_EQ(run.label, "alpha");
  EXPECT_EQ(run.status, "complete");
  EXPECT_EQ(run.git_commit, "0123456789abcdef0123456789abcdef01234567");
  EXPECT_EQ(run.git_branch, "main");
  EXPECT_EQ(run.git_dirty, "no");
  EXPECT_EQ(run.tier_sources,
            (std::map<std::string, std::string>{{"variants/naive.cpp", std::string(64, 'a')},
                                                {"variants/xsimd.cpp", std::string(64, 'b')}}));
  EXPECT_EQ(run.machine.size(), 64u);
  EXPECT_EQ(run.host, "alpha");
  EXPECT_EQ(run.cpu_model, "a test CPU");
  EXPECT_EQ(run.logical_cpus, 2);
  EXPECT_EQ(run.physical_cores, 2);
  EXPECT_EQ(run.memory_total_bytes, 8.0 * 1024 * 1024 * 1024);
  EXPECT_NE(run.topology, "unknown");
  EXPECT_EQ(run.build_fingerprint.size(), 64u);
  EXPECT_EQ(run.compiler, "GNU 12.2.0");
  EXPECT_EQ(run.build_type, "Release");
  EXPECT_EQ(run.common_flags, "-O3 -DNDEBUG -march=native");
  EXPECT_EQ(run.libraries, (std::map<std::string, std::string>{{"eigen", "3.4.0"}, {"xsimd", "8.1.0"}}));
  EXPECT_EQ(run.tiers, (std::vector<std::string>{"cuda", "naive", "xsimd"}));
  EXPECT_EQ(run.cells, 4);
  EXPECT_FALSE(run.recorded.empty());

  const auto cells = store.cells(run.run_id);
  ASSERT_EQ(cells.size(), 4u);
  const auto& naive = cells[0];
  EXPECT_EQ(naive.name, "naive/gauss/n:1000000/threads:1");
  EXPECT_EQ(naive.tier, "naive");
  EXPECT_EQ(naive.integrand, "gauss");
  EXPECT_EQ(naive.n, 1000000);
  EXPECT_EQ(naive.threads, 1);
  EXPECT_EQ(naive.ranks, 1);
  EXPECT_EQ(naive.status, "ok");
  EXPECT_EQ(naive.repetitions, (std::vector<double>{0.010e9, 0.011e9, 0.013e9}));
  EXPECT_EQ(naive.cpu_repetitions, (std::vector<double>{0.010e9, 0.011e9, 0.013e9}));
  // The aggregates of the repetitions 10, 11 and 13 ms (the sample standard deviation).
  const double mean = 34e6 / 3,
               stddev = std::sqrt(((10e6 - mean) * (10e6 - mean) + (11e6 - mean) * (11e6 - mean) +
                                   (13e6 - mean) * (13e6 - mean)) /
                                  2);
  EXPECT_DOUBLE_EQ(*naive.median, 0.011e9);
  EXPECT_DOUBLE_EQ(*naive.min, 0.010e9);
  EXPECT_DOUBLE_EQ(*naive.max, 0.013e9);
  EXPECT_DOUBLE_EQ(*naive.mean, mean);
  EXPECT_DOUBLE_EQ(*naive.stddev, stddev);
  EXPECT_DOUBLE_EQ(*naive.cv, stddev / mean);
  EXPECT_EQ(naive.peak_heap_bytes, 0.0);
  EXPECT_EQ(naive.peak_rss_bytes, 1 << 20);
  EXPECT_EQ(naive.allocations, 0.0);
  EXPECT_DOUBLE_EQ(*naive.rel_error, 1e-15);
  EXPECT_DOUBLE_EQ(*naive.rounding_error, 0.5e-15);
  EXPECT_DOUBLE_EQ(*naive.rounding_bound, 1e-16);
  EXPECT_EQ(naive.instructions_per_node, 83.0);
  EXPECT_EQ(naive.tier_source_sha256, std::string(64, 'a'));
  EXPECT_EQ(cells[1].n, 10000000);
  EXPECT_EQ(cells[1].repetitions, (std::vector<double>{0.10e9, 0.12e9, 0.11e9}));
  EXPECT_EQ(cells[2].instructions_per_node, 11.75);
  EXPECT_EQ(cells[2].tier_source_sha256, std::string(64, 'b'));
  const auto& cuda = cells[3];
  EXPECT_EQ(cuda.status, "unavailable");
  EXPECT_EQ(cuda.reason, "no CUDA device here");
  EXPECT_TRUE(cuda.repetitions.empty());
  EXPECT_FALSE(cuda.median);
  EXPECT_FALSE(cuda.instructions_per_node);
}

// A schema-1 file, which had only Google Benchmark's entries, written without its aggregates: the migration
// computes them from the repetitions.
TEST(HistoryStore, AggregatesMissingFromAnOlderFileComeFromTheRepetitions) {
  TempDir scratch;
  json document = crafted_run("alpha", "2026-11-30T10:00:00Z");
  json kept = json::array();
  for (const auto& entry : document["benchmarks"])
    if (entry.value("run_type", "") != "aggregate") kept.push_back(entry);
  document["benchmarks"] = kept;
  document["schema_version"] = 1;
  document.erase("cells");
  const fs::path dir = write_results(scratch / "run", document);
  Store store((scratch / "h.sqlite").string(), Store::Mode::write);
  const auto cells = store.cells(store.record(dir.string()).run_id);
  ASSERT_EQ(cells.size(), 4u);
  EXPECT_DOUBLE_EQ(*cells[1].median, 0.11e9);
  EXPECT_DOUBLE_EQ(*cells[1].min, 0.10e9);
  EXPECT_DOUBLE_EQ(*cells[1].max, 0.12e9);
  EXPECT_DOUBLE_EQ(*cells[1].stddev, 0.01e9);
}

TEST(HistoryStore, AResultsFileWithoutSourceFieldsImportsWithThemUnknown) {
  TempDir scratch;
  json document = as_schema_v1(crafted_run("alpha", "2026-11-30T10:00:00Z"));  // from before they were kept
  document["context"].erase("source");
  document["context"].erase("libraries");
  const fs::path dir = write_results(scratch / "run", document);
  Store store((scratch / "h.sqlite").string(), Store::Mode::write);
  store.record(dir.string());
  const auto run = store.runs().at(0);
  EXPECT_EQ(run.git_commit, "unknown");
  EXPECT_EQ(run.git_branch, "unknown");
  EXPECT_EQ(run.git_dirty, "unknown");
  EXPECT_TRUE(run.tier_sources.empty());
  EXPECT_TRUE(run.libraries.empty());
  EXPECT_EQ(store.cells(run.run_id).at(0).tier_source_sha256, "");
}

TEST(HistoryStore, AnInterruptedRunIsNotRecorded) {
  TempDir scratch;
  json document = crafted_run("alpha", "2026-11-30T10:00:00Z");
  document["context"]["run"]["status"] = "interrupted";
  document["context"]["run"]["finished"] = nullptr;  // as an interrupted run's results have it
  const fs::path dir = write_results(scratch / "run", document);
  Store store((scratch / "h.sqlite").string(), Store::Mode::write);
  try {
    store.record(dir.string());
    FAIL() << "an interrupted run was recorded";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("did not finish"), std::string::npos) << error.what();
  }
  EXPECT_TRUE(store.runs().empty());
}

TEST(HistoryStore, ASeriesNeverMixesMachinesOrBuildsAndRunsInStartOrder) {
  TempDir scratch;
  Store store((scratch / "h.sqlite").string(), Store::Mode::write);
  // alpha twice (recorded newest first), beta once with another CPU, alpha once with other flags.
  store.record(write_results(scratch / "a2", crafted_run("alpha", "2026-11-30T12:00:00Z", 1.1)).string());
  store.record(write_results(scratch / "a1", crafted_run("alpha", "2026-11-30T10:00:00Z", 1.0)).string());
  json other_machine = crafted_run("beta", "2026-11-30T11:00:00Z", 2.0);
  other_machine["context"]["cpu_model"] = "another CPU";
  store.record(write_results(scratch / "b", other_machine).string());
  json other_build = crafted_run("alpha", "2026-11-30T13:00:00Z", 3.0);
  other_build["context"]["common_flags"] = "-O2";
  store.record(write_results(scratch / "a3", other_build).string());

  std::vector<history::SeriesKey> cell_keys;
  for (const auto& key : store.series_keys("naive"))
    if (key.n == 1000000) cell_keys.push_back(key);
  ASSERT_EQ(cell_keys.size(), 3u);  // alpha's build, beta, alpha's other build
  std::multiset<std::size_t> sizes;
  for (const auto& key : cell_keys) {
    const auto points = store.series(key);
    sizes.insert(points.size());
    if (points.size() == 2) {
      EXPECT_EQ(points[0].started, "2026-11-30T10:00:00Z");
      EXPECT_EQ(points[1].started, "2026-11-30T12:00:00Z");
      EXPECT_DOUBLE_EQ(*points[0].cell.median, 0.011e9);
      EXPECT_DOUBLE_EQ(*points[1].cell.median, 0.011e9 * 1.1);
      EXPECT_EQ(points[1].git_commit, "0123456789abcdef0123456789abcdef01234567");
      EXPECT_EQ(points[1].cell.instructions_per_node, 83.0);
    }
  }
  EXPECT_EQ(sizes, (std::multiset<std::size_t>{1, 1, 2}));
  EXPECT_EQ(store.runs({"", "", "2026-11-30T11:30"}).size(), 2u);
  EXPECT_EQ(store.runs({"beta", "", ""}).size(), 1u);
  EXPECT_EQ(store.runs({store.runs({"beta", "", ""}).at(0).machine.substr(0, 12), "", ""}).size(), 1u);
  EXPECT_EQ(store.runs({"", "cuda", ""}).size(), 4u);
  EXPECT_EQ(store.runs({"", "openmp", ""}).size(), 0u);
}

TEST(HistoryStore, AnOlderSchemaIsMigratedWithItsRunsKept) {
  TempDir scratch;
  const fs::path file = scratch / "v1.sqlite";
  Store::create_at_version(file.string(), 1);
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(
        sqlite3_exec(db,
                     "INSERT INTO runs VALUES (1, 'r1', '/old/results.json', '2026-01-01T00:00:00Z', "
                     "'2026-01-01T00:00:00Z', '', 'old', 'complete', 'unknown', 'unknown', 'unknown', "
                     "'m', 'oldhost', 'cpu', 2, 2, NULL, 'unknown', 'b', 'GNU', 'Release', '-O3', '{}')",
                     nullptr, nullptr, nullptr),
        SQLITE_OK);
    sqlite3_close(db);
  }
  EXPECT_EQ(query(file, "PRAGMA user_version"), "1");
  EXPECT_THROW(Store(file.string(), Store::Mode::read), InputError);  // reading does not migrate
  Store store(file.string(), Store::Mode::write);
  EXPECT_EQ(query(file, "PRAGMA user_version"), std::to_string(history::schema_version));
  EXPECT_EQ(query(file, "SELECT name FROM sqlite_master WHERE name = 'cells_by_series'"), "cells_by_series");
  const auto runs = store.runs();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].host, "oldhost");
  EXPECT_EQ(
      store.record(write_results(scratch / "run", crafted_run("a", "2026-11-30T10:00:00Z")).string()).cells,
      4u);
  EXPECT_EQ(store.runs().size(), 2u);
}

TEST(HistoryStore, ANewerSchemaIsRefused) {
  TempDir scratch;
  const fs::path file = scratch / "h.sqlite";
  { Store store(file.string(), Store::Mode::write); }
  {
    sqlite3* db = nullptr;
    sqlite3_open(file.c_str(), &db);
    sqlite3_exec(db, "PRAGMA user_version = 99", nullptr, nullptr, nullptr);
    sqlite3_close(db);
  }
  const Outcome listed = ladder("history list --history " + in_quotes(file));
  EXPECT_EQ(listed.exit_code, exit_bad_input) << listed.output;
  EXPECT_NE(listed.output.find("schema version 99"), std::string::npos) << listed.output;
}

// ---- the command line ---------------------------------------------------------------------------------

TEST(HistoryCommand, ImportingTheSameDirectoryTwiceAddsNothing) {
  TempDir scratch;
  const fs::path dir = write_results(scratch / "run", crafted_run("alpha", "2026-11-30T10:00:00Z"));
  const fs::path file = scratch / "h.sqlite";
  const Outcome first = ladder("history import " + in_quotes(dir) + " --history " + in_quotes(file));
  EXPECT_EQ(first.exit_code, 0) << first.output;
  EXPECT_NE(first.output.find("1 of 1 runs added"), std::string::npos) << first.output;
  const Outcome second = ladder("history import " + in_quotes(dir) + " " + in_quotes(dir / "results.json") +
                                " --history " + in_quotes(file));
  EXPECT_EQ(second.exit_code, 0) << second.output;
  EXPECT_NE(second.output.find("already recorded, nothing added"), std::string::npos) << second.output;
  EXPECT_NE(second.output.find("0 of 2 runs added"), std::string::npos) << second.output;
  EXPECT_EQ(query(file, "SELECT COUNT(*) FROM runs"), "1");
  EXPECT_EQ(query(file, "SELECT COUNT(*) FROM cells"), "4");
  EXPECT_EQ(query(file, "SELECT COUNT(*) FROM repetitions"), "9");
}

TEST(HistoryCommand, ListAndShowPrintTheRunsAndTheSeries) {
  TempDir scratch;
  const fs::path file = scratch / "h.sqlite";
  const fs::path one = write_results(scratch / "one", crafted_run("alpha", "2026-11-30T10:00:00Z", 1.0));
  const fs::path two = write_results(
      scratch / "two",
      crafted_run("alpha", "2026-12-01T10:00:00Z", 2.0, "fedcba9876543210fedcba9876543210fedcba98"));
  ASSERT_EQ(
      ladder("history import " + in_quotes(one) + " " + in_quotes(two) + " --history " + in_quotes(file))
          .exit_code,
      0);

  const Outcome listed = ladder("history list --json --since 2026-12-01 --history " + in_quotes(file));
  ASSERT_EQ(listed.exit_code, 0) << listed.output;
  const json runs = json::parse(listed.output).at("runs");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0]["git"]["commit"], "fedcba9876543210fedcba9876543210fedcba98");
  EXPECT_EQ(runs[0]["cells"], 4);

  const Outcome table = ladder("history list --history " + in_quotes(file));
  EXPECT_NE(table.output.find("2 runs in"), std::string::npos) << table.output;
  EXPECT_NE(table.output.find("fedcba987654"), std::string::npos) << table.output;

  const Outcome shown = ladder("history show naive --n 1e6 --threads 1 --history " + in_quotes(file));
  ASSERT_EQ(shown.exit_code, 0) << shown.output;
  EXPECT_NE(shown.output.find("naive/gauss/n:1e6/threads:1"), std::string::npos) << shown.output;
  EXPECT_NE(shown.output.find("  11 ms  "), std::string::npos) << shown.output;  // the first run's median
  EXPECT_NE(shown.output.find("  22 ms  "), std::string::npos) << shown.output;  // the second's
  EXPECT_NE(shown.output.find("83.00"), std::string::npos) << shown.output;
  EXPECT_EQ(shown.output.find("n:1e7"), std::string::npos) << shown.output;  // --n keeps one size

  const Outcome as_json = ladder("history show naive --n 1e7 --json --history " + in_quotes(file));
  ASSERT_EQ(as_json.exit_code, 0) << as_json.output;
  const json series = json::parse(as_json.output).at("series");
  ASSERT_EQ(series.size(), 1u);
  ASSERT_EQ(series[0]["points"].size(), 2u);
  EXPECT_EQ(series[0]["points"][1]["repetitions_ns"], json({0.20e9, 0.24e9, 0.22e9}));
  EXPECT_DOUBLE_EQ(series[0]["points"][1]["median_ns"].get<double>(), 0.22e9);

  const Outcome missing = ladder("history show openmp --history " + in_quotes(file));
  EXPECT_EQ(missing.exit_code, exit_bad_input) << missing.output;
  EXPECT_NE(missing.output.find("no measured cell of tier 'openmp'"), std::string::npos) << missing.output;
}

// tests/fixtures/history-v2.sqlite was written by the release before the history became a layer of its own
// (commit a5d473a, schema version 2): its Store::record, as its `ladder history import` calls it, of
// quick_peers_results.json and default_run_results.json (tests/fixtures, unpacked), then closed.
// history-v2-list.json is what that release's print_runs (`ladder history list --json`) printed for it. This
// release, opening a copy for reading, lists the same runs, field by field (ids, commits, cells), reads each
// run's cells, and leaves the file byte for byte as it was.
TEST(HistoryCommand, ADatabaseOfThePreviousReleaseListsTheSameRunsAndIsLeftUnchanged) {
  const fs::path fixtures = fs::path(LADDER_SOURCE_DIR) / "tests" / "fixtures";
  const std::string original = read_text(fixtures / "history-v2.sqlite");
  ASSERT_FALSE(original.empty());
  const json expected = json::parse(read_text(fixtures / "history-v2-list.json")).at("runs");
  ASSERT_EQ(expected.size(), 2u);
  TempDir scratch;
  const fs::path file = scratch / "history-v2.sqlite";
  fs::copy_file(fixtures / "history-v2.sqlite", file);

  const Outcome listed = ladder("history list --json --history " + in_quotes(file));
  ASSERT_EQ(listed.exit_code, 0) << listed.output;
  const json runs = json::parse(listed.output).at("runs");
  EXPECT_EQ(runs, expected);
  {
    const Store store(file.string(), Store::Mode::read);
    const auto recorded = store.runs();
    ASSERT_EQ(recorded.size(), expected.size());
    for (std::size_t i = 0; i < recorded.size(); ++i) {
      // As strings: Clang 16 finds no operator== for std::string and json (GCC 12 converts the string).
      EXPECT_EQ(recorded[i].run_id, expected[i]["run_id"].get<std::string>());
      EXPECT_EQ(recorded[i].git_commit, expected[i]["git"]["commit"].get<std::string>());
      EXPECT_EQ(store.cells(recorded[i].run_id).size(), expected[i]["cells"].get<std::size_t>());
    }
  }
  EXPECT_TRUE(read_text(file) == original) << "the previous release's database was modified by reading it";
  EXPECT_FALSE(fs::exists(file.string() + "-wal"));
  EXPECT_FALSE(fs::exists(file.string() + "-shm"));
}

TEST(HistoryCommand, BadOptionValuesGetClearErrors) {
  TempDir scratch;
  const fs::path dir = write_results(scratch / "run", crafted_run("alpha", "2026-11-30T10:00:00Z"));
  const Outcome empty = ladder("history import " + in_quotes(dir) + " --history ''");
  EXPECT_EQ(empty.exit_code, exit_bad_input) << empty.output;
  EXPECT_NE(empty.output.find("--history is empty"), std::string::npos) << empty.output;
  const Outcome directory =
      ladder("history import " + in_quotes(dir) + " --history " + in_quotes(scratch.str()));
  EXPECT_EQ(directory.exit_code, exit_bad_input) << directory.output;
  EXPECT_NE(directory.output.find("is a directory"), std::string::npos) << directory.output;
  // Reading a database that does not exist says so, and creates nothing.
  const Outcome missing = ladder("history list --history " + in_quotes(scratch / "h.sqlite"));
  EXPECT_EQ(missing.exit_code, exit_bad_input) << missing.output;
  EXPECT_NE(missing.output.find("does not exist"), std::string::npos) << missing.output;
  EXPECT_FALSE(fs::exists(scratch / "h.sqlite"));
  ASSERT_EQ(
      ladder("history import " + in_quotes(dir) + " --history " + in_quotes(scratch / "h.sqlite")).exit_code,
      0);
  const Outcome bad_date =
      ladder("history list --since yesterday --history " + in_quotes(scratch / "h.sqlite"));
  EXPECT_EQ(bad_date.exit_code, exit_bad_input) << bad_date.output;
  EXPECT_NE(bad_date.output.find("--since 'yesterday' is not a date"), std::string::npos) << bad_date.output;
  // `ladder run` checks the path before it runs anything.
  const Outcome run = ladder("run --no-limits --tiers naive --n 1e4 --reps 3 --no-instructions --out " +
                             in_quotes(scratch / "out") + " --history ''");
  EXPECT_EQ(run.exit_code, exit_bad_input) << run.output;
  EXPECT_NE(run.output.find("--history is empty"), std::string::npos) << run.output;
  EXPECT_FALSE(fs::exists(scratch / "out"));
  const Outcome env =
      run_command("LADDER_HISTORY=" + in_quotes(scratch.str()) + " " + ladder_binary, "history list");
  EXPECT_EQ(env.exit_code, exit_bad_input) << env.output;
  EXPECT_NE(env.output.find("LADDER_HISTORY"), std::string::npos) << env.output;
}

}  // namespace
}  // namespace ladder::testing
