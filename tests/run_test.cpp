// `ladder run` as a user runs it: the real binaries, their files and exit codes. LADDER_BINARY is the
// product; LADDER_FAULT_BINARY is the same program with the test-only tiers of fault_tiers.cpp linked in.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "command.hpp"
#include "documented_presets.hpp"
#include "registry.hpp"

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

using ladder::testing::lines_of;
using ladder::testing::medians;
using ladder::testing::Outcome;
using ladder::testing::read_json;
using ladder::testing::read_text;
using ladder::testing::run_command;
using ladder::testing::TempDir;

Outcome ladder(const std::string& arguments) { return run_command(LADDER_BINARY, arguments); }
Outcome faulty(const std::string& arguments) { return run_command(LADDER_FAULT_BINARY, arguments); }

const char* quick_cells = "--reps 2 --min-time 0.005";

// `program run --no-limits OPTIONS` of quick cells into DIR/out: how it ended, and the medians of the cells
// it wrote by name (none where it wrote no results file).
struct QuickRun {
  Outcome outcome;
  std::map<std::string, json> cells;
};
QuickRun quick_run(Outcome (*program)(const std::string&), const TempDir& dir, const std::string& options) {
  QuickRun run{program("run --no-limits " + options + " " + quick_cells + " --out " + dir.str() + "/out"),
               {}};
  if (fs::exists(dir / "out/results.json")) run.cells = medians(read_json(dir / "out/results.json"));
  return run;
}

TEST(Run, QuickPresetWritesEveryCellToEveryFile) {
  TempDir dir;
  const Outcome outcome = ladder("run --preset quick --out " + (dir / "out").string());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  const json results = read_json(dir / "out/results.json");
  EXPECT_EQ(results.at("schema_version"), 3);
  const json& run = results.at("context").at("run");
  EXPECT_EQ(run.at("status"), "complete");
  const std::size_t cells = run.at("cells_total");
  EXPECT_EQ(run.at("cells_done"), cells);

  // What the README says the quick preset contains (documented_presets.hpp), not the run's own matrix.
  const auto& quick = ladder::testing::documented_preset("quick");
  const json& matrix = results.at("context").at("matrix");
  EXPECT_EQ(matrix.at("sizes").get<std::vector<std::int64_t>>(), quick.sizes);
  EXPECT_EQ(matrix.at("repetitions").get<int>(), quick.repetitions);
  EXPECT_EQ(matrix.at("threads").get<std::vector<int>>(), ladder::testing::every_thread_count());
  EXPECT_EQ(matrix.at("tiers").size(), ladder::tiers().size()) << "every tier";
  EXPECT_EQ(cells, ladder::testing::documented_cell_count(quick));
  EXPECT_EQ(medians(results).size(), cells);
  EXPECT_EQ(lines_of(read_text(dir / "out/results.csv")).size(), cells + 1) << "a header and one row a cell";
  // A disturbed round measured again adds a line (remeasured); the rest are the run's and one a round of
  // each measured cell (3 rounds by default), one for a cell not attempted.
  std::size_t first_lines = 0, expected = 1;
  for (const auto& line : lines_of(read_text(dir / "out/journal.jsonl")))
    first_lines += line.find("\"remeasured\"") == std::string::npos;
  for (const auto& [name, entry] : medians(results)) expected += entry.at("status") == "ok" ? 3 : 1;
  EXPECT_EQ(first_lines, expected) << "the run, then one line a round of each cell";
  for (const auto& [name, entry] : medians(results)) {
    const std::string status = entry.at("status");
    EXPECT_TRUE(status == "ok" || status == "unavailable") << name << ": " << status;
    if (status != "ok") continue;
    EXPECT_GT(entry.at("real_time").get<double>(), 0) << name;
    EXPECT_TRUE(entry.at("within_rounding_bound").get<bool>()) << name;
    EXPECT_EQ(entry.at("instruction_set"), results.at("context").at("simd").at("kernels_use")) << name;
  }
  // Not a TTY: one plain line a round of each cell, out of 3 a cell (one for a cell not attempted).
  std::size_t progress_lines = 0;
  for (const auto& line : lines_of(outcome.output))
    if (line.rfind("[", 0) == 0 && line.find("/" + std::to_string(3 * cells) + "] ") != std::string::npos)
      ++progress_lines;
  EXPECT_EQ(progress_lines, expected - 1);
}

TEST(Run, HeapIsEightBytesANodeForNaiveAndAlmostNothingForStreamingTiers) {
  TempDir dir;
  const auto [outcome, cells] = quick_run(ladder, dir, "--tiers naive,streaming,inlined,xsimd --n 1e6");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  const double naive = cells.at("naive/gauss/n:1000000/threads:1").at("peak_heap_bytes");
  EXPECT_NEAR(naive, 8e6, 8e4) << "a vector of 10^6 doubles";
  for (const char* tier : {"streaming", "inlined", "xsimd"}) {
    const json& cell = cells.at(std::string(tier) + "/gauss/n:1000000/threads:1");
    EXPECT_LT(cell.at("peak_heap_bytes").get<double>(), 64 * 1024) << tier;
  }
}

// A call that touches 64 MiB of fresh pages (fault_tiers.cpp) takes a minor fault for each: the counted
// call is the one that ran, not the process's life or nothing.
TEST(Run, MinorFaultsCountEveryFreshPageTheCallTouches) {
  TempDir dir;
  const auto [outcome, cells] = quick_run(faulty, dir, "--tiers fresh-pages --n 1e4 --no-instructions");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  const json& cell = cells.at("fresh-pages/gauss/n:10000/threads:1");
  const double pages = 64.0 * (1 << 20) / static_cast<double>(sysconf(_SC_PAGESIZE));
  EXPECT_GE(cell.at("minor_faults").get<double>(), pages) << cell.dump();
  EXPECT_LT(cell.at("minor_faults").get<double>(), 4 * pages) << "one call's faults, not the worker's life";
}

TEST(Run, StatisticsAgreeWithTheRepetitions) {
  TempDir dir;
  // One round: the five repetitions of one worker (a cell of rounds pools its clean rounds' repetitions,
  // rounds_test.cpp).
  const Outcome outcome =
      ladder("run --no-limits --tiers xsimd --n 1e5 --reps 5 --rounds 1 --min-time 0.005 --out " + dir.str() +
             "/out");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  const json results = read_json(dir / "out/results.json");
  std::vector<double> times;
  std::map<std::string, double> aggregates;
  for (const auto& entry : results.at("benchmarks")) {
    if (entry.at("run_type") == "iteration")
      times.push_back(entry.at("real_time"));
    else
      aggregates[entry.at("aggregate_name")] = entry.at("real_time");
  }
  ASSERT_EQ(times.size(), 5u);
  std::sort(times.begin(), times.end());
  EXPECT_NEAR(aggregates.at("median"), times[2], 1e-6 * times[2]);
  EXPECT_NEAR(aggregates.at("min"), times[0], 1e-6 * times[0]);
  EXPECT_NEAR(aggregates.at("max"), times[4], 1e-6 * times[4]);
  double mean = 0, squares = 0;
  for (double t : times) mean += t / 5;
  for (double t : times) squares += (t - mean) * (t - mean);
  EXPECT_NEAR(aggregates.at("mean"), mean, 1e-6 * mean);
  EXPECT_NEAR(aggregates.at("stddev"), std::sqrt(squares / 4), 1e-6 * mean);
  EXPECT_NEAR(aggregates.at("cv"), std::sqrt(squares / 4) / mean, 1e-6) << "cv is a fraction, not rescaled";
}

TEST(Run, CrashAndRunawayAllocationCostOneCellEachAndTheRunGoesOn) {
  TempDir dir;
  const auto [outcome, cells] =
      quick_run(faulty, dir, "--tiers crashes,xsimd,unbounded,naive,nowhere --n 1e4,1e5");
  EXPECT_EQ(outcome.exit_code, 1) << "some cells failed\n" << outcome.output;
  ASSERT_EQ(cells.size(), 10u) << outcome.output;
  for (const char* n : {"10000", "100000"}) {
    const json& crash = cells.at(std::string("crashes/gauss/n:") + n + "/threads:1");
    EXPECT_EQ(crash.at("status"), "crashed");
    EXPECT_NE(crash.at("reason").get<std::string>().find("SIGSEGV"), std::string::npos) << crash.dump();
    const json& runaway = cells.at(std::string("unbounded/gauss/n:") + n + "/threads:1");
    EXPECT_EQ(runaway.at("status"), "out_of_memory") << runaway.dump();
    EXPECT_NE(runaway.at("reason").get<std::string>().find("bad_alloc"), std::string::npos) << runaway.dump();
    const json& unavailable = cells.at(std::string("nowhere/gauss/n:") + n + "/threads:1");
    EXPECT_EQ(unavailable.at("status"), "unavailable");
    EXPECT_NE(unavailable.at("reason").get<std::string>().find("a test tier that runs nowhere"),
              std::string::npos);
    for (const char* tier : {"xsimd", "naive"}) {
      const json& good = cells.at(std::string(tier) + "/gauss/n:" + n + "/threads:1");
      EXPECT_EQ(good.at("status"), "ok") << good.dump();
      EXPECT_TRUE(good.at("within_rounding_bound").get<bool>());
    }
  }
  EXPECT_NE(outcome.output.find("failed cells"), std::string::npos) << "the failures are among the warnings";
}

// The worker reports a failure two ways: the kernel threw, or the worker exited with no result. Either is
// `failed`, with the reason, the run carries on, and its exit code is 1.
TEST(Run, ACellWhoseWorkerReportsFailureIsFailedWithTheReason) {
  TempDir dir;
  const Outcome outcome = faulty("run --no-limits --tiers throws,exits,xsimd --n 1e4 --no-instructions " +
                                 std::string(quick_cells) + " --out " + dir.str() + "/out");
  EXPECT_EQ(outcome.exit_code, 1) << outcome.output;
  const json results = read_json(dir / "out/results.json");
  const auto cells = medians(results);
  const json& threw = cells.at("throws/gauss/n:10000/threads:1");
  EXPECT_EQ(threw.at("status"), "failed") << threw.dump();
  EXPECT_EQ(threw.at("reason"), "the kernel threw: a test tier that always throws");
  const json& exited = cells.at("exits/gauss/n:10000/threads:1");
  EXPECT_EQ(exited.at("status"), "failed") << exited.dump();
  EXPECT_EQ(exited.at("reason").get<std::string>().rfind("the worker exited with code 3 and no result", 0),
            0u)
      << exited.dump();
  EXPECT_EQ(cells.at("xsimd/gauss/n:10000/threads:1").at("status"), "ok");
  int failed_warnings = 0;
  for (const auto& warning : results.at("context").at("warnings"))
    if (warning.at("kind") == "failed cells") failed_warnings += static_cast<int>(warning.at("cells").size());
  EXPECT_EQ(failed_warnings, 2);
}

// The hanging tier blocks forever: the test ends only because the harness stops it (ctest's TIMEOUT is
// the backstop). How soon after --cell-timeout it is stopped is a matter of the machine's speed, timed by
// scripts/bench-run-timing, outside ctest.
TEST(Run, ACellOverItsTimeLimitIsStoppedAndRecorded) {
  TempDir dir;
  const auto [outcome, cells] = quick_run(faulty, dir, "--tiers hangs,xsimd --n 1e4 --cell-timeout 1");
  EXPECT_EQ(outcome.exit_code, 1) << outcome.output;
  EXPECT_EQ(cells.at("hangs/gauss/n:10000/threads:1").at("status"), "timeout");
  EXPECT_NE(cells.at("hangs/gauss/n:10000/threads:1").at("reason").get<std::string>().find("--cell-timeout"),
            std::string::npos);
  EXPECT_EQ(cells.at("xsimd/gauss/n:10000/threads:1").at("status"), "ok");
  EXPECT_NE(cells.at("hangs/gauss/n:10000/threads:1").at("reason").get<std::string>().find("stopped"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(dir / "out/.work")) << "no worker files left behind";
}

TEST(Run, ACellThatCannotFitInMemoryIsSkippedNotAttempted) {
  TempDir dir;
  const auto [outcome, cells] = quick_run(ladder, dir, "--tiers naive --n 2^50 --cell-timeout 30");
  EXPECT_EQ(outcome.exit_code, 0) << "a skipped cell is not a failure\n" << outcome.output;
  const json& naive = cells.at("naive/gauss/n:1125899906842624/threads:1");
  EXPECT_EQ(naive.at("status"), "skipped") << outcome.output;
  const std::string reason = naive.at("reason");
  EXPECT_NE(reason.find("8 bytes a node"), std::string::npos) << reason;
  EXPECT_NE(reason.find("available"), std::string::npos) << reason;
  EXPECT_NE(reason.find("8.0 PiB"), std::string::npos) << "the predicted figure: " << reason;
}

TEST(Run, ReproducibilityIsJudgedAcrossThreadCounts) {
  TempDir dir;
  const auto [outcome, cells] =
      quick_run(faulty, dir, "--tiers thread-dependent,tbb,xsimd --reproducible --n 1e5 --threads 1,2");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  EXPECT_EQ(cells.at("thread-dependent/gauss/n:100000/threads:2").at("reproducible"), false);
  EXPECT_EQ(cells.at("tbb/gauss/n:100000/threads:2/reproducible").at("reproducible"), true)
      << "parallel_deterministic_reduce gives the same bits at 1 and 2 threads";
  EXPECT_EQ(cells.at("xsimd/gauss/n:100000/threads:1").at("reproducible"), true);
}

// Waits until the journal holds at least `lines` lines, or a minute has passed.
bool wait_for_lines(const fs::path& journal, std::size_t lines) {
  for (int tick = 0; tick < 600; ++tick) {
    if (fs::exists(journal) && lines_of(read_text(journal)).size() >= lines) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

// One round a cell (--rounds 1): a cell finished before the interrupt is then byte-identical after the resume
// (a run of rounds resumes mid-round and adds rounds to its cells: rounds_test.cpp).
TEST(Run, InterruptedRunResumesWithoutRedoingFinishedCells) {
  TempDir dir;
  const std::string out = dir.str() + "/out";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
    execl(LADDER_FAULT_BINARY, LADDER_FAULT_BINARY, "run", "--tiers", "slow", "--n", "1,2,3,4,5,6,7,8,9,10",
          "--reps", "3", "--min-time", "0.01", "--remeasure", "0", "--rounds", "1", "--no-limits", "--out",
          out.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  ASSERT_TRUE(wait_for_lines(dir / "out/journal.jsonl", 4)) << "three cells finished";
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);

  const std::string journal_before = read_text(dir / "out/journal.jsonl");
  const json before = read_json(dir / "out/results.json");
  EXPECT_EQ(before.at("context").at("run").at("status"), "interrupted");
  const auto finished_before = medians(before);
  ASSERT_GE(finished_before.size(), 3u);
  ASSERT_LT(finished_before.size(), 10u) << "interrupted midway";
  EXPECT_FALSE(fs::exists(dir / "out/.work")) << "no worker files left behind";

  // --remeasure 0: a disturbed cell measured again would rightly replace its record (remeasure_test.cpp).
  const Outcome resumed = faulty("run --no-limits --resume " + out + " --remeasure 0");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  const std::string journal_after = read_text(dir / "out/journal.jsonl");
  EXPECT_EQ(journal_after.substr(0, journal_before.size()), journal_before)
      << "finished cells are kept as they were";
  const json after = read_json(dir / "out/results.json");
  EXPECT_EQ(after.at("context").at("run").at("status"), "complete");
  const auto finished_after = medians(after);
  EXPECT_EQ(finished_after.size(), 10u);
  for (const auto& [name, entry] : finished_before)
    EXPECT_EQ(finished_after.at(name).dump(), entry.dump()) << name << " is byte-identical after the resume";
  // Each cell ran once: ten cell lines in the journal.
  std::size_t cell_lines = 0;
  for (const auto& line : lines_of(journal_after))
    cell_lines += json::parse(line).value("kind", "") == "cell";
  EXPECT_EQ(cell_lines, 10u);
}

TEST(Run, BadInputIsRefusedBeforeAnythingIsWritten) {
  TempDir dir;
  const std::string out = " --out " + dir.str() + "/out";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--n 0", "n = '0'"},
      {"--n 1e5,banana", "n = 'banana'"},
      {"--threads 0", "threads = '0'"},
      {"--threads 5000", "threads = '5000'"},
      {"--tiers naive,quantum", "unknown tier 'quantum'; known tiers: naive"},
      {"--integrand cosh", "unknown integrand 'cosh'; known integrands: gauss"},
      {"--reps 0", "--reps 0"},
      {"--min-time -1", "--min-time"},
      {"--preset huge", "unknown preset 'huge'; presets: quick, standard, full"},
  };
  for (const auto& [arguments, message] : cases) {
    const Outcome outcome = ladder("run --no-limits " + arguments + out);
    EXPECT_EQ(outcome.exit_code, 2) << arguments << "\n" << outcome.output;
    EXPECT_NE(outcome.output.find(message), std::string::npos) << arguments << "\n" << outcome.output;
    EXPECT_FALSE(fs::exists(dir / "out")) << arguments << ": nothing written";
  }
}

TEST(Run, AnOutputDirectoryThatCannotBeWrittenIsRefusedFirst) {
  TempDir dir;
  std::ofstream(dir / "a-file") << "not a directory";
  const Outcome outcome =
      ladder("run --no-limits --tiers xsimd --n 1e4 --out " + (dir / "a-file/out").string());
  EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
  EXPECT_NE(outcome.output.find("cannot create --out"), std::string::npos) << outcome.output;
  EXPECT_EQ(read_text(dir / "a-file"), "not a directory");
}

// With no --out, each run gets a folder of its own (ladder-out/run-DATE-TIME, -2 … within one second), so
// the second plain `ladder run` works as the first did; a non-empty --out that holds no run is refused with
// that said, and nothing in it is touched.
TEST(Run, TwoRunsWithNoOutEachGetAFolderOfTheirOwn) {
  TempDir dir;
  const std::string here = "cd '" + dir.str() + "' && " + LADDER_BINARY;
  const std::string run =
      "run --no-limits --no-instructions --no-history --tiers xsimd --n 1e4 " + std::string(quick_cells);
  const Outcome first = run_command(here, run), second = run_command(here, run);
  ASSERT_EQ(first.exit_code, 0) << first.output;
  ASSERT_EQ(second.exit_code, 0) << second.output;
  std::vector<std::string> runs;
  for (const auto& entry : fs::directory_iterator(dir / "ladder-out"))
    if (entry.path().filename().string().starts_with("run-") && fs::exists(entry.path() / "results.json"))
      runs.push_back(entry.path().filename().string());
  EXPECT_EQ(runs.size(), 2u) << first.output << second.output;

  fs::create_directories(dir / "mine");
  std::ofstream(dir / "mine/notes.txt") << "my notes";
  const Outcome refused = ladder(run + " --out " + (dir / "mine").string());
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("is not empty and holds no run of Ladder's"), std::string::npos)
      << refused.output;
  EXPECT_EQ(refused.output.find("--resume"), std::string::npos) << refused.output;
  EXPECT_EQ(read_text(dir / "mine/notes.txt"), "my notes");
}

TEST(Run, ExistingResultsAreNeverOverwrittenBySurprise) {
  TempDir dir;
  fs::create_directories(dir / "out");
  std::ofstream(dir / "out/results.json") << "{\"mine\": true}";
  const Outcome refused = ladder("run --no-limits --tiers xsimd --n 1e4 --out " + (dir / "out").string());
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("holds results (results.json); give --force"), std::string::npos)
      << refused.output;
  EXPECT_EQ(read_text(dir / "out/results.json"), "{\"mine\": true}");

  const Outcome forced = ladder("run --no-limits --tiers xsimd --n 1e4 " + std::string(quick_cells) +
                                " --force --out " + (dir / "out").string());
  EXPECT_EQ(forced.exit_code, 0) << forced.output;
  EXPECT_EQ(read_json(dir / "out/results.json").at("schema_version"), 3);
}

TEST(Run, ResumeRefusesAnotherMatrixOrSchemaOrNoRun) {
  TempDir dir;
  const std::string out = (dir / "out").string();
  ASSERT_EQ(
      ladder("run --no-limits --tiers xsimd --n 1e4 " + std::string(quick_cells) + " --out " + out).exit_code,
      0);
  const std::string journal = read_text(dir / "out/journal.jsonl");

  const Outcome other_matrix = ladder("run --no-limits --resume " + out + " --n 1e5");
  EXPECT_EQ(other_matrix.exit_code, 2) << other_matrix.output;
  EXPECT_NE(other_matrix.output.find("holds another matrix (sizes"), std::string::npos)
      << other_matrix.output;
  EXPECT_EQ(read_text(dir / "out/journal.jsonl"), journal) << "nothing written";

  const Outcome same_matrix = ladder("run --no-limits --resume " + out + " --n 1e4");
  EXPECT_EQ(same_matrix.exit_code, 0) << same_matrix.output;

  json header = json::parse(lines_of(journal).at(0));
  header["schema_version"] = 99;
  fs::create_directories(dir / "future");
  std::ofstream(dir / "future/journal.jsonl") << header.dump() << "\n";
  const Outcome other_schema = ladder("run --no-limits --resume " + (dir / "future").string());
  EXPECT_EQ(other_schema.exit_code, 2) << other_schema.output;
  EXPECT_NE(other_schema.output.find("schema version 99"), std::string::npos) << other_schema.output;

  fs::create_directories(dir / "empty");
  const Outcome no_run = ladder("run --no-limits --resume " + (dir / "empty").string());
  EXPECT_EQ(no_run.exit_code, 2) << no_run.output;
  EXPECT_NE(no_run.output.find("holds no Ladder run"), std::string::npos) << no_run.output;
}

// The page a team reads, opened in headless Chromium: it renders its charts with their series, logs no
// error, makes no request, and shows a hostile label as text (tests/browser_check.py).
TEST(Report, RendersInAHeadlessBrowserWithoutErrorsOrRequests) {
  TempDir dir;
  const Outcome run = ladder("run --no-limits --tiers naive,xsimd,openmp,tbb --n 1e5,1e6 --threads 1,2 " +
                             std::string(quick_cells) + " --label '<script>alert(1)</script>' --out " +
                             (dir / "out").string());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  ASSERT_TRUE(fs::exists(dir / "out/report.html")) << "ladder run ends by writing the report\n" << run.output;
  ASSERT_TRUE(fs::exists(dir / "out/report.md"));
  std::string expectations;
  for (const char* chart : {"speedup-1", "scaling-1", "pareto-1", "memory-1", "error-1"})
    expectations += std::string(" --expect-chart ") + chart;
  for (const char* series :
       {"scaling-1:openmp", "scaling-1:tbb", "scaling-1:ideal", "pareto-1:Pareto frontier (bold)",
        "memory-1:naive", "memory-1:xsimd", "error-1:xsimd"})
    expectations += std::string(" --expect-series '") + series + "'";
  const Outcome browser = run_command("python3", std::string(LADDER_SOURCE_DIR) + "/tests/browser_check.py " +
                                                     (dir / "out/report.html").string() + " --screenshot " +
                                                     (dir / "out/report.png").string() + expectations +
                                                     " --expect-text '<script>alert(1)</script>'");
  if (browser.exit_code == 77) GTEST_SKIP() << browser.output;
  EXPECT_EQ(browser.exit_code, 0) << browser.output;
  EXPECT_TRUE(fs::exists(dir / "out/report.png"));
}

// The Python peers in the same run: every peer appears, each measured, unavailable (its module is
// missing) or, pure Python above the limit, not attempted — each with its reason; the report says where
// the Python and C++ staircases cross. The quick preset's sizes, in one round of short repetitions, with
// no instruction count and no cell measured again: this judges which cells ran and what they say, never a
// time.
TEST(Peers, RunBesideTheCppTiersWithTheSameProtocol) {
  TempDir dir;
  const Outcome outcome = ladder(
      "run --no-limits --preset quick --tiers naive,xsimd --peers python --rounds 1 --reps 2 "
      "--min-time 0.005 --remeasure 0 --no-instructions --out " +
      (dir / "out").string());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  const json results = read_json(dir / "out/results.json");
  std::map<std::string, json> peers;
  for (const auto& card : results.at("tiers"))
    if (card.value("peer", false)) peers[card.at("id")] = card;
  for (const char* id : {"py-list", "py-generator", "py-inlined", "numpy", "numpy-chunked", "numexpr",
                         "numba", "numba-parallel"})
    EXPECT_TRUE(peers.count(id)) << id;
  int measured = 0;
  for (const auto& [name, cell] : medians(results)) {
    if (!peers.count(cell.at("tier"))) continue;
    const json& card = peers.at(cell.at("tier"));
    const std::string status = cell.at("status");
    if (status == "ok") {
      ++measured;
      EXPECT_TRUE(cell.at("within_rounding_bound").get<bool>()) << name;
      EXPECT_EQ(cell.at("instruction_set"), "python") << name;
      continue;
    }
    EXPECT_FALSE(cell.value("reason", "").empty()) << name;
    if (status == "unavailable") {
      EXPECT_FALSE(card.at("available").get<bool>()) << name;
    } else {
      EXPECT_EQ(status, "skipped") << name << ": " << cell.value("reason", "");
      EXPECT_TRUE(card.at("size_limit").is_number()) << name << ": only pure Python has a size limit";
      EXPECT_GT(cell.at("n").get<double>(), 1e6) << name;
      EXPECT_NE(cell.at("reason").get<std::string>().find("--python-limit"), std::string::npos) << name;
    }
  }
  EXPECT_GE(measured, 6) << "py-list, py-generator and py-inlined at two sizes need nothing but Python";
  std::ifstream report(dir / "out/report.md");
  const std::string text((std::istreambuf_iterator<char>(report)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("Python against C++"), std::string::npos);
  EXPECT_NE(text.find("× py-list"), std::string::npos);
}

// The last rung, cpp-extension (xsimd exported with --python, called through pybind11): measured at the
// run's sizes and, per call, at n = 1000 beside xsimd, with xsimd's values; the report says what a call costs
// to cross from Python.
TEST(Peers, CppExtensionIsMeasuredPerCallBesideXsimd) {
  TempDir dir;
  const Outcome outcome = ladder(
      "run --no-limits --peers python --tiers xsimd,cpp-extension --integrand gauss --preset quick "
      "--no-instructions --out " +
      (dir / "out").string());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  const json results = read_json(dir / "out/results.json");
  std::map<std::string, json> cells;  // by name
  for (const auto& cell : results.at("cells")) cells[cell.at("name")] = cell;
  const json& extension = cells.at("cpp-extension/gauss/n:1000/threads:1");
  if (extension.at("status") == "unavailable") GTEST_SKIP() << extension.dump();
  for (const char* n : {"1000", "100000", "10000000"}) {
    const json& wrapped = cells.at(std::string("cpp-extension/gauss/n:") + n + "/threads:1");
    const json& tier = cells.at(std::string("xsimd/gauss/n:") + n + "/threads:1");
    ASSERT_EQ(wrapped.at("status"), "ok") << wrapped.dump();
    ASSERT_EQ(tier.at("status"), "ok") << tier.dump();
    const double value = wrapped.at("measurement").at("result"),
                 expected = tier.at("measurement").at("result");
    EXPECT_NEAR(value, expected, 1e-14 * std::abs(expected)) << n;
  }
  EXPECT_EQ(cells.size(), 6u) << "two tiers at the two sizes, and both per call at n = 1000";
  const std::string md = read_text(dir / "out/report.md");
  EXPECT_NE(md.find("## Crossing from Python into C++"), std::string::npos) << md;
  EXPECT_NE(md.find("| gauss | 1000 | "), std::string::npos) << md;
  EXPECT_EQ(md.find("The ladder at n = 1000"), std::string::npos) << md;
}

}  // namespace
