// The history page (reports/outputs/history_page.hpp) on a crafted history of synthetic series
// (history_series_support.hpp): its charts, its table of changes newest first, escaping, and headless
// Chromium where it is installed.
#include "history_page.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "command.hpp"
#include "history_series_support.hpp"
#include "svg_markup.hpp"

namespace ladder::report {
namespace {

using namespace history;
using namespace ladder::report::test;

// The page: a crafted history of two series, one with a step in time and one with an instruction change.
HistoryPageInput crafted_page() {
  HistoryPageInput input;
  HistorySeries slowed = synthetic(step_at(12, 1.10), 5);
  slowed.tier = "<script>alert('tier')</script>";
  slowed.runs[3].commit = "<img\"'&>x";                             // the page shows 7 characters of a commit
  for (auto& run : slowed.runs) run.instructions_per_node.reset();  // no counts: no right axis
  HistorySeries counted_series = synthetic(flat(2e-3), 6);
  counted_series.tier = "scalar";
  for (std::size_t i = 20; i < counted_series.runs.size(); ++i)
    counted_series.runs[i].instructions_per_node = 41;
  input.series = {slowed, counted_series};
  return input;
}

// The markup of one chart of the page, from its <svg> to its </svg>.
std::string chart_markup(const std::string& html, const std::string& id) {
  const auto start = html.find("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"" + id + "\"");
  if (start == std::string::npos) return {};
  return html.substr(start, html.find("</svg>", start) + 6 - start);
}

TEST(HistoryPage, DrawsEachSeriesAndListsChangesNewestFirst) {
  const std::string html = history_page_html(crafted_page());
  // One chart per series: the median, its min–max band, and the count on the right axis where runs have one.
  const std::string first = chart_markup(html, "history-1"), second = chart_markup(html, "history-2");
  ASSERT_FALSE(first.empty());
  ASSERT_FALSE(second.empty());
  EXPECT_EQ(html.find("<svg", html.find("</svg>", html.find(second))), std::string::npos)
      << "two charts only";
  for (const std::string* chart : {&first, &second}) {
    EXPECT_NE(chart->find("<g class=\"series\" data-series=\"median time\""), std::string::npos);
    EXPECT_NE(chart->find("<path class=\"band\" data-band=\"median time\""), std::string::npos);
    EXPECT_NE(chart->find("<title>min–max of each run</title>"), std::string::npos);
  }
  EXPECT_EQ(first.find("data-series=\"instructions per node\""), std::string::npos)
      << "no counts in series 1";
  EXPECT_EQ(first.find("class=\"axis y2\""), std::string::npos);
  EXPECT_NE(second.find("<g class=\"series\" data-series=\"instructions per node\""), std::string::npos);
  EXPECT_NE(second.find("<g class=\"axis y2\""), std::string::npos);
  EXPECT_NE(second.find("instructions per node</text>\n</g>"), std::string::npos) << "the right axis' title";
  // The x axis: commits in run order, as tick labels where they fit (the first run's always does).
  EXPECT_NE(first.find(">" + commit_of(0).substr(0, 7) + "</text>"), std::string::npos);
  // The changes: run 21 of the second series (instructions), then run 13 of the first (time).
  const auto table = html.find("Detected changes, newest first");
  ASSERT_NE(table, std::string::npos);
  const auto instructions_row = html.find("<td>" + commit_of(20).substr(0, 7) + "</td>", table);
  const auto time_row = html.find("<td>" + commit_of(12).substr(0, 7) + "</td>", table);
  ASSERT_NE(instructions_row, std::string::npos);
  ASSERT_NE(time_row, std::string::npos);
  EXPECT_LT(instructions_row, time_row) << "newest first";
  // Each change marked on its chart with the commit where it starts, its figures in the tooltip.
  EXPECT_NE(first.find("data-marker=\"" + commit_of(12).substr(0, 7) + "\" data-x=\"12\""),
            std::string::npos);
  EXPECT_NE(
      first.find("<title>Time from commit " + commit_of(12).substr(0, 7) + " (run 13): 1.01 ms → 1.11 ms"),
      std::string::npos);
  EXPECT_EQ(second.find("data-marker=\"" + commit_of(12).substr(0, 7) + "\""), std::string::npos);
  EXPECT_NE(second.find("data-marker=\"" + commit_of(20).substr(0, 7) + " instructions\" data-x=\"20\""),
            std::string::npos);
  EXPECT_NE(second.find("<title>Instructions per node from commit " + commit_of(20).substr(0, 7) +
                        " (run 21): 40 → 41, +2.5 % more instructions</title>"),
            std::string::npos);
  EXPECT_NE(html.find("<td>+2.5 % more instructions</td>"), std::string::npos) << "41 against 40 per node";
  EXPECT_NE(html.find("<td>1.01 ms → 1.11 ms</td>"), std::string::npos);
  EXPECT_NE(html.find(">scalar, n = 1e8, 2 threads</td>"), std::string::npos);
  // Each run's point carries its figures.
  const CellRun run = crafted_page().series[0].runs[12];
  EXPECT_NE(first.find("<title>run 13, commit " + commit_of(12).substr(0, 7) + ", " + run.time + ": median " +
                       format_seconds(run.median) + ", min " + format_seconds(run.min) + ", max " +
                       format_seconds(run.max) + ", 7 repetitions</title>"),
            std::string::npos);
  EXPECT_NE(second.find("<title>run 21, commit " + commit_of(20).substr(0, 7)), std::string::npos);
  EXPECT_NE(second.find(", 41 instructions per node</title>"), std::string::npos);
}

// The band follows each run's min and max: it spans, at each run's x, exactly the y range from the point
// of its max to that of its min on the same scale as the median's markers.
TEST(HistoryPage, TheBandSpansEachRunsMinToMax) {
  HistoryPageInput input;
  input.series = {synthetic(flat(2e-3), 7)};
  for (std::size_t i = 0; i < input.series[0].runs.size(); ++i) {  // a wide band, far from the medians
    CellRun& run = input.series[0].runs[i];
    run.median = (2 + 0.05 * static_cast<double>(i % 5)) * 1e-3;
    run.min = run.median * (i % 2 == 0 ? 0.8 : 0.9);
    run.max = run.median * (i % 3 == 0 ? 1.25 : 1.1);
  }
  const std::string chart = chart_markup(history_page_html(input), "history-1");
  const auto band = testing::svg_elements(chart, "<path class=\"band\"");
  ASSERT_EQ(band.size(), 1u);
  std::vector<std::pair<double, double>> vertices;
  std::istringstream path(band[0].at("d"));
  char command = 0;
  double x = 0, y = 0;
  while (path >> command && command != 'Z' && path >> x >> y) vertices.emplace_back(x, y);
  ASSERT_EQ(vertices.size(), 2 * input.series[0].runs.size()) << band[0].at("d");
  const auto points = testing::svg_elements(
      testing::svg_group(chart, "<g class=\"series\" data-series=\"median time\""), "class=\"point\"");
  ASSERT_EQ(points.size(), input.series[0].runs.size());
  // The scale from two medians (pixels are linear in seconds on this axis).
  const auto& runs = input.series[0].runs;
  std::size_t a = 0, b = 1;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (runs[i].median < runs[a].median) a = i;
    if (runs[i].median > runs[b].median) b = i;
  }
  const double ya = std::stod(points[a].at("data-cy")), yb = std::stod(points[b].at("data-cy"));
  const auto pixel = [&](double seconds) {
    return ya + (seconds - runs[a].median) / (runs[b].median - runs[a].median) * (yb - ya);
  };
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& high = vertices[i];
    const auto& low = vertices[vertices.size() - 1 - i];
    EXPECT_EQ(std::to_string(high.first), std::to_string(std::stod(points[i].at("data-cx")))) << i;
    EXPECT_EQ(low.first, high.first) << i;
    EXPECT_NEAR(high.second, pixel(runs[i].max), 0.5) << i;
    EXPECT_NEAR(low.second, pixel(runs[i].min), 0.5) << i;
  }
}

TEST(HistoryPage, EscapesHostileNamesAndHasNoScript) {
  const std::string html = history_page_html(crafted_page());
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(&#39;tier&#39;)&lt;/script&gt;"), std::string::npos)
      << html.substr(0, 3000);
  EXPECT_NE(html.find("&lt;img&quot;&#39;&amp;"), std::string::npos);
}

// The page in headless Chromium: no error, no request, its charts and series drawn, and the charts'
// readability checks (no two texts overlap, no label on a point, series told apart and drawn as declared,
// every point titled). The page and its screenshots are kept in the build tree (history-page/).
TEST(HistoryPage, WritesIndexHtmlThatOpensInChromium) {
  const std::filesystem::path out = LADDER_HISTORY_PAGE_DIR;
  std::filesystem::remove_all(out);
  write_history_page(crafted_page(), out.string());
  std::ifstream file(out / "index.html");
  const std::string written{std::istreambuf_iterator<char>(file), {}};
  EXPECT_EQ(written, history_page_html(crafted_page()));
  const auto browser = testing::run_command(
      "python3", std::string(LADDER_SOURCE_DIR) + "/tests/browser_check.py " + (out / "index.html").string() +
                     " --screenshot " + (out / "history.png").string() + " --screenshots " +
                     (out / "screenshots").string() +
                     " --check-labels --check-series --check-titles --timeout 150"
                     " --expect-chart history-1 --expect-chart history-2"
                     " --expect-series 'history-1:median time' --expect-series 'history-2:median time'"
                     " --expect-series 'history-2:instructions per node'"
                     " --expect-text 'Detected changes, newest first'");
  if (browser.exit_code == 77) GTEST_SKIP() << browser.output;
  EXPECT_EQ(browser.exit_code, 0) << browser.output;
  for (const char* check : {"PASS labels of chart history-1", "PASS labels of chart history-2",
                            "PASS series of chart history-2", "PASS titles of chart history-2"})
    EXPECT_NE(browser.output.find(check), std::string::npos) << check << "\n" << browser.output;
  if (const char* keep = std::getenv("LADDER_KEEP_SCREENSHOT"))
    std::filesystem::copy_file(out / "history.png", keep, std::filesystem::copy_options::overwrite_existing);
}

}  // namespace
}  // namespace ladder::report
