// Every warning a run can give (harness/warnings.cpp), each triggered on purpose on a crafted journal, and
// each left out just under its threshold: a threshold moved tenfold, either way, fails one of the two.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "context.hpp"
#include "crafted_journal.hpp"
#include "results.hpp"

namespace ladder::testing {
namespace {

BuildInfo build(const std::string& type, const std::string& flags) {
  BuildInfo made;
  made.build_type = type;
  made.common_flags = flags;
  return made;
}

// The build a release of Ladder is: nothing to warn about.
const BuildInfo optimized = build("Release", "-O3 -march=x86-64-v3");

std::vector<WarningRecord> warnings_of(const Journal& journal, const BuildInfo& build = optimized) {
  return warnings(journal, complete_run, build);
}

// The warning of that kind, or null.
const WarningRecord* find_kind(const std::vector<WarningRecord>& found, const std::string& kind) {
  const auto it =
      std::find_if(found.begin(), found.end(), [&](const auto& each) { return each.kind == kind; });
  return it == found.end() ? nullptr : &*it;
}

std::string kinds(const std::vector<WarningRecord>& found) {
  std::string text;
  for (const auto& each : found) text += "[" + each.kind + ": " + each.message + "] ";
  return text.empty() ? "none" : text;
}

// A serial cell and a parallel one on two threads (or one, on a one-core machine, where two would be
// oversubscribed), both as they should be.
std::vector<CellRecord> clean_cells() {
  return {measured_cell("xsimd"), measured_cell("openmp", std::min(2, logical_cpus()))};
}

// The one warning of `kind` names exactly these cells, each with its figure where it has one.
void expect_cells(const std::vector<WarningRecord>& found, const std::string& kind,
                  const std::vector<std::string>& cells) {
  const WarningRecord* warning = find_kind(found, kind);
  ASSERT_NE(warning, nullptr) << kind << " is missing; found: " << kinds(found);
  EXPECT_EQ(warning->cells, cells) << kind;
}

TEST(Warnings, ACleanRunOnAnOptimizedBuildHasNone) {
  const auto found = warnings_of(crafted_journal(clean_cells()));
  EXPECT_TRUE(found.empty()) << kinds(found);
}

TEST(Warnings, CvOverFivePercentIsNoisyAndFourPercentIsNot) {
  auto noisy = clean_cells();
  noisy[0].measurement->aggregates.cv.real_time = 0.06;
  expect_cells(warnings_of(crafted_journal(noisy)), "noisy", {noisy[0].name + " (cv 6.0 %)"});
  noisy[0].measurement->aggregates.cv.real_time = 0.04;
  const auto found = warnings_of(crafted_journal(noisy));
  EXPECT_EQ(find_kind(found, "noisy"), nullptr) << kinds(found);
}

TEST(Warnings, FewerThanNineRepetitionsIsARoughGuessAndNineIsNot) {
  const auto eight = warnings_of(crafted_journal(clean_cells(), 8));
  const WarningRecord* few = find_kind(eight, "few repetitions");
  ASSERT_NE(few, nullptr) << kinds(eight);
  EXPECT_EQ(few->message, "8 repetitions a cell: fewer than 9, the spread is a rough guess");
  const auto nine = warnings_of(crafted_journal(clean_cells(), 9));
  EXPECT_EQ(find_kind(nine, "few repetitions"), nullptr) << kinds(nine);
}

// A busy machine, two ways: load before the run (the 1-minute load average over 0.5) and other processes
// busy during a cell (over a quarter of a core).
TEST(Warnings, ALoadAverageOverHalfBeforeTheRunIsNamedAndPointFourIsNot) {
  Journal journal = crafted_journal(clean_cells());
  journal.header["load_average_before"] = {0.6, 0.2, 0.1};
  const auto busy = warnings_of(journal);
  const WarningRecord* before = find_kind(busy, "load before the run");
  ASSERT_NE(before, nullptr) << kinds(busy);
  EXPECT_NE(before->message.find("was 0.60 before the run started"), std::string::npos) << before->message;
  journal.header["load_average_before"] = {0.4, 0.2, 0.1};
  const auto quiet = warnings_of(journal);
  EXPECT_EQ(find_kind(quiet, "load before the run"), nullptr) << kinds(quiet);
}

TEST(Warnings, OtherWorkOverAQuarterCoreDuringACellIsNamedAndAFifthIsNot) {
  auto cells = clean_cells();
  cells[1].worker.other_load_cores = 0.3;
  expect_cells(warnings_of(crafted_journal(cells)), "load during the run",
               {cells[1].name + " (0.30 cores busy with other work)"});
  cells[1].worker.other_load_cores = 0.2;
  const auto found = warnings_of(crafted_journal(cells));
  EXPECT_EQ(find_kind(found, "load during the run"), nullptr) << kinds(found);
}

TEST(Warnings, StealOverTwoPercentIsNamedAndOneAndAHalfIsNot) {
  auto cells = clean_cells();
  cells[0].worker.steal_fraction = 0.03;
  expect_cells(warnings_of(crafted_journal(cells)), "steal", {cells[0].name + " (3.0 % stolen)"});
  cells[0].worker.steal_fraction = 0.015;
  const auto found = warnings_of(crafted_journal(cells));
  EXPECT_EQ(find_kind(found, "steal"), nullptr) << kinds(found);
}

TEST(Warnings, MoreThreadsThanLogicalCpusIsOversubscribedAndAsManyIsNot) {
  const int cpus = logical_cpus();
  auto over = clean_cells();
  over[1] = measured_cell("openmp", cpus + 1);
  expect_cells(warnings_of(crafted_journal(over)), "threads over cores", {over[1].name});
  over[1] = measured_cell("openmp", cpus);
  const auto found = warnings_of(crafted_journal(over));
  EXPECT_EQ(find_kind(found, "threads over cores"), nullptr) << kinds(found);
}

TEST(Warnings, ADebugBuildOrAReleaseWithoutOptimizationIsUnoptimized) {
  const Journal journal = crafted_journal(clean_cells());
  const auto debug = warnings_of(journal, build("Debug", "-g"));
  const WarningRecord* unoptimized = find_kind(debug, "unoptimized build");
  ASSERT_NE(unoptimized, nullptr) << kinds(debug);
  EXPECT_EQ(unoptimized->message,
            "Ladder itself was built as Debug with '-g': the times measure an unoptimized build");
  const auto release_o0 = warnings_of(journal, build("Release", "-O0"));
  EXPECT_NE(find_kind(release_o0, "unoptimized build"), nullptr) << "a release type without -O1..3";
  for (const char* type : {"Release", "RelWithDebInfo", "MinSizeRel"}) {
    const auto found = warnings_of(journal, build(type, "-O2 -g"));
    EXPECT_EQ(find_kind(found, "unoptimized build"), nullptr) << type << ": " << kinds(found);
  }
}

TEST(Warnings, ASlowestRepetitionOver1Point5TimesTheFastestIsSuspiciousAnd1Point4IsNot) {
  auto cells = clean_cells();
  Aggregates& times = cells[0].measurement->aggregates;
  times.max.real_time = 1.6 * times.min.real_time;
  expect_cells(warnings_of(crafted_journal(cells)), "suspicious spread", {cells[0].name + " (max/min 1.60)"});
  times.max.real_time = 1.4 * times.min.real_time;
  const auto found = warnings_of(crafted_journal(cells));
  EXPECT_EQ(find_kind(found, "suspicious spread"), nullptr) << kinds(found);
}

TEST(Warnings, AResultOutsideTheRoundingBoundIsNamed) {
  auto cells = clean_cells();
  cells[1].measurement->within_rounding_bound = false;
  expect_cells(warnings_of(crafted_journal(cells)), "outside the rounding bound", {cells[1].name});
}

// CPU time about equal to wall time in a parallel cell: a silent fallback to one thread. The line is 1.2
// cores: 1.1 is flagged, 1.3 is not; a serial tier at 1.0 never is.
TEST(Warnings, AParallelCellUsingUnder1Point2CoresIsFlaggedAnd1Point3IsNot) {
  auto cells = clean_cells();
  cells[1] = measured_cell("openmp", 2);
  Timing& median = cells[1].measurement->aggregates.median;
  median.cpu_time = 1.1 * median.real_time;
  expect_cells(warnings_of(crafted_journal(cells)), "one core", {cells[1].name + " (CPU/wall 1.10)"});
  median.cpu_time = 1.3 * median.real_time;
  const auto found = warnings_of(crafted_journal(cells));
  EXPECT_EQ(find_kind(found, "one core"), nullptr) << kinds(found);
  EXPECT_EQ(cells[0].measurement->aggregates.median.cpu_time,
            cells[0].measurement->aggregates.median.real_time)
      << "the serial cell uses one core and is not flagged";
}

TEST(Warnings, AFailedCellIsListedWithItsStatusAndReason) {
  auto cells = clean_cells();
  cells.push_back(failed_cell("naive", "the kernel threw: no"));
  expect_cells(warnings_of(crafted_journal(cells)), "failed cells",
               {cells[2].name + ": failed: the kernel threw: no"});
}

}  // namespace
}  // namespace ladder::testing
