// `ladder plan`, its estimate and --budget: the estimate on crafted calibration data (known answers, no
// stopwatch), the budget's steps and its bad input, and the plan of the issue's synthetic topologies
// through the binary (their thread counts, cell counts, and the presets' promises when calibrated here).
#include "plan.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <regex>
#include <string>
#include <vector>

#include "calibration.hpp"
#include "command.hpp"
#include "errors.hpp"
#include "parse.hpp"
#include "registry.hpp"
#include "text.hpp"
#include "topology_fixtures.hpp"

namespace ladder::testing {
namespace {

// The issue's machines (topology_fixtures.hpp) with the default ladder the issue gives, worked out by
// hand, and a 256-thread one: 2 sockets × 64 cores × SMT2.
struct Fixture {
  const char* name;
  const char* synthetic;
  std::vector<int> threads;
};
const std::vector<Fixture> fixtures = {
    {one_core.name, one_core.synthetic, {1}},
    {two_cores.name, two_cores.synthetic, {1, 2}},
    {twelve_cores.name, twelve_cores.synthetic, {1, 2, 4, 8, 12}},
    {sixteen_cores.name, sixteen_cores.synthetic, {1, 2, 4, 8, 16}},
    {two_sockets.name, two_sockets.synthetic, {1, 2, 4, 8, 16, 32, 64, 128}},
    {amd_like.name, amd_like.synthetic, {1, 2, 4, 8, 16, 24, 32, 64, 96, 192}},
    {"256 hardware threads", "package:2 core:64 pu:2", {1, 2, 4, 8, 16, 32, 64, 128, 256}},
};

Matrix crafted_matrix() {
  Matrix matrix;
  matrix.tiers = {"naive", "openmp"};
  matrix.integrands = {"gauss"};
  matrix.sizes = {1'000'000};
  matrix.threads = {1, 2};
  matrix.repetitions = 5;
  matrix.min_time = 0.1;
  matrix.min_warmup_time = 0.05;
  matrix.cpus = 2;
  return matrix;
}

// 10 ns a node for naive, 20 for openmp on 1 thread; a worker costs 0.2 s; the reference 100 ns a node.
Calibration crafted_calibration() {
  Calibration calibration;
  calibration.tiers[tier_key("naive", "gauss")] = {1e-8, 0.2, 10e6};
  calibration.tiers[tier_key("openmp", "gauss")] = {2e-8, 0.2, 12e6};
  calibration.reference_seconds_per_node["gauss"] = 1e-7;
  calibration.instructions_seconds_per_tier = 3;
  calibration.runner_seconds_per_cell = 0.01;
  return calibration;
}

PlanSettings no_instructions() {
  PlanSettings settings;
  settings.instructions = false;
  settings.parallel = 2;
  return settings;
}

double part(const Estimate& estimate, const std::string& name) {
  for (const auto& [key, seconds] : estimate.parts)
    if (key == name) return seconds;
  ADD_FAILURE() << "no part '" << name << "'";
  return -1;
}

const PlannedCell& planned(const Estimate& estimate, const std::string& name) {
  for (const auto& cell : estimate.cells)
    if (cell.name == name) return cell;
  throw std::out_of_range("no planned cell " + name);
}

TEST(PlanEstimate, ScalesTheCalibrationByNAndIdealThreadingThroughGoogleBenchmarksSettings) {
  const Estimate estimate = ladder::estimate(crafted_matrix(), crafted_calibration(), no_instructions());
  ASSERT_EQ(estimate.cells.size(), 3u);
  // naive at 1e6: a call of 0.01 s, below the 0.1 s minimum time: warm-up 0.05 s (the iterations sized from
  // its calls), 5 repetitions of 1.4 × 0.1 s, two passes of 0.01 s, the worker's 0.2 s.
  EXPECT_NEAR(planned(estimate, "naive/gauss/n:1000000/threads:1").seconds, 0.2 + 0.05 + 0.7 + 0.02, 1e-12);
  // openmp at 1 thread: a call of 0.02 s; at 2 threads, ideal threading halves it.
  EXPECT_NEAR(planned(estimate, "openmp/gauss/n:1000000/threads:1").seconds, 0.2 + 0.05 + 0.7 + 0.04, 1e-12);
  EXPECT_NEAR(planned(estimate, "openmp/gauss/n:1000000/threads:2").seconds, 0.2 + 0.05 + 0.7 + 0.02, 1e-12);
  EXPECT_EQ(planned(estimate, "naive/gauss/n:1000000/threads:1").source, "calibration");
  // One reference for the one size, a long double sum (n ≤ 2^22): 100 ns × 1e6.
  EXPECT_NEAR(part(estimate, "references"), 0.1, 1e-12);
  EXPECT_NEAR(part(estimate, "timed repetitions"), 2.1, 1e-12);
  EXPECT_NEAR(part(estimate, "process starts, warm-up and iteration sizing"), 3 * 0.25, 1e-12);
  EXPECT_NEAR(part(estimate, "memory and counter passes"), 0.08, 1e-12);
  EXPECT_NEAR(part(estimate, "the runner's own work between cells"), 0.03, 1e-12);
  EXPECT_EQ(part(estimate, "instruction counting"), 0.0);
  EXPECT_NEAR(estimate.seconds, 0.75 + 2.1 + 0.08 + 0.1 + 0.03, 1e-12);
  // Peak memory: naive's 8 bytes a node on its worker's 10 MB, the largest of the cells.
  EXPECT_NEAR(estimate.peak_bytes, 10e6 + 8e6, 1);
}

TEST(PlanEstimate, ACallLongerThanTheMinimumTimeIsTimedOnceARepetitionAndWarmsUpForTheWarmUpTimeOnly) {
  Matrix matrix = crafted_matrix();
  matrix.tiers = {"naive"};
  matrix.sizes = {100'000'000};  // a call of 1 s
  const Estimate estimate = ladder::estimate(matrix, crafted_calibration(), no_instructions());
  const PlannedCell& cell = planned(estimate, "naive/gauss/n:100000000/threads:1");
  // The warm-up runs at the smaller n that takes about the minimum warm-up time, not a 1 s call.
  EXPECT_NEAR(cell.parts.warmup, 0.05, 1e-9);
  EXPECT_NEAR(cell.parts.timed, 5.0, 1e-9);
  EXPECT_NEAR(cell.parts.passes, 2.0, 1e-9);
  EXPECT_NEAR(cell.seconds, 7.25, 1e-9);
  EXPECT_EQ(part(estimate, "references"), 0.0) << "above 2^22 nodes the reference is Euler–Maclaurin's";
}

TEST(PlanEstimate, InstructionCountingSharesItsTiersOutToTheHardwareThreads) {
  PlanSettings settings = no_instructions();
  settings.instructions = true;
  Matrix matrix = crafted_matrix();
  matrix.tiers = {"naive", "streaming", "inlined"};
  settings.parallel = 2;  // three tiers on two threads: two rounds of 3 s
  EXPECT_NEAR(part(ladder::estimate(matrix, crafted_calibration(), settings), "instruction counting"), 6,
              1e-12);
  settings.parallel = 4;
  EXPECT_NEAR(part(ladder::estimate(matrix, crafted_calibration(), settings), "instruction counting"), 3,
              1e-12);
}

TEST(PlanEstimate, PrefersWhatAnEarlierRunHereTookWithTheSameSettings) {
  const Matrix matrix = crafted_matrix();
  Calibration calibration = crafted_calibration();
  const CellKey cell{{"naive", "gauss", 1'000'000, 1, 1}, 0, 1, false};
  calibration.cells[cell_key(cell, matrix)] = 42;
  Matrix other = matrix;
  other.repetitions = 7;  // another setting: the earlier run says nothing about it
  calibration.cells[cell_key({{"openmp", "gauss", 1'000'000, 2, 1}, 0, 1, false}, other)] = 99;
  const Estimate estimate = ladder::estimate(matrix, calibration, no_instructions());
  EXPECT_EQ(planned(estimate, "naive/gauss/n:1000000/threads:1").seconds, 42);
  EXPECT_EQ(planned(estimate, "naive/gauss/n:1000000/threads:1").source, "an earlier run here");
  EXPECT_EQ(planned(estimate, "openmp/gauss/n:1000000/threads:2").source, "calibration");
  EXPECT_EQ(part(estimate, "cells as an earlier run here took them"), 42);
}

TEST(PlanEstimate, CellsThatWillNotBeAttemptedCostNothing) {
  Matrix matrix = crafted_matrix();
  matrix.tiers = {"naive"};
  matrix.sizes = {1'000'000'000};
  PlanSettings settings = no_instructions();
  settings.available_memory = 1e9;  // naive needs 8 GB at 1e9
  const Estimate estimate = ladder::estimate(matrix, crafted_calibration(), settings);
  ASSERT_EQ(estimate.cells.size(), 1u);
  EXPECT_EQ(estimate.cells[0].status, CellStatus::skipped);
  EXPECT_EQ(estimate.cells[0].seconds, 0);
  EXPECT_EQ(estimate.peak_bytes, 0);
}

// --budget as the command line's parse makes it.
Budget budget_of(const std::string& text) {
  RunArguments arguments;
  arguments.budget = text;
  return parse_request(arguments).budget.value();
}

TEST(Budget, DurationsParseInSecondsMinutesAndHours) {
  EXPECT_EQ(parse_duration("90s"), 90);
  EXPECT_EQ(parse_duration("15m"), 900);
  EXPECT_EQ(parse_duration("2h"), 7200);
  EXPECT_EQ(parse_duration("1.5h"), 5400);
  for (const std::string bad : {"", "2", "2 minutes", "m", "-5s", "0s", "5x", "abc", "1e9h", "nans"}) {
    try {
      parse_duration(bad);
      ADD_FAILURE() << "'" << bad << "' was accepted";
    } catch (const InputError& error) {
      const std::string message = error.what();
      EXPECT_NE(message.find("'" + bad + "'"), std::string::npos) << message;
      EXPECT_NE(message.find("90s, 15m, 2h"), std::string::npos) << message;
    }
  }
}

std::vector<ThreadStep> steps_of(const Matrix& matrix) {
  std::vector<ThreadStep> steps;
  for (const int threads : matrix.threads)
    steps.push_back({threads, {threads == 12 ? "all physical cores" : "a power of two"}});
  return steps;
}

TEST(Budget, AMatrixThatFitsIsLeftAsItIs) {
  const Matrix matrix = crafted_matrix();
  const Budgeted fitted =
      fit_budget(matrix, budget_of("1h"), crafted_calibration(), no_instructions(), steps_of(matrix));
  EXPECT_TRUE(fitted.dropped.empty());
  EXPECT_EQ(Matrix::difference(fitted.matrix, matrix), "");
  EXPECT_EQ(fitted.budget_seconds, 3600);
}

TEST(Budget, FirstRepetitionsAndMinimumTimeDownToTheFloor) {
  const Matrix matrix = crafted_matrix();  // about 3.2 s
  const Budgeted fitted =
      fit_budget(matrix, budget_of("2s"), crafted_calibration(), no_instructions(), steps_of(matrix));
  ASSERT_EQ(fitted.dropped.size(), 1u);
  EXPECT_NE(fitted.dropped[0].find("repetitions 5 → "), std::string::npos) << fitted.dropped[0];
  EXPECT_NE(fitted.dropped[0].find("to fit --budget 2s"), std::string::npos) << fitted.dropped[0];
  EXPECT_LT(fitted.matrix.repetitions, 5);
  EXPECT_GE(fitted.matrix.repetitions, BudgetFloor::repetitions);
  EXPECT_GE(fitted.matrix.min_time, BudgetFloor::min_time);
  EXPECT_EQ(fitted.matrix.sizes, matrix.sizes);
  EXPECT_EQ(fitted.matrix.threads, matrix.threads);
  EXPECT_LE(fitted.estimate.seconds, budget_share * 2);
  EXPECT_GT(fitted.unbudgeted_seconds, budget_share * 2);
}

TEST(Budget, ThenTheIntermediateThreadCountsPowersOfTwoFirstThenTheLargestSizes) {
  Matrix matrix = crafted_matrix();
  matrix.tiers = {"openmp"};
  matrix.threads = {1, 2, 4, 8, 12, 16};  // 12: a step of the topology's own; 2, 4, 8: powers of two
  matrix.sizes = {100'000, 1'000'000, 10'000'000};
  Calibration calibration = crafted_calibration();
  calibration.tiers[tier_key("openmp", "gauss")].worker_seconds = 1;  // a second a cell, whatever is cut
  // 18 cells; at the floor, a cell costs about 1.1 s. Dropping 8, 4, 2 leaves 3 counts × 3 sizes: 9 cells,
  // still over; then 12 goes, then the sizes from the largest.
  const Budgeted fitted =
      fit_budget(matrix, budget_of("5.5s"), calibration, no_instructions(), steps_of(matrix));
  ASSERT_EQ(fitted.dropped.size(), 3u) << ::testing::PrintToString(fitted.dropped);
  EXPECT_EQ(fitted.matrix.repetitions, BudgetFloor::repetitions);
  EXPECT_EQ(fitted.matrix.min_time, BudgetFloor::min_time);
  EXPECT_NE(fitted.dropped[1].find("thread counts 8, 4, 2, 12 (intermediate; 1, 16 kept)"), std::string::npos)
      << fitted.dropped[1];
  EXPECT_EQ(fitted.matrix.threads, (std::vector<int>{1, 16}));
  EXPECT_NE(fitted.dropped[2].find("sizes n = 1e7 (the largest; n = 1e5, 1e6 kept)"), std::string::npos)
      << fitted.dropped[2];
  EXPECT_EQ(fitted.matrix.sizes, (std::vector<std::int64_t>{100'000, 1'000'000}));
  EXPECT_LE(fitted.estimate.seconds, budget_share * 5.5);
}

// A thread count no cell runs at (only serial tiers here) costs nothing: dropping it would not be a step
// towards the budget, so it is neither dropped nor said to be.
TEST(Budget, DropsOnlyWhatLowersTheEstimate) {
  Matrix matrix = crafted_matrix();
  matrix.tiers = {"naive"};
  matrix.threads = {1, 2, 4, 8, 12};
  matrix.sizes = {100'000, 1'000'000, 10'000'000};
  Calibration calibration = crafted_calibration();
  calibration.tiers[tier_key("naive", "gauss")].worker_seconds = 1;
  const Budgeted fitted =
      fit_budget(matrix, budget_of("3s"), calibration, no_instructions(), steps_of(matrix));
  for (const auto& line : fitted.dropped) EXPECT_EQ(line.find("thread counts"), std::string::npos) << line;
  EXPECT_EQ(fitted.matrix.threads, matrix.threads);
  EXPECT_LT(fitted.matrix.sizes.size(), matrix.sizes.size());
}

// One size, one thread count, and the floor's repetitions still over the budget while one repetition
// fits: the last resort, one repetition, said to be below the floor.
TEST(Budget, LastOneRepetitionBelowTheFloorWhenNothingElseIsLeftToDrop) {
  Matrix matrix = crafted_matrix();
  matrix.tiers = {"naive"};
  matrix.threads = {1};
  Calibration calibration = crafted_calibration();
  calibration.tiers[tier_key("naive", "gauss")].seconds_per_node = 1e-6;  // a call of 1 s at n = 1e6
  Matrix at_floor = matrix;
  at_floor.repetitions = BudgetFloor::repetitions;
  at_floor.min_time = BudgetFloor::min_time;
  at_floor.min_warmup_time = BudgetFloor::min_warmup_time;
  Matrix once = at_floor;
  once.repetitions = 1;
  const double floor_seconds = ladder::estimate(at_floor, calibration, no_instructions()).seconds;
  const double once_seconds = ladder::estimate(once, calibration, no_instructions()).seconds;
  ASSERT_LT(once_seconds, floor_seconds);
  const double budget = (once_seconds + floor_seconds) / 2 / budget_share;  // between the two
  const Budgeted fitted = fit_budget(matrix, budget_of(format_number("%.3f", budget) + "s"), calibration,
                                     no_instructions(), steps_of(matrix));
  ASSERT_EQ(fitted.dropped.size(), 2u) << ::testing::PrintToString(fitted.dropped);
  EXPECT_NE(fitted.dropped[1].find("repetitions 3 → 1, below the floor: the last resort"), std::string::npos)
      << fitted.dropped[1];
  EXPECT_EQ(fitted.matrix.repetitions, 1);
  EXPECT_EQ(fitted.matrix.sizes, matrix.sizes);
  EXPECT_LE(fitted.estimate.seconds, budget_share * fitted.budget_seconds);
}

TEST(Budget, TooSmallForOneRepetitionOfEachTierAtTheSmallestSizeNamesTheMinimum) {
  const Matrix matrix = crafted_matrix();
  // At least 3 workers of 0.2 s: the minimum is above 0.6 s / 0.9.
  try {
    fit_budget(matrix, budget_of("0.5s"), crafted_calibration(), no_instructions(), steps_of(matrix));
    FAIL() << "a budget of 0.5 s was accepted";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("--budget 0.5s is too small"), std::string::npos) << message;
    EXPECT_NE(message.find("one repetition of each tier at the smallest size"), std::string::npos) << message;
    EXPECT_NE(message.find("give at least 1s"), std::string::npos) << message;
  }
}

// Through the binary: the plan of each synthetic machine, calibrated on this one (the tests' cache).
nlohmann::json plan_json(const Fixture& fixture, const std::string& options) {
  const Outcome outcome = run_command(
      "HWLOC_SYNTHETIC='" + std::string(fixture.synthetic) + "' " LADDER_BINARY, "plan --json " + options);
  EXPECT_EQ(outcome.exit_code, 0) << fixture.name << ": " << outcome.output;
  const auto start = outcome.output.find("{\n");  // after the calibration's line, the first time
  return nlohmann::json::parse(outcome.output.substr(start == std::string::npos ? 0 : start));
}

// The cells a matrix of these thread counts has, from the cards alone: serial tiers once a size, parallel
// ones at each count, the mpi tier at ranks 1 and 2 where ranks × threads fit the hardware threads.
std::size_t expected_cells(const std::vector<int>& threads, std::size_t sizes) {
  const int hardware_threads = threads.back();
  std::size_t per_size = 0;
  for (const auto& tier : tiers()) {
    if (!tier.card.parallel)
      per_size += 1;
    else if (!tier.card.distributed)
      per_size += threads.size();
    else
      for (const int count : threads)
        per_size += 1 + (hardware_threads >= 2 && 2 * count <= hardware_threads);
  }
  return per_size * sizes;
}

// The plan of each machine: its threads, its cells, its topology and its memory, and the quick preset's
// estimate below the standard one. The estimates' size in seconds comes from a calibration measured now,
// so it moves with the load: whether the presets keep their promises in wall time (under 1 and 15
// minutes) is measured by scripts/bench-presets, not asserted here.
TEST(PlanTopologies, EachFixturesThreadsCellsAndThePresetsPromises) {
  // Calibrated on this machine, in a cache of its own: the estimate from the calibration alone, not from
  // what the other tests' runs recorded.
  TempDir cache;
  setenv("LADDER_CACHE_DIR", cache.str().c_str(), 1);
  for (const auto& fixture : fixtures) {
    const nlohmann::json standard = plan_json(fixture, "");
    EXPECT_EQ(standard.at("threads").get<std::vector<int>>(), fixture.threads) << fixture.name;
    EXPECT_EQ(standard.at("cells").size(), expected_cells(fixture.threads, 4)) << fixture.name;
    EXPECT_EQ(standard.at("topology").at("pus").size(), static_cast<std::size_t>(fixture.threads.back()))
        << fixture.name;
    EXPECT_GT(standard.at("estimated_peak_bytes").get<double>(), 8e8) << fixture.name << ": naive at 1e8";
    const nlohmann::json quick = plan_json(fixture, "--preset quick");
    EXPECT_EQ(quick.at("cells").size(), expected_cells(fixture.threads, 2)) << fixture.name;
    // One calibration for both (the cache is kept between the two plans): the quick preset's fewer cells,
    // smaller sizes and shorter repetitions take less time, whatever the load.
    EXPECT_GT(quick.at("estimated_seconds").get<double>(), 0) << fixture.name;
    EXPECT_LT(quick.at("estimated_seconds").get<double>(), standard.at("estimated_seconds").get<double>())
        << fixture.name;
  }
  unsetenv("LADDER_CACHE_DIR");
}

TEST(PlanTopologies, TheTextSaysWhyEachThreadCountIsThere) {
  const Outcome outcome =
      run_command("HWLOC_SYNTHETIC='core:12 pu:1' " LADDER_BINARY, "plan --tiers naive,openmp --n 1e5");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  EXPECT_NE(outcome.output.find("topology: 1 socket, 12 cores"), std::string::npos) << outcome.output;
  EXPECT_NE(outcome.output.find("  8: a power of two\n"), std::string::npos) << outcome.output;
  EXPECT_NE(outcome.output.find("  12: all physical cores\n"), std::string::npos) << outcome.output;
  EXPECT_NE(outcome.output.find("openmp/gauss/n:100000/threads:12"), std::string::npos) << outcome.output;
  EXPECT_NE(outcome.output.find("estimated wall time: about "), std::string::npos) << outcome.output;
  const Outcome given = run_command(LADDER_BINARY, "plan --tiers openmp --n 1e5 --threads 2");
  EXPECT_NE(given.output.find("  2: given with --threads\n"), std::string::npos) << given.output;
}

TEST(PlanBadInput, AnUnparsableBudgetOrOneTooSmallExitsTwo) {
  const Outcome unparsable = run_command(LADDER_BINARY, "plan --budget 2minutes");
  EXPECT_EQ(unparsable.exit_code, 2) << unparsable.output;
  EXPECT_NE(unparsable.output.find("'2minutes'"), std::string::npos) << unparsable.output;
  EXPECT_NE(unparsable.output.find("90s, 15m, 2h"), std::string::npos) << unparsable.output;
  TempDir dir;
  const Outcome small = run_command(LADDER_BINARY, "run --budget 1s --out " + dir.str() + "/out");
  EXPECT_EQ(small.exit_code, 2) << small.output;
  EXPECT_NE(small.output.find("--budget 1s is too small"), std::string::npos) << small.output;
  EXPECT_NE(small.output.find("give at least "), std::string::npos) << small.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "out" / "journal.jsonl")) << "nothing is written";
  const Outcome resumed = run_command(LADDER_BINARY, "run --resume " + dir.str() + " --budget 1m");
  EXPECT_EQ(resumed.exit_code, 2) << resumed.output;
  EXPECT_NE(resumed.output.find("--resume and --budget do not go together"), std::string::npos)
      << resumed.output;
}

// A budgeted run, on a crafted calibration that makes each cell look like 10 s: the run drops what the
// budget says, records it, and --resume keeps that matrix.
TEST(BudgetedRun, DropsWhatItSaysRecordsItAndResumeKeepsTheMatrix) {
  TempDir cache, dir;
  setenv("LADDER_CACHE_DIR", cache.str().c_str(), 1);
  Calibration calibration;
  calibration.tiers[tier_key("naive", "gauss")] = {1e-9, 10, 1e7};
  calibration.tiers[tier_key("openmp", "gauss")] = {1e-9, 10, 1e7};
  calibration.reference_seconds_per_node["gauss"] = 1e-8;
  ASSERT_TRUE(save_calibration(LADDER_BINARY, calibration));
  const std::string out = dir.str() + "/out";
  // 6 cells of about 10 s: 60 s; 45 s (40.5 s for the estimate) fits 3. --remeasure 0: no allowance for
  // measuring disturbed cells again (remeasure_test.cpp fits a budget with it); --rounds 1: one worker start
  // a cell (three rounds would start each cell's 10 s worker three times); --no-limits: the machine's limits
  // are a part of their own in the estimate, 23 s on a machine with a 300 MiB L3, and not this test's.
  const Outcome outcome =
      run_command(LADDER_BINARY,
                  "run --tiers naive,openmp --n 1e4,1e5 --threads 1,2 --rounds 1 --no-limits "
                  "--no-instructions --remeasure 0 --budget 45s --out " +
                      out);
  unsetenv("LADDER_CACHE_DIR");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  EXPECT_NE(outcome.output.find("budget 45s: to fit it, dropped:\n  repetitions 10 → 3"), std::string::npos)
      << outcome.output;
  EXPECT_NE(outcome.output.find("sizes n = 1e5 (the largest; n = 1e4 kept)"), std::string::npos)
      << outcome.output;
  EXPECT_TRUE(std::regex_search(outcome.output,
                                std::regex("3 cells; estimated wall time about 3[0-9](\\.[0-9])? s \\(")))
      << outcome.output;  // 30 to 40 s, under a minute in seconds
  // Each progress line but the last says the time left.
  const auto first = outcome.output.find("[1/3] ");
  ASSERT_NE(first, std::string::npos) << outcome.output;
  EXPECT_NE(outcome.output.find(" left)\n[2/3] ", first), std::string::npos) << outcome.output;
  const nlohmann::json results = read_json(out + "/results.json");
  const auto& context = results.at("context");
  EXPECT_EQ(context.at("matrix").at("sizes"), nlohmann::json({10'000}));
  EXPECT_EQ(context.at("matrix").at("repetitions"), 3);
  EXPECT_EQ(context.at("run").at("budget").at("budget_seconds"), 45);
  EXPECT_EQ(context.at("run").at("budget").at("dropped").size(), 2u);
  EXPECT_NE(read_text(out + "/report.md").find("was budgeted: --budget 45s: dropped repetitions 10 → 3"),
            std::string::npos);
  const Outcome resumed = run_command(LADDER_BINARY, "run --resume " + out);
  EXPECT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_EQ(read_json(out + "/results.json").at("context").at("matrix"), context.at("matrix"));
  EXPECT_EQ(read_json(out + "/results.json").at("context").at("run").at("budget"),
            context.at("run").at("budget"));
}

}  // namespace
}  // namespace ladder::testing
