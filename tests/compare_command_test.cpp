// `ladder compare` on hand-made results files, whose answers are known: each cell's ratio, its verdict
// against this machine's noise floor from a history's runs of one clean commit (and none without one), the
// gate (--fail-above), the placement notes, the refusal of two machines, and a malformed file or history.
// Nothing here is timed: two runs timed against each other would test the machine's load, not compare.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "choose.hpp"
#include "command.hpp"
#include "crafted_results.hpp"
#include "history_store.hpp"
#include "noise_floor_support.hpp"
#include "noise_store.hpp"
#include "report.hpp"
#include "results_file.hpp"

namespace ladder::report {
namespace {

using nlohmann::json;
using testing::CraftedCell;
using testing::TempDir;
namespace fs = std::filesystem;

std::vector<double> scaled(std::vector<double> values, double factor) {
  for (auto& value : values) value *= factor;
  return values;
}

// Ten repetitions, 1.00 s to 1.09 s: every change below moves each of them by the same factor.
const std::vector<double> ten = {1.00, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.07, 1.08, 1.09};

// `ladder compare` on two results files made here: a cell twice as slow, one twice as fast, one unchanged.
// With a topology, the machine's shape is recorded and each cell's placement with it: the serial cells on one
// core, tbb's two threads on `tbb_placement`. Without, neither is, as in files written before Ladder placed
// threads.
fs::path crafted(const fs::path& dir, const std::string& host, double naive, double xsimd,
                 const std::vector<double>& repetitions, const json& topology = nullptr,
                 const json& tbb_placement = nullptr) {
  const json one_core = topology.is_null() ? json() : testing::crafted_placement(1, 1, 1, 1, 1, false);
  json benchmarks = json::array();
  testing::add_cell(benchmarks,
                    CraftedCell{"naive", 0, 1000000, 1, scaled(repetitions, naive), 1e-15, one_core});
  testing::add_cell(benchmarks,
                    CraftedCell{"xsimd", 6, 1000000, 1, scaled(repetitions, xsimd), 1e-15, one_core});
  testing::add_cell(benchmarks,
                    CraftedCell{"tbb", 9, 1000000, 2, scaled(repetitions, 0.05), 1e-15, tbb_placement});
  const json cards = json::array({testing::crafted_card("naive", 0, {}, false, "minutes", 27),
                                  testing::crafted_card("xsimd", 6, {"xsimd"}, false, "days", 60),
                                  testing::crafted_card("tbb", 9, {"oneTBB"}, true, "days", 80)});
  return testing::write_results(
      dir, testing::crafted_results(host, cards, benchmarks, static_cast<int>(repetitions.size()), topology));
}

// `ladder compare ARGUMENTS`, with a history that does not exist (no noise floor is known) unless the
// arguments name one: never the tests' shared database, which may know this crafted machine.
testing::Outcome compare(const std::string& arguments) {
  const std::string none =
      (fs::temp_directory_path() / "ladder-compare-test-no-such-history.sqlite").string();
  return testing::run_command(
      LADDER_BINARY,
      "compare " + arguments +
          (arguments.find("--history") == std::string::npos ? " --history " + none : std::string()));
}

// The command's output holds `text`.
void expect_says(const testing::Outcome& outcome, const std::string& text) {
  EXPECT_NE(outcome.output.find(text), std::string::npos) << "no \"" << text << "\" in:\n" << outcome.output;
}

// The output's line for a cell.
std::string line_of(const testing::Outcome& outcome, const std::string& cell) {
  const auto at = outcome.output.find(cell + " ");
  return at == std::string::npos ? "" : outcome.output.substr(at, outcome.output.find('\n', at) - at);
}

// A history at DIR/history.sqlite whose seven runs of one clean commit give the crafted cells a noise floor
// of `percent` on `host`'s machine (record_one_commit), and an A/A figure of 1 % that compare must not take.
// Returns its path.
std::string history_with_floor(const TempDir& dir, double percent, const std::string& host = "crafted") {
  const std::string path = (dir / "history.sqlite").string();
  history::Store store(path, history::Store::Mode::write);
  const std::string machine = testing::record_one_commit(
      store, dir.str(), percent,
      [&](const fs::path& run, double factor) { return crafted(run, host, 1.0, 1.0, scaled(ten, factor)); });
  for (const auto& [tier, threads] : {std::pair<std::string, int>{"naive", 1}, {"xsimd", 1}, {"tbb", 2}})
    testing::record_aa(store, machine, tier, threads, 1.0);
  return path;
}

const std::string unknown_noise =
    "measured apart, and the history holds under 6 runs of one clean commit on this machine, so its "
    "run-to-run noise is unknown: `ladder ab` answers this";

// The summary line's mean of the new/old ratios is geometric: twice as slow and twice as fast cancel.
TEST(CompareSummary, TheMeanOfTheRatiosIsGeometric) {
  EXPECT_NEAR(geometric_mean({2.0, 0.5}), 1.0, 1e-15) << "twice as slow and twice as fast: no change";
  EXPECT_NEAR(geometric_mean({2.0, 8.0}), 4.0, 1e-14);
  EXPECT_NEAR(geometric_mean({1.1, 1.1, 1.1}), 1.1, 1e-15);
  EXPECT_DOUBLE_EQ(geometric_mean({}), 1.0);
}

TEST(CompareCommand, WithoutTheMachinesNoiseGivesRatiosAndNoVerdict) {
  TempDir dir;
  const std::string old_run = crafted(dir / "old", "crafted", 1.0, 0.1, ten).string();
  const std::string new_run = crafted(dir / "new", "crafted", 2.0, 0.05, ten).string();
  const auto outcome = compare(old_run + " " + new_run);
  EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
  // Ten repetitions a side, every new one of naive above every old one: still one pair of runs, whose
  // repetitions share each run's machine state, so no verdict.
  EXPECT_NE(line_of(outcome, "naive/gauss/n:1000000/threads:1").find("  2.000  —"), std::string::npos)
      << outcome.output;
  for (const std::string cell : {"naive/gauss/n:1000000/threads:1", "xsimd/gauss/n:1000000/threads:1",
                                 "tbb/gauss/n:1000000/threads:2"}) {
    const std::string line = line_of(outcome, cell);
    EXPECT_EQ(line.substr(line.size() - 3), "—") << "no verdict: " << line;
  }
  expect_says(outcome, "no verdict for 3 cells: " + unknown_noise);
  expect_says(outcome, "3 cells in both: 0 slower, 0 faster, 0 no change, 0 undecided, 3 without a verdict");
  // 2 × 0.5 × 1: the geometric mean is 1 (an arithmetic mean would say 1.167).
  expect_says(outcome, "geometric mean of new/old: 1.000\n");
  EXPECT_EQ(compare(old_run + " " + new_run + " --fail-above 50").exit_code, 0) << "no verdict fails no gate";
}

TEST(CompareCommand, JudgesEachCellAgainstTheHistorysNoiseFloorAndGates) {
  TempDir dir;
  const std::string old_run = crafted(dir / "old", "crafted", 1.0, 0.1, ten).string();
  const std::string new_run = crafted(dir / "new", "crafted", 2.0, 0.05, ten).string();
  const std::string history = " --history " + history_with_floor(dir, 3);
  // Against --min-change 10: tbb's ratio 1 with ±3 % of noise lies within ±10 %.
  const auto outcome = compare(old_run + " " + new_run + history + " --min-change 10");
  EXPECT_EQ(outcome.exit_code, 1) << "naive is slower: the gate fails\n" << outcome.output;
  EXPECT_NE(line_of(outcome, "naive/gauss/n:1000000/threads:1").find("  2.000  1.942–2.060"),
            std::string::npos)
      << "the ratio and ±3 % of noise:\n"
      << outcome.output;
  EXPECT_NE(line_of(outcome, "naive/gauss/n:1000000/threads:1").find("  slower"), std::string::npos);
  EXPECT_NE(line_of(outcome, "xsimd/gauss/n:1000000/threads:1").find("  faster"), std::string::npos);
  EXPECT_NE(line_of(outcome, "tbb/gauss/n:1000000/threads:2").find("  no change"), std::string::npos);
  expect_says(outcome, "threshold: ±10 %, --min-change\n");
  expect_says(outcome, "3 cells in both: 1 slower, 1 faster, 1 no change, 0 undecided; geometric mean");
  EXPECT_EQ(outcome.output.find(unknown_noise), std::string::npos) << outcome.output;

  // The floor is the threshold by default, and where it came from is said.
  expect_says(compare(old_run + " " + new_run + history),
              "threshold: ±3 %, this machine's noise floor (history: 7 runs of clean commit 3f2a1b0c9d)");
  EXPECT_EQ(compare(old_run + " " + new_run + history + " --fail-above 50").exit_code, 1) << "100 % > 50 %";
  EXPECT_EQ(compare(old_run + " " + new_run + history + " --fail-above 150").exit_code, 0) << "100 % < 150 %";
}

TEST(CompareCommand, ThreeRepetitionsAreJudgedAsTenAre) {
  // The unit of evidence is the run, not its repetitions: three a side give the same verdicts as ten, and
  // no warning that the test has too few.
  TempDir dir;
  const std::vector<double> three = {1.0, 1.01, 1.02};
  const std::string old_run = crafted(dir / "old", "crafted", 1.0, 0.1, three).string();
  const std::string new_run = crafted(dir / "new", "crafted", 2.0, 0.05, three).string();
  const auto outcome = compare(old_run + " " + new_run + " --history " + history_with_floor(dir, 3));
  EXPECT_EQ(outcome.exit_code, 1) << outcome.output;
  EXPECT_NE(line_of(outcome, "naive/gauss/n:1000000/threads:1").find("  slower"), std::string::npos)
      << outcome.output;
  EXPECT_EQ(outcome.output.find("warning"), std::string::npos) << outcome.output;
}

TEST(CompareCommand, RefusesRunsOfTwoMachinesUnlessAsked) {
  TempDir dir;
  const std::string old_run = crafted(dir / "old", "crafted", 1.0, 0.1, ten).string();
  const std::string other = crafted(dir / "other", "another-machine", 1.0, 0.1, ten).string();
  const auto refused = compare(old_run + " " + other);
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  expect_says(refused, "another-machine");
  expect_says(refused, "--across-machines");
  // Compared anyway, no machine's noise floor describes two hosts, even one the history knows.
  const auto across = compare("--across-machines " + old_run + " " + other + " --history " +
                              history_with_floor(dir, 3, "another-machine"));
  EXPECT_EQ(across.exit_code, 0) << across.output;
  expect_says(across, "no verdict for 3 cells: measured apart on two machines");
  expect_says(across, "3 cells in both: 0 slower, 0 faster, 0 no change, 0 undecided, 3 without a verdict");
}

TEST(CompareCommand, ADamagedHistoryIsBadInputAndAMissingOneIsNot) {
  TempDir dir;
  const std::string old_run = crafted(dir / "old", "crafted", 1.0, 0.1, ten).string();
  const std::string new_run = crafted(dir / "new", "crafted", 2.0, 0.05, ten).string();
  testing::write_text(dir / "damaged.sqlite", "not a database, not SQLite at all");
  const auto damaged = compare(old_run + " " + new_run + " --history " + (dir / "damaged.sqlite").string());
  EXPECT_EQ(damaged.exit_code, 2) << damaged.output;
  expect_says(damaged, (dir / "damaged.sqlite").string());
  EXPECT_EQ(testing::read_text(dir / "damaged.sqlite"), "not a database, not SQLite at all") << "untouched";
  const auto missing = compare(old_run + " " + new_run + " --history " + (dir / "none.sqlite").string());
  EXPECT_EQ(missing.exit_code, 0) << missing.output;
  EXPECT_FALSE(fs::exists(dir / "none.sqlite")) << "reading never creates it";
}

TEST(CompareCommand, RefusesANegativeThresholdOrGate) {
  TempDir dir;
  const std::string old_run = crafted(dir / "old", "crafted", 1.0, 0.1, ten).string();
  const std::string new_run = crafted(dir / "new", "crafted", 2.0, 0.05, ten).string();
  for (const std::string option : {"--min-change", "--fail-above"}) {
    const auto outcome = compare(old_run + " " + new_run + " " + option + " -5");
    EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
    expect_says(outcome, option + " -5: give a change in per cent, 0 or more");
    EXPECT_EQ(outcome.output.find("cells in both"), std::string::npos) << outcome.output;
  }
}

// The CI options are declared once (app/commands.cpp): `ab`, `compare` and `history check` refuse a gate out
// of range in the same words, before anything is built, measured or read, and name the bound.
TEST(CompareCommand, AbCompareAndHistoryCheckRefuseAGateInTheSameWords) {
  TempDir dir;
  const std::string old_run = crafted(dir / "old", "crafted", 1.0, 0.1, ten).string();
  const std::string new_run = crafted(dir / "new", "crafted", 2.0, 0.05, ten).string();
  const std::string history = " --history " + (dir / "none.sqlite").string();
  for (const std::string given : {"--min-change -5", "--fail-above 1000", "--min-change nan"}) {
    const auto by_compare = compare(old_run + " " + new_run + " " + given);
    const auto by_ab = testing::run_command(LADDER_BINARY, "ab --base HEAD " + given + history);
    const auto by_check = testing::run_command(LADDER_BINARY, "history check " + given + history);
    EXPECT_EQ(by_compare.exit_code, 2) << by_compare.output;
    expect_says(by_compare, given.substr(0, given.find(' ')) + " ");
    expect_says(by_compare, ": give a change in per cent, 0 or more and under 1000");
    EXPECT_EQ(by_ab.exit_code, 2) << by_ab.output;
    EXPECT_EQ(by_ab.output, by_compare.output);
    EXPECT_EQ(by_check.exit_code, 2) << by_check.output;
    EXPECT_EQ(by_check.output, by_compare.output);
  }
  EXPECT_FALSE(fs::exists(dir / "none.sqlite")) << "nothing was read or written";
}

// The shapes and placements of the placement tests: one socket of 4 cores × 2 threads, and two sockets of 2
// cores; tbb's two threads on two cores, or on the two threads of one core.
const json four_cores_smt = testing::crafted_topology(1, 1, 1, 4, 2);
const json two_sockets = testing::crafted_topology(2, 1, 1, 2, 1);
const json two_cores = testing::crafted_placement(2, 2, 1, 1, 1, false);
const json one_core_smt = testing::crafted_placement(2, 1, 1, 1, 1, true);

// The compare output's notes, one a line.
std::vector<std::string> notes_in(const std::string& output) {
  std::vector<std::string> notes;
  for (auto at = output.find("note: "); at != std::string::npos; at = output.find("note: ", at + 1))
    notes.push_back(output.substr(at, output.find('\n', at) - at));
  return notes;
}

TEST(ComparePlacement, SaysNothingWhenBothRunsWerePlacedAlike) {
  TempDir dir;
  const std::string old_run =
      crafted(dir / "old", "crafted", 1.0, 0.1, ten, four_cores_smt, two_cores).string();
  const std::string new_run =
      crafted(dir / "new", "crafted", 2.0, 0.05, ten, four_cores_smt, two_cores).string();
  const auto outcome = compare(old_run + " " + new_run);
  EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
  EXPECT_EQ(notes_in(outcome.output), std::vector<std::string>{}) << outcome.output;
  expect_says(outcome, "3 cells in both");

  // Neither recorded (both written before Ladder placed threads): alike too.
  const std::string old_unplaced = crafted(dir / "old-unplaced", "crafted", 1.0, 0.1, ten).string();
  const std::string new_unplaced = crafted(dir / "new-unplaced", "crafted", 2.0, 0.05, ten).string();
  const auto unplaced = compare(old_unplaced + " " + new_unplaced);
  EXPECT_EQ(notes_in(unplaced.output), std::vector<std::string>{}) << unplaced.output;
}

TEST(ComparePlacement, NotesARunWrittenBeforeLadderPlacedThreads) {
  TempDir dir;
  const fs::path unplaced = crafted(dir / "unplaced", "crafted", 1.0, 0.1, ten);
  const fs::path placed = crafted(dir / "placed", "crafted", 2.0, 0.05, ten, four_cores_smt, two_cores);
  const std::string says =
      " (" + (unplaced / "results.json").string() +
      ") has no topology or placement recorded (written before Ladder pinned threads): a "
      "difference may be the placement, not the code";

  const auto old_unplaced = compare(unplaced.string() + " " + placed.string());
  EXPECT_EQ(old_unplaced.exit_code, 0) << old_unplaced.output;
  EXPECT_EQ(notes_in(old_unplaced.output), std::vector<std::string>{"note: the old run" + says})
      << "one note, not one a cell as well\n"
      << old_unplaced.output;
  expect_says(old_unplaced, "3 cells in both");

  const auto new_unplaced = compare(placed.string() + " " + unplaced.string());
  EXPECT_EQ(notes_in(new_unplaced.output), std::vector<std::string>{"note: the new run" + says})
      << new_unplaced.output;
}

TEST(ComparePlacement, NotesMachinesOfDifferentShapes) {
  TempDir dir;
  const std::string old_run =
      crafted(dir / "old", "crafted", 1.0, 0.1, ten, four_cores_smt, two_cores).string();
  const std::string new_run =
      crafted(dir / "new", "crafted", 2.0, 0.05, ten, two_sockets, two_cores).string();
  const auto outcome = compare(old_run + " " + new_run);
  EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
  EXPECT_EQ(notes_in(outcome.output),
            std::vector<std::string>{
                "note: the machines differ: 1 socket, 4 cores × 2 threads, 1 NUMA node, 1 L3 group against 2 "
                "sockets × 2 cores, 2 NUMA nodes, 2 L3 groups: a difference may be the machine's shape, not "
                "the code"})
      << outcome.output;
}

TEST(ComparePlacement, NotesCellsWhoseThreadsWerePlacedDifferently) {
  TempDir dir;
  const std::string old_run =
      crafted(dir / "old", "crafted", 1.0, 0.1, ten, four_cores_smt, two_cores).string();
  const std::string smt =
      crafted(dir / "smt", "crafted", 2.0, 0.05, ten, four_cores_smt, one_core_smt).string();
  const auto moved = compare(old_run + " " + smt);
  EXPECT_EQ(
      notes_in(moved.output),
      std::vector<std::string>{"note: 1 cell's threads were placed differently, old against new: "
                               "tbb/gauss/n:1000000/threads:2 (1 NUMA node: 2 cores, 1 L3 group, 1 socket "
                               "against 1 NUMA node: 1 core, 1 L3 group, 1 socket; SMT shared): a "
                               "difference there may be the placement, not the code"})
      << moved.output;

  // The same machine recorded on both sides, tbb's placement on one only.
  const std::string unrecorded =
      crafted(dir / "unrecorded", "crafted", 2.0, 0.05, ten, four_cores_smt).string();
  const auto missing = compare(old_run + " " + unrecorded);
  expect_says(
      missing,
      "note: 1 cell's threads were placed differently, old against new: tbb/gauss/n:1000000/threads:2 "
      "(1 NUMA node: 2 cores, 1 L3 group, 1 socket against not recorded)");
}

// A malformed results file: an error naming the file and the field, exit 2, and no comparison printed
// nor any file written.
TEST(CompareCommand, RefusesAMalformedFileNamingItAndTheField) {
  TempDir dir;
  const std::string old_run = crafted(dir / "old", "crafted", 1.0, 0.1, ten).string();
  const fs::path bad = crafted(dir / "bad", "crafted", 2.0, 0.05, ten);
  json document = testing::read_json(bad / "results.json");
  document["cells"][1]["measurement"]["repetitions"][0]["real_time"] = "fast";
  testing::write_text(bad / "results.json", document.dump());  // as damaged, not rewritten
  const auto before = std::distance(fs::recursive_directory_iterator(dir.str()), {});
  const auto outcome = compare(old_run + " " + bad.string());
  EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
  expect_says(outcome, (bad / "results.json").string());
  expect_says(outcome, "cells[1].measurement.repetitions[0].real_time");
  EXPECT_EQ(outcome.output.find("old median"), std::string::npos) << outcome.output;
  EXPECT_EQ(std::distance(fs::recursive_directory_iterator(dir.str()), {}), before) << "nothing written";

  document["cells"][1]["measurement"]["repetitions"][0].erase("real_time");
  testing::write_text(bad / "results.json", document.dump());
  const auto missing = compare(bad.string() + " " + old_run);
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  expect_says(missing,
              (bad / "results.json").string() + "': cells[1].measurement.repetitions[0] has no 'real_time'");
  EXPECT_EQ(missing.output.find("old median"), std::string::npos) << missing.output;
}

}  // namespace
}  // namespace ladder::report
