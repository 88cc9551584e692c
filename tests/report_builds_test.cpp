// Builds as a dimension of the matrix, as the reports read them: on a crafted run of three builds (the native
// GCC build at hand, Clang and GCC for x86-64-v2, tests/crafted_builds.hpp) the report analyses the build at
// hand alone, its answer names that build and gives each other build's own, "What the build costs" sets each
// tier's time in each build against the native GCC build with the vectorization it lost or gained, and a
// chart a build has a bar a tier; `ladder compare` never matches cells of two builds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "browser_check.hpp"
#include "choose.hpp"
#include "command.hpp"
#include "crafted_builds.hpp"
#include "document_text.hpp"
#include "renderers.hpp"
#include "report.hpp"
#include "sections.hpp"
#include "svg_test_support.hpp"

namespace ladder::report {
namespace {

using nlohmann::json;
using testing::CraftedBuild;
using testing::TempDir;
namespace fs = std::filesystem;

// The three builds, with naive vectorized by GCC for x86-64-v2 (four lanes), where the native build left it
// scalar: a build that gains what the reference lacks.
std::vector<CraftedBuild> builds_with_a_gain() {
  auto builds = testing::three_builds();
  builds[2].tiers[0].vectorization = "vectorized";
  builds[2].tiers[0].lanes = 4;
  return builds;
}

// The matrix lists GCC x86-64-v2 first: the build at hand is analysed all the same.
report::Run three_build_run(const TempDir& dir, std::vector<CraftedBuild> builds = builds_with_a_gain()) {
  const auto written = testing::write_results(
      dir / "builds",
      testing::crafted_builds_run("vm", builds, {"gcc-x86-64-v2", "gcc-native", "clang-x86-64-v2"}));
  return load_run(written.string());
}

const Block* find_block(const Document& doc, const std::function<bool(const Block&)>& wanted) {
  const Block* found = nullptr;
  visit_blocks(doc, [&](const Block& block) {
    if (!found && wanted(block)) found = &block;
  });
  return found;
}

const Table* named_table(const Document& doc, const std::string& name) {
  const Block* block = find_block(
      doc, [&](const Block& each) { return each.kind == Block::Kind::table && each.table.name == name; });
  return block ? &block->table : nullptr;
}

const std::vector<std::string>* row_of(const Table& table, const std::string& first) {
  for (const auto& row : table.rows)
    if (row.front() == first) return &row;
  return nullptr;
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++count;
  return count;
}

TEST(LoadRunBuilds, ARunOfSeveralBuildsIsAnalysedFromTheBuildAtHandAlone) {
  TempDir dir;
  const report::Run run = three_build_run(dir);
  EXPECT_EQ(run.build_id, "gcc-native");
  ASSERT_EQ(run.cells.size(), 8u);  // 4 tiers at 2 sizes
  for (const auto& cell : run.cells) EXPECT_EQ(cell.build, "gcc-native") << cell.name;
  ASSERT_EQ(run.other_builds.size(), 2u);
  EXPECT_EQ(run.other_builds[0].id, "gcc-x86-64-v2");  // the matrix's order
  EXPECT_EQ(run.other_builds[1].id, "clang-x86-64-v2");
  for (const auto& other : run.other_builds) {
    EXPECT_EQ(other.cells.size(), 8u);
    for (const auto& cell : other.cells) EXPECT_EQ(cell.build, other.id) << cell.name;
  }
  const Analysis analysis = analyse(run);
  EXPECT_EQ(analysis.n, 10000000);
  ASSERT_EQ(analysis.rows.size(), 4u);  // one a tier: the builds do not collide
  ASSERT_NE(analysis.recommended, nullptr);
  EXPECT_EQ(analysis.recommended->card->id, "xsimd");
  EXPECT_NEAR(analysis.recommended->cell->median(), 0.001, 1e-12);  // gcc-native's, not 2.5 or 2 ms
  EXPECT_NEAR(*analysis.recommended->speedup, 10.0, 1e-9);
  EXPECT_EQ(every_build_cells(run).size(), 24u);
  EXPECT_EQ(build_run(run, "clang-x86-64-v2").cells.front().build, "clang-x86-64-v2");
}

TEST(LoadRunBuilds, WithoutTheBuildAtHandTheMatrixsFirstBuildIsAnalysed) {
  TempDir dir;
  auto builds = builds_with_a_gain();
  builds[0].state = "reused: up to date, no recompilation (checked in 0.4 s)";
  const report::Run run = three_build_run(dir, builds);
  EXPECT_EQ(run.build_id, "gcc-x86-64-v2");
  for (const auto& cell : run.cells) EXPECT_EQ(cell.build, "gcc-x86-64-v2");
  EXPECT_NEAR(analyse(run).recommended->cell->median(), 0.0013, 1e-12);  // dispatch is its fastest
}

TEST(LoadRunBuilds, ARunOfOneBuildIsReadAndReportedAsBefore) {
  TempDir dir;
  json cells = json::array();
  testing::add_cell(cells, {"naive", 1, 1000000, 1, testing::around(0.01)});
  testing::add_cell(cells, {"xsimd", 7, 1000000, 1, testing::around(0.001)});
  const json cards = json::array({testing::crafted_card("naive", 1, {}, false, "hours", 20),
                                  testing::crafted_card("xsimd", 7, {"xsimd"}, false, "days", 90)});
  const report::Run run =
      load_run(testing::write_results(dir / "one", testing::crafted_results("vm", cards, cells)).string());
  EXPECT_TRUE(run.build_id.empty());
  EXPECT_TRUE(run.builds.empty());
  EXPECT_TRUE(run.other_builds.empty());
  EXPECT_EQ(run.cells.size(), 2u);
  const std::string text = testing::document_text(build({run}));
  EXPECT_EQ(text.find("What the build costs"), std::string::npos);
  EXPECT_EQ(text.find("Measured in build"), std::string::npos);
}

TEST(ReportBuilds, TheAnswerNamesItsBuildAndGivesEachOtherBuildsOwn) {
  TempDir dir;
  const Document doc = build({three_build_run(dir)});
  const Block* answer = find_block(
      doc, [](const Block& block) { return block.kind == Block::Kind::section && block.text == "answer"; });
  ASSERT_NE(answer, nullptr);
  const std::string said = testing::document_text(answer->blocks);
  EXPECT_NE(said.find("use **xsimd**"), std::string::npos) << said;
  EXPECT_NE(
      said.find("Measured in build **gcc-native** (GNU 12.2.0, -march=native); 2 other builds below in What "
                "the build costs"),
      std::string::npos)
      << said;
  // Each other build's own answer: the fastest tier of its cells (no deadline), against gcc-native's xsimd.
  EXPECT_NE(said.find("For a Clang x86-64-v2 binary (clang-x86-64-v2): use **dispatch**, 1.25 ms a call "
                      "(1.25× slower than gcc-native's pick, xsimd)."),
            std::string::npos)
      << said;
  EXPECT_NE(said.find("For a GCC x86-64-v2 binary (gcc-x86-64-v2): use **dispatch**, 1.3 ms a call (1.30× "
                      "slower than gcc-native's pick, xsimd)."),
            std::string::npos)
      << said;
  EXPECT_EQ(occurrences(said, " binary ("), 2u);
}

TEST(ReportBuilds, WhatTheBuildCostsSetsEachTiersTimeAgainstTheNativeGccBuild) {
  TempDir dir;
  const Document doc = build({three_build_run(dir)});
  const std::string text = testing::document_text(doc);
  EXPECT_NE(text.find("What the build costs"), std::string::npos);
  const Table* builds = named_table(doc, "builds");
  ASSERT_NE(builds, nullptr);
  ASSERT_EQ(builds->rows.size(), 3u);
  EXPECT_EQ(builds->rows[0][0], "gcc-native (analysed above)");
  const auto* clang = row_of(*builds, "clang-x86-64-v2");
  ASSERT_NE(clang, nullptr);
  EXPECT_EQ((*clang)[1], "Clang 16.0.6");
  EXPECT_EQ((*clang)[2], "x86-64-v2");
  EXPECT_EQ((*clang)[3], "-O3 -DNDEBUG -march=x86-64-v2");
  EXPECT_EQ((*clang)[4], "built: configure 12 s, compile 3:20");
  EXPECT_EQ((*clang)[5], "12 s");
  EXPECT_EQ((*clang)[6], "3:20") << "the build's time as its state line says it";
  EXPECT_EQ((*row_of(*builds, "gcc-x86-64-v2"))[5], "–");  // reused: nothing configured

  const Table* times_table = named_table(doc, "build-times");
  ASSERT_NE(times_table, nullptr);
  EXPECT_EQ(times_table->header,
            (std::vector<std::string>{"tier", "gcc-native (reference)", "gcc-x86-64-v2", "clang-x86-64-v2",
                                      "vectorization against gcc-native"}));
  ASSERT_EQ(times_table->rows.size(), 4u);
  EXPECT_EQ(
      *row_of(*times_table, "xsimd"),
      (std::vector<std::string>{"xsimd", "1 ms", "2.00× slower (2 ms)", "2.50× slower (2.5 ms)",
                                "gcc-x86-64-v2 lost: 8 lanes → 4 lanes (avx2); clang-x86-64-v2 lost: 8 lanes "
                                "→ 2 lanes (sse4_2)"}));
  EXPECT_EQ(*row_of(*times_table, "autovec"),
            (std::vector<std::string>{"autovec", "2 ms", "2.00× slower (4 ms)", "4.00× slower (8 ms)",
                                      "gcc-x86-64-v2 lost: 8 lanes → 4 lanes (avx2); clang-x86-64-v2 lost: "
                                      "vectorized → scalar (sse4_2)"}));
  EXPECT_EQ(*row_of(*times_table, "naive"),
            (std::vector<std::string>{"naive", "10 ms", "1.20× slower (12 ms)", "1.00× (10 ms)",
                                      "gcc-x86-64-v2 gained: scalar → vectorized (avx2)"}));
  EXPECT_EQ((*row_of(*times_table, "dispatch")).back(), "same in every build");
  EXPECT_NE(text.find("median at n = 1e7, 1 thread"), std::string::npos) << text;
  EXPECT_NE(text.find("gcc-native took avx512f, gcc-x86-64-v2 took avx512f, clang-x86-64-v2 took avx512f"),
            std::string::npos)
      << text;
}

TEST(ReportBuilds, WithoutANativeGccBuildTheAnalysedBuildIsTheReference) {
  TempDir dir;
  auto builds = builds_with_a_gain();
  builds.erase(builds.begin());  // no gcc-native: clang-x86-64-v2 is the first of the matrix with cells
  const auto written = testing::write_results(dir / "two", testing::crafted_builds_run("vm", builds));
  const Document doc = build({load_run(written.string())});
  const Table* times_table = named_table(doc, "build-times");
  ASSERT_NE(times_table, nullptr);
  EXPECT_EQ(times_table->header[1], "clang-x86-64-v2 (reference)");
  EXPECT_EQ((*row_of(*times_table, "xsimd"))[2], "0.80× (faster, 2 ms)");
}

TEST(ReportBuilds, EachBuildHasASpeedupChartWithABarForEachTier) {
  TempDir dir;
  const Document doc = build({three_build_run(dir)});
  for (const std::string id : {"gcc-native", "gcc-x86-64-v2", "clang-x86-64-v2"}) {
    const Block* block = find_block(doc, [&](const Block& each) {
      return each.kind == Block::Kind::charts &&
             std::any_of(each.charts.begin(), each.charts.end(),
                         [&](const Chart& chart) { return chart.id == "builds-1-" + id; });
    });
    ASSERT_NE(block, nullptr) << id;
    const Chart& chart = *std::find_if(block->charts.begin(), block->charts.end(),
                                       [&](const Chart& each) { return each.id == "builds-1-" + id; });
    EXPECT_NE(chart.svg.find("build " + id), std::string::npos) << "its title names the build";
    EXPECT_EQ(occurrences(chart.svg, "<g class=\"bar\""), 4u) << chart.svg;
    for (const std::string tier : {"naive", "autovec", "xsimd", "dispatch"})
      EXPECT_EQ(occurrences(chart.svg, "data-bar=\"" + tier + "\""), 1u) << id << " " << tier;
    // Checked as every chart is (svg_test.cpp, svg_labels_test.cpp): sound markup, no two texts overlapping,
    // every text within the viewBox.
    svg::test::expect_sound(chart.svg);
    const auto view_box = testing::svg_elements(chart.svg, "<svg").front().at("viewBox");
    double width = 0, height = 0;
    ASSERT_EQ(std::sscanf(view_box.c_str(), "0 0 %lf %lf", &width, &height), 2) << view_box;
    const auto texts = svg::test::text_boxes(chart.svg, "");
    ASSERT_GE(texts.size(), 8u) << "the title, the axis and the bars' labels";
    for (std::size_t i = 0; i < texts.size(); ++i) {
      EXPECT_TRUE(texts[i].left >= 0 && texts[i].right <= width && texts[i].top >= 0 &&
                  texts[i].bottom <= height)
          << texts[i].text << " outside the viewBox " << view_box;
      for (std::size_t j = i + 1; j < texts.size(); ++j)
        EXPECT_FALSE(svg::test::overlap(texts[i], texts[j])) << texts[i].text << " / " << texts[j].text;
    }
  }
  // Each against its own naive: xsimd is 10× in gcc-native, 4× in clang-x86-64-v2 (10 ms / 2.5 ms).
  const Block* charts = find_block(doc, [](const Block& each) {
    return each.kind == Block::Kind::charts && !each.charts.empty() &&
           each.charts[0].id.starts_with("builds-");
  });
  ASSERT_NE(charts, nullptr);
  ASSERT_EQ(charts->charts.size(), 3u);
  EXPECT_NE(charts->charts[2].svg.find("4.00×"), std::string::npos);
}

// In headless Chromium: the build charts render, their labels overlap nothing (--check-labels), the answer,
// with its line per build, stays on the first screen, the tables fit. (--check-series is left out: the
// crafted errors, all 1e-15, leave the error chart's h² line off its axis, which says nothing of builds.)
TEST(ReportBuildsBrowser, ARunOfSeveralBuildsPassesTheReadabilityChecksOfItsCharts) {
  TempDir dir;
  const report::Run run = three_build_run(dir);
  write_report({run}, (dir / "report").string());
  testing::expect_browser_check(
      dir / "report/report.html", dir / "report.png",
      testing::readability_checks +
          " --expect-chart builds-1-gcc-native --expect-chart builds-1-gcc-x86-64-v2"
          " --expect-chart builds-1-clang-x86-64-v2 --expect-text 'What the build costs'"
          " --expect-text 'For a Clang x86-64-v2 binary'");
}

// `ladder compare` of two runs: its printed lines.
std::string compared(const fs::path& old_run, const fs::path& new_run) {
  ::testing::internal::CaptureStdout();
  compare(old_run.string(), new_run.string(), CompareOptions{});
  return ::testing::internal::GetCapturedStdout();
}

TEST(CompareBuilds, CellsOfTwoBuildsAreNeverMatchedEvenUnderOneName) {
  TempDir dir;
  const auto builds = testing::three_builds();
  // One build a run, the cells named alike (without the build's suffix): only their builds differ.
  const auto alone = [&](const CraftedBuild& build, const std::string& name) {
    json document = testing::crafted_builds_run("vm", {build});
    for (auto& cell : document["cells"]) {
      std::string cell_name = cell["name"];
      cell["name"] = cell_name.substr(0, cell_name.find("/build:"));
    }
    return testing::write_results(dir / name, document);
  };
  const std::string output = compared(alone(builds[0], "gcc"), alone(builds[1], "clang"));
  EXPECT_NE(output.find("no cell was measured in both runs"), std::string::npos) << output;
}

TEST(CompareBuilds, EveryBuildsCellsAreComparedWithTheSameBuildsOnly) {
  TempDir dir;
  auto slower = testing::three_builds();
  slower[1].tiers[2].seconds *= 2;  // clang-x86-64-v2's xsimd, twice as slow
  const auto before =
      testing::write_results(dir / "old", testing::crafted_builds_run("vm", testing::three_builds()));
  const auto after = testing::write_results(dir / "new", testing::crafted_builds_run("vm", slower));
  const std::string output = compared(before, after);
  EXPECT_NE(output.find("24 cells in both"), std::string::npos) << output;  // 4 tiers, 2 sizes, 3 builds
  const auto line = [&](const std::string& name) {
    const auto at = output.find(name + " ");
    return at == std::string::npos ? std::string() : output.substr(at, output.find('\n', at) - at);
  };
  EXPECT_NE(line("xsimd/gauss/n:10000000/threads:1/build:clang-x86-64-v2").find("2.000"), std::string::npos)
      << output;
  EXPECT_NE(line("xsimd/gauss/n:10000000/threads:1/build:gcc-native").find("1.000"), std::string::npos)
      << output;
  EXPECT_NE(line("xsimd/gauss/n:10000000/threads:1/build:gcc-x86-64-v2").find("1.000"), std::string::npos)
      << output;
}

}  // namespace
}  // namespace ladder::report
