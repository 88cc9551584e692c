// How far each tier is from the limits, as the report reads it from a results file alone: on crafted runs
// whose limits, counts and times are the test's own, each tier's GFLOP/s, GB/s and shares are the arithmetic
// of roofline.hpp, the answer carries the headroom line (compute-bound with its instruction-mix ceiling,
// memory-bound, or why it cannot be said), the section carries the limits with their method and spread, and
// the roofline chart draws both roofs and a labelled point a tier.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "browser_check.hpp"
#include "command.hpp"
#include "crafted_results.hpp"
#include "document_text.hpp"
#include "report.hpp"
#include "roofline.hpp"
#include "schema_v2.hpp"
#include "sections.hpp"

namespace ladder::report {
namespace {

using nlohmann::json;
using testing::around;
using testing::CraftedCell;

constexpr std::int64_t n = 10'000'000;

LimitReading reading(double best, std::vector<double> runs, const std::string& unit, int threads, int lanes) {
  LimitReading limit;
  limit.threads = threads, limit.unit = unit, limit.best = best, limit.runs = std::move(runs);
  limit.lanes = lanes, limit.tool = "ladder probe", limit.method = "a crafted probe";
  limit.measured_at = "2026-12-03T08:00:00Z";
  return limit;
}

MachineLimits crafted_limits() {
  MachineLimits limits;
  limits.measured = true;
  limits.fma_one_core = reading(100, {80, 100, 57}, "GFLOP/s", 1, 8);
  limits.fma_all_cores = reading(180, {180, 150}, "GFLOP/s", 2, 8);
  limits.bandwidth_one_core = reading(20, {20, 18}, "GB/s", 1, 0);
  limits.bandwidth_all_cores = reading(30, {30}, "GB/s", 2, 0);
  return limits;
}

// A crafted card, with what it leaves out as an older file's migration fills it in (schema_v2.hpp).
CardRecord card_of(const json& card) {
  json document = {{"tiers", {card}}};
  complete_results_v2(document);
  return read_card_record(JsonReader(document.at("tiers")[0]));
}

// naive moves 16 bytes a node and is counted by callgrind only; tuned-exp's FLOPs come from the linked
// build's loop (27 a node over 3.125 FP instructions: a ceiling of 27 / (2 × 8 × 3.125) = 54 %).
json cards() {
  CardRecord naive = card_of(testing::crafted_card("naive", 1, {}, false, "minutes", 12));
  naive.memory_bytes_per_node = 16;
  naive.memory_bytes_counted = "8 B written, 8 B read back";
  CardRecord tuned = card_of(testing::crafted_card("tuned-exp", 13, {"xsimd 8.1"}, false, "days", 120));
  VectorizationRecord loop;
  loop.build = "native", loop.status = "vectorized", loop.linked = true, loop.lanes = 8;
  loop.flops_per_node = 27, loop.fp_instructions_per_node = 3.125, loop.flops_evidence = "a crafted loop";
  tuned.vectorization.push_back(loop);
  return json::array({naive, tuned});
}

InstructionCounts counts() {
  InstructionCounts counted;
  counted.available = true;
  counted.tool = "callgrind", counted.target = "x86-64-v3", counted.integrand = "gauss";
  counted.flops_method = "callgrind × an opcode table";
  counted.n = {10000, 30000};
  counted.tiers.push_back({"naive", 60.0, {1, 2}, ""});
  counted.tiers.back().flops_per_node = 25, counted.tiers.back().fp_instructions_per_node = 20;
  return counted;
}

// naive at 4 ns a node (25 FLOPs, 16 B: 6.25 GFLOP/s, 4 GB/s); tuned-exp at 0.5 ns a node (54 GFLOP/s).
report::Run crafted_run(const testing::TempDir& dir, std::optional<MachineLimits> limits,
                        double naive_ns = 4) {
  json cells = json::array();
  for (const std::int64_t size : {n / 10, n}) {  // two sizes, as a run has: the analysis takes the larger
    testing::add_cell(cells, CraftedCell{"naive", 1, size, 1, around(naive_ns * 1e-9 * size)});
    testing::add_cell(cells, CraftedCell{"tuned-exp", 13, size, 1, around(0.5e-9 * size)});
  }
  json document = testing::crafted_results("vm", cards(), cells);
  document["instructions"] = counts();
  if (limits) document["context"]["limits"] = *limits;
  return load_run(testing::write_results(dir / "run", document).string());
}

const RooflinePoint& point_of(const Roofline& roof, const std::string& tier) {
  for (const auto& point : roof.points)
    if (point.row->card->id == tier) return point;
  throw std::runtime_error("no point for " + tier);
}

TEST(Roofline, EachTiersRatesAndSharesAreItsCountedWorkOverItsTime) {
  const testing::TempDir dir;
  const report::Run run = crafted_run(dir, crafted_limits());
  const Analysis analysis = analyse(run);
  const Roofline roof = roofline(analysis);
  ASSERT_TRUE(roof.unavailable.empty()) << roof.unavailable;
  EXPECT_EQ(roof.peak_lanes, 8);
  const RooflinePoint& tuned = point_of(roof, "tuned-exp");
  EXPECT_NEAR(*tuned.gflops, 27 / 0.5, 1e-9);
  EXPECT_NEAR(*tuned.share_of_peak, 0.54, 1e-12);
  EXPECT_NEAR(*tuned.mix_ceiling, 27 / (2 * 8 * 3.125), 1e-12);
  EXPECT_FALSE(tuned.gbytes.has_value()) << "a streaming tier moves no bytes";
  EXPECT_FALSE(tuned.memory_bound);
  const RooflinePoint& naive = point_of(roof, "naive");
  EXPECT_NEAR(*naive.gflops, 25 / 4.0, 1e-9);
  EXPECT_NEAR(*naive.gbytes, 16 / 4.0, 1e-9);
  EXPECT_NEAR(*naive.intensity, 25 / 16.0, 1e-12);
  EXPECT_NEAR(*naive.share_of_bandwidth, 4 / 20.0, 1e-12);
  EXPECT_TRUE(naive.memory_bound) << "1.56 FLOPs a byte is below the ridge at 100 / 20 = 5";
  EXPECT_EQ(run.card("naive")->flops_how,
            "callgrind on the -march=x86-64-v3 profiling build, not the build that ran");
  EXPECT_EQ(run.flops_method, "callgrind × an opcode table");
  // Another build's FP instructions say nothing of this one's mix: no ceiling from callgrind's count.
  EXPECT_FALSE(naive.mix_ceiling.has_value());
  EXPECT_NE(run.card("tuned-exp")->flops_how.find("a crafted loop"), std::string::npos);
}

TEST(Roofline, TheLimitForSeveralThreadsIsOneCoresTimesThreadsAtMostAllCores) {
  const auto limits = crafted_limits();
  EXPECT_EQ(limit_for(limits.fma_one_core, limits.fma_all_cores, 1), 100);
  EXPECT_EQ(limit_for(limits.fma_one_core, limits.fma_all_cores, 2), 180);
  EXPECT_EQ(limit_for(limits.bandwidth_one_core, limits.bandwidth_all_cores, 4), 30);
  EXPECT_FALSE(limit_for(std::nullopt, limits.fma_all_cores, 1).has_value());
}

TEST(Roofline, TheAnswerSaysTheHeadroomOfTheFastestTierAgainstItsMixCeiling) {
  const testing::TempDir dir;
  const report::Run run = crafted_run(dir, crafted_limits());
  const std::string line = headroom_line(analyse(run));
  EXPECT_EQ(line,
            "Headroom: **tuned-exp**, the fastest, reaches 54 % of the FMA peak (100 GFLOP/s, one core); its "
            "instruction mix caps it near 54 %, and at 100 % of that little is left.");
  const std::string page = testing::document_text(build({run}));
  EXPECT_NE(page.find(line), std::string::npos) << "the answer carries the line";
}

TEST(Roofline, AMemoryBoundFastestTierIsSaidBoundByMemory) {
  const testing::TempDir dir;
  // naive at 0.4 ns a node: 40 GB/s against one core's 50, its 1.56 FLOPs a byte below the ridge at 2.
  auto limits = crafted_limits();
  limits.bandwidth_one_core->best = 50;
  const report::Run run = crafted_run(dir, limits, 0.4);
  const std::string line = headroom_line(analyse(run));
  EXPECT_EQ(
      line,
      "Headroom: **naive**, the fastest, is bound by memory at 80 % of the bandwidth (one core): little is "
      "left without moving less data.");
}

TEST(Roofline, WithoutLimitsTheReportSaysWhyAndDrawsNoChart) {
  const testing::TempDir dir;
  const report::Run run = crafted_run(dir, std::nullopt);
  EXPECT_FALSE(run.limits.measured);
  const std::string line = headroom_line(analyse(run));
  EXPECT_NE(line.find("Headroom: the machine's limits were not measured"), std::string::npos) << line;
  const Document doc = build({run});
  const std::string page = testing::document_text(doc);
  EXPECT_EQ(page.find("Headroom"), std::string::npos) << "the answer keeps to what was measured";
  EXPECT_NE(page.find("The machine's limits were not measured"), std::string::npos) << page;
  EXPECT_NE(page.find("How far each tier is from the limits"), std::string::npos);
  EXPECT_EQ(page.find("roofline-1"), std::string::npos);
}

TEST(Roofline, TheSectionGivesTheLimitsWithTheirSpreadAndTheChartBothRoofsAndEachTier) {
  const testing::TempDir dir;
  const report::Run run = crafted_run(dir, crafted_limits());
  const Document doc = build({run});
  const std::string page = testing::document_text(doc);
  EXPECT_NE(
      page.find("Peak FMA rate, one core (1 thread): **100 GFLOP/s** (ladder probe, best of 3 runs: 57–100"),
      std::string::npos)
      << page;
  EXPECT_NE(page.find("Memory bandwidth, all cores (2 threads): **30.0 GB/s**"), std::string::npos);
  const auto charts = roofline_charts({analyse(run)});
  ASSERT_EQ(charts.size(), 1u);
  const std::string& svg = charts.front().svg;
  for (const char* series : {"roof, one core", "roof, 2 threads", "naive", "tuned-exp"})
    EXPECT_NE(svg.find("data-series=\"" + std::string(series) + "\""), std::string::npos) << series;
  EXPECT_NE(svg.find("drawn at the right edge"), std::string::npos);
}

// In headless Chromium: the roofline chart renders, its labels overlap nothing, the answer with its headroom
// line stays on the first screen and the tables fit.
TEST(ReportRooflineBrowser, TheRooflineChartPassesTheReadabilityChecks) {
  const testing::TempDir dir;
  const report::Run run = crafted_run(dir, crafted_limits());
  write_report({run}, (dir / "report").string());
  testing::expect_browser_check(
      dir / "report/report.html", dir / "report.png",
      testing::readability_checks +
          " --expect-chart roofline-1 --expect-text 'How far each tier is from the limits'"
          " --expect-text Headroom");
}

}  // namespace
}  // namespace ladder::report
