// Disturbed cells measured again (harness/run/remeasure.hpp, `ladder run --remeasure N`). On crafted
// journals, with a stand-in for the worker that returns measurements the test chose: a disturbed cell is
// measured again until a try is quiet, a cell disturbed every time keeps its least slowed measurement and
// says so, a quiet cell and --remeasure 0 measure nothing again, an interrupted pass is resumed where it
// stopped, and the journal reads a re-measured cell once. Through the binary: the test switch
// LADDER_TEST_DISTURB makes a cell disturbed and it is measured again, --remeasure 0 turns it off, bad values
// are refused, a resume finishes the measuring again; and a real busy loop beside a run gets every cell it
// disturbed measured again.
#include "remeasure.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "calibration.hpp"
#include "cards.hpp"
#include "command.hpp"
#include "crafted_journal.hpp"
#include "errors.hpp"
#include "journaled_run.hpp"
#include "plan.hpp"
#include "results.hpp"
#include "run_request.hpp"

namespace ladder::testing {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// The rule as the docs state it (docs/how-sure-it-is.md#disturbed-cells), the test's own oracle.
bool disturbed_by_the_docs(const CellResult& cell) {
  const Aggregates& times = cell.measurement->aggregates;
  return cell.worker.other_load_cores >= 0.25 || cell.worker.steal_fraction >= 0.02 ||
         times.max.real_time > 1.5 * times.min.real_time || times.cv.real_time > 0.05;
}

// A quiet measured cell of `tier`, its median about `nanoseconds`; `other_load` cores of other load.
CellResult cell_of(const std::string& tier, double nanoseconds, double other_load = 0) {
  CellResult cell = measured_cell(tier, 1, nanoseconds);
  cell.worker.other_load_cores = other_load;
  return cell;
}

// A run in a scratch directory of naive and inlined: its journal (the header and `cells`) written as the
// runner writes it.
JournaledRun crafted_run(const std::vector<CellResult>& cells) {
  JournalHeader header = crafted_header();
  header.matrix.tiers = {"naive", "inlined"};
  return JournaledRun(header, cells);
}

// The worker's stand-in: each call returns the next of `tries`, and counts what it was asked to measure.
struct ScriptedWorker {
  std::deque<CellResult> tries;
  std::vector<std::string> asked;
  MeasureCell measure() {
    return [this](const CellKey& cell) -> std::optional<CellResult> {
      asked.push_back(cell_name(cell));
      if (tries.empty()) return std::nullopt;  // the run was interrupted
      CellResult next = tries.front();
      tries.pop_front();
      return next;
    };
  }
};

TEST(Remeasure, AQuietRunMeasuresNothingAgain) {
  JournaledRun run = crafted_run({cell_of("naive", 2e6), cell_of("inlined", 1e6)});
  const std::string before = run.journal_text();
  ScriptedWorker worker;
  EXPECT_TRUE(remeasure_disturbed(run.files(), 3, {}, worker.measure()));
  EXPECT_TRUE(worker.asked.empty());
  EXPECT_EQ(run.journal_text(), before);
}

TEST(Remeasure, ADisturbedCellIsMeasuredAgainUntilATryIsQuiet) {
  JournaledRun run = crafted_run({cell_of("naive", 2e6), cell_of("inlined", 7.16e8, 1.01)});
  ScriptedWorker worker{{cell_of("inlined", 6e8, 0.8), cell_of("inlined", 4.55e8)}, {}};
  EXPECT_TRUE(remeasure_disturbed(run.files(), 3, {}, worker.measure()));
  EXPECT_EQ(worker.asked, (std::vector<std::string>{"inlined/gauss/n:100000/threads:1",
                                                    "inlined/gauss/n:100000/threads:1"}));
  // The journal, read back, holds each cell once: the quiet try, with what its first measurement said.
  const Journal journal = run.read_back();
  ASSERT_EQ(journal.cells.size(), 2U);
  const CellResult& kept = journal.cells.at(1);
  ASSERT_TRUE(kept.remeasured.has_value());
  EXPECT_EQ(kept.remeasured->attempts, 2);
  EXPECT_NEAR(kept.remeasured->first_median_ns, 7.16e8 * 1.0045, 1);
  EXPECT_EQ(kept.remeasured->first_reasons, std::vector<std::string>{"1.01 cores of other load"});
  EXPECT_FALSE(kept.remeasured->still_disturbed);
  EXPECT_NEAR(kept.median(), 4.55e8 * 1.0045 * 1e-9, 1e-9);
  EXPECT_FALSE(journal.cells.at(0).remeasured.has_value());
  // results.json carries the record as the journal does.
  const json results = run.results();
  ASSERT_EQ(results.at("cells").size(), 2U);
  for (const auto& cell : results.at("cells")) {
    if (cell.at("name") != kept.name) {
      EXPECT_FALSE(cell.contains("remeasured"));
      continue;
    }
    EXPECT_EQ(cell.at("remeasured").at("attempts"), 2);
    EXPECT_EQ(cell.at("remeasured").at("still_disturbed"), false);
  }
}

TEST(Remeasure, ACellDisturbedEveryTimeKeepsItsLeastSlowedMeasurementAndSaysSo) {
  JournaledRun run = crafted_run({cell_of("inlined", 5e8, 1.0)});
  ScriptedWorker worker{{cell_of("inlined", 4e8, 0.5), cell_of("inlined", 6e8, 0.3)}, {}};
  EXPECT_TRUE(remeasure_disturbed(run.files(), 2, {}, worker.measure()));
  EXPECT_EQ(worker.asked.size(), 2U);
  const CellResult kept = run.read_back().cells.at(0);
  ASSERT_TRUE(kept.remeasured.has_value());
  EXPECT_EQ(kept.remeasured->attempts, 2);
  EXPECT_TRUE(kept.remeasured->still_disturbed);
  EXPECT_NEAR(kept.median(), 4e8 * 1.0045 * 1e-9, 1e-9);  // the fastest of the three
  EXPECT_EQ(kept.worker.other_load_cores, 0.5);
}

TEST(Remeasure, ATryThatFailsKeepsTheMeasurementThereWas) {
  JournaledRun run = crafted_run({cell_of("inlined", 5e8, 1.0)});
  ScriptedWorker worker{{failed_cell("inlined", "crashed on purpose")}, {}};
  EXPECT_TRUE(remeasure_disturbed(run.files(), 1, {}, worker.measure()));
  const CellResult kept = run.read_back().cells.at(0);
  ASSERT_TRUE(kept.ok());
  EXPECT_EQ(kept.remeasured->attempts, 1);
  EXPECT_TRUE(kept.remeasured->still_disturbed);
}

TEST(Remeasure, RemeasureZeroMeasuresNothingAgain) {
  JournaledRun run = crafted_run({cell_of("inlined", 5e8, 1.0)});
  const std::string before = run.journal_text();
  ScriptedWorker worker{{cell_of("inlined", 4e8)}, {}};
  EXPECT_TRUE(remeasure_disturbed(run.files(), 0, {}, worker.measure()));
  EXPECT_TRUE(worker.asked.empty());
  EXPECT_EQ(run.journal_text(), before);
}

// An interrupt while a cell runs again leaves the journal as it was; the next pass (a resume) goes on with
// the tries the cell has left, and one that has had them all is done.
TEST(Remeasure, AnInterruptedPassIsResumedWhereItStopped) {
  JournaledRun run = crafted_run({cell_of("inlined", 5e8, 1.0)});
  ScriptedWorker interrupted{{cell_of("inlined", 4.8e8, 1.0)}, {}};  // one try, then the interrupt
  EXPECT_FALSE(remeasure_disturbed(run.files(), 3, {}, interrupted.measure()));
  EXPECT_EQ(interrupted.asked.size(), 2U);
  Journal resumed = run.read_back();
  ASSERT_EQ(resumed.cells.at(0).remeasured->attempts, 1);
  run.journal() = resumed;
  ScriptedWorker again{{cell_of("inlined", 4.7e8, 1.0), cell_of("inlined", 4.6e8, 1.0)}, {}};
  EXPECT_TRUE(remeasure_disturbed(run.files(), 3, {}, again.measure()));
  EXPECT_EQ(again.asked.size(), 2U);  // tries 2 and 3
  const CellResult kept = run.read_back().cells.at(0);
  EXPECT_EQ(kept.remeasured->attempts, 3);
  EXPECT_TRUE(kept.remeasured->still_disturbed);
  EXPECT_NEAR(kept.remeasured->first_median_ns, 5e8 * 1.0045, 1);
  ScriptedWorker done;
  EXPECT_TRUE(remeasure_disturbed(run.files(), 3, {}, done.measure()));
  EXPECT_TRUE(done.asked.empty());
}

// A re-measurement's line replaces its cell's record before it when that one has had fewer tries; otherwise
// it is a record of its own, as a cell's plain second line is, and the runner refuses a cell that comes twice
// (RemeasureRun.ACellJournaledTwiceIsStillRefused).
TEST(RemeasureJournal, ALineMeasuringAgainReplacesOnlyTheCellsRecordWithFewerTries) {
  CellResult again = cell_of("inlined", 1e6);
  again.remeasured = Remeasured{1, 2e6, {"cv 7.0 %"}, false};
  JournaledRun run = crafted_run({cell_of("naive", 2e6)});
  const std::string first = run.journal_text();
  write_text(run.files().paths.journal, first + json(again).dump() + "\n");
  EXPECT_EQ(run.read_back().cells.size(), 2U);  // no record of inlined before it: its own
  JournaledRun twice = crafted_run({cell_of("inlined", 2e6)});
  const std::string once = twice.journal_text();
  write_text(twice.files().paths.journal, once + json(again).dump() + "\n");
  ASSERT_EQ(twice.read_back().cells.size(), 1U);
  EXPECT_TRUE(twice.read_back().cells.at(0).remeasured.has_value());
  write_text(twice.files().paths.journal, once + json(again).dump() + "\n" + json(again).dump() + "\n");
  EXPECT_EQ(twice.read_back().cells.size(), 2U);  // the second has no more tries than the first
  write_text(twice.files().paths.journal, once + json(cell_of("inlined", 2e6)).dump() + "\n");
  EXPECT_EQ(twice.read_back().cells.size(), 2U);
}

TEST(RemeasureWarnings, SayWhatWasMeasuredAgainAndWhatStayedDisturbed) {
  CellResult quieted = cell_of("naive", 4.55e8);
  quieted.remeasured = Remeasured{1, 7.16e8, {"1.01 cores of other load"}, false};
  CellResult stayed = cell_of("inlined", 3e8, 0.6);
  stayed.remeasured = Remeasured{2, 3.2e8, {"cv 8.0 %"}, true};
  const auto found = warnings(crafted_journal({quieted, stayed, cell_of("naive", 1e6)}), complete_run);
  const auto kind = [&](const std::string& name) -> std::vector<std::string> {
    for (const auto& warning : found)
      if (warning.kind == name) return warning.cells;
    return {};
  };
  EXPECT_EQ(kind("re-measured"),
            (std::vector<std::string>{
                "naive/gauss/n:100000/threads:1: 716 ms (1.01 cores of other load) → 457 ms (2 measurements)",
                "inlined/gauss/n:100000/threads:1: 320 ms (cv 8.0 %) → 301 ms (3 measurements)"}));
  EXPECT_EQ(
      kind("still disturbed"),
      std::vector<std::string>{
          "inlined/gauss/n:100000/threads:1 (0.60 cores of other load, the least slowed of 3 measurements)"});
  EXPECT_EQ(kind("load during the run"),
            std::vector<std::string>{"inlined/gauss/n:100000/threads:1 (0.60 cores busy with other work)"});
}

TEST(RemeasureOption, TakesAWholeNumberFromZeroToTenAndRefusesAnythingElse) {
  const auto parsed = [](const std::string& text) {
    RunArguments args;
    args.remeasure = text;
    return parse_request(args).remeasure;
  };
  EXPECT_EQ(parsed(""), 2);  // rounds a cell may run again (default_remeasure)
  EXPECT_EQ(parsed("0"), 0);
  EXPECT_EQ(parsed("10"), 10);
  for (const std::string bad : {"-1", "1.5", "11", "x", "2 ", "1e1"}) {
    try {
      parsed(bad);
      ADD_FAILURE() << "--remeasure '" << bad << "' was accepted";
    } catch (const InputError& error) {
      EXPECT_NE(
          std::string(error.what()).find("--remeasure '" + bad + "' is not a whole number from 0 to 10"),
          std::string::npos)
          << error.what();
    }
  }
}

TEST(RemeasureTestSwitch, DisturbsTheNamedCellsFirstMeasurementsOnly) {
  const TestDisturbance disturbance = parse_test_disturbance("inlined/gauss/n:100000/threads:1=2,naive/x");
  EXPECT_EQ(disturbance, (TestDisturbance{{"inlined/gauss/n:100000/threads:1", 2}, {"naive/x", 1}}));
  for (int measurement = 0; measurement < 3; ++measurement) {
    CellResult cell = cell_of("inlined", 1e6, 0.1);
    disturb_for_test(cell, disturbance, measurement);
    EXPECT_EQ(cell.worker.other_load_cores, measurement < 2 ? 1.1 : 0.1) << measurement;
    EXPECT_EQ(cell.measurement->extra.contains("test_disturbance"), measurement < 2);
  }
  CellResult other = cell_of("naive", 1e6);
  disturb_for_test(other, disturbance, 0);
  EXPECT_EQ(other.worker.other_load_cores, 0);
  for (const char* bad : {"a=0", "a=x", "=2", "a,,b", "a=100"})
    EXPECT_THROW(parse_test_disturbance(bad), InputError) << bad;
  EXPECT_TRUE(parse_test_disturbance(nullptr).empty());
}

// The plan allows for a quarter of the cells' time a try (a quarter of the cells disturbed, a quarter of
// those again), and says so.
TEST(RemeasurePlan, TheEstimateAllowsForMeasuringDisturbedCellsAgain) {
  Matrix matrix;
  matrix.tiers = {"naive"};
  matrix.integrands = {"gauss"};
  matrix.sizes = {1'000'000};
  matrix.threads = {1};
  matrix.repetitions = 5;
  matrix.min_time = 0.1;
  matrix.min_warmup_time = 0.05;
  matrix.cpus = 2;
  Calibration calibration;
  calibration.tiers[tier_key("naive", "gauss")] = {1e-8, 0.2, 10e6};
  PlanSettings settings;
  settings.instructions = false;
  const auto part = [](const Estimate& estimate) {
    for (const auto& [name, seconds] : estimate.parts)
      if (name == remeasure_part) return seconds;
    return 0.0;
  };
  const Estimate none = estimate(matrix, calibration, settings);
  EXPECT_EQ(part(none), 0);
  settings.remeasure = 1;
  const Estimate once = estimate(matrix, calibration, settings);
  EXPECT_NEAR(part(once), 0.25 * once.cells.at(0).seconds, 1e-12);
  EXPECT_NEAR(once.seconds - none.seconds, part(once), 1e-12);
  settings.remeasure = 3;
  EXPECT_NEAR(part(estimate(matrix, calibration, settings)),
              (0.25 + 0.0625 + 0.015625) * once.cells.at(0).seconds, 1e-12);
  bool noted = false;
  for (const auto& note : once.notes) noted = noted || note.find("--remeasure 1") != std::string::npos;
  EXPECT_TRUE(noted);
  // --budget fits the estimate with its allowance: a budget the cells alone fit in (with the tenth kept for
  // the estimate's error) but not with a quarter more is cut, and the cut estimate still counts it.
  const Budget budget{"budget", 1.1 * none.seconds / budget_share};
  settings.remeasure = 0;
  EXPECT_TRUE(fit_budget(matrix, budget, calibration, settings, {}).dropped.empty());
  settings.remeasure = 1;
  const Budgeted fitted = fit_budget(matrix, budget, calibration, settings, {});
  EXPECT_FALSE(fitted.dropped.empty());
  EXPECT_GT(part(fitted.estimate), 0);
  EXPECT_LE(fitted.estimate.seconds, budget_share * budget.seconds);
}

// Through the binary.

Outcome ladder(const std::string& arguments, const std::string& environment = "") {
  return run_command(environment + LADDER_BINARY, arguments);
}

constexpr const char* inlined_cell = "inlined/gauss/n:10000/threads:1";
// One round a cell: these tests hold the whole-cell measuring again of a run of --rounds 1 (a run of rounds
// measures its dropped rounds again instead: rounds_test.cpp).
const std::string small_run =
    "run --tiers inlined,streaming --n 1e4 --threads 1 --reps 3 --min-time 0.01 --rounds 1 --no-history "
    "--no-limits --no-instructions";

std::vector<CellResult> cells_of(const fs::path& dir) {
  const json results = read_json(dir / "results.json");
  std::vector<CellResult> cells;
  for (const auto& cell : results.at("cells")) cells.push_back(cell.get<CellResult>());
  return cells;
}

// The cells a warning of results.json names (each its entry's text), empty when it is not there.
std::vector<std::string> warned(const fs::path& dir, const std::string& kind) {
  const json results = read_json(dir / "results.json");
  for (const auto& warning : results.at("context").at("warnings"))
    if (warning.at("kind") == kind) return warning.at("cells").get<std::vector<std::string>>();
  return {};
}

bool names(const std::vector<std::string>& entries, const std::string& cell) {
  for (const auto& entry : entries)
    if (entry.rfind(cell + ":", 0) == 0) return true;
  return false;
}

// Every ok cell measured once is quiet by the rule; every re-measured one says whether it still is not.
void expect_the_rule_kept(const std::vector<CellResult>& cells) {
  for (const auto& cell : cells) {
    if (!cell.ok()) continue;
    if (!cell.remeasured)
      EXPECT_FALSE(disturbed_by_the_docs(cell)) << cell.name << " is disturbed and was not measured again";
    else
      EXPECT_EQ(cell.remeasured->still_disturbed, disturbed_by_the_docs(cell)) << cell.name;
  }
}

TEST(RemeasureRun, ACellTheTestSwitchDisturbsIsMeasuredAgain) {
  TempDir dir;
  const Outcome run = ladder(small_run + " --remeasure 1 --out " + (dir / "run").string(),
                             "LADDER_TEST_DISTURB=" + std::string(inlined_cell) + " ");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::vector<CellResult> cells = cells_of(dir / "run");
  ASSERT_EQ(cells.size(), 2U);
  for (const auto& cell : cells) {
    if (cell.name != inlined_cell) continue;
    ASSERT_TRUE(cell.remeasured.has_value()) << run.output;
    EXPECT_EQ(cell.remeasured->attempts, 1);  // --remeasure 1
    const auto& reasons = cell.remeasured->first_reasons;
    EXPECT_NE(std::find(reasons.begin(), reasons.end(), test_disturbance_reason), reasons.end());
  }
  expect_the_rule_kept(cells);
  EXPECT_TRUE(names(warned(dir / "run", "re-measured"), inlined_cell)) << run.output;
  EXPECT_EQ(warned(dir / "run", "test disturbance"), std::vector<std::string>{inlined_cell});
}

TEST(RemeasureRun, RemeasureZeroKeepsTheDisturbedMeasurement) {
  TempDir dir;
  const Outcome run = ladder(small_run + " --remeasure 0 --out " + (dir / "run").string(),
                             "LADDER_TEST_DISTURB=" + std::string(inlined_cell) + " ");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::vector<CellResult> cells = cells_of(dir / "run");
  ASSERT_EQ(cells.size(), 2U);
  for (const auto& cell : cells) {
    EXPECT_FALSE(cell.remeasured.has_value()) << cell.name;
    if (cell.name == inlined_cell) {
      EXPECT_GE(cell.worker.other_load_cores, 1.0);
    }
  }
  EXPECT_TRUE(warned(dir / "run", "re-measured").empty());
  EXPECT_EQ(read_text(dir / "run" / "journal.jsonl").find("\"remeasured\""), std::string::npos);
}

TEST(RemeasureRun, BadValuesAreRefusedBeforeAnythingIsWritten) {
  TempDir dir;
  for (const std::string bad : {"-1", "1.5", "11", "often"}) {
    const Outcome run = ladder(small_run + " --remeasure " + bad + " --out " + (dir / "run").string());
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_NE(run.output.find("--remeasure '" + bad + "' is not a whole number from 0 to 10"),
              std::string::npos)
        << run.output;
    EXPECT_FALSE(fs::exists(dir / "run"));
  }
  const Outcome plan = ladder("plan --remeasure 1.5");
  EXPECT_EQ(plan.exit_code, 2) << plan.output;
  const Outcome test_switch =
      ladder(small_run + " --out " + (dir / "run").string(), "LADDER_TEST_DISTURB=x=0 ");
  EXPECT_EQ(test_switch.exit_code, 2) << test_switch.output;
  EXPECT_FALSE(fs::exists(dir / "run"));
}

// A run stopped after its last cell and before its measuring again (its re-measurement lines cut off, as a
// kill before they were written leaves it) is finished by --resume; a resume of a finished run measures
// nothing again.
TEST(RemeasureRun, AResumeFinishesTheMeasuringAgain) {
  TempDir dir;
  const fs::path out = dir / "run";
  const std::string disturb = "LADDER_TEST_DISTURB=" + std::string(inlined_cell) + " ";
  ASSERT_EQ(ladder(small_run + " --out " + out.string(), disturb).exit_code, 0);
  std::string measured_once;
  for (const auto& line : lines_of(read_text(out / "journal.jsonl")))
    if (line.find("\"remeasured\"") == std::string::npos) measured_once += line + "\n";
  write_text(out / "journal.jsonl", measured_once);
  const Outcome resumed = ladder("run --no-limits --resume " + out.string() + " --no-history", disturb);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_NE(resumed.output.find(std::string("measuring ") + inlined_cell + " again"), std::string::npos)
      << resumed.output;
  const std::vector<CellResult> cells = cells_of(out);
  EXPECT_EQ(cells.size(), 2U);
  for (const auto& cell : cells)
    if (cell.name == inlined_cell) {
      EXPECT_TRUE(cell.remeasured.has_value());
    }
  expect_the_rule_kept(cells);
  EXPECT_EQ(read_json(out / "results.json").at("context").at("run").at("status"), "complete");
  const std::size_t lines = lines_of(read_text(out / "journal.jsonl")).size();
  const Outcome again = ladder("run --no-limits --resume " + out.string() + " --no-history", disturb);
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_EQ(lines_of(read_text(out / "journal.jsonl")).size(), lines + 1);  // the resumption's line alone
}

// A cell's plain second line (not a re-measurement) is still refused on resume.
TEST(RemeasureRun, ACellJournaledTwiceIsStillRefused) {
  TempDir dir;
  const fs::path out = dir / "run";
  ASSERT_EQ(ladder(small_run + " --remeasure 0 --out " + out.string()).exit_code, 0);
  const std::vector<std::string> lines = lines_of(read_text(out / "journal.jsonl"));
  write_text(out / "journal.jsonl", read_text(out / "journal.jsonl") + lines.back() + "\n");
  const Outcome resumed = ladder("run --no-limits --resume " + out.string() + " --no-history");
  EXPECT_EQ(resumed.exit_code, 2) << resumed.output;
  EXPECT_NE(resumed.output.find("comes twice"), std::string::npos) << resumed.output;
}

// One core kept busy by another process while a run measures: the load it makes is other load in every
// cell's first measurement (on any machine, the busy loop takes a core's worth of time the worker does not),
// so every cell is measured again, and the warnings list each.
class BusyLoop {
 public:
  BusyLoop() : pid_(fork()) {
    if (pid_ != 0) return;
    volatile unsigned long spins = 0;
    for (;;) spins = spins + 1;
  }
  ~BusyLoop() {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  BusyLoop(const BusyLoop&) = delete;
  BusyLoop& operator=(const BusyLoop&) = delete;

 private:
  pid_t pid_;
};

// The load check reads /proc/stat, whose counters may each be off by a tick a CPU: over a worker's life it
// sees no less than a core of other load only when that life is a few times (CPUs / ticks a second) long
// (0.02 s on 2 CPUs, 0.64 s on 64). The repetitions' minimum time is set so the cell lives three times that.
std::string min_time_the_load_check_resolves() {
  const double resolution =
      static_cast<double>(sysconf(_SC_NPROCESSORS_ONLN)) / static_cast<double>(sysconf(_SC_CLK_TCK));
  return std::to_string(std::max(0.01, resolution));  // 3 repetitions of it at least
}

TEST(RemeasureRun, ABusyLoopBesideARunGetsItsCellsMeasuredAgain) {
  TempDir dir;
  Outcome run{-1, ""};
  {
    BusyLoop busy;
    std::string arguments = small_run;
    arguments.replace(arguments.find("--min-time 0.01"), 15,
                      "--min-time " + min_time_the_load_check_resolves());
    run = ladder(arguments + " --remeasure 1 --out " + (dir / "run").string());  // once: the loop stays
  }
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::vector<CellResult> cells = cells_of(dir / "run");
  ASSERT_EQ(cells.size(), 2U);
  const std::vector<std::string> remeasured = warned(dir / "run", "re-measured");
  for (const auto& cell : cells) {
    ASSERT_TRUE(cell.ok()) << cell.name << ": " << cell.reason;
    ASSERT_TRUE(cell.remeasured.has_value()) << cell.name << "\n" << run.output;
    EXPECT_EQ(cell.remeasured->attempts, 1);
    const auto& reasons = cell.remeasured->first_reasons;
    EXPECT_TRUE(std::any_of(reasons.begin(), reasons.end(), [](const std::string& reason) {
      return reason.find("cores of other load") != std::string::npos;
    })) << cell.name;
    EXPECT_TRUE(names(remeasured, cell.name)) << cell.name;
  }
  expect_the_rule_kept(cells);
}

}  // namespace
}  // namespace ladder::testing
