// The money and latency answer within the noise (reports/analysis/decision.hpp,
// reports/analysis/economics.hpp), on crafted runs whose every figure is the test's own: two tiers whose
// core-seconds a call are within the noise make one usage-map step "≈" that goes to the tier cheaper to keep,
// whichever median is the lower; tiers apart beyond the noise keep their own steps, each break-even with a
// range recomputed here from the formula and the noise band; a deadline inside a tier's interval is met (or
// missed) "within the noise"; a tier whose every cell was disturbed is said to be; and the answer does not
// depend on the order of the cells.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "command.hpp"
#include "crafted_results.hpp"
#include "decision.hpp"
#include "document_text.hpp"
#include "sections.hpp"

namespace ladder::report {
namespace {

using ladder::testing::CraftedCell;

// The documented default noise floor, 5 %: a cell's band is its median ÷ (1 + h) to × (1 + h), (1 + h)²
// = 1.05.
const double h = std::sqrt(1.05) - 1;

// A plain loop (0.45 engineer-days to keep over 3 years at the default figures), a library tier (xsimd,
// 5.85 days), a bigger library tier (eigen, 7.25 days) and a parallel tier of 2000 lines (openmp, 25.25
// days): the order of the cost to keep is theirs, and each dearer tier's line starts well above the last.
nlohmann::json cards() {
  return nlohmann::json::array({ladder::testing::crafted_card("loop", 1, {}, false, "minutes", 20),
                                ladder::testing::crafted_card("simd-a", 2, {"xsimd"}, false, "days", 60),
                                ladder::testing::crafted_card("simd-b", 3, {"eigen"}, false, "days", 200),
                                ladder::testing::crafted_card("threads", 4, {"openmp"}, true, "days", 2000)});
}

// A run of these cells (tier, threads, median seconds a call), each with three repetitions around its
// median (0.99, 1, 1.02 ×: quiet, their spread inside the noise band); those `disturbed` picks ran beside
// 1.2 cores of other load.
report::Run crafted_run(const ladder::testing::TempDir& dir, const std::vector<CraftedCell>& cells,
                        const std::function<bool(const CraftedCell&)>& disturbed = {}) {
  nlohmann::json records = nlohmann::json::array();
  for (const auto& cell : cells) {
    CellResult record = ladder::testing::measured_record(cell);
    if (disturbed && disturbed(cell)) record.worker.other_load_cores = 1.2;
    records.push_back(record);
  }
  ladder::testing::write_results(std::filesystem::path(dir.str()),
                                 ladder::testing::crafted_results("vm", cards(), records));
  return load_run(dir.str());
}

CraftedCell cell(const std::string& tier, int rung, double seconds, int threads = 1) {
  CraftedCell made;
  made.tier = tier;
  made.rung = rung;
  made.threads = threads;
  made.seconds = ladder::testing::around(seconds);
  return made;
}

// loop 10 ms, simd-a 1 ms, and threads 0.2 ms on 2 threads (0.4 ms of core time): each tier five times
// the next or more, far beyond the noise.
report::Run apart_run(const ladder::testing::TempDir& dir) {
  return crafted_run(dir, {cell("loop", 1, 10e-3), cell("simd-a", 2, 1e-3), cell("threads", 4, 0.2e-3, 2)});
}

Decision decided(const report::Run& run, Usage usage = {}) {
  usage.current = "loop";
  return decide(run, 1000000, "gauss", CostFigures{}, usage);
}

// The report's "Money and latency" section of this decision, as text.
std::string money_text(const Decision& decision, const report::Run& run) {
  Document doc;
  money(doc, {decision}, {&run});
  return ladder::testing::document_text(doc);
}

// Dollars over 3 years for each call a day of `core_seconds` a call, at $0.0425 a core-hour.
double compute_dollars(double core_seconds) { return core_seconds / 3600 * 0.0425 * 365 * 3; }

TEST(UsageMapTies, TwoTiersWithinTheNoiseMakeOneStepForTheCheaperToKeep) {
  // simd-b's median is 1.5 % under simd-a's, then 1.5 % over it: closer than the 5 % noise floor either way.
  for (const double b_seconds : {0.985e-3, 1.015e-3}) {
    SCOPED_TRACE(b_seconds);
    ladder::testing::TempDir dir;
    const report::Run run =
        crafted_run(dir, {cell("loop", 1, 10e-3), cell("simd-a", 2, 1e-3), cell("simd-b", 3, b_seconds)});
    Usage usage;
    usage.calls_per_day = 1e12;  // far past every break-even: only the slopes count here
    const Decision decision = decided(run, usage);
    ASSERT_EQ(decision.usage_map.size(), 2u) << decision_json(decision).dump(1);
    EXPECT_EQ(decision.usage_map[0].tier, "loop");
    EXPECT_FALSE(decision.usage_map[0].merged());
    const UsageStep& merged = decision.usage_map[1];
    EXPECT_TRUE(merged.merged());
    EXPECT_EQ(merged.tier, "simd-a") << "the cheaper to keep, whatever the medians say";
    EXPECT_EQ(merged.tiers, (std::vector<std::string>{"simd-a", "simd-b"}));
    EXPECT_EQ(step_tiers_text(merged), "simd-a ≈ simd-b");
    EXPECT_EQ(merged.to, std::numeric_limits<double>::infinity());
    EXPECT_EQ(decision.money_tier, "simd-a") << "the money answer follows the merged step";
    // Where loop hands over: between the ends of the noise, which hold the point estimate.
    EXPECT_LE(merged.from_range.low, merged.from);
    EXPECT_GE(merged.from_range.high, merged.from);
    // pick --json says the same: the step's tiers, that it is merged, and why.
    const nlohmann::json json = decision_json(decision);
    EXPECT_EQ(json.at("usage_map").at(1).at("tiers"), nlohmann::json({"simd-a", "simd-b"}));
    EXPECT_TRUE(json.at("usage_map").at(1).at("merged").get<bool>());
    EXPECT_NE(json.at("usage_map_tie_break").get<std::string>().find("cheapest to keep"), std::string::npos);
    // The report's money section shows the step "≈" and why (its usage map: without calls a day).
    const std::string text = money_text(decided(run), run);
    EXPECT_NE(text.find("**simd-a** ≈ simd-b"), std::string::npos) << text;
    EXPECT_NE(text.find("| **simd-a** ≈ simd-b |"), std::string::npos) << "a cell of the usage table\n"
                                                                       << text;
  }
}

TEST(UsageMapTies, TiersApartBeyondTheNoiseKeepTheirStepsAndBreakEvenRanges) {
  ladder::testing::TempDir dir;
  const report::Run run = apart_run(dir);
  const Decision decision = decided(run);
  ASSERT_EQ(decision.usage_map.size(), 3u) << decision_json(decision).dump(1);
  const std::vector<std::string> order = {"loop", "simd-a", "threads"};
  const std::vector<double> core_seconds = {10e-3, 1e-3, 0.4e-3};
  for (std::size_t i = 0; i < 3; ++i) {
    SCOPED_TRACE(order[i]);
    const UsageStep& step = decision.usage_map[i];
    EXPECT_EQ(step.tier, order[i]);
    EXPECT_EQ(step.tiers, std::vector<std::string>{order[i]});
    if (i == 0) continue;
    // The lines crossed at the ends of the band: the faster tier at its least compute against the slower
    // at its most (low), then the other way (high); the point estimate between them.
    const double people = decision.tier(order[i])->money.people - decision.tier(order[i - 1])->money.people;
    const double low = people / (compute_dollars(core_seconds[i - 1] * (1 + h)) -
                                 compute_dollars(core_seconds[i] / (1 + h))),
                 high = people / (compute_dollars(core_seconds[i - 1] / (1 + h)) -
                                  compute_dollars(core_seconds[i] * (1 + h)));
    EXPECT_NEAR(step.from_range.low, low, 1e-9 * low);
    EXPECT_NEAR(step.from_range.high, high, 1e-9 * high);
    EXPECT_LT(step.from_range.low, step.from);
    EXPECT_GT(step.from_range.high, step.from);
    const nlohmann::json range = decision_json(decision).at("usage_map").at(i).at("from_range");
    EXPECT_NEAR(range.at("low").get<double>(), low, 1e-9 * low);
    EXPECT_NEAR(range.at("high").get<double>(), high, 1e-9 * high);
  }
  // Each tier's break-even against the current rung carries its range too.
  const TierChoice& simd = *decision.tier("simd-a");
  ASSERT_TRUE(simd.pays_from_range);
  EXPECT_LT(simd.pays_from_range->low, *simd.pays_from);
  EXPECT_GT(simd.pays_from_range->high, *simd.pays_from);
  const std::string text = money_text(decision, run);
  EXPECT_EQ(text.find("** ≈ "), std::string::npos) << "no step is within the noise:\n" << text;
  EXPECT_NE(text.find(calls_text(decision.usage_map[1].from) + " (" +
                      calls_range_text(decision.usage_map[1].from_range) + ")"),
            std::string::npos)
      << text;
}

TEST(LatencyWithinTheNoise, ADeadlineInsideATiersIntervalIsMetOrMissedWithinTheNoise) {
  ladder::testing::TempDir dir;
  const report::Run run = apart_run(dir);
  Usage usage;
  // 1.01 ms: simd-a's median (1 ms) meets it, its band (0.976–1.025 ms) holds it; it costs fewer days than
  // threads, so it is the answer, said to meet it within the noise.
  usage.deadline_seconds = 1.01e-3;
  const Decision met = decided(run, usage);
  EXPECT_EQ(met.latency_tier, "simd-a");
  EXPECT_NE(met.latency_why.find("meets 1.01 ms a call within the noise"), std::string::npos)
      << met.latency_why;
  EXPECT_EQ(met.deadline_within_noise, std::vector<std::string>{"simd-a"});
  // 0.99 ms: simd-a's median misses it, within the noise; threads meets it beyond the noise.
  usage.deadline_seconds = 0.99e-3;
  const Decision missed = decided(run, usage);
  EXPECT_EQ(missed.latency_tier, "threads");
  EXPECT_EQ(missed.latency_why.find("within the noise"), std::string::npos) << missed.latency_why;
  EXPECT_EQ(missed.deadline_within_noise, std::vector<std::string>{"simd-a"});
  // 0.199 ms: no tier's median meets it; the fastest holds it within the noise, and the answer says so.
  usage.deadline_seconds = 0.199e-3;
  const Decision none = decided(run, usage);
  EXPECT_FALSE(none.latency_tier);
  EXPECT_NE(none.latency_why.find("no tier meets"), std::string::npos) << none.latency_why;
  EXPECT_NE(none.latency_why.find("which holds 199 µs within the noise"), std::string::npos)
      << none.latency_why;
}

TEST(LatencyWithinTheNoise, WithoutADeadlineATieGoesToTheCheaperToKeepAndIsNamed) {
  ladder::testing::TempDir dir;
  // simd-b 1.5 % faster than simd-a: tied; simd-a is cheaper to keep.
  const report::Run run =
      crafted_run(dir, {cell("loop", 1, 10e-3), cell("simd-a", 2, 1e-3), cell("simd-b", 3, 0.985e-3)});
  const Decision decision = decided(run);
  EXPECT_EQ(decision.latency_tier, "simd-a");
  EXPECT_EQ(decision.latency_tied, (std::vector<std::string>{"simd-a", "simd-b"}));
  EXPECT_NE(decision.latency_tie_break.find("simd-a is the cheapest to keep"), std::string::npos)
      << decision.latency_tie_break;
  EXPECT_NE(decision.latency_why.find("the fastest tier within the noise"), std::string::npos)
      << decision.latency_why;
  const nlohmann::json json = decision_json(decision);
  EXPECT_EQ(json.at("latency_tied"), nlohmann::json({"simd-a", "simd-b"}));
  const nlohmann::json& interval = json.at("tiers").at(1).at("fastest_interval");
  EXPECT_EQ(json.at("tiers").at(1).at("tier"), "simd-a");
  EXPECT_NEAR(interval.at("low_seconds").get<double>(), 1e-3 / (1 + h), 1e-15);
  EXPECT_NEAR(interval.at("high_seconds").get<double>(), 1e-3 * (1 + h), 1e-15);
  EXPECT_EQ(interval.at("noise_percent").get<double>(), 5);
  EXPECT_FALSE(interval.at("noise_source").get<std::string>().empty());
}

// The same two tiers 1.5 % apart, on a machine whose measured noise floor is 1 % (its history's, as
// reports/analysis/run_noise.hpp fills it): apart beyond the noise, each keeps its own step and the faster is
// the latency answer, untied; the intervals and the answer's words name the measured floor.
TEST(UsageMapTies, AMeasuredNoiseFloorUnderTheirDistanceKeepsTwoTiersApart) {
  ladder::testing::TempDir dir;
  CraftedCell a = cell("simd-a", 2, 1e-3), b = cell("simd-b", 3, 0.985e-3);
  a.seconds = {0.999e-3, 1e-3, 1.001e-3};  // repetitions tighter than the noise floor
  b.seconds = {0.984e-3, 0.985e-3, 0.986e-3};
  report::Run run = crafted_run(dir, {cell("loop", 1, 10e-3), a, b});
  const Threshold measured{1, "this machine's noise floor (A/A, 12 pairs)", true};
  for (const auto& each : run.cells) run.noise.by_cell[each.name] = measured;
  const Decision decision = decided(run);
  ASSERT_EQ(decision.usage_map.size(), 3u) << decision_json(decision).dump(1);
  EXPECT_EQ(decision.usage_map[1].tiers, std::vector<std::string>{"simd-a"});
  EXPECT_EQ(decision.usage_map[2].tiers, std::vector<std::string>{"simd-b"});
  EXPECT_EQ(decision.latency_tier, "simd-b");
  EXPECT_TRUE(decision.latency_tied.empty());
  const double band = std::sqrt(1.01) - 1;
  EXPECT_NEAR(decision.tier("simd-b")->fastest_interval.high, 0.985e-3 * (1 + band), 1e-15);
  EXPECT_EQ(noise_text(decision), "±0.5 % a cell, this machine's noise floor (A/A, 12 pairs)");
  // One cell of another floor: the words give the range and send to pick --json for each.
  run.noise.by_cell[run.cells.front().name] = Threshold{5, "the documented default 5 %", false};
  EXPECT_EQ(noise_text(decided(run)), "±0.5 % to ±2.5 % a cell, by cell: pick --json gives each");
}

// A tier's cells measured beside other load: a quiet cell of the tier is preferred; a tier measured only
// while disturbed is kept out of the latency answer as the report's answer keeps it, which is then not
// decided while it might be the fastest, and named when it is slower beyond the noise; under a deadline it
// may be the answer, which says its figure is a disturbed one.
TEST(DisturbedCells, AQuietCellIsPreferredAndATierOfDisturbedCellsOnlyIsKeptOutOrSaidToBe) {
  // threads' one-thread cell ran quietly, its two-thread cell beside other load (and looked faster);
  // simd-a has only disturbed cells: first faster than every other tier, then slower than threads.
  const auto beside_load = [](const CraftedCell& each) { return each.tier == "simd-a" || each.threads == 2; };
  for (const double simd_seconds : {0.1e-3, 5e-3}) {
    SCOPED_TRACE(simd_seconds);
    ladder::testing::TempDir dir;
    const report::Run run = crafted_run(dir,
                                        {cell("loop", 1, 10e-3), cell("simd-a", 2, simd_seconds),
                                         cell("threads", 4, 0.8e-3, 1), cell("threads", 4, 0.3e-3, 2)},
                                        beside_load);
    Usage usage;
    const Decision decision = decided(run, usage);
    const TierChoice& threads = *decision.tier("threads");
    EXPECT_EQ(threads.fastest->threads, 1) << "the disturbed two-thread cell is kept out";
    EXPECT_FALSE(threads.only_disturbed());
    const TierChoice& simd = *decision.tier("simd-a");
    EXPECT_TRUE(simd.only_disturbed());
    EXPECT_EQ(simd.disturbed, std::vector<std::string>{"1.20 cores of other load"});
    EXPECT_TRUE(decision_json(decision).at("tiers").at(1).at("only_disturbed").get<bool>());
    if (simd_seconds < 0.8e-3) {
      EXPECT_FALSE(decision.latency_tier) << "a disturbed figure never decides silently";
      EXPECT_EQ(decision.latency_why.rfind("could not decide: the only measurement of simd-a", 0), 0u)
          << decision.latency_why;
    } else {
      EXPECT_EQ(decision.latency_tier, "threads");
      EXPECT_NE(decision.latency_why.find("kept out of the answer, its only measurement disturbed: simd-a"),
                std::string::npos)
          << decision.latency_why;
      // Its step in the usage map (it holds half loop's core-seconds) says its figure is a disturbed one.
      ASSERT_EQ(decision.usage_map.at(1).tier, "simd-a") << decision_json(decision).dump(1);
      EXPECT_NE(money_text(decision, run)
                    .find("**simd-a** (measured only while disturbed: 1.20 cores of other load)"),
                std::string::npos)
          << money_text(decision, run);
      // 6 ms: simd-a meets it, at fewer days than threads; its figure is a disturbed one, and it says so.
      usage.deadline_seconds = 6e-3;
      const Decision deadline = decided(run, usage);
      EXPECT_EQ(deadline.latency_tier, "simd-a");
      EXPECT_NE(deadline.latency_why.find("its cells were all disturbed (1.20 cores of other load)"),
                std::string::npos)
          << deadline.latency_why;
    }
  }
}

TEST(Determinism, TheAnswerDoesNotDependOnTheOrderOfTheCells) {
  // Two cells of one tier with the same median (1 and 2 threads), two tiers within the noise, a deadline:
  // every choice made among equals.
  std::vector<CraftedCell> cells = {cell("loop", 1, 10e-3), cell("simd-a", 2, 1e-3),
                                    cell("simd-b", 3, 0.99e-3), cell("threads", 4, 0.5e-3, 1),
                                    cell("threads", 4, 0.5e-3, 2)};
  std::vector<std::string> answers;
  for (int turn = 0; turn < 4; ++turn) {
    ladder::testing::TempDir dir;
    if (turn % 2) std::reverse(cells.begin(), cells.end());
    if (turn >= 2) std::rotate(cells.begin(), cells.begin() + 2, cells.end());
    const report::Run run = crafted_run(dir, cells);
    for (const std::optional<double> deadline : {std::optional<double>{}, std::optional<double>{0.99e-3}}) {
      Usage usage;
      usage.deadline_seconds = deadline;
      usage.calls_per_day = 1e9;
      nlohmann::json json = decision_json(decided(run, usage));
      if (turn == 0)
        answers.push_back(json.dump());
      else
        EXPECT_EQ(json.dump(), answers[deadline ? 1 : 0]) << "turn " << turn;
    }
  }
  const nlohmann::json first = nlohmann::json::parse(answers[0]);
  for (const auto& tier : first.at("tiers"))
    if (tier.at("tier") == "threads") {
      EXPECT_EQ(tier.at("threads"), 1) << "the fewer core-seconds a call";
      EXPECT_EQ(tier.at("fastest_threads"), 1) << "equal medians: the fewer cores";
    }
}

}  // namespace
}  // namespace ladder::report
