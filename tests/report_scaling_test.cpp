// The report on many-core machines, on crafted results: the topology line, the scaling charts' boundary
// marks, the efficiency at every step and where each tier stops gaining, the width "Which tier?" answers
// for (and an answer that differs between an 8-core and a 64-core machine), each cell's placement, and an
// older file without topology or placement that says so.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "browser_check.hpp"
#include "charts.hpp"
#include "choose.hpp"
#include "command.hpp"
#include "crafted_results.hpp"
#include "document_text.hpp"
#include "report.hpp"
#include "scaling.hpp"
#include "sections.hpp"
#include "svg_markup.hpp"

namespace ladder::report {
namespace {

using nlohmann::json;
using testing::around;
using testing::TempDir;
namespace fs = std::filesystem;

constexpr std::int64_t n = 100000000;

// Seconds a call at n. naive 10 s and xsimd 1 s on one thread; two parallel tiers over the thread counts:
// openmp (cost 4.6) scales to 32 threads, then flattens (64) and loses on SMT siblings (128); tbb (cost
// 7.4) keeps scaling to 128. Costs come from maintenance_cost on the cards below (naive 2.0, xsimd 5.6).
//   threads    1     2     4      8      16     32     64     128
//   openmp    1.2   0.6   0.31   0.16   0.082  0.043  0.042  0.045
//   tbb       1.1   0.56  0.285  0.145  0.075  0.038  0.0195 0.015
const std::vector<int> counts = {1, 2, 4, 8, 16, 32, 64, 128};
const std::map<std::string, std::vector<double>> parallel_seconds = {
    {"openmp", {1.2, 0.6, 0.31, 0.16, 0.082, 0.043, 0.042, 0.045}},
    {"tbb", {1.1, 0.56, 0.285, 0.145, 0.075, 0.038, 0.0195, 0.015}}};

json cards() {
  using testing::crafted_card;
  return json::array({crafted_card("naive", 0, {}, false, "minutes", 27),
                      crafted_card("xsimd", 6, {"xsimd 8.1"}, false, "days", 60),
                      crafted_card("openmp", 8, {"OpenMP"}, true, "hours", 40),
                      crafted_card("tbb", 9, {"xsimd 8.1", "oneTBB"}, true, "days", 80)});
}

// The placement of `threads` compact threads on 2 sockets × 32 cores × 2 threads (L3 groups of 8 cores,
// one NUMA node a socket), worked out by hand.
json big_placement(int threads) {
  const int cores = std::min(threads, 64);
  const int sockets = (cores + 31) / 32;
  return testing::crafted_placement(threads, cores, (cores + 7) / 8, sockets, sockets, threads > 64);
}

enum class Shape { none, eight_cores, two_sockets };  // none: an older file, no topology or placement

// One machine's results: the parallel tiers at each of `widths` (the first counts of the table above), on
// a machine of `shape`, whose cells carry their placement.
fs::path machine(const fs::path& dir, const std::string& host, std::size_t widths, Shape shape) {
  json benchmarks = json::array();
  testing::add_cell(benchmarks, {"naive", 0, n, 1, around(10)});
  testing::add_cell(benchmarks, {"xsimd", 6, n, 1, around(1)});
  for (const auto& [tier, seconds] : parallel_seconds)
    for (std::size_t i = 0; i < widths; ++i) {
      testing::CraftedCell cell{tier, tier == "tbb" ? 9 : 8, n, counts[i], around(seconds[i])};
      if (shape == Shape::two_sockets) cell.placement = big_placement(counts[i]);
      if (shape == Shape::eight_cores)
        cell.placement = testing::crafted_placement(counts[i], counts[i], 1, 1, 1, false);
      testing::add_cell(benchmarks, cell);
    }
  const json topology = shape == Shape::two_sockets   ? testing::crafted_topology(2, 1, 4, 8, 2)
                        : shape == Shape::eight_cores ? testing::crafted_topology(1, 1, 1, 8, 1)
                                                      : json(nullptr);
  return testing::write_results(dir, testing::crafted_results(host, cards(), benchmarks, 3, topology));
}

fs::path big(const fs::path& dir) { return machine(dir, "big", counts.size(), Shape::two_sockets); }
fs::path small(const fs::path& dir) { return machine(dir, "small", 4, Shape::eight_cores); }
fs::path old(const fs::path& dir) { return machine(dir, "old", 4, Shape::none); }

using testing::svg_elements;

// The markup of a series' group in a chart.
std::string series_group(const std::string& svg, const std::string& name) {
  const auto start = svg.find("<g class=\"series\" data-series=\"" + name + "\"");
  if (start == std::string::npos) return {};
  return svg.substr(start, svg.find("</g>", start) - start);
}

// The x pixel of each point of a series, by its thread count (the points are in ascending count).
std::map<int, std::string> point_xs(const std::string& svg, const std::string& name,
                                    const std::vector<int>& at_counts) {
  std::map<int, std::string> xs;
  const auto points = svg_elements(series_group(svg, name), "class=\"point\"");
  for (std::size_t i = 0; i < points.size() && i < at_counts.size(); ++i)
    xs[at_counts[i]] = points[i].at("data-cx");
  return xs;
}

// The table that follows the heading that starts with `title` (in its details too).
const Table* table_after(const Document& doc, const std::string& title) {
  bool found = false;
  const Table* table = nullptr;
  visit_blocks(doc, [&](const Block& block) {
    if (block.kind == Block::Kind::heading) found = block.text.rfind(title, 0) == 0;
    if (found && !table && block.kind == Block::Kind::table) table = &block.table;
  });
  return table;
}

const auto all_text = testing::document_text;

TEST(ReportTopology, OneLinePerDistinctMachineAndNotRecordedForAnOlderFile) {
  TempDir dir;
  const std::vector<ladder::report::Run> runs = {
      load_run(big(dir / "big").string()), load_run(big(dir / "big2").string()),
      load_run(small(dir / "small").string()), load_run(old(dir / "old").string())};
  const Document doc = build(runs);
  std::vector<std::string> lines;
  for (std::size_t i = 0; i + 1 < doc.size(); ++i)
    if (doc[i].text.starts_with("Topology")) lines = doc[i + 1].items;
  const std::vector<std::string> expected = {
      "**big**: 2 sockets × 32 cores × 2 threads, 2 NUMA nodes, 8 L3 groups",
      "**small**: 1 socket, 8 cores, 1 NUMA node, 1 L3 group",
      "**old**: topology not recorded (" + (dir / "old/results.json").string() +
          " was written before Ladder read it)"};
  EXPECT_EQ(lines, expected);
}

TEST(ScalingCharts, MarkTheL3NumaSocketAndSmtBoundariesAtTheirThreadCounts) {
  TempDir dir;
  const ladder::report::Run run = load_run(big(dir / "big").string());
  const Analysis analysis = analyse(run);
  for (const Chart& chart : {scaling_chart(analysis, 0), efficiency_chart(analysis, 0)}) {
    SCOPED_TRACE(chart.id);
    std::map<std::string, std::string> markers;  // data-x -> label
    for (const auto& marker : svg_elements(chart.svg, "<g class=\"marker\""))
      markers[marker.at("data-x")] = marker.at("data-marker");
    const std::map<std::string, std::string> expected = {{"8", "L3 group"},
                                                         {"32", "NUMA node · socket"},
                                                         {"64", "all cores (SMT past)"},
                                                         {"128", "all hardware threads"}};
    EXPECT_EQ(markers, expected);
    // Each line stands where the tiers' points at that count stand.
    const auto xs = point_xs(chart.svg, "openmp", counts);
    for (const auto& [count, label] : expected) {
      const auto at = chart.svg.find("data-x=\"" + count + "\"");
      ASSERT_NE(at, std::string::npos);
      const auto line = svg_elements(chart.svg.substr(at), "<line ").at(0);
      EXPECT_EQ(line.at("x1"), xs.at(std::stoi(count))) << label;
      EXPECT_EQ(line.at("x2"), line.at("x1")) << label << ": vertical";
    }
    // A log₂ thread axis: a tick at every doubling.
    const auto axis_start = chart.svg.find("<g class=\"axis x\"");
    const std::string axis = chart.svg.substr(axis_start, chart.svg.find("</g>", axis_start) - axis_start);
    for (const int count : counts)
      EXPECT_NE(axis.find(">" + std::to_string(count) + "</text>"), std::string::npos) << count;
    EXPECT_NE(axis.find("log₂"), std::string::npos);
  }
}

// The AMD-like fixture: one socket of 4 NUMA nodes × 24 cores, L3 groups of 8, SMT2. Its one socket is the
// whole machine: no socket mark; and without SMT no SMT mark, all cores being all hardware threads.
TEST(ScalingCharts, BoundariesOfAnAmdLikeMachineWithAndWithoutSmt) {
  for (const int smt : {2, 1}) {
    const Topology topology =
        Topology::from_json(JsonReader(testing::crafted_topology(1, 4, 3, 8, smt), "topology"));
    std::vector<std::pair<int, std::string>> marks;
    for (const auto& boundary : boundaries(topology)) marks.push_back({boundary.threads, boundary.label});
    const std::vector<std::pair<int, std::string>> expected =
        smt == 2
            ? std::vector<std::pair<int, std::string>>{{8, "L3 group"},
                                                       {24, "NUMA node"},
                                                       {96, "all cores (SMT past)"},
                                                       {192, "all hardware threads"}}
            : std::vector<std::pair<int, std::string>>{{8, "L3 group"}, {24, "NUMA node"}, {96, "all cores"}};
    EXPECT_EQ(marks, expected) << "SMT " << smt;
  }
}

TEST(Scaling, EfficiencyAtEveryStepAndWhereEachTierStopsGaining) {
  TempDir dir;
  const ladder::report::Run run = load_run(big(dir / "big").string());
  const auto lines = thread_scaling(run, n);
  ASSERT_EQ(lines.size(), 2u);
  for (const auto& line : lines) {
    SCOPED_TRACE(line.tier);
    const auto& seconds = parallel_seconds.at(line.tier);
    ASSERT_EQ(line.steps.size(), counts.size());
    for (std::size_t i = 0; i < counts.size(); ++i) {
      EXPECT_EQ(line.steps[i].count, counts[i]);
      EXPECT_NEAR(line.steps[i].speedup, seconds[0] / seconds[i], 1e-9);
      EXPECT_NEAR(line.steps[i].efficiency, seconds[0] / seconds[i] / counts[i], 1e-9);
    }
  }
  // openmp: 27.9× on 32, 28.6× on 64 (a rise of 2.5 % of the ideal 27.9×), slower on 128.
  EXPECT_EQ(lines[0].tier, "openmp");
  EXPECT_EQ(lines[0].stops_gaining, 32);
  EXPECT_EQ(lines[0].verdict, "stops gaining at 32 threads");
  // tbb: 56.4× on 64, 73.3× on 128: a rise of 30 % of the ideal 56.4×, beyond the repetitions' spread.
  EXPECT_EQ(lines[1].tier, "tbb");
  EXPECT_EQ(lines[1].stops_gaining, std::nullopt);
  EXPECT_EQ(lines[1].verdict, "still gaining at 128 threads (the most measured)");

  // The charts: a diamond on openmp's point at 32 threads, none on tbb; each point's tooltip carries its
  // efficiency.
  const Analysis analysis = analyse(run);
  for (const Chart& chart : {scaling_chart(analysis, 0), efficiency_chart(analysis, 0)}) {
    SCOPED_TRACE(chart.id);
    const auto marks = svg_elements(series_group(chart.svg, "openmp"), "<rect class=\"mark\"");
    ASSERT_EQ(marks.size(), 1u);
    EXPECT_EQ(marks[0].at("data-mark"), "openmp stops gaining at 32 threads");
    const std::string centre = point_xs(chart.svg, "openmp", counts).at(32);
    EXPECT_TRUE(marks[0].at("transform").starts_with("rotate(45 " + centre + " "))
        << marks[0].at("transform");
    EXPECT_TRUE(svg_elements(series_group(chart.svg, "tbb"), "<rect class=\"mark\"").empty());
    EXPECT_NE(chart.svg.find("openmp at n = 1e8, 8 threads: 160 ms, 7.50× over 1, 94 % parallel efficiency"),
              std::string::npos);
  }
  // The efficiency chart draws 100 × efficiency: openmp's point at 8 threads sits at 93.75 %, below tbb's
  // at 94.8 % and above its own at 64 threads (44.6 %).
  const std::string efficiency = efficiency_chart(analysis, 0).svg;
  const auto openmp = svg_elements(series_group(efficiency, "openmp"), "class=\"point\"");
  const auto tbb = svg_elements(series_group(efficiency, "tbb"), "class=\"point\"");
  ASSERT_EQ(openmp.size(), counts.size());
  EXPECT_GT(std::stod(openmp[3].at("data-cy")), std::stod(tbb[3].at("data-cy"))) << "y grows upwards";
  EXPECT_LT(std::stod(openmp[3].at("data-cy")), std::stod(openmp[6].at("data-cy")));

  // The report's scaling table: each count's speedup and efficiency, the verdicts, and the rule.
  const Document doc = build({run});
  const Table* table = table_after(doc, "Thread scaling");
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->header.back(), "where it stops gaining");
  ASSERT_GE(table->rows.size(), 2u);
  EXPECT_EQ(table->rows[0].at(4), "7.50× · 94 %");  // openmp at 8 threads
  EXPECT_EQ(table->rows[0].at(6), "28× · 87 % ◇");  // at 32: where it stops
  EXPECT_EQ(table->rows[0].back(), "stops gaining at 32 threads");
  EXPECT_EQ(table->rows[1].at(8), "73× · 57 %");  // tbb at 128
  EXPECT_NE(all_text(doc).find(stop_rule()), std::string::npos) << "the rule is stated beside the table";
}

// Crafted lines in memory, each step's figures chosen for the rule: a step gains with 25 % of the ideal
// rise and its slowest repetition faster than the count before's fastest.
ladder::report::Run line_of(const std::string& tier,
                            const std::vector<std::pair<int, std::vector<double>>>& steps) {
  ladder::report::Run run;
  Card card;
  card.id = tier;
  card.parallel = true;
  run.cards.push_back(card);
  for (const auto& [threads, repetitions] : steps) {
    run.cells.push_back(testing::measured_record({tier, 0, n, threads, repetitions}));
  }
  return run;
}

TEST(Scaling, AStepGainsFromAQuarterOfTheIdealRiseBeyondTheRepetitionsSpread) {
  // From 4 s to 2 s on 2 threads (ideal), then 4 threads: 2 / 1.25^-1 … a rise of 26 % of the ideal
  // (2× → 2.52×) gains, of 24 % (2× → 2.48×) does not.
  const auto steps = [](double at_four) {
    return line_of("t", {{1, {4, 4, 4}}, {2, {2, 2, 2}}, {4, {at_four, at_four, at_four}}});
  };
  const auto above = thread_scaling(steps(4 / 2.52), n);
  ASSERT_EQ(above.size(), 1u);
  EXPECT_EQ(above[0].steps[2].step, ScalingStep::Step::gained);
  EXPECT_NEAR(*above[0].steps[2].gain_of_ideal, 0.26, 1e-9);
  EXPECT_EQ(above[0].verdict, "still gaining at 4 threads (the most measured)");
  const auto below = thread_scaling(steps(4 / 2.48), n);
  EXPECT_EQ(below[0].steps[2].step, ScalingStep::Step::flat);
  // One count past the last gain is too few to claim a knee.
  EXPECT_EQ(below[0].stops_gaining, std::nullopt);
  EXPECT_EQ(below[0].verdict, "may stop gaining at 2 threads: only 4 was measured past it, too few to tell");

  // Medians that rise by half the ideal, with repetitions that overlap: unclear, not a gain, and no knee.
  const auto noisy = thread_scaling(
      line_of("t", {{1, {4, 4, 4}}, {2, {2, 2, 2}}, {4, {1.0, 1.4, 2.1}}, {8, {1.3, 1.4, 1.5}}}), n);
  EXPECT_EQ(noisy[0].steps[2].step, ScalingStep::Step::unclear);
  EXPECT_EQ(noisy[0].stops_gaining, std::nullopt);
  EXPECT_EQ(noisy[0].verdict, "unclear past 2 threads: the rise at 4 is within the repetitions' spread");

  // Two flat counts past the last gain: a knee.
  const auto knee =
      thread_scaling(line_of("t", {{1, {4, 4, 4}}, {2, {2, 2, 2}}, {4, {1.9, 1.9, 1.9}}, {8, {2, 2, 2}}}), n);
  EXPECT_EQ(knee[0].stops_gaining, 2);
  EXPECT_EQ(knee[0].verdict, "stops gaining at 2 threads");
}

TEST(WhichTier, AnswersForTheMachinesWidthAndItsFastestTierThere) {
  TempDir dir;
  const ladder::report::Run eight = load_run(small(dir / "small").string());
  const ladder::report::Run sixty_four = load_run(big(dir / "big").string());
  const Analysis on_eight = analyse(eight);
  const Analysis on_sixty_four = analyse(sixty_four);
  // The answer for one call is the fastest tier at the width (decide()'s rule, as `ladder pick`'s). 8 cores:
  // tbb (0.145 s) before openmp (0.16 s), with openmp the runner-up that costs less. 64 cores × 2: tbb
  // (0.015 s) leaves openmp (0.042 s at best) far behind.
  ASSERT_NE(on_eight.recommended, nullptr);
  ASSERT_NE(on_sixty_four.recommended, nullptr);
  EXPECT_EQ(on_eight.recommended->card->id, "tbb");
  ASSERT_NE(on_eight.cheaper, nullptr);
  EXPECT_EQ(on_eight.cheaper->card->id, "openmp");
  EXPECT_EQ(on_sixty_four.recommended->card->id, "tbb");
  EXPECT_EQ(on_eight.width, 8);
  EXPECT_EQ(on_sixty_four.width, 128);
  EXPECT_EQ(width_text(on_eight),
            "8 threads, the widest measured here: all 8 hardware threads of this machine (1 socket, 8 cores, "
            "1 NUMA node, 1 L3 group)");
  EXPECT_EQ(width_text(on_sixty_four),
            "128 threads, the widest measured here: all 128 hardware threads of this machine (2 sockets × 32 "
            "cores × 2 threads, 2 NUMA nodes, 8 L3 groups)");
  // The same 64-core machine, asked for 8 threads, answers as the 8-core one.
  const Analysis sixty_four_at_eight = analyse(sixty_four, std::nullopt, false, 8);
  EXPECT_EQ(sixty_four_at_eight.recommended->card->id, "tbb");
  EXPECT_EQ(sixty_four_at_eight.width, 8);
  EXPECT_TRUE(width_text(sixty_four_at_eight).starts_with("8 threads (as asked; 128 threads were measured)"));

  // The report says all of it: the width in the answer, openmp's best at fewer threads, and the answer
  // on each share of the machine.
  const std::string text = all_text(build({sixty_four}));
  for (const std::string expected :
       {"use **tbb**", "answered for 128 threads, the widest measured here",
        "openmp is fastest on 64 threads, fewer than the 128 this answer is for; its scaling: stops gaining "
        "at 32 threads.",
        "The recommendation on a share of this machine (each width measured): 1 thread: **xsimd**; 2–128 "
        "threads: **tbb**."})
    EXPECT_NE(text.find(expected), std::string::npos) << expected << "\n" << text;
  EXPECT_NE(all_text(build({eight})).find("answered for 8 threads, the widest measured here"),
            std::string::npos);
}

TEST(WhichTier, SaysWhenTheRunMeasuredLessThanTheMachinesWidth) {
  TempDir dir;
  // The 2-socket machine measured up to 8 threads, then up to its 64 physical cores only.
  const ladder::report::Run eight = load_run(machine(dir / "eight", "big", 4, Shape::two_sockets).string());
  EXPECT_EQ(
      width_text(analyse(eight)),
      "8 threads, the widest measured here; this machine has 64 cores, 128 hardware threads (2 sockets × "
      "32 cores × 2 threads, 2 NUMA nodes, 8 L3 groups)");
  const ladder::report::Run cores = load_run(machine(dir / "cores", "big", 7, Shape::two_sockets).string());
  EXPECT_EQ(
      width_text(analyse(cores)),
      "64 threads, the widest measured here: all 64 physical cores of this machine, not its 128 hardware "
      "threads (2 sockets × 32 cores × 2 threads, 2 NUMA nodes, 8 L3 groups)");
}

TEST(WhichTier, PickSaysTheWidthItAnsweredForAndABestOnFewerThreads) {
  TempDir dir;
  const fs::path run = big(dir / "big");
  ::testing::internal::CaptureStdout();
  PickConstraints cheap;
  cheap.max_cost = 5;
  EXPECT_EQ(pick(run.string(), cheap), 0);
  const std::string cheap_output = ::testing::internal::GetCapturedStdout();
  EXPECT_NE(cheap_output.find("answered for: 128 threads, the widest measured here"), std::string::npos)
      << cheap_output;
  EXPECT_NE(cheap_output.find("pick: openmp (64 threads)"), std::string::npos) << cheap_output;
  EXPECT_NE(cheap_output.find("note: openmp is fastest on 64 threads, fewer than the 128 this answer is for"),
            std::string::npos)
      << cheap_output;

  ::testing::internal::CaptureStdout();
  PickConstraints narrow;
  narrow.threads = 16;
  EXPECT_EQ(pick(run.string(), narrow), 0);
  const std::string narrow_output = ::testing::internal::GetCapturedStdout();
  EXPECT_NE(narrow_output.find("answered for: 16 threads (as asked; 128 threads were measured)"),
            std::string::npos)
      << narrow_output;
  EXPECT_NE(narrow_output.find("pick: tbb (16 threads)"), std::string::npos) << narrow_output;
}

TEST(EveryCell, SaysWhetherItsPlacementCrossedANumaNode) {
  TempDir dir;
  const Document doc = build({load_run(big(dir / "big").string()), load_run(old(dir / "old").string())});
  const Table* cells = table_after(doc, "Every cell");
  ASSERT_NE(cells, nullptr);
  const auto column = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(cells->header.begin(), cells->header.end(), name) -
                                    cells->header.begin());
  };
  std::map<std::string, std::string> placement;  // "machine tier threads" -> text
  for (const auto& row : cells->rows)
    placement[row.at(column("machine")) + " " + row.at(column("tier")) + " " + row.at(column("threads"))] =
        row.at(column("placement"));
  EXPECT_EQ(placement["big openmp 32"], "1 NUMA node: 32 cores, 4 L3 groups, 1 socket");
  EXPECT_EQ(placement["big openmp 64"], "crosses NUMA: 2 nodes; 64 cores, 8 L3 groups, 2 sockets");
  EXPECT_EQ(placement["big tbb 128"], "crosses NUMA: 2 nodes; 64 cores, 8 L3 groups, 2 sockets; SMT shared");
  EXPECT_EQ(placement["big naive 1"], "not recorded") << "a cell the crafted file placed nowhere";
  EXPECT_EQ(placement["old tbb 8"], "not recorded");
}

TEST(OlderResults, WithoutTopologyTheChartsDrawNoBoundaryAndSaySo) {
  TempDir dir;
  const ladder::report::Run run = load_run(old(dir / "old").string());
  EXPECT_FALSE(run.topology.has_value());
  const Analysis analysis = analyse(run);
  for (const Chart& chart : {scaling_chart(analysis, 0), efficiency_chart(analysis, 0)}) {
    EXPECT_EQ(chart.svg.find("class=\"marker\""), std::string::npos) << chart.id;
    EXPECT_NE(chart.svg.find("Topology not recorded in this results file"), std::string::npos) << chart.id;
  }
  EXPECT_EQ(width_text(analysis),
            "8 threads, the widest measured here; the machine reported 2 logical CPUs (its topology was not "
            "recorded)");
  EXPECT_NE(all_text(build({run})).find("This results file did not record the topology"), std::string::npos);
}

// The charts as files: a real XML parser accepts them, and the whole report opens in headless Chromium
// with its scaling charts drawn and nothing fetched (tests/browser_check.py), where those are installed.
TEST(ScalingCharts, AreWellFormedXml) {
  if (std::system("command -v xmllint >/dev/null 2>&1") != 0) GTEST_SKIP() << "xmllint is not installed";
  TempDir dir;
  const ladder::report::Run run = load_run(big(dir / "big").string());
  const Analysis analysis = analyse(run);
  for (const Chart& chart : {scaling_chart(analysis, 0), efficiency_chart(analysis, 0)}) {
    const fs::path path = dir / (chart.id + ".svg");
    std::ofstream(path) << chart.svg;
    EXPECT_EQ(std::system(("xmllint --noout '" + path.string() + "'").c_str()), 0) << chart.id;
  }
}

TEST(ScalingCharts, RenderInAHeadlessBrowser) {
  TempDir dir;
  write_report({load_run(big(dir / "big").string())}, (dir / "report").string());
  testing::expect_browser_check(
      dir / "report/report.html", dir / "report/report.png",
      "--expect-chart scaling-1 --expect-chart efficiency-1 --expect-series scaling-1:openmp"
      " --expect-series scaling-1:tbb --expect-series efficiency-1:openmp"
      " --expect-series 'efficiency-1:ideal (100 %)' --expect-text 'stops gaining at 32 threads'");
}

}  // namespace
}  // namespace ladder::report
