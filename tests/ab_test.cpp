// `ladder ab`'s measurement (harness/run/ab.hpp) with real workers: each side is a wrapper script that notes
// its letter in a log and then runs this build's own worker, so the order the processes really ran in is on
// disk. A head made twice as slow by the test-only switch LADDER_TEST_SLOWDOWN is called slower with a
// ratio near 2; a head whose process fails ends its cell with the reason and no verdict; both sides the same
// worker (A/A) are never called faster or slower.
#include "ab.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ladder {
namespace {

namespace fs = std::filesystem;

class AbRun : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ladder-ab-test-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A worker that appends `letter` to the log, sets `environment`, and runs the real one.
  std::string wrapper(const std::string& letter, const std::string& environment = "",
                      const std::string& instead = "") {
    const std::string path = (dir_ / ("worker-" + letter)).string();
    std::ofstream out(path);
    out << "#!/bin/sh\nprintf " << letter << " >> '" << log() << "'\n"
        << (instead.empty() ? environment + " exec '" + std::string(LADDER_BINARY) + "' \"$@\"\n"
                            : instead + "\n");
    out.close();
    ::chmod(path.c_str(), 0755);
    return path;
  }
  std::string log() const { return (dir_ / "order.log").string(); }
  std::string order() const {
    std::ifstream in(log());
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  static AbSettings settings(int fixed_pairs) {
    AbSettings out;
    out.matrix.tiers = {"inlined"};
    out.matrix.integrands = {"gauss"};
    out.matrix.sizes = {200'000};
    out.matrix.threads = {1};
    out.matrix.repetitions = 2;
    out.matrix.min_time = 0.005;
    out.matrix.min_warmup_time = 0.002;
    out.fixed_pairs = fixed_pairs;
    out.budget_seconds = 240;
    out.threshold = [](const CellKey&) { return Threshold{5, "a test's 5 %", false}; };
    return out;
  }

  fs::path dir_;
};

TEST(AbOrder, PairsAlternateWhichSideRunsFirst) {
  std::string sequence;
  for (int pair = 0; pair < 4; ++pair) sequence += base_runs_first(pair) ? "AB" : "BA";
  EXPECT_EQ(sequence, "ABBAABBA");
}

// A position effect (the first process of a pair 8 % slower than the second, as on this VM for minutes,
// 2026-12-07) makes the pairs' ratios two heaps, base first and head first, 16 % apart, whose median interval
// straddles any threshold however many pairs; A B with B A cancels it, and the true 5 % is called slower,
// its interval about 1.05. Its A/A gives a floor of the small noise, not of the effect.
TEST(AbUnits, APositionEffectCancelsInEachABBAUnit) {
  const auto cell_of = [](double ratio) {
    AbCell cell;
    cell.threshold = Threshold{1, "a test's 1 %", true};
    for (int i = 0; i < 24; ++i) {
      AbPair pair;
      pair.base_first = base_runs_first(i);
      const double noise = 1 + 0.002 * ((i * 7) % 5 - 2);  // ±0.4 %, a fixed pattern
      const double first = 1.08;                           // the first process of a pair is slower
      pair.base_seconds = pair.base_first ? first : 1.0;
      pair.head_seconds = ratio * noise * (pair.base_first ? 1.0 : first);
      cell.pairs.push_back(pair);
    }
    return cell;
  };
  const AbCell slower = cell_of(1.05);
  std::vector<double> each;
  for (const auto& pair : slower.pairs) each.push_back(pair.log_ratio());
  EXPECT_EQ(judge(paired_interval(each), 1), Verdict::undecided) << "the case under test: two heaps";
  const VerdictRow row = slower.row();
  EXPECT_EQ(row.verdict, Verdict::slower) << row.note;
  EXPECT_NEAR(row.interval.ratio, 1.05, 0.005);
  EXPECT_EQ(row.interval.pairs, 24);
  EXPECT_EQ(balanced_log_ratios(slower.pairs).size(), 12u);
  const auto floor = noise_floor_percent(balanced_log_ratios(cell_of(1.0).pairs));
  ASSERT_TRUE(floor);
  EXPECT_LT(*floor, 1.0) << "the A/A floor took in the position effect";
  EXPECT_GT(*noise_floor_percent(each), 10.0) << "the case under test: per pair, the effect is the floor";
  // A lone last pair is left out: 13 pairs are 6 units.
  std::vector<AbPair> odd(slower.pairs.begin(), slower.pairs.begin() + 13);
  EXPECT_EQ(balanced_log_ratios(odd).size(), 6u);
}

TEST_F(AbRun, TheProcessesRunInABBAOrder) {
  const auto cells = run_ab(settings(4), wrapper("A"), wrapper("B"));
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(cells[0].failure, "");
  EXPECT_EQ(cells[0].pairs.size(), 4u);
  EXPECT_EQ(order(), "ABBAABBA");
  for (std::size_t i = 0; i < cells[0].pairs.size(); ++i) EXPECT_EQ(cells[0].pairs[i].base_first, i % 2 == 0);
}

TEST_F(AbRun, AHeadTwiceAsSlowIsCalledSlowerWithItsRatio) {
  const auto cells = run_ab(settings(0), wrapper("A"), wrapper("B", "LADDER_TEST_SLOWDOWN=inlined=2"));
  ASSERT_EQ(cells.size(), 1u);
  const VerdictRow row = cells[0].row();
  EXPECT_EQ(row.verdict, Verdict::slower) << row.note;
  EXPECT_GT(row.interval.ratio, 1.6);
  EXPECT_LT(row.interval.ratio, 2.5);
  EXPECT_LE(row.interval.low, row.interval.ratio);
  EXPECT_GE(row.interval.high, row.interval.ratio);
  // Adaptive: it stops at the first pair count whose interval decides, never running on to the most. On a
  // quiet machine that is interval_min_pairs; a pair disturbed by other load (the machine's other work
  // during a pair) can leave the interval straddling the threshold for a few more, which it then says.
  const AbSettings asked = settings(0);
  const int pairs = static_cast<int>(cells[0].pairs.size());
  EXPECT_EQ(row.interval.pairs, pairs);
  EXPECT_GE(pairs, std::max(asked.min_pairs, ab_min_pairs));
  EXPECT_LT(pairs, asked.max_pairs);
  const auto& all = cells[0].pairs;
  for (int fewer = std::max(asked.min_pairs, ab_min_pairs); fewer < pairs; ++fewer)
    EXPECT_EQ(judge(paired_interval(balanced_log_ratios({all.begin(), all.begin() + fewer})), 5),
              Verdict::undecided)
        << "the verdict was clear after " << fewer << " pairs, but the cell ran " << pairs;
}

TEST_F(AbRun, ABaseTwiceAsSlowMakesTheHeadFaster) {
  const auto cells = run_ab(settings(0), wrapper("A", "LADDER_TEST_SLOWDOWN=inlined=2"), wrapper("B"));
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(cells[0].row().verdict, Verdict::faster) << cells[0].row().note;
}

TEST_F(AbRun, TheSameWorkerOnBothSidesIsNeverFasterOrSlower) {
  const std::string worker = wrapper("A");
  const auto cells = run_ab(settings(8), worker, worker);
  ASSERT_EQ(cells.size(), 1u);
  const VerdictRow row = cells[0].row();
  EXPECT_EQ(row.interval.pairs, 8);
  EXPECT_NE(row.verdict, Verdict::slower) << row.note;
  EXPECT_NE(row.verdict, Verdict::faster) << row.note;
}

TEST_F(AbRun, AHeadWhoseProcessFailsEndsItsCellWithTheReason) {
  const auto cells =
      run_ab(settings(0), wrapper("A"), wrapper("B", "", "echo broken on purpose >&2; exit 3"));
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(cells[0].failure.rfind("head: ", 0), 0u) << cells[0].failure;
  EXPECT_TRUE(cells[0].pairs.empty());
  const VerdictRow row = cells[0].row();
  EXPECT_FALSE(row.interval.known());
  EXPECT_TRUE(row.failed) << "every output says failed, and the gate fails it (verdict_outputs_test.cpp)";
  EXPECT_NE(row.note.find("failed: head: "), std::string::npos) << row.note;
  EXPECT_EQ(order(), "AB");  // the failure stopped the cell at once
}

TEST_F(AbRun, ACellOverItsBudgetStopsUndecidedAndSaysSo) {
  AbSettings tight = settings(0);
  tight.budget_seconds = 0.001;  // spent by the first pair
  tight.threshold = [](const CellKey&) { return Threshold{0.001, "an impossible 0.001 %", false}; };
  const auto cells = run_ab(tight, wrapper("A"), wrapper("B"));
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_TRUE(cells[0].budget_spent);
  EXPECT_EQ(cells[0].pairs.size(), 1u);
  const VerdictRow row = cells[0].row();
  EXPECT_EQ(row.verdict, Verdict::undecided);
  EXPECT_NE(row.note.find("would likely settle it"), std::string::npos) << row.note;
  EXPECT_NE(row.note.find("--budget"), std::string::npos) << row.note;
}

}  // namespace
}  // namespace ladder
