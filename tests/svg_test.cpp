// The reports' SVG line charts: safe with any text, well-formed, self-contained, and honest about what they
// leave out (the axes and ticks, the points left out, the markers, the legend). The looks and labels are
// svg_labels_test.cpp; bands, the right axis, bar charts and well-formedness svg_more_test.cpp.
#include <gtest/gtest.h>

#include "svg_test_support.hpp"

namespace ladder::svg {
namespace {

using namespace ladder::svg::test;

TEST(SvgEscape, ReplacesTheFiveMarkupCharacters) {
  EXPECT_EQ(escape("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(escape("a \"b\" & 'c'"), "a &quot;b&quot; &amp; &#39;c&#39;");
  EXPECT_EQ(escape("plain text, 1.5 µs"), "plain text, 1.5 µs");
  EXPECT_EQ(escape(""), "");
}

TEST(SvgEscape, ReplacesControlCharactersXmlForbidsButKeepsWhitespace) {
  const std::string controls = {'a', '\x01', 'b', '\x1F', 'c'}, replacement = "\uFFFD";
  EXPECT_EQ(escape(controls), "a" + replacement + "b" + replacement + "c");
  EXPECT_EQ(escape("tab\tnew\nline"), "tab\tnew\nline");
}

TEST(SvgLineChart, EveryCallerTextComesOutAsText) {
  Plot chart{.id = "id" + hostile, .title = hostile, .x = {.label = hostile}, .y = {.label = hostile}};
  chart.series.push_back(series_of(hostile, {{1, 2}, {3, 4}}));
  chart.series[0].points[0].label = hostile;
  chart.series[0].color = "url(http://example.invalid/x.svg#paint)";  // not a colour: the palette's instead
  chart.notes.push_back(hostile);
  const std::string svg = line_chart(chart);
  expect_sound(svg);
  EXPECT_GE(count(svg, "&lt;script&gt;alert(&quot;1&quot; &amp; &#39;2&#39;)&lt;/script&gt;"), 8);
  EXPECT_NE(svg.find(" data-series=\"&lt;script&gt;alert(&quot;1&quot;"), std::string::npos);
  EXPECT_NE(svg.find(" data-chart=\"id&lt;script&gt;"), std::string::npos);
}

TEST(SvgLineChart, TwoSeriesGetTheirOwnGroupsWithAPointPerPoint) {
  Plot chart{.id = "speed", .title = "Speed", .x = {.label = "n"}, .y = {.label = "seconds"}};
  chart.series.push_back(series_of("naive", {{1, 5}, {2, 6}, {3, 7}}));
  chart.series.push_back(series_of("it's \"xsimd\"", {{1, 1}, {2, 2}, {3, 2.5}, {4, 3}}));
  const std::string svg = line_chart(chart);
  expect_sound(svg);
  EXPECT_EQ(count(svg, "<g class=\"series\""), 2);
  EXPECT_EQ(count(group(svg, "<g class=\"series\" data-series=\"naive\""), "class=\"point\""), 3);
  EXPECT_EQ(
      count(group(svg, "<g class=\"series\" data-series=\"it&#39;s &quot;xsimd&quot;\""), "class=\"point\""),
      4);
  EXPECT_EQ(count(svg, "class=\"point\""), 7) << "every point element is a data point";
  EXPECT_EQ(count(svg, "<title>naive: 2, 6</title>"), 1) << "a point without a label gets its values";
  // Two series, two colours, both from the palette, and two shapes.
  EXPECT_NE(
      svg.find("data-series=\"naive\" data-color=\"#0072B2\" data-marker=\"circle\" data-dash=\"solid\""),
      std::string::npos);
  EXPECT_NE(svg.find("data-color=\"#D55E00\" data-marker=\"square\" data-dash=\"solid\""), std::string::npos);
}

TEST(SvgLineChart, AGivenColourIsUsedAndTheStyleDecidesLinesAndMarkers) {
  Plot chart{.id = "styles", .title = "Styles"};
  chart.series.push_back(series_of("dashed", {{1, 1}, {2, 2}}));
  chart.series[0].style = Style::dashed;
  chart.series[0].color = "#123abc";
  chart.series.push_back(series_of("markers", {{1, 3}, {2, 4}}));
  chart.series[1].style = Style::markers;
  const std::string svg = line_chart(chart);
  const std::string dashed = group(svg, "<g class=\"series\" data-series=\"dashed\"");
  EXPECT_NE(dashed.find("stroke=\"#123abc\""), std::string::npos);
  EXPECT_NE(dashed.find("stroke-dasharray=\"6 4\""), std::string::npos);
  EXPECT_NE(dashed.find("data-marker=\"none\" data-dash=\"6 4\""), std::string::npos);
  // A dashed line's points are tooltips only: small dots, no marker shape.
  EXPECT_EQ(count(dashed, "class=\"point\" data-shape=\"none\""), 2);
  const std::string markers = group(svg, "<g class=\"series\" data-series=\"markers\"");
  EXPECT_EQ(count(markers, "class=\"line\""), 0);
  EXPECT_NE(markers.find("data-dash=\"none\""), std::string::npos);
  EXPECT_EQ(count(markers, "class=\"point\" data-shape=\"circle\""), 2);
  // A given colour does not use up one of the palette's.
  EXPECT_NE(markers.find("data-color=\"#0072B2\""), std::string::npos);
}

TEST(SvgLineChart, LogAxisTicksArePowersOfTenEvenlySpaced) {
  Plot chart{.id = "log", .title = "Log", .x = {.label = "n"}, .y = {.label = "seconds", .log = true}};
  chart.series.push_back(series_of("decades", {{0, 1e-3}, {1, 1e-2}, {2, 1}, {3, 1e2}, {4, 1e3}}));
  const std::string svg = line_chart(chart);
  expect_sound(svg);
  const auto labels = texts(group(svg, "<g class=\"axis y\""));
  EXPECT_EQ(labels, (std::vector<std::string>{"0.001", "0.01", "0.1", "1", "10", "100", "1k", "seconds"}));
  const auto ys = tick_label_ys(svg);
  ASSERT_EQ(ys.size(), 7u);
  for (std::size_t index = 2; index < ys.size(); ++index)
    EXPECT_NEAR(ys[index] - ys[index - 1], ys[1] - ys[0], 0.2) << "a decade is a decade everywhere";
  EXPECT_LT(ys.back(), ys.front()) << "larger values higher up";
}

TEST(SvgLineChart, LogAxisOverManyDecadesLabelsEveryFewDecades) {
  Plot chart{.id = "wide-log", .title = "Log", .y = {.label = "y", .log = true}};
  chart.series.push_back(series_of("s", {{0, 1e-20}, {1, 1e20}}));
  const auto labels = texts(group(line_chart(chart), "<g class=\"axis y\""));
  EXPECT_EQ(labels, (std::vector<std::string>{"1e-18", "1e-12", "1e-6", "1", "1M", "1T", "1e18", "y"}));
}

TEST(SvgLineChart, NonNegativeDataGetsNoNegativeAxis) {
  Plot chart{.id = "from-zero", .title = "From zero", .y = {.label = "seconds"}};
  chart.series.push_back(series_of("s", {{0, 0.1}, {1, 10}}));
  const std::string axis = group(line_chart(chart), "<g class=\"axis y\"");
  // The lowest tick, 0, sits on the x axis (the plot's bottom edge at 420 - 44).
  EXPECT_EQ(texts(axis).front(), "0");
  EXPECT_NE(axis.find("<line x1=\"64\" y1=\"376\" x2=\"704\" y2=\"376\""), std::string::npos) << axis;
}

TEST(SvgLineChart, LogAxisOverFewerThanThreeDecadesTicksAtOneTwoFive) {
  Plot chart{.id = "log125", .title = "Log", .y = {.label = "y", .log = true}};
  chart.series.push_back(series_of("s", {{0, 1}, {1, 40}}));
  const auto labels = texts(group(line_chart(chart), "<g class=\"axis y\""));
  EXPECT_EQ(labels, (std::vector<std::string>{"1", "2", "5", "10", "20", "y"}));
}

TEST(SvgLineChart, LogAxisWithinOneStepOfOneTwoFiveTicksEvenly) {
  Plot chart{.id = "narrow-log", .title = "Log", .y = {.label = "y", .log = true}};
  chart.series.push_back(series_of("s", {{0, 2.1}, {1, 2.4}}));
  const auto labels = texts(group(line_chart(chart), "<g class=\"axis y\""));
  EXPECT_EQ(labels, (std::vector<std::string>{"2.1", "2.15", "2.2", "2.25", "2.3", "2.35", "2.4", "y"}));
}

TEST(SvgLineChart, TickLabelsAreCompact) {
  Plot chart{.id = "compact", .title = "Compact", .x = {.label = "x", .log = true}, .y = {.label = "y"}};
  chart.series.push_back(series_of("s", {{1e-12, 0}, {1e-6, 2e6}}));
  const std::string svg = line_chart(chart);
  const auto x_labels = texts(group(svg, "<g class=\"axis x\""));
  EXPECT_EQ(x_labels,
            (std::vector<std::string>{"1e-12", "1e-11", "1e-10", "1e-9", "1e-8", "1e-7", "1e-6", "x"}));
  const auto y_labels = texts(group(svg, "<g class=\"axis y\""));
  EXPECT_EQ(y_labels, (std::vector<std::string>{"0", "500k", "1M", "1.5M", "2M", "y"}));
}

TEST(SvgLineChart, TickLabelsOfANarrowRangeCarryTheDigitsThatTellThemApart) {
  Plot chart{.id = "narrow", .title = "Narrow", .y = {.label = "y"}};
  chart.series.push_back(series_of("s", {{0, 1.0001}, {1, 1.0005}}));
  const auto labels = texts(group(line_chart(chart), "<g class=\"axis y\""));
  EXPECT_EQ(labels, (std::vector<std::string>{"1.0001", "1.0002", "1.0003", "1.0004", "1.0005", "y"}));
}

TEST(SvgLineChart, NonPositivePointsOnALogAxisAreLeftOutWithANote) {
  Plot chart{.id = "skips", .title = "Skips", .y = {.label = "y", .log = true}};
  chart.series.push_back(series_of("s", {{1, 1}, {2, 0}, {3, 10}, {4, -5}, {5, 100}}));
  const std::string svg = line_chart(chart);
  expect_sound(svg);
  EXPECT_EQ(count(svg, "class=\"point\""), 3);
  EXPECT_NE(group(svg, "<g class=\"notes\"").find(">2 points left out: ≤ 0 on a log axis</text>"),
            std::string::npos);
}

TEST(SvgLineChart, APointLeftOutBreaksTheLineRatherThanBridgingIt) {
  Plot chart{.id = "gap", .title = "Gap", .y = {.label = "y", .log = true}};
  chart.series.push_back(series_of("s", {{1, 1}, {2, 2}, {3, 0}, {4, 4}, {5, 5}, {6, -1}, {7, 7}}));
  static const std::regex path_data("<path class=\"line\" d=\"([^\"]*)\"");
  std::smatch path;
  const std::string svg = line_chart(chart);
  ASSERT_TRUE(std::regex_search(svg, path, path_data));
  EXPECT_EQ(count(path[1], "M"), 2) << path[1];
  EXPECT_EQ(count(path[1], "L"), 2) << path[1];
  EXPECT_EQ(count(svg, "class=\"point\""), 5) << "the lone point after the last gap still shows";
}

TEST(SvgLineChart, NonFinitePointsAreLeftOutWithANoteAndNoNumberIsNaN) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  constexpr double inf = std::numeric_limits<double>::infinity();
  Plot chart{.id = "nan", .title = "NaN"};
  chart.series.push_back(series_of("s", {{1, 1}, {nan, 2}, {3, inf}, {-inf, 4}, {5, 5}}));
  const std::string svg = line_chart(chart);
  expect_sound(svg);  // every coordinate a plain number
  EXPECT_EQ(count(svg, "class=\"point\""), 2);
  EXPECT_NE(svg.find(">3 points left out: NaN, infinite or beyond 1e±300</text>"), std::string::npos);
  for (const auto& label : texts(group(svg, "<g class=\"axis y\"")))
    EXPECT_EQ(label.find("nan"), std::string::npos);
}

// The scaling charts' boundaries (L3 group, NUMA node, socket, SMT): a dotted vertical line at each x
// within the axis, labelled along it; one outside the range is left out, and a note says so.
TEST(SvgLineChart, MarkersAreVerticalLinesAtTheirXLabelledAndEscaped) {
  Plot chart{.id = "marks", .title = "Marks", .x = {.label = "threads", .log = true}};
  chart.series.push_back(series_of("s", {{1, 1}, {4, 3}, {16, 8}}));
  chart.markers = {{.x = 4, .label = hostile}, {.x = 1000, .label = "beyond"}};
  const std::string svg = line_chart(chart);
  expect_sound(svg);
  EXPECT_EQ(count(svg, "<g class=\"marker\""), 1);
  const std::string marker = group(svg, "<g class=\"marker\"");
  EXPECT_NE(marker.find(" data-x=\"4\""), std::string::npos) << marker;
  EXPECT_NE(marker.find(" data-marker=\"&lt;script&gt;alert("), std::string::npos) << marker;
  static const std::regex line_x("<line x1=\"([^\"]*)\" y1=\"([^\"]*)\" x2=\"([^\"]*)\" y2=\"([^\"]*)\"");
  std::smatch line;
  ASSERT_TRUE(std::regex_search(marker, line, line_x)) << marker;
  static const std::regex circle_x("data-cx=\"([^\"]*)\"");
  const std::string points = group(svg, "<g class=\"series\"");
  std::vector<std::string> xs;
  for (std::sregex_iterator it(points.begin(), points.end(), circle_x), end; it != end; ++it)
    xs.push_back((*it)[1]);
  ASSERT_EQ(xs.size(), 3u);
  EXPECT_EQ(line[1], xs[1]) << "the line stands where the point at x = 4 stands";
  EXPECT_EQ(line[3], line[1]) << "vertical";
  EXPECT_EQ(line[2], "40");
  EXPECT_EQ(line[4], "376") << "across the plot, top to bottom";
  EXPECT_NE(svg.find("1 marker left out: outside the axis range"), std::string::npos);
  EXPECT_EQ(svg.find("beyond"), std::string::npos);
}

TEST(SvgLineChart, GivenTicksReplaceTheAutomaticOnesWithinTheRange) {
  Plot chart{
      .id = "ticks", .title = "Ticks", .x = {.label = "threads", .log = true, .ticks = {1, 2, 4, 8, 16, 32}}};
  chart.series.push_back(series_of("s", {{1, 1}, {16, 8}}));
  const auto labels = texts(group(line_chart(chart), "<g class=\"axis x\""));
  EXPECT_EQ(labels, (std::vector<std::string>{"1", "2", "4", "8", "16", "threads"})) << "32 is off the axis";
}

TEST(SvgLineChart, AMarkedPointGetsADiamondCentredOnItWithItsMarkAsTooltip) {
  Plot chart{.id = "mark", .title = "Mark"};
  chart.series.push_back(series_of("s", {{1, 1}, {2, 3}, {3, 4}}));
  chart.series[0].points[1].mark = hostile;
  const std::string svg = line_chart(chart);
  expect_sound(svg);
  const std::string series = group(svg, "<g class=\"series\"");
  EXPECT_EQ(count(series, "<rect class=\"mark\""), 1);
  EXPECT_EQ(count(series, "class=\"point\""), 3) << "the diamond is no extra data point";
  static const std::regex circle("data-cx=\"([^\"]*)\" data-cy=\"([^\"]*)\"");
  std::vector<std::pair<std::string, std::string>> centres;
  for (std::sregex_iterator it(series.begin(), series.end(), circle), end; it != end; ++it)
    centres.push_back({(*it)[1], (*it)[2]});
  ASSERT_EQ(centres.size(), 3u);
  EXPECT_NE(series.find("transform=\"rotate(45 " + centres[1].first + " " + centres[1].second + ")\""),
            std::string::npos)
      << series;
  EXPECT_NE(series.find(" data-mark=\"&lt;script&gt;alert("), std::string::npos);
}

TEST(SvgLineChart, PointsOutsideAGivenRangeAreLeftOutWithANote) {
  Plot chart{.id = "range", .title = "Range", .x = {.label = "x", .min = 0, .max = 10}};
  chart.series.push_back(series_of("s", {{-1, 1}, {5, 2}, {11, 3}}));
  const std::string svg = line_chart(chart);
  EXPECT_EQ(count(svg, "class=\"point\""), 1);
  EXPECT_NE(svg.find("2 points left out: outside the axis range"), std::string::npos);
  EXPECT_EQ(texts(group(svg, "<g class=\"axis x\"")).front(), "0");

  chart.x = {.label = "x", .min = 10, .max = 0};  // no range at all: the data's instead
  EXPECT_EQ(count(line_chart(chart), "class=\"point\""), 3);
}

TEST(SvgLineChart, DegenerateInputsDrawAxesAndNoNaN) {
  std::vector<Plot> charts;
  charts.push_back({.id = "no-series", .title = "nothing"});
  charts.push_back({.id = "empty-series", .title = "empty", .series = {series_of("empty", {})}});
  charts.push_back({.id = "one-point", .title = "one", .series = {series_of("one", {{3, 7}})}});
  charts.push_back(
      {.id = "equal", .title = "equal", .series = {series_of("flat", {{2, 5}, {2, 5}, {2, 5}})}});
  charts.push_back({.id = "zeros", .title = "zeros", .series = {series_of("zero", {{0, 0}, {0, 0}})}});
  charts.push_back({.id = "equal-log",
                    .title = "equal, log",
                    .x = {.label = "x", .log = true},
                    .y = {.label = "y", .log = true},
                    .series = {series_of("flat", {{1e-7, 3e5}, {1e-7, 3e5}})}});
  charts.push_back({.id = "extremes",
                    .title = "extremes",
                    .series = {series_of("s", {{-1e300, 1e300}, {1e300, -1e300}})}});
  charts.push_back({.id = "tiny", .title = "tiny", .series = {series_of("s", {{0, 5e-324}, {1, 1e-323}})}});
  charts.push_back({.id = "log-extremes",
                    .title = "log extremes",
                    .x = {.label = "x", .log = true},
                    .y = {.label = "y", .log = true},
                    .series = {series_of("s", {{1e-300, 1e300}, {1e300, 1e-300}})}});
  charts.push_back({.id = "bad-range",
                    .title = "min above max",
                    .y = {.label = "y", .min = 5, .max = 1},
                    .series = {series_of("s", {{0, 2}, {1, 3}})}});
  charts.push_back({.id = "tiny-size",
                    .title = "tiny size",
                    .series = {series_of("s", {{0, 1}})},
                    .width = 0,
                    .height = -5});
  for (const auto& chart : charts) {
    SCOPED_TRACE(chart.id);
    const std::string svg = line_chart(chart);
    expect_sound(svg);
    expect_no_nan_or_inf(svg);
    if (chart.width == 720 && chart.height == 420) expect_markers_inside_the_plot(svg);
    EXPECT_GE(texts(group(svg, "<g class=\"axis x\"")).size(), 3u) << "ticks and the label";
    EXPECT_GE(texts(group(svg, "<g class=\"axis y\"")).size(), 3u) << "ticks and the label";
  }
  EXPECT_NE(line_chart(charts[0]).find(">no data</text>"), std::string::npos);
  EXPECT_NE(line_chart(charts[1]).find(">no data</text>"), std::string::npos);
  EXPECT_EQ(count(line_chart(charts[2]), "class=\"point\""), 1);
}

TEST(SvgLineChart, AnEmptySeriesBesideOthersIsNoted) {
  Plot chart{.id = "partly",
             .title = "Partly",
             .series = {series_of("full", {{1, 1}, {2, 2}}), series_of("empty", {})}};
  const std::string svg = line_chart(chart);
  EXPECT_NE(svg.find(">empty: no points</text>"), std::string::npos);
  EXPECT_EQ(svg.find(">no data</text>"), std::string::npos);
  EXPECT_EQ(count(svg, "<g class=\"series\""), 2);
}

double height_of(const std::string& svg) {
  static const std::regex view_box("viewBox=\"0 0 [^ ]+ ([^\"]+)\"");
  std::smatch match;
  return std::regex_search(svg, match, view_box) ? std::stod(match[1]) : 0;
}

TEST(SvgLineChart, TheLegendNamesEverySeriesInRowsThatMakeTheChartTaller) {
  Plot chart{.id = "legend", .title = "Legend"};
  chart.series.push_back(series_of("a rather long series name 0", {{1, 0}}));
  const double one_row = height_of(line_chart(chart));
  for (int index = 1; index < 12; ++index)
    chart.series.push_back(
        series_of("a rather long series name " + std::to_string(index), {{1, 1.0 * index}}));
  const std::string svg = line_chart(chart);
  const auto names = texts(group(svg, "<g class=\"legend\""));
  ASSERT_EQ(names.size(), 12u);
  EXPECT_EQ(names[11], "a rather long series name 11");
  // Entries of ~230 px, two to a row of 640: six rows of 18 px.
  EXPECT_NEAR(height_of(svg) - one_row, 5 * 18, 0.5);
  EXPECT_NE(svg.find("data-color=\"#F0E442\""), std::string::npos) << "all eight colours";
  EXPECT_EQ(count(svg, "data-color=\"#0072B2\""), 2) << "then the palette repeats, in another look";
}

TEST(SvgLineChart, MarkerLabelsAtTheSameXDoNotOverlap) {
  Plot chart{.id = "bounds", .title = "Bounds", .x = {.label = "threads", .log = true}};
  chart.series.push_back(series_of("s", {{1, 1}, {64, 30}, {128, 40}}));
  chart.markers = {{.x = 64, .label = "all 64 cores (SMT siblings past it)"},
                   {.x = 64, .label = "one socket"},
                   {.x = 65, .label = "NUMA node"},
                   {.x = 64, .label = "L3 group of 64 threads"}};
  const std::string svg = line_chart(chart);
  static const std::regex turned(
      "<text x=\"([^\"]*)\" y=\"([^\"]*)\" text-anchor=\"end\" transform=\"rotate\\(-90[^>]*>([^<]*)<");
  std::vector<TextBox> boxes;
  for (std::sregex_iterator it(svg.begin(), svg.end(), turned), end; it != end; ++it) {
    const double x = std::stod((*it)[1]), y = std::stod((*it)[2]);
    boxes.push_back({x - 0.96 * 11, y, x + 0.28 * 11, y + text_width((*it)[3].str(), 11), (*it)[3]});
  }
  ASSERT_EQ(boxes.size(), 4u);
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    EXPECT_LE(boxes[i].bottom, 376) << boxes[i].text;
    for (std::size_t j = i + 1; j < boxes.size(); ++j)
      EXPECT_FALSE(overlap(boxes[i], boxes[j])) << boxes[i].text << " / " << boxes[j].text;
  }
}

// Given ticks too close for their labels: every grid line drawn, only the labels that fit apart.
TEST(SvgLineChart, TickLabelsThatWouldOverlapAreLeftOut) {
  Plot chart{.id = "dense", .title = "Dense", .x = {.label = "x"}};
  for (int tick = 0; tick <= 100; ++tick) chart.x.ticks.push_back(1000.0 * tick);
  chart.series.push_back(series_of("s", {{0, 1}, {100000, 2}}));
  const std::string svg = line_chart(chart);
  const std::string axis = group(svg, "<g class=\"axis x\"");
  EXPECT_EQ(count(axis, "<line"), 102) << "101 grid lines and the axis";
  const auto labels = text_boxes(axis, "");
  ASSERT_GE(labels.size(), 6u);
  EXPECT_LT(labels.size(), 40u);
  for (std::size_t i = 0; i + 1 < labels.size(); ++i)
    EXPECT_FALSE(overlap(labels[i], labels[i + 1])) << labels[i].text << " / " << labels[i + 1].text;
}

}  // namespace
}  // namespace ladder::svg
