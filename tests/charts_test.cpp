// The report's charts (charts.cpp) on crafted results of two machines: a tier keeps one look in every chart
// and on every machine, each kind of chart shares its axes across the machines, and the Pareto chart labels
// every dot, the frontier's in bold, each point with its figures as a tooltip.
#include "charts.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "crafted_results.hpp"
#include "report.hpp"
#include "svg_markup.hpp"

namespace ladder::report {
namespace {

using nlohmann::json;
using testing::around;
namespace fs = std::filesystem;

using testing::svg_elements;
using testing::svg_group;

std::vector<std::string> texts(const std::string& markup, const std::string& attributes = "") {
  const std::regex text_element("<text[^>]*" + attributes + "[^>]*>([^<]*)</text>");
  std::vector<std::string> contents;
  for (std::sregex_iterator it(markup.begin(), markup.end(), text_element), end; it != end; ++it)
    contents.push_back((*it)[1]);
  return contents;
}

// Two machines: "first" runs naive, xsimd, openmp and tbb; "second" has no xsimd but a cuda tier, runs
// everything ten times faster and openmp and tbb on more threads.
fs::path machine(const fs::path& dir, const std::string& host, bool second) {
  using testing::crafted_card;
  json cards = json::array({crafted_card("naive", 0, {}, false, "minutes", 27),
                            crafted_card("openmp", 8, {"OpenMP"}, true, "hours", 40),
                            crafted_card("tbb", 9, {"xsimd 8.1", "oneTBB"}, true, "days", 80)});
  cards.push_back(second ? crafted_card("cuda", 12, {"CUDA"}, true, "weeks", 120)
                         : crafted_card("xsimd", 6, {"xsimd 8.1"}, false, "days", 60));
  const double scale = second ? 0.1 : 1;
  json benchmarks = json::array();
  for (const std::int64_t n : {1000000LL, 100000000LL}) {
    const double size = static_cast<double>(n) / 1e8;
    testing::add_cell(benchmarks, {"naive", 0, n, 1, around(10 * size * scale), 3e-12});
    testing::add_cell(benchmarks,
                      {second ? "cuda" : "xsimd", second ? 12 : 6, n, 1, around(size * scale), 2e-13});
    for (const int threads : {1, 2, 4, second ? 16 : 4}) {
      testing::add_cell(benchmarks, {"openmp", 8, n, threads, around(1.2 * size * scale / threads), 4e-12});
      testing::add_cell(benchmarks, {"tbb", 9, n, threads, around(1.1 * size * scale / threads), 5e-12});
    }
  }
  // Each median cell at the largest n sampled one call: four samples over the call, the second machine's
  // ten times shorter.
  for (auto& cell : benchmarks)
    if (cell.at("cell").value("n", std::int64_t{0}) == 100000000LL) {
      const double call =
          cell.at("measurement").at("aggregates").at("median").at("real_time").get<double>() * 1e-9;
      cell["measurement"]["memory"]["timeline"] = {{"seconds", {0.0, call / 3, 2 * call / 3, call}},
                                                   {"rss_bytes", {1e6, 2e6, 2e6, 1e6}},
                                                   {"cpu_seconds", {0.0, call / 3, 2 * call / 3, call}}};
    }
  return testing::write_results(dir / host, testing::crafted_results(host, cards, benchmarks));
}

class Charts : public ::testing::Test {
 protected:
  void SetUp() override {
    const fs::path dir = fs::path(::testing::TempDir()) / ("ladder-charts-" + std::to_string(::getpid()));
    runs = {load_run(machine(dir, "first", false).string()), load_run(machine(dir, "second", true).string())};
    for (const auto& run : runs) analyses.push_back(analyse(run));
  }
  std::vector<report::Run> runs;
  std::vector<Analysis> analyses;
};

std::string look_of(const std::string& svg, const std::string& series) {
  const auto found = svg_elements(svg, "<g class=\"series\" data-series=\"" + series + "\"");
  if (found.empty()) return "absent";
  return found[0].at("data-color") + " " + found[0].at("data-marker") + " " + found[0].at("data-dash");
}

TEST_F(Charts, ATierLooksTheSameInEveryChartOnEveryMachine) {
  const auto scaling = scaling_charts(analyses), efficiency = efficiency_charts(analyses);
  const auto memory = memory_charts(runs), error = error_charts(runs);
  ASSERT_EQ(scaling.size(), 2u);
  for (const std::string tier : {"openmp", "tbb"}) {
    const std::string look = look_of(scaling[0].svg, tier);
    EXPECT_NE(look, "absent") << tier;
    for (std::size_t machine = 0; machine < 2; ++machine) {
      EXPECT_EQ(look_of(scaling[machine].svg, tier), look) << tier << " on machine " << machine;
      EXPECT_EQ(look_of(efficiency[machine].svg, tier), look) << tier << " on machine " << machine;
      EXPECT_EQ(look_of(memory[machine].svg, tier), look) << tier << " on machine " << machine;
      EXPECT_EQ(look_of(error[machine].svg, tier), look) << tier << " on machine " << machine;
    }
  }
  EXPECT_NE(look_of(memory[0].svg, "openmp"), look_of(memory[0].svg, "tbb"));
  // Each machine's own tiers: cuda (second only) takes a slot after the first machine's, not xsimd's.
  EXPECT_NE(look_of(memory[1].svg, "cuda"), look_of(memory[0].svg, "xsimd"));
  for (const auto& chart : memory) {
    std::set<std::string> looks;
    for (const auto& g : svg_elements(chart.svg, "<g class=\"series\""))
      EXPECT_TRUE(looks.insert(g.at("data-color") + g.at("data-marker") + g.at("data-dash")).second)
          << chart.id;
  }
}

TEST_F(Charts, EachKindSharesItsAxesAcrossTheMachines) {
  for (const auto& charts : {speedup_charts(analyses), scaling_charts(analyses), efficiency_charts(analyses),
                             pareto_charts(analyses), memory_charts(runs), error_charts(runs),
                             timeline_charts(runs), cpu_timeline_charts(runs)}) {
    ASSERT_EQ(charts.size(), 2u);
    SCOPED_TRACE(charts[0].id);
    EXPECT_EQ(charts[0].id.substr(charts[0].id.size() - 2), "-1");
    EXPECT_EQ(charts[1].id.substr(charts[1].id.size() - 2), "-2");
    EXPECT_EQ(charts[0].svg.find(">no data<"), std::string::npos) << "each chart has points to place";
    int compared = 0;
    for (const std::string axis : {"<g class=\"axis x\"", "<g class=\"axis y\""}) {
      const std::string first = svg_group(charts[0].svg, axis);
      if (first.empty()) continue;  // a bar chart has no y axis
      EXPECT_EQ(texts(first), texts(svg_group(charts[1].svg, axis))) << axis;
      EXPECT_FALSE(texts(first).empty()) << axis;
      ++compared;
    }
    EXPECT_GE(compared, charts[0].id.starts_with("speedup") ? 1 : 2) << "axes compared";
  }
  // Apart, the first machine's times would span other decades than the second's.
  EXPECT_NE(texts(svg_group(speedup_chart(analyses[0], 0).svg, "<g class=\"axis x\"")),
            texts(svg_group(speedup_chart(analyses[1], 1).svg, "<g class=\"axis x\"")));
  EXPECT_NE(texts(svg_group(scaling_chart(analyses[0], 0).svg, "<g class=\"axis x\"")),
            texts(svg_group(scaling_chart(analyses[1], 1).svg, "<g class=\"axis x\"")));
}

TEST_F(Charts, TheParetoChartLabelsEveryDotAndEmphasisesTheFrontier) {
  const std::string svg = pareto_chart(analyses[0], 0).svg;
  std::set<std::string> labels, bold;
  for (const auto& label : texts(svg, "class=\"point-label\"")) labels.insert(label);
  for (const auto& label : texts(svg, "class=\"point-label\"[^>]*font-weight=\"bold\"")) bold.insert(label);
  std::set<std::string> tiers, frontier;
  for (const auto& row : analyses[0].rows) {
    tiers.insert(row.card->id);
    if (row.pareto) frontier.insert(row.card->id);
  }
  EXPECT_EQ(labels, tiers);
  EXPECT_EQ(bold, frontier);
  EXPECT_FALSE(frontier.empty());
  EXPECT_LT(frontier.size(), tiers.size()) << "the crafted set has tiers off the frontier";
  // Every point carries its figures as a tooltip.
  const auto points = svg_elements(svg, "class=\"point\"");
  EXPECT_EQ(points.size(), tiers.size());
  static const std::regex tooltip(
      "<title>tbb: [0-9.]+× naive, cost [0-9.]+; n = 1e8, 4 threads, [0-9.]+ ms, "
      "relative error 5e-12</title>");
  EXPECT_TRUE(std::regex_search(svg, tooltip)) << svg;
}

TEST_F(Charts, EveryPointOfEveryChartHasATooltip) {
  for (const auto& charts : {scaling_charts(analyses), efficiency_charts(analyses), pareto_charts(analyses),
                             memory_charts(runs), error_charts(runs)})
    for (const auto& chart : charts) {
      std::size_t points = 0;
      for (auto at = chart.svg.find("class=\"point\""); at != std::string::npos;
           at = chart.svg.find("class=\"point\"", at + 1)) {
        ++points;
        const auto closes = chart.svg.find('>', at);
        EXPECT_EQ(chart.svg.compare(closes + 1, 7, "<title>"), 0) << chart.id;
      }
      EXPECT_GT(points, 0u) << chart.id;
    }
  const std::string memory = memory_charts(runs)[0].svg;
  EXPECT_NE(memory.find("<title>tbb at n = 1e6, 4 threads: "), std::string::npos) << memory;
}

// A tier that speeds up 3.111× on 2 threads (the cache's gift): the scaling chart's y axis stops at it, but
// its ticks stay powers of two, read alike — no end tick labelled "3.111".
TEST(ChartTicks, AMeasuredTopSpeedupGetsNoTickOfItsOwn) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("ladder-ticks-" + std::to_string(::getpid()));
  json benchmarks = json::array();
  testing::add_cell(benchmarks, {"naive", 0, 1000000, 1, around(1.0), 3e-12});
  testing::add_cell(benchmarks, {"openmp", 8, 1000000, 1, around(0.5), 4e-12});
  testing::add_cell(benchmarks, {"openmp", 8, 1000000, 2, around(0.5 / 3.111), 4e-12});
  const json cards = json::array({testing::crafted_card("naive", 0, {}, false, "minutes", 27),
                                  testing::crafted_card("openmp", 8, {"OpenMP"}, true, "hours", 40)});
  const report::Run run =
      load_run(testing::write_results(dir / "superlinear", testing::crafted_results("vm", cards, benchmarks))
                   .string());
  const std::string svg = scaling_chart(analyse(run), 0).svg;
  const auto ticks = texts(svg_group(svg, "<g class=\"axis y\""));
  ASSERT_FALSE(ticks.empty()) << svg;
  EXPECT_EQ(svg.find(">3.111<"), std::string::npos) << svg;
  int numbers = 0;
  for (const auto& tick : ticks)
    if (!tick.empty() && std::isdigit(static_cast<unsigned char>(tick[0])) != 0) {
      ++numbers;
      const double value = std::stod(tick);
      EXPECT_EQ(std::exp2(std::round(std::log2(value))), value) << "a power of two: " << tick;
    }
  EXPECT_GE(numbers, 2) << svg;
}

}  // namespace
}  // namespace ladder::report
