// `ladder compare` on crafted repetitions, whose answers are known: the Mann–Whitney U test (against an
// enumeration of every ordering and against scipy), the verdict each cell gets, the geometric mean, and the
// command on hand-made results files (its summary, its warning, --fail-above, a malformed file). Nothing
// here is timed: two runs timed against each other would test the machine's load, not compare.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "choose.hpp"
#include "command.hpp"
#include "crafted_results.hpp"
#include "report.hpp"

namespace ladder::report {
namespace {

using nlohmann::json;
using testing::CraftedCell;
using testing::TempDir;
namespace fs = std::filesystem;

// U for x, counted pair by pair (a tie a half): the definition, not the ranks compare uses.
double u_by_pairs(const std::vector<double>& x, const std::vector<double>& y) {
  double u = 0;
  for (const double a : x)
    for (const double b : y) u += a > b ? 1 : a == b ? 0.5 : 0;
  return u;
}

// The exact two-sided p-value of samples without ties, by enumerating every way of giving m of the ranks
// 1 … m + n to x: the share of them whose U is at least as far from m·n/2 as the observed one.
double p_by_enumeration(const std::vector<double>& x, const std::vector<double>& y) {
  const int m = static_cast<int>(x.size()), total = static_cast<int>(x.size() + y.size());
  const double centre = m * (total - m) / 2.0, observed = std::fabs(u_by_pairs(x, y) - centre);
  std::int64_t as_far = 0, all = 0;
  for (std::uint32_t chosen = 0; chosen < (1u << total); ++chosen) {
    if (__builtin_popcount(chosen) != m) continue;
    double rank_sum = 0;
    for (int rank = 1; rank <= total; ++rank)
      if (chosen & (1u << (rank - 1))) rank_sum += rank;
    ++all;
    as_far += std::fabs(rank_sum - m * (m + 1) / 2.0 - centre) >= observed - 1e-9;
  }
  return static_cast<double>(as_far) / static_cast<double>(all);
}

// Distinct values from a fixed generator, `shift` added: samples that overlap more or less.
std::vector<double> sample(int size, std::uint32_t seed, double shift) {
  std::vector<double> values;
  for (int i = 0; i < size; ++i) {
    seed = seed * 1664525u + 1013904223u;
    values.push_back(shift + (seed >> 8) / double(1 << 24));
  }
  return values;
}

TEST(MannWhitney, ExactPValueIsTheShareOfOrderingsAsExtreme) {
  const struct {
    int m, n;
    double shift;
  } cases[] = {{3, 3, 0},   {3, 3, 2},    {4, 6, 0.3},  {6, 6, 0},
               {6, 6, 0.5}, {7, 8, -0.4}, {5, 10, 0.2}, {2, 13, 1}};
  std::uint32_t seed = 1;
  for (const auto& c : cases) {
    const auto x = sample(c.m, seed++, 0), y = sample(c.n, seed++, c.shift);
    const UTest test = mann_whitney(x, y);
    EXPECT_DOUBLE_EQ(test.u, u_by_pairs(x, y)) << c.m << " against " << c.n << ", shift " << c.shift;
    EXPECT_NEAR(test.p, p_by_enumeration(x, y), 1e-12) << c.m << " against " << c.n << ", shift " << c.shift;
  }
}

// The answers of scipy 1.10.1, from /usr/bin/python3 on Debian 12:
//   from scipy.stats import mannwhitneyu as mw
//   mw([1.0, 1.3, 2.2, 2.9, 4.1, 5.0, 6.2], [1.1, 2.5, 3.3, 4.4, 5.9, 7.1, 8.0, 9.2], method='exact')
//     statistic=16.0, pvalue=0.1892773892773893
//   mw([1.0, 1.01, …, 1.09], [1.1, 1.111, …, 1.199], method='exact')   (steps of 0.01 and 0.011)
//     statistic=0.0, pvalue=1.082508822446903e-05
//   mw([1, 2, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9], [3, 4, 5, 5, 6, 7, 8, 9, 9, 10, 11, 12], method='asymptotic')
//     statistic=36.5, pvalue=0.04240032552303027
//   mw([1, 2, 3, 3, 5], [3, 4, 6, 7, 8], method='asymptotic')
//     statistic=3.0, pvalue=0.057007942464885414
//   mw([2.0 * i for i in range(25)], [3.25 + 2.5 * k for k in range(20)], method='asymptotic')
//     statistic=221.0, pvalue=0.5150556053381978
// compare uses the exact distribution for m + n ≤ 40 without ties, the normal approximation (with scipy's
// continuity and tie corrections) otherwise: the last three are ties, ties, and 45 values.
TEST(MannWhitney, AgreesWithScipy) {
  std::vector<double> steady, slower;
  for (int i = 0; i < 10; ++i) steady.push_back(1.0 + 0.01 * i), slower.push_back(1.1 + 0.011 * i);
  std::vector<double> many, more;
  for (int i = 0; i < 25; ++i) many.push_back(2.0 * i);
  for (int k = 0; k < 20; ++k) more.push_back(3.25 + 2.5 * k);
  const struct {
    std::vector<double> x, y;
    double u, p;
  } cases[] = {
      {{1.0, 1.3, 2.2, 2.9, 4.1, 5.0, 6.2}, {1.1, 2.5, 3.3, 4.4, 5.9, 7.1, 8.0, 9.2}, 16, 0.1892773892773893},
      {steady, slower, 0, 1.082508822446903e-05},
      {{1, 2, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9},
       {3, 4, 5, 5, 6, 7, 8, 9, 9, 10, 11, 12},
       36.5,
       0.04240032552303027},
      {{1, 2, 3, 3, 5}, {3, 4, 6, 7, 8}, 3, 0.057007942464885414},
      {many, more, 221, 0.5150556053381978},
  };
  for (const auto& c : cases) {
    const UTest test = mann_whitney(c.x, c.y);
    EXPECT_DOUBLE_EQ(test.u, c.u) << c.x.size() << " against " << c.y.size();
    EXPECT_NEAR(test.p, c.p, 1e-12 + 1e-9 * c.p) << c.x.size() << " against " << c.y.size();
  }
}

TEST(MannWhitney, IsSymmetricAndSaysNothingWithoutData) {
  const auto x = sample(6, 7, 0), y = sample(8, 8, 0.3);
  EXPECT_DOUBLE_EQ(mann_whitney(x, y).p, mann_whitney(y, x).p);
  EXPECT_DOUBLE_EQ(mann_whitney(x, y).u + mann_whitney(y, x).u, 6 * 8);
  EXPECT_DOUBLE_EQ(mann_whitney({1, 2, 3}, {1, 2, 3}).p, 1) << "the same values";
  EXPECT_DOUBLE_EQ(mann_whitney({}, {1, 2, 3}).p, 1) << "no data, no evidence";
}

// A cell of a run, from its repetitions; its median is theirs, as the harness writes it.
CellResult cell(const std::vector<double>& repetitions) {
  return testing::measured_record({"naive", 0, 1000000, 1, repetitions});
}

std::vector<double> scaled(std::vector<double> values, double factor) {
  for (auto& value : values) value *= factor;
  return values;
}

// Ten repetitions, 1.00 s to 1.09 s: every change below moves each of them by the same factor.
const std::vector<double> ten = {1.00, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.07, 1.08, 1.09};

TEST(CompareVerdict, SlowerAndFasterWhenSignificantAndLargeEnough) {
  const CompareOptions defaults;  // p < 0.05 and a change of 2 % or more
  const auto slower = compare_cells(cell(ten), cell(scaled(ten, 1.10)), defaults);
  EXPECT_NEAR(slower.ratio, 1.10, 1e-12);
  EXPECT_NEAR(slower.test.p, 2.0 / 184756, 1e-15) << "every new repetition above every old: 2 / C(20, 10)";
  EXPECT_EQ(slower.change, Change::slower);
  EXPECT_EQ(verdict(slower), "slower");
  const auto faster = compare_cells(cell(ten), cell(scaled(ten, 0.90)), defaults);
  EXPECT_EQ(faster.change, Change::faster);
  EXPECT_EQ(verdict(faster), "faster");
  EXPECT_FALSE(slower.too_few || faster.too_few);
}

TEST(CompareVerdict, NoDifferenceWhenTheRepetitionsInterleave) {
  // Old at 1.00, 1.02, …; new at 1.01, 1.03, …: a 1 % shift the U test cannot tell from chance.
  std::vector<double> even, odd;
  for (int i = 0; i < 10; ++i) even.push_back(1.0 + 0.02 * i), odd.push_back(1.01 + 0.02 * i);
  const auto same = compare_cells(cell(even), cell(odd), {});
  EXPECT_GT(same.test.p, 0.05);
  EXPECT_EQ(same.change, Change::none);
  EXPECT_EQ(verdict(same), "no significant difference");
}

TEST(CompareVerdict, ASignificantChangeUnderMinChangeIsNotMeaningful) {
  // Ten repetitions within 0.9 ‰, then all ten new ones above them, by 1 %: significant, under the default 2
  // %.
  std::vector<double> tight;
  for (int i = 0; i < 10; ++i) tight.push_back(1.0 + 1e-4 * i);
  const auto small = compare_cells(cell(tight), cell(scaled(tight, 1.01)), {});
  EXPECT_LT(small.test.p, 0.05);
  EXPECT_EQ(small.change, Change::not_meaningful);
  EXPECT_EQ(verdict(small), "no meaningful difference (significant, under --min-change)");
  CompareOptions finer;
  finer.min_change_percent = 0.5;
  EXPECT_EQ(compare_cells(cell(tight), cell(scaled(tight, 1.01)), finer).change, Change::slower);
  CompareOptions stricter;
  stricter.alpha = 1e-6;  // above 2 / C(20, 10) ≈ 1.1e-5: not significant at this level
  EXPECT_EQ(compare_cells(cell(ten), cell(scaled(ten, 1.10)), stricter).change, Change::none);
}

TEST(CompareVerdict, FewerThanFiveRepetitionsOnASideAreTooFew) {
  // 3 against 3, every new one slower: the smallest p the test can give, 0.1, is not significant.
  const auto three = compare_cells(cell({1.0, 1.01, 1.02}), cell({2.0, 2.01, 2.02}), {});
  EXPECT_NEAR(three.test.p, 0.1, 1e-12);
  EXPECT_EQ(three.change, Change::none);
  EXPECT_TRUE(three.too_few);
  EXPECT_EQ(verdict(three), "no significant difference (too few repetitions for the test)");
  const std::vector<double> four = {1.0, 1.01, 1.02, 1.03}, five = {1.0, 1.01, 1.02, 1.03, 1.04};
  EXPECT_TRUE(compare_cells(cell(four), cell(scaled(ten, 2)), {}).too_few) << "4 old against 10 new";
  EXPECT_TRUE(compare_cells(cell(ten), cell(scaled(four, 2)), {}).too_few) << "10 old against 4 new";
  const auto enough = compare_cells(cell(five), cell(scaled(five, 2)), {});
  EXPECT_FALSE(enough.too_few);
  EXPECT_EQ(enough.change, Change::slower) << "5 against 5 apart: p = 2 / 252";
}

TEST(CompareVerdict, FailAboveCountsOnlySignificantSlowdownsOverIt) {
  CompareOptions options;
  options.fail_above_percent = 5;
  const auto over = compare_cells(cell(ten), cell(scaled(ten, 1.10)), options);
  EXPECT_TRUE(over.over_fail_above);
  EXPECT_EQ(verdict(over), "slower — over --fail-above");
  options.fail_above_percent = 20;
  EXPECT_FALSE(compare_cells(cell(ten), cell(scaled(ten, 1.10)), options).over_fail_above) << "10 % < 20 %";
  options.fail_above_percent = 5;
  EXPECT_FALSE(compare_cells(cell(ten), cell(scaled(ten, 0.5)), options).over_fail_above) << "faster";
  EXPECT_FALSE(compare_cells(cell({1.0, 1.01, 1.02}), cell({2.0, 2.01, 2.02}), options).over_fail_above)
      << "2× slower, but 3 against 3 is not significant";
}

TEST(CompareSummary, TheMeanOfTheRatiosIsGeometric) {
  EXPECT_NEAR(geometric_mean({2.0, 0.5}), 1.0, 1e-15) << "twice as slow and twice as fast: no change";
  EXPECT_NEAR(geometric_mean({2.0, 8.0}), 4.0, 1e-14);
  EXPECT_NEAR(geometric_mean({1.1, 1.1, 1.1}), 1.1, 1e-15);
  EXPECT_DOUBLE_EQ(geometric_mean({}), 1.0);
}

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

testing::Outcome compare(const std::string& arguments) {
  return testing::run_command(LADDER_BINARY, "compare " + arguments);
}

// The command's output holds `text`.
void expect_says(const testing::Outcome& outcome, const std::string& text) {
  EXPECT_NE(outcome.output.find(text), std::string::npos) << "no \"" << text << "\" in:\n" << outcome.output;
}

TEST(CompareCommand, PrintsEachCellsVerdictAndTheGeometricMean) {
  TempDir dir;
  const std::string old_run = crafted(dir / "old", "crafted", 1.0, 0.1, ten).string();
  const std::string new_run = crafted(dir / "new", "crafted", 2.0, 0.05, ten).string();
  const auto outcome = compare(old_run + " " + new_run);
  EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
  const auto line = [&](const std::string& cell) {
    const auto at = outcome.output.find(cell);
    return at == std::string::npos ? "" : outcome.output.substr(at, outcome.output.find('\n', at) - at);
  };
  EXPECT_NE(line("naive/gauss/n:1000000/threads:1").find("2.000"), std::string::npos) << outcome.output;
  EXPECT_NE(line("naive/gauss/n:1000000/threads:1").find("  slower"), std::string::npos) << outcome.output;
  EXPECT_NE(line("xsimd/gauss/n:1000000/threads:1").find("  faster"), std::string::npos) << outcome.output;
  EXPECT_NE(line("tbb/gauss/n:1000000/threads:2").find("no significant difference"), std::string::npos)
      << outcome.output;
  expect_says(outcome, "3 cells in both: 1 significantly faster, 1 significantly slower");
  // 2 × 0.5 × 1: the geometric mean is 1 (an arithmetic mean would say 1.167).
  expect_says(outcome, "geometric mean of new/old: 1.000\n");
  EXPECT_EQ(outcome.output.find("warning"), std::string::npos) << "ten repetitions a side\n"
                                                               << outcome.output;

  const auto failing = compare(old_run + " " + new_run + " --fail-above 50");
  EXPECT_EQ(failing.exit_code, 1) << "naive is 100 % slower\n" << failing.output;
  expect_says(failing, "slower — over --fail-above");
  EXPECT_EQ(compare(old_run + " " + new_run + " --fail-above 150").exit_code, 0);
}

TEST(CompareCommand, WarnsThatThreeRepetitionsAreTooFewForTheTest) {
  TempDir dir;
  const std::vector<double> three = {1.0, 1.01, 1.02};
  const std::string old_run = crafted(dir / "old", "crafted", 1.0, 0.1, three).string();
  const std::string new_run = crafted(dir / "new", "crafted", 2.0, 0.05, three).string();
  const auto outcome = compare(old_run + " " + new_run + " --fail-above 50");
  EXPECT_EQ(outcome.exit_code, 0) << "3 against 3 cannot be significant\n" << outcome.output;
  expect_says(outcome, "warning: 3 cells have fewer than 5 repetitions on a side");
  expect_says(outcome, "run with --reps 10 or more");
  expect_says(outcome, "no significant difference (too few repetitions for the test)");
}

TEST(CompareCommand, RefusesRunsOfTwoMachinesUnlessAsked) {
  TempDir dir;
  const std::string old_run = crafted(dir / "old", "crafted", 1.0, 0.1, ten).string();
  const std::string other = crafted(dir / "other", "another-machine", 1.0, 0.1, ten).string();
  const auto refused = compare(old_run + " " + other);
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  expect_says(refused, "another-machine");
  expect_says(refused, "--across-machines");
  const auto across = compare("--across-machines " + old_run + " " + other);
  EXPECT_EQ(across.exit_code, 0) << across.output;
  expect_says(across, "3 cells in both: 0 significantly faster, 0 significantly slower");
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
