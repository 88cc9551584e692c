// Rounds (harness/run/rounds.hpp, common/noise/round_noise.hpp, common/noise/disturbance.hpp's round rule):
// the schedule (each cell in R processes, a new order each round, a cell's rounds never adjacent); the run's
// noise recomputed by hand from crafted rounds; the round rule (outside load, a round slower than its others
// beyond the band, a cell kept out only under two clean rounds); a dropped round measured again on a crafted
// journal with a scripted worker; and through the binary: each cell's rounds in their own processes, a
// disturbed round measured again, a run cut short mid-round resumed to completion, --rounds refused out of
// range.
#include "rounds.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cards.hpp"
#include "command.hpp"
#include "crafted_journal.hpp"
#include "disturbance.hpp"
#include "journaled_run.hpp"
#include "remeasure.hpp"
#include "results.hpp"
#include "round_noise.hpp"

namespace ladder::testing {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::vector<CellKey> keys(int count) {
  std::vector<CellKey> cells;
  for (int i = 0; i < count; ++i) cells.push_back({{"naive", "gauss", 1000 + i, 1, 1}, 0, 1, false});
  return cells;
}

TEST(RoundSchedule, EachCellOnceARoundInANewOrderAndItsRoundsNeverAdjacent) {
  for (const int count : {1, 2, 3, 7, 40})
    for (const int rounds : {1, 2, 3, 5})
      for (std::uint64_t seed = 0; seed < 30; ++seed) {
        const auto cells = keys(count);
        const auto schedule = round_schedule(cells, rounds, seed);
        ASSERT_EQ(schedule.size(), static_cast<std::size_t>(rounds));
        EXPECT_EQ(cell_name(schedule.front().front()),
                  cell_name(cells.front()));  // round 1: the matrix's order
        for (std::size_t r = 0; r < schedule.size(); ++r) {
          std::set<std::string> names;
          for (const auto& cell : schedule[r]) names.insert(cell_name(cell));
          EXPECT_EQ(names.size(), cells.size()) << "round " << r + 1 << " holds each cell once";
          EXPECT_EQ(schedule[r].size(), cells.size());
          if (r > 0 && count >= 2) {
            EXPECT_NE(cell_name(schedule[r].front()), cell_name(schedule[r - 1].back()))
                << "a cell ran twice in a row, seed " << seed;
          }
        }
      }
  // With 40 cells, every later round's order is another than the one before it.
  const auto schedule = round_schedule(keys(40), 3, 7);
  for (std::size_t r = 1; r < schedule.size(); ++r) {
    std::vector<std::string> before, after;
    for (const auto& cell : schedule[r - 1]) before.push_back(cell_name(cell));
    for (const auto& cell : schedule[r]) after.push_back(cell_name(cell));
    EXPECT_NE(before, after);
  }
  EXPECT_EQ(json(round_schedule(keys(40), 3, 7)[2]), json(schedule[2])) << "the same seed, the same order";
}

TEST(RoundSchedule, TheRepetitionsAreSharedAmongTheRounds) {
  Matrix matrix;
  const auto shared = [&](int repetitions, int rounds) {
    matrix.repetitions = repetitions, matrix.rounds = rounds;
    return round_repetitions(matrix);
  };
  EXPECT_EQ(shared(10, 3), 4);
  EXPECT_EQ(shared(3, 3), 1);
  EXPECT_EQ(shared(1, 3), 1);
  EXPECT_EQ(shared(20, 1), 20);
  EXPECT_EQ(shared(20, 4), 5);
}

// A cell of `tier` at n (on `threads`) with rounds of the given medians (nanoseconds), each of 2 repetitions
// around it.
CellResult with_rounds(const std::string& tier, std::int64_t n, const std::vector<double>& medians,
                       int threads = 1) {
  CellResult cell = measured_cell(tier, threads, medians.front());
  cell.n = n;
  cell.name = cell_name(cell);
  int index = 0;
  for (const double median : medians) {
    Round round;
    round.index = ++index;
    round.repetitions = {{0, 10, median * 0.999, median}, {1, 10, median * 1.001, median}};
    round.median_ns = median;
    round.pid = 100 + index;
    cell.rounds.push_back(round);
  }
  rebuild_measurement(cell);
  return cell;
}

// The documented rule, written again here: the larger of 100 (exp(1.96 s) − 1), s = √(m² + (1.4826 MAD)²),
// and 100 (exp(q) − 1), q the 95th percentile of the |log ratios| (linear between ranks).
double floor_by_hand(std::vector<double> logs) {
  std::vector<double> sorted = logs;
  std::sort(sorted.begin(), sorted.end());
  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
  };
  const double m = median(logs);
  std::vector<double> deviations;
  for (const double x : logs) deviations.push_back(std::fabs(x - m));
  const double s = std::sqrt(m * m + std::pow(1.4826 * median(deviations), 2));
  std::vector<double> sizes;
  for (const double x : logs) sizes.push_back(std::fabs(x));
  std::sort(sizes.begin(), sizes.end());
  const double rank = 0.95 * static_cast<double>(sizes.size() - 1);
  const auto below = static_cast<std::size_t>(rank);
  const double q = sizes[below] + (rank - static_cast<double>(below)) *
                                      (sizes[std::min(below + 1, sizes.size() - 1)] - sizes[below]);
  return std::max(100 * (std::exp(1.96 * s) - 1), 100 * std::expm1(q));
}

TEST(RoundNoise, TheRunsFloorIsRecomputedByHandFromItsRounds) {
  const std::vector<CellResult> cells = {
      with_rounds("naive", 1000, {100, 103, 101}),  with_rounds("streaming", 1000, {200, 196, 204}),
      with_rounds("inlined", 1000, {50, 50.5, 49}), with_rounds("eigen", 1000, {80, 84, 81}),
      with_rounds("naive", 5000, {500, 520, 480}),  with_rounds("streaming", 5000, {900, 905}),
  };
  // At n = 1000: each cell's three pairs, the later round over the earlier.
  std::vector<double> logs;
  for (const auto& medians :
       std::vector<std::vector<double>>{{100, 103, 101}, {200, 196, 204}, {50, 50.5, 49}, {80, 84, 81}})
    for (std::size_t i = 0; i < medians.size(); ++i)
      for (std::size_t j = i + 1; j < medians.size(); ++j) logs.push_back(std::log(medians[j] / medians[i]));
  const auto at_1000 = round_noise(cells, 1000, 3);
  ASSERT_TRUE(at_1000.has_value());
  EXPECT_EQ(at_1000->pairs, 12);
  EXPECT_EQ(at_1000->n, 1000);
  EXPECT_NEAR(at_1000->percent, floor_by_hand(logs), 1e-9);
  // A cell's figure over 3 rounds: the floor's log scaled by √(π / 6), the standard error of a median of 3.
  EXPECT_NEAR(at_1000->figure_percent,
              100 * (std::exp(std::log(1 + floor_by_hand(logs) / 100) * std::sqrt(M_PI / 6)) - 1), 1e-9);
  EXPECT_LT(at_1000->figure_percent, at_1000->percent);
  EXPECT_NE(at_1000->source().find("measured in this run, 3 rounds a cell: 95 % of its 12 pairs"),
            std::string::npos)
      << at_1000->source();
  // At n = 5000 there are 4 pairs, under the 5 a floor needs: every size's 16 pairs instead.
  const auto at_5000 = round_noise(cells, 5000, 3);
  ASSERT_TRUE(at_5000.has_value());
  EXPECT_EQ(at_5000->n, 0);
  EXPECT_EQ(at_5000->pairs, 16);
  logs.push_back(std::log(520.0 / 500)), logs.push_back(std::log(480.0 / 500)),
      logs.push_back(std::log(480.0 / 520)), logs.push_back(std::log(905.0 / 900));
  EXPECT_NEAR(at_5000->percent, floor_by_hand(logs), 1e-9);
  // Dropped rounds are not counted; a run of one round has no floor.
  std::vector<CellResult> one_round = {with_rounds("naive", 1000, {100})};
  EXPECT_FALSE(round_noise(one_round, 1000, 1).has_value());
}

TEST(RoundRule, CompetingLoadAndASlowRoundAreDroppedAndACellIsKeptOutOnlyUnderTwoCleanRounds) {
  // Sixteen quiet cells (48 pairs within 1.5 %), so that the slowed round's two pairs are under 5 % of them.
  std::vector<CellResult> cells;
  for (int threads = 1; threads <= 16; ++threads)
    cells.push_back(with_rounds("xsimd", 1000, {1000, 1010, 995}, threads));
  cells.push_back(with_rounds("openmp", 1000, {1000, 1400, 1005}));  // round 2 slowed 40 %
  // On a machine of 4 CPUs, a cell of 1 thread leaves 3 free: other load competes with it beyond them.
  cells.push_back(with_rounds("tbb", 1000, {1000, 1002, 998}));
  cells.back().rounds[0].other_load_cores = 3.4;  // round 1 beside other work, 0.4 cores of it on its CPU
  cells.back().rounds[1].other_load_cores = 2.9;  // round 2: all of it on the 3 CPUs the cell left free
  cells.push_back(with_rounds("stdpar", 1000, {1000, 1001, 999}));
  cells.back().rounds[1].steal_fraction = 0.05, cells.back().rounds[2].other_load_cores = 4.0;
  // A cell on all 4 CPUs: a quarter of a core a CPU it uses, 1.0, disturbs a round, 0.9 does not.
  cells.push_back(with_rounds("openmp", 1000, {1000, 1003, 997}, 4));
  cells.back().rounds[0].other_load_cores = 1.0, cells.back().rounds[1].other_load_cores = 0.9;
  judge_rounds(cells, 3, 4);
  for (std::size_t i = 0; i < 16; ++i) {
    EXPECT_EQ(cells[i].clean_rounds(), 3) << cells[i].name;
    EXPECT_FALSE(disturbed(cells[i])) << cells[i].name;
  }
  const CellResult& slowed = cells[16];
  EXPECT_TRUE(slowed.rounds[0].clean() && slowed.rounds[2].clean());
  ASSERT_EQ(slowed.rounds[1].disturbed.size(), 1U);
  EXPECT_NE(slowed.rounds[1].disturbed.front().find("median 39.7 % above its other rounds'"),
            std::string::npos)
      << slowed.rounds[1].disturbed.front();
  EXPECT_FALSE(disturbed(slowed)) << "two clean rounds: it competes";
  // Its measurement is its clean rounds' repetitions together: 4 of them, the median between 1000 and 1005.
  EXPECT_EQ(slowed.measurement->repetitions.size(), 4U);
  EXPECT_NEAR(slowed.median(), (1000 * 1.001 + 1005 * 0.999) / 2 * 1e-9, 1e-15);
  EXPECT_EQ(cells[17].rounds[0].disturbed,
            std::vector<std::string>{"3.40 cores of other load, 0.40 beyond the 3 CPUs the cell left free"});
  EXPECT_TRUE(cells[17].rounds[1].clean()) << cells[17].rounds[1].disturbed.front();
  EXPECT_FALSE(disturbed(cells[17]));
  EXPECT_EQ(cells[19].rounds[0].disturbed,
            std::vector<std::string>{"1.00 cores of other load on the cell's 4 CPUs"});
  EXPECT_TRUE(cells[19].rounds[1].clean()) << cells[19].rounds[1].disturbed.front();
  EXPECT_EQ(cells[19].clean_rounds(), 2);
  const CellResult& kept_out = cells[18];
  EXPECT_EQ(kept_out.clean_rounds(), 1);
  const auto reasons = disturbance(kept_out);
  ASSERT_FALSE(reasons.empty());
  EXPECT_EQ(reasons.front(), "1 of 3 rounds clean");
  EXPECT_EQ(reasons.at(1), "round 2: 5.0 % of the CPU time stolen");
  EXPECT_EQ(reasons.at(2), "round 3: 4.00 cores of other load, 1.00 beyond the 3 CPUs the cell left free");
  // A run of one round a cell keeps the rule of a cell measured once: any quarter core of other load.
  std::vector<CellResult> lone = {with_rounds("tbb", 1000, {1000})};
  lone.front().rounds[0].other_load_cores = 0.4;
  judge_rounds(lone, 1, 4);
  EXPECT_EQ(lone.front().rounds[0].disturbed, std::vector<std::string>{"0.40 cores of other load"});
  // A cell of rounds with a wide spread inside one process is not disturbed for it: the rounds measure that.
  EXPECT_GT(cells[0].cv(), 0.0);
  CellResult wide = with_rounds("naive", 1000, {1000, 1004, 998});
  wide.rounds[0].repetitions = {{0, 10, 700, 700}, {1, 10, 1300, 1300}};
  std::vector<CellResult> with_wide = cells;
  with_wide.push_back(wide);
  judge_rounds(with_wide, 3, 4);
  EXPECT_GT(with_wide.back().cv(), 0.05);
  EXPECT_FALSE(disturbed(with_wide.back()));
}

// A run's journal with the matrix of 3 rounds, written as the runner writes it.
JournaledRun journaled_rounds(const std::vector<CellResult>& cells) {
  JournalHeader header = crafted_header(3);
  header.matrix.rounds = 3;
  header.matrix.tiers = {"naive", "streaming", "inlined", "eigen", "autovec", "xsimd"};
  return JournaledRun(header, cells);
}

TEST(RoundRemeasure, ADroppedRoundIsMeasuredAgainAndTheJournalKeepsEveryRound) {
  std::vector<CellResult> cells;
  for (const char* tier : {"naive", "streaming", "inlined", "eigen", "autovec"})
    cells.push_back(with_rounds(tier, 1000, {1000, 1010, 995}));
  cells.push_back(with_rounds("xsimd", 1000, {1000, 1003, 998}));
  // Every CPU of the crafted machine busy with other work: a core of it on the cell's own.
  const double every_cpu = crafted_cpus;
  cells.back().rounds[1].other_load_cores = every_cpu;
  JournaledRun run = journaled_rounds(cells);
  std::deque<double> next = {1002};
  std::vector<std::string> asked;
  const MeasureCell measure = [&](const CellKey& cell) -> std::optional<CellResult> {
    asked.push_back(cell_name(cell));
    if (next.empty()) return std::nullopt;
    CellResult again = with_rounds(cell.tier, cell.n, {next.front()});
    next.pop_front();
    return again;
  };
  EXPECT_TRUE(remeasure_disturbed(run.files(), 2, {}, measure));
  EXPECT_EQ(asked, std::vector<std::string>{cells.back().name});
  const Journal journal = run.read_back();
  ASSERT_EQ(journal.cells.size(), 6U);
  const CellResult& kept = journal.cells.back();
  ASSERT_EQ(kept.rounds.size(), 4U);
  EXPECT_EQ(kept.rounds[3].index, 4);
  EXPECT_EQ(kept.clean_rounds(), 3);
  EXPECT_FALSE(kept.rounds[1].clean());
  ASSERT_TRUE(kept.remeasured.has_value());
  EXPECT_EQ(kept.remeasured->attempts, 1);
  EXPECT_FALSE(kept.remeasured->still_disturbed);
  EXPECT_EQ(kept.remeasured->first_reasons,
            std::vector<std::string>{
                "round 2: 96.00 cores of other load, 1.00 beyond the 95 CPUs the cell left free"});
  EXPECT_EQ(kept.measurement->repetitions.size(), 6U) << "three clean rounds of two repetitions";
  // Measured again up to --remeasure extra rounds a cell, no more: a cell disturbed every time stops.
  std::vector<CellResult> stubborn = cells;
  stubborn.back().rounds[0].other_load_cores = every_cpu;
  JournaledRun again = journaled_rounds(stubborn);
  asked.clear();
  const MeasureCell busy = [&](const CellKey& cell) -> std::optional<CellResult> {
    asked.push_back(cell_name(cell));
    CellResult round = with_rounds(cell.tier, cell.n, {1001});
    round.worker.other_load_cores = round.rounds.front().other_load_cores = every_cpu;
    return round;
  };
  EXPECT_TRUE(remeasure_disturbed(again.files(), 2, {}, busy));
  EXPECT_EQ(asked.size(), 2U);
  const CellResult still = again.read_back().cells.back();
  EXPECT_EQ(still.rounds.size(), 5U);
  EXPECT_EQ(still.clean_rounds(), 1);
  EXPECT_TRUE(disturbed(still));
  EXPECT_TRUE(still.remeasured->still_disturbed);
}

// Through the binary.
const std::string rounds_run =
    "run --tiers inlined,streaming --n 1e4,2e4 --threads 1 --reps 3 --min-time 0.01 --rounds 3 --no-history "
    "--no-limits --no-instructions";

std::vector<CellResult> cells_of(const fs::path& dir) {
  const json results = read_json(dir / "results.json");  // kept: a range over a temporary's member dangles
  std::vector<CellResult> cells;
  for (const auto& cell : results.at("cells")) cells.push_back(cell.get<CellResult>());
  return cells;
}

TEST(RoundsRun, EachCellRunsInThreeProcessesRoundByRound) {
  TempDir dir;
  const fs::path out = dir / "run";
  const Outcome run = run_command(LADDER_BINARY, rounds_run + " --remeasure 0 --out " + out.string());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const json results = read_json(out / "results.json");
  EXPECT_EQ(results.at("schema_version"), 3);
  EXPECT_EQ(results.at("context").at("matrix").at("rounds"), 3);
  const auto cells = cells_of(out);
  ASSERT_EQ(cells.size(), 4U) << results.dump().substr(0, 3000);
  std::set<long> pids;
  for (const auto& cell : cells) {
    ASSERT_TRUE(cell.ok()) << cell.name;
    ASSERT_EQ(cell.rounds.size(), 3U) << cell.name;
    for (int r = 0; r < 3; ++r) {
      EXPECT_EQ(cell.rounds[r].index, r + 1);
      EXPECT_EQ(cell.rounds[r].repetitions.size(), 1U) << "3 repetitions shared among 3 rounds";
      EXPECT_GT(cell.rounds[r].median_ns, 0);
      EXPECT_TRUE(pids.insert(cell.rounds[r].pid).second) << "each round its own process";
    }
    // The later rounds timed the first round's iterations.
    EXPECT_EQ(cell.rounds[1].repetitions[0].iterations, cell.rounds[0].repetitions[0].iterations);
    EXPECT_EQ(cell.measurement->repetitions.size(), static_cast<std::size_t>(cell.clean_rounds()));
  }
  // The journal: every cell's round 1 before any round 2, every round 2 before any round 3.
  std::map<std::string, int> seen;
  int last_round = 0;
  for (const auto& line : lines_of(read_text(out / "journal.jsonl"))) {
    const json parsed = json::parse(line);
    if (parsed.at("kind") != "cell") continue;
    const int round = static_cast<int>(parsed.at("rounds").size());
    EXPECT_GE(round, last_round) << "rounds run in order";
    last_round = round;
    EXPECT_EQ(++seen[parsed.at("name").get<std::string>()], round);
  }
  EXPECT_EQ(last_round, 3);
}

TEST(RoundsRun, ADisturbedRoundIsMeasuredAgainAtTheEnd) {
  TempDir dir;
  const fs::path out = dir / "run";
  const std::string cell = "inlined/gauss/n:10000/threads:1";
  const Outcome run = run_command("LADDER_TEST_DISTURB=" + cell + " " + std::string(LADDER_BINARY),
                                  rounds_run + " --out " + out.string());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("measuring " + cell + " again (round 4"), std::string::npos) << run.output;
  const auto cells = cells_of(out);
  ASSERT_EQ(cells.size(), 4U);
  for (const auto& record : cells) {
    if (record.name != cell) continue;
    ASSERT_GE(record.rounds.size(), 4U);
    EXPECT_FALSE(record.rounds[0].clean());
    EXPECT_NE(record.rounds[0].disturbed.front().find("cores of other load"), std::string::npos);
    ASSERT_TRUE(record.remeasured.has_value());
    EXPECT_GE(record.remeasured->attempts, 1);
  }
}

// A run killed in its second round (the journal cut after the first line of round 2, as a kill there leaves
// it) is resumed to completion: every cell gets its three rounds, each once. --remeasure 0 in both sessions:
// a round the machine's noise marks slow would otherwise be measured again, a fourth round.
TEST(RoundsRun, ARunKilledMidRoundResumesToCompletion) {
  TempDir dir;
  const fs::path out = dir / "run";
  ASSERT_EQ(run_command(LADDER_BINARY, rounds_run + " --remeasure 0 --out " + out.string()).exit_code, 0);
  const std::vector<std::string> lines = lines_of(read_text(out / "journal.jsonl"));
  std::string cut;
  for (const auto& line : lines) {
    cut += line + "\n";
    if (line.find("\"kind\":\"cell\"") != std::string::npos && json::parse(line).at("rounds").size() == 2)
      break;
  }
  write_text(out / "journal.jsonl", cut);
  const Outcome resumed =
      run_command(LADDER_BINARY, "run --no-limits --resume " + out.string() + " --no-history --remeasure 0");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_EQ(read_json(out / "results.json").at("context").at("run").at("status"), "complete");
  const auto cells = cells_of(out);
  ASSERT_EQ(cells.size(), 4U);
  for (const auto& cell : cells) {
    ASSERT_EQ(cell.rounds.size(), 3U) << cell.name;
    for (int r = 0; r < 3; ++r) EXPECT_EQ(cell.rounds[r].index, r + 1) << cell.name;
  }
}

// Two runs of rounds and no history: compare judges each cell against the wider of the two runs' own noise
// instead of refusing a verdict. Each run's rounds are marked clean first (as a quiet machine leaves them),
// so that the other work of the tests beside it cannot leave a run too few clean pairs to measure its noise.
TEST(RoundsRun, CompareJudgesTwoRunsByTheirOwnNoiseWhereTheHistoryHasNone) {
  TempDir dir;
  for (const char* name : {"old", "new"}) {
    const fs::path out = dir / name;
    ASSERT_EQ(run_command(LADDER_BINARY, rounds_run + " --remeasure 0 --out " + out.string()).exit_code, 0);
    json results = read_json(out / "results.json");
    for (auto& cell : results.at("cells"))
      for (auto& round : cell.at("rounds")) round["disturbed"] = json::array();
    write_text(out / "results.json", results.dump(1));
  }
  const Outcome compared =
      run_command(LADDER_BINARY, "compare " + (dir / "old").string() + " " + (dir / "new").string() +
                                     " --history " + (dir / "none.sqlite").string());
  EXPECT_NE(compared.exit_code, 2) << compared.output;
  EXPECT_EQ(compared.output.find("run-to-run noise is unknown"), std::string::npos) << compared.output;
  EXPECT_EQ(compared.output.find("without a verdict"), std::string::npos) << compared.output;
  EXPECT_FALSE(fs::exists(dir / "none.sqlite")) << "the history is read, never made";
}

TEST(RoundsRun, RoundsOutOfRangeAreRefusedBeforeAnythingIsWritten) {
  TempDir dir;
  for (const std::string bad : {"0", "21", "-1"}) {
    const Outcome run = run_command(LADDER_BINARY, "run --no-limits --tiers naive --n 1e4 --rounds " + bad +
                                                       " --no-history --out " + (dir / "run").string());
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_NE(run.output.find("--rounds " + bad + " is out of range"), std::string::npos) << run.output;
    EXPECT_FALSE(fs::exists(dir / "run"));
  }
}

}  // namespace
}  // namespace ladder::testing
