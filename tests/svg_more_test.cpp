// The reports' SVG charts: bands, the right axis, bar charts, and well-formedness (the hand check and
// xmllint).
#include <gtest/gtest.h>

#include "svg_test_support.hpp"

namespace ladder::svg {
namespace {

using namespace ladder::svg::test;

// A path's vertices (M and L commands; Z starts a new piece), as pieces of (x, y).
std::vector<std::vector<std::pair<double, double>>> path_pieces(const std::string& d) {
  std::vector<std::vector<std::pair<double, double>>> pieces(1);
  static const std::regex command(R"(([MLZ])\s*([-0-9.]*)\s*([-0-9.]*))");
  for (std::sregex_iterator it(d.begin(), d.end(), command), end; it != end; ++it) {
    if ((*it)[1] == "Z") {
      pieces.emplace_back();
      continue;
    }
    pieces.back().emplace_back(std::stod((*it)[2]), std::stod((*it)[3]));
  }
  if (pieces.back().empty()) pieces.pop_back();
  return pieces;
}

// A band from low to high around a line: one path, outside the series' group, in its colour, along the
// highs and back along the lows at each point's x, every vertex in the plot; a value it cannot show breaks
// it in two, with a note.
TEST(SvgBands, ABandFollowsItsLowsAndHighsWithinThePlot) {
  Plot chart{
      .id = "band", .title = "Band", .x = {.label = "run"}, .y = {.label = "ms", .min = 0.0, .max = 10.0}};
  Series median{.name = "median", .color = "#0072b2"};
  for (int i = 0; i < 6; ++i) {
    const double y = 3 + i % 3;
    median.points.push_back({.x = 1.0 * i, .y = y});
    median.band.push_back({.x = 1.0 * i, .low = y - 1, .high = y + 0.5 * (i + 1)});
  }
  chart.series = {median, series_of("other", {{0, 1}, {5, 2}})};
  std::string svg = line_chart(chart);
  expect_sound(svg);
  const auto bands = svg_elements(svg, "<path class=\"band\"");
  ASSERT_EQ(bands.size(), 1u);
  EXPECT_EQ(bands[0].at("data-band"), "median");
  EXPECT_EQ(bands[0].at("fill"), "#0072b2");
  EXPECT_EQ(bands[0].at("stroke"), "none");
  EXPECT_LT(std::stod(bands[0].at("fill-opacity")), 0.5) << "faint, under the lines";
  EXPECT_LT(svg.find("<path class=\"band\""), svg.find("<g class=\"series\"")) << "drawn first, in no series";
  EXPECT_EQ(count(group(svg, "<g class=\"series\" data-series=\"median\""), "band"), 0);
  EXPECT_NE(svg.find(">median range</text>"), std::string::npos) << "its legend entry";
  const auto pieces = path_pieces(bands[0].at("d"));
  ASSERT_EQ(pieces.size(), 1u);
  ASSERT_EQ(pieces[0].size(), 12u);
  const auto points =
      svg_elements(group(svg, "<g class=\"series\" data-series=\"median\""), "class=\"point\"");
  ASSERT_EQ(points.size(), 6u);
  const auto pixel = [](double value) { return 376 - value / 10 * 336; };  // y 0…10 on 376…40
  for (std::size_t i = 0; i < 6; ++i) {
    const auto& high = pieces[0][i];
    const auto& low = pieces[0][11 - i];
    EXPECT_NEAR(high.first, std::stod(points[i].at("data-cx")), 0.06) << i;
    EXPECT_EQ(low.first, high.first) << i;
    EXPECT_NEAR(high.second, pixel(median.band[i].high), 0.06) << i;
    EXPECT_NEAR(low.second, pixel(median.band[i].low), 0.06) << i;
  }
  // Where the axis' range is the data's, the band's values widen it: every vertex stays in the plot.
  chart.y = {.label = "ms"};
  chart.series[0].band[2].high = 40;
  svg = line_chart(chart);
  const auto widened = path_pieces(svg_elements(svg, "<path class=\"band\"").at(0).at("d"));
  ASSERT_EQ(widened.size(), 1u);
  for (const auto& [x, y] : widened[0]) {
    EXPECT_TRUE(x >= 64 && x <= 704) << x;
    EXPECT_TRUE(y >= 40 && y <= 376) << y;
  }
  EXPECT_NEAR(std::min_element(widened[0].begin(), widened[0].end(),
                               [](const auto& a, const auto& b) { return a.second < b.second; })
                  ->second,
              40, 20)
      << "the highest value near the top";
  // A value the axis cannot show: left out, the band in two pieces, a note.
  chart.series[0].band[3].low = std::numeric_limits<double>::quiet_NaN();
  svg = line_chart(chart);
  expect_sound(svg);
  const auto broken = path_pieces(svg_elements(svg, "<path class=\"band\"").at(0).at("d"));
  ASSERT_EQ(broken.size(), 2u);
  EXPECT_EQ(broken[0].size(), 6u);
  EXPECT_EQ(broken[1].size(), 4u);
  EXPECT_NE(svg.find("1 band interval left out"), std::string::npos);
}

// A series on the right axis: placed by the right axis' scale, which has its own ticks, labels and title
// right of the plot; no text overlaps another, the end labels stand right of it all, and every caller's
// text (the right axis' title, the given tick labels, a marker's tooltip) is escaped.
TEST(SvgRightAxis, SeriesOnItArePlacedByItsScaleAndNoTextsOverlap) {
  Plot chart{.id = "two-axes",
             .title = "Two axes",
             .x = {.label = "commit", .min = -0.5, .max = 3.5, .ticks = {0, 1, 2, 3}},
             .y = {.label = "time (ms)", .min = 0.0, .max = 10.0},
             .y2 = {.label = hostile, .min = 0.0, .max = 2000.0}};
  chart.x.tick_labels = {"c0ffee1", "<b>&", "c0ffee3", "c0ffee4"};
  chart.series = {series_of("median time", {{0, 2}, {1, 3}, {2, 4}, {3, 5}}),
                  series_of("instructions per node", {{0, 500}, {1, 1000}, {2, 1500}, {3, 1900}})};
  chart.series[1].right_axis = true;
  chart.markers = {{.x = 2, .label = "c0ffee3", .tooltip = hostile}};
  const std::string svg = line_chart(chart);
  expect_sound(svg);
  const std::string right = group(svg, "<g class=\"axis y2\"");
  ASSERT_FALSE(right.empty());
  const std::string escaped = "&lt;script&gt;alert(&quot;1&quot; &amp; &#39;2&#39;)&lt;/script&gt;";
  EXPECT_NE(right.find(">" + escaped + "</text>"), std::string::npos) << "its title, escaped";
  EXPECT_NE(svg.find("<title>" + escaped + "</title>"), std::string::npos) << "the marker's tooltip";
  EXPECT_EQ(count(svg, "<script"), 0);
  const auto x_labels = texts(group(svg, "<g class=\"axis x\""));
  EXPECT_NE(std::find(x_labels.begin(), x_labels.end(), "c0ffee1"), x_labels.end());
  EXPECT_NE(std::find(x_labels.begin(), x_labels.end(), "&lt;b&gt;&amp;"), x_labels.end());
  const auto tick_labels = text_boxes(right, "");
  ASSERT_GE(tick_labels.size(), 3u);
  EXPECT_EQ(tick_labels.front().text, "0");
  EXPECT_EQ(tick_labels.back().text, "2k");
  // The right series by the right scale (0…2000 on 376…40), the left one by the left (0…10).
  const auto placed = [&](const std::string& name) {
    return svg_elements(group(svg, "<g class=\"series\" data-series=\"" + name + "\""), "class=\"point\"");
  };
  const auto counts = placed("instructions per node"), times = placed("median time");
  ASSERT_EQ(counts.size(), 4u);
  ASSERT_EQ(times.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_NEAR(std::stod(counts[i].at("data-cy")), 376 - chart.series[1].points[i].y / 2000 * 336, 0.06);
    EXPECT_NEAR(std::stod(times[i].at("data-cy")), 376 - chart.series[0].points[i].y / 10 * 336, 0.06);
    EXPECT_EQ(counts[i].at("data-cx"), times[i].at("data-cx"));
  }
  // The plot ends left of the right axis' tick labels; its title (turned) right of them; the end labels
  // right of the title.
  const auto axis_line = svg_elements(right, "<line").back();
  const double plot_right = std::stod(axis_line.at("x1"));
  double widest_right = 0;
  for (const auto& label : tick_labels) {
    EXPECT_GT(label.left, plot_right) << label.text;
    widest_right = std::max(widest_right, label.right);
  }
  static const std::regex turned(
      "<text x=\"([^\"]*)\" y=\"[^\"]*\" text-anchor=\"middle\" transform=\"rotate");
  std::smatch title;
  ASSERT_TRUE(std::regex_search(right, title, turned));
  const double baseline = std::stod(title[1]);
  EXPECT_GT(baseline - 0.96 * 12, widest_right) << "the title clear of the tick labels";
  const auto ends = text_boxes(svg, "end-label");
  ASSERT_EQ(ends.size(), 2u);
  for (const auto& end : ends) EXPECT_GT(end.left, baseline + 0.28 * 12) << end.text;
  EXPECT_EQ(count(svg, "class=\"leader\""), 2) << "each end label led to its line across the axis";
  const auto all = text_boxes(svg, "");
  for (std::size_t i = 0; i < all.size(); ++i)
    for (std::size_t j = i + 1; j < all.size(); ++j)
      EXPECT_FALSE(overlap(all[i], all[j])) << all[i].text << " / " << all[j].text;
  // No right axis where no series is on it.
  chart.series[1].right_axis = false;
  EXPECT_EQ(line_chart(chart).find("axis y2"), std::string::npos);
}

// Small multiples with a right axis: the same right-axis ticks and the same place for the same count.
TEST(SvgRightAxis, SharedAxesShareTheRightAxisToo) {
  std::vector<Plot> charts(2);
  for (std::size_t k = 0; k < 2; ++k) {
    charts[k] = {.id = "c" + std::to_string(k), .title = "C", .x = {.label = "run"}, .y = {.label = "s"}};
    charts[k].series = {series_of("time", {{0, 1.0 + k}, {1, 2.0 * (k + 1)}}),
                        series_of("count", {{0, 40}, {1, k == 0 ? 41.0 : 80.0}})};
    charts[k].series[1].right_axis = true;
  }
  share_axes(charts);
  const std::string a = line_chart(charts[0]), b = line_chart(charts[1]);
  EXPECT_EQ(texts(group(a, "<g class=\"axis y2\"")), texts(group(b, "<g class=\"axis y2\"")));
  const auto count_a = svg_elements(group(a, "<g class=\"series\" data-series=\"count\""), "class=\"point\"");
  const auto count_b = svg_elements(group(b, "<g class=\"series\" data-series=\"count\""), "class=\"point\"");
  ASSERT_EQ(count_a.size(), 2u);
  ASSERT_EQ(count_b.size(), 2u);
  EXPECT_EQ(count_a[0].at("data-cy"), count_b[0].at("data-cy")) << "40 at the same height in both";
}

// A line series of one point draws no line: its group says so (data-dash none), as the contract asks.
TEST(SvgLooks, ASeriesThatDrawsNoLineDeclaresNone) {
  Plot chart{.id = "single", .title = "Single"};
  chart.series = {series_of("one point", {{1, 1}}), series_of("two points", {{1, 2}, {2, 3}})};
  const auto groups = svg_elements(line_chart(chart), "<g class=\"series\"");
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].at("data-dash"), "none");
  EXPECT_EQ(groups[1].at("data-dash"), "solid");
}

TEST(SvgBarChart, OneGroupPerBarWithLabelAndAnnotation) {
  BarPlot chart{.id = "cost", .title = "Cost", .value_label = "× naive"};
  chart.bars = {{.label = "naive", .value = 1, .annotation = "cost 1"},
                {.label = "xsimd", .value = 40, .annotation = "cost 4.5"},
                {.label = hostile, .value = 12, .annotation = hostile}};
  const std::string svg = bar_chart(chart);
  expect_sound(svg);
  EXPECT_EQ(count(svg, "<g class=\"bar\""), 3);
  EXPECT_EQ(count(svg, "<rect"), 3 + 1) << "a bar each, and the background";
  const std::string xsimd = group(svg, "<g class=\"bar\" data-bar=\"xsimd\"");
  EXPECT_EQ(texts(xsimd), (std::vector<std::string>{"xsimd", "cost 4.5"}));
  EXPECT_NE(svg.find("data-bar=\"&lt;script&gt;"), std::string::npos);
  // One row each, in the order given, top to bottom.
  static const std::regex bar_top("<rect x=\"[^\"]*\" y=\"([^\"]*)\" width");
  std::vector<double> tops;
  for (std::sregex_iterator it(svg.begin(), svg.end(), bar_top), end; it != end; ++it)
    tops.push_back(std::stod((*it)[1]));
  ASSERT_EQ(tops.size(), 3u);
  EXPECT_LT(tops[0] + 18, tops[1]);
  EXPECT_LT(tops[1] + 18, tops[2]);
}

TEST(SvgBarChart, LongerBarsForLargerValuesOnBothScales) {
  for (bool log : {false, true}) {
    SCOPED_TRACE(log ? "log" : "linear");
    BarPlot chart{.id = "lengths", .title = "Lengths", .value_label = "x", .log = log};
    chart.bars = {{.label = "small", .value = 2}, {.label = "large", .value = 200}};
    const std::string svg = bar_chart(chart);
    static const std::regex bar_width("<rect x=\"[^\"]*\" y=\"[^\"]*\" width=\"([^\"]*)\"");
    std::smatch small, large;
    const std::string small_group = group(svg, "data-bar=\"small\""),
                      large_group = group(svg, "data-bar=\"large\"");
    ASSERT_TRUE(std::regex_search(small_group, small, bar_width));
    ASSERT_TRUE(std::regex_search(large_group, large, bar_width));
    EXPECT_GT(std::stod(small[1]), 0);
    EXPECT_GT(std::stod(large[1]), std::stod(small[1]) * (log ? 1.5 : 50));
  }
}

TEST(SvgBarChart, LinearBarsStartAtZero) {
  BarPlot chart{.id = "zero", .title = "From zero", .value_label = "x"};
  chart.bars = {{.label = "a", .value = 100}, {.label = "b", .value = 110}};
  const std::string svg = bar_chart(chart);
  EXPECT_EQ(texts(group(svg, "<g class=\"axis x\"")).front(), "0");
  static const std::regex bar_width("<rect x=\"[^\"]*\" y=\"[^\"]*\" width=\"([^\"]*)\"");
  std::smatch a, b;
  const std::string a_group = group(svg, "data-bar=\"a\""), b_group = group(svg, "data-bar=\"b\"");
  ASSERT_TRUE(std::regex_search(a_group, a, bar_width));
  ASSERT_TRUE(std::regex_search(b_group, b, bar_width));
  EXPECT_NEAR(std::stod(b[1]) / std::stod(a[1]), 1.1, 0.01);
}

TEST(SvgBarChart, NonPositiveValuesOnALogScaleAreNotDrawnButStillListed) {
  BarPlot chart{.id = "log-bars", .title = "Log", .value_label = "speed-up", .log = true};
  chart.bars = {{.label = "a", .value = 10},
                {.label = "zero", .value = 0},
                {.label = "negative", .value = -2},
                {.label = "nan", .value = std::nan("")}};
  const std::string svg = bar_chart(chart);
  expect_sound(svg);
  EXPECT_EQ(count(svg, "<g class=\"bar\""), 4);
  EXPECT_EQ(count(svg, "<rect"), 1 + 1);
  EXPECT_NE(svg.find("3 bars not drawn: ≤ 0 or not finite on a log scale"), std::string::npos);
}

TEST(SvgBarChart, DegenerateInputsDrawAnAxisAndNoNaN) {
  std::vector<BarPlot> charts;
  charts.push_back({.id = "none", .title = "none"});
  charts.push_back({.id = "zero", .title = "zero", .bars = {{.label = "z", .value = 0}}});
  charts.push_back({.id = "equal-log",
                    .title = "equal",
                    .log = true,
                    .bars = {{.label = "a", .value = 3}, {.label = "b", .value = 3}}});
  charts.push_back(
      {.id = "all-left-out", .title = "left out", .log = true, .bars = {{.label = "a", .value = -1}}});
  charts.push_back({.id = "negative",
                    .title = "negative",
                    .bars = {{.label = "a", .value = -3e9}, {.label = "b", .value = 1e9}}});
  for (const auto& chart : charts) {
    SCOPED_TRACE(chart.id);
    const std::string svg = bar_chart(chart);
    expect_sound(svg);
    expect_no_nan_or_inf(svg);
    EXPECT_EQ(count(svg, "<g class=\"bar\""), static_cast<int>(chart.bars.size()));
    EXPECT_GE(texts(group(svg, "<g class=\"axis x\"")).size(), 3u);
  }
  EXPECT_NE(bar_chart(charts[0]).find(">no data</text>"), std::string::npos);
}

TEST(SvgWellFormedness, TheHandCheckCatchesWhatItShould) {
  EXPECT_EQ(xml_problem("<svg a=\"1\"><g><text>x &amp; y</text></g><line/></svg>"), "");
  EXPECT_NE(xml_problem("<svg><g></svg>"), "");
  EXPECT_NE(xml_problem("<svg><text>a < b</text></svg>"), "");
  EXPECT_NE(xml_problem("<svg><text>a & b</text></svg>"), "");
  EXPECT_NE(xml_problem("<svg a=1></svg>"), "");
  EXPECT_NE(xml_problem("<svg a=\"x\"y\"></svg>"), "");
  EXPECT_NE(xml_problem("<svg>"), "");
}

// A real XML parser, where the machine has one (Debian's libxml2-utils).
TEST(SvgWellFormedness, XmllintAcceptsEveryKindOfChart) {
  if (std::system("command -v xmllint >/dev/null 2>&1") != 0) GTEST_SKIP() << "xmllint is not installed";
  Plot chart{.id = "lint",
             .title = hostile,
             .x = {.label = "x", .log = true, .ticks = {1, 10, 100}},
             .y = {.label = hostile},
             .markers = {{.x = 10, .label = hostile}}};
  chart.series.push_back(series_of(hostile, {{1, 1}, {10, 0}, {100, std::nan("")}}));
  chart.series[0].points[0].mark = hostile;
  BarPlot bars{
      .id = "lint-bars", .title = hostile, .value_label = hostile, .bars = {{.label = hostile, .value = 2}}};
  int index = 0;
  for (const std::string& svg : {line_chart(chart), bar_chart(bars), line_chart(Plot{})}) {
    const std::string path = ::testing::TempDir() + "ladder-svg-test-" + std::to_string(getpid()) + "-" +
                             std::to_string(index++) + ".svg";
    std::ofstream(path) << svg;
    EXPECT_EQ(std::system(("xmllint --noout '" + path + "'").c_str()), 0) << svg;
    std::remove(path.c_str());
  }
}

}  // namespace
}  // namespace ladder::svg
