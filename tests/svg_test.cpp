// The reports' SVG charts: safe with any text, well-formed, self-contained, and honest about what they
// leave out.
#include "svg.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "svg_markup.hpp"

namespace ladder::svg {
namespace {

const std::string hostile = "<script>alert(\"1\" & '2')</script>";

int count(const std::string& haystack, const std::string& needle) {
  int found = 0;
  for (auto at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++found;
  return found;
}

// The markup of the group that opens with `opening`, up to its </g> (the charts' groups do not nest).
std::string group(const std::string& svg, const std::string& opening) {
  const auto start = svg.find(opening);
  if (start == std::string::npos) return {};
  return svg.substr(start, svg.find("</g>", start) + 4 - start);
}

std::vector<std::string> texts(const std::string& markup) {
  static const std::regex text_element("<text[^>]*>([^<]*)</text>");
  std::vector<std::string> contents;
  for (std::sregex_iterator it(markup.begin(), markup.end(), text_element), end; it != end; ++it)
    contents.push_back((*it)[1]);
  return contents;
}

// The y coordinates of the y axis' tick labels, top to bottom of the list as written.
std::vector<double> tick_label_ys(const std::string& svg) {
  static const std::regex tick_label("<text x=\"[^\"]*\" y=\"([^\"]*)\" text-anchor=\"end\">");
  const std::string axis = group(svg, "<g class=\"axis y\"");
  std::vector<double> ys;
  for (std::sregex_iterator it(axis.begin(), axis.end(), tick_label), end; it != end; ++it)
    ys.push_back(std::stod((*it)[1]));
  return ys;
}

// Well-formed XML, checked by hand: every tag closed in order, attribute values quoted, no bare < or & in
// text or attributes. Returns the first problem, or "" when there is none.
std::string xml_problem(const std::string& xml) {
  static const std::regex entity("^&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9A-Fa-f]+);");
  for (auto at = xml.find('&'); at != std::string::npos; at = xml.find('&', at + 1))
    if (!std::regex_search(xml.substr(at, 12), entity)) return "bare & at " + std::to_string(at);
  static const std::regex attribute_list(R"(^(\s+[A-Za-z_:][-A-Za-z0-9_:.]*="[^"<]*")*\s*/?$)");
  std::vector<std::string> open;
  for (auto at = xml.find('<'); at != std::string::npos; at = xml.find('<', at + 1)) {
    const auto end = xml.find('>', at);
    if (end == std::string::npos) return "unterminated tag at " + std::to_string(at);
    const std::string tag = xml.substr(at + 1, end - at - 1);
    const bool closing = tag.starts_with("/");
    const std::string body = closing ? tag.substr(1) : tag;
    const std::string name = body.substr(0, std::min(body.find_first_of(" \t\n/"), body.size()));
    if (name.empty() || !std::isalpha(static_cast<unsigned char>(name[0]))) return "bad tag <" + tag + ">";
    if (closing) {
      if (body != name || open.empty() || open.back() != name) return "</" + body + "> closes nothing open";
      open.pop_back();
    } else {
      if (!std::regex_match(body.substr(name.size()), attribute_list))
        return "bad attributes in <" + tag + ">";
      if (!tag.ends_with("/")) open.push_back(name);
    }
    if (xml.find('<', at + 1) < end) return "< inside a tag at " + std::to_string(at);
  }
  return open.empty() ? "" : "<" + open.back() + "> never closed";
}

// What must hold of every chart, whatever went in.
void expect_sound(const std::string& svg) {
  EXPECT_TRUE(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\"")) << svg.substr(0, 80);
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_NE(svg.find(" viewBox=\"0 0 "), std::string::npos);
  EXPECT_NE(svg.find(" role=\"img\""), std::string::npos);
  EXPECT_EQ(count(svg, "<script"), 0);
  EXPECT_EQ(count(svg, "http"), 1) << "only the namespace may name a URL";
  EXPECT_EQ(count(svg, "href"), 0);
  EXPECT_EQ(count(svg, "url("), 0);
  EXPECT_EQ(count(svg, "@import"), 0);
  // Every coordinate is a plain number (a path: numbers after M and L, closed by Z).
  static const std::regex coordinate(R"(\b(x|y|x1|y1|x2|y2|cx|cy|r|width|height|d|viewBox)="([^"]*)\")");
  static const std::regex plain(R"(^[-0-9. MLZ]*$)");
  for (std::sregex_iterator it(svg.begin(), svg.end(), coordinate), end; it != end; ++it)
    EXPECT_TRUE(std::regex_match((*it)[2].str(), plain)) << (*it)[0];
}

// No NaN or infinity anywhere in the output (for inputs whose own text has none).
void expect_no_nan_or_inf(const std::string& svg) {
  std::string lower = svg;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  EXPECT_EQ(count(lower, "nan"), 0) << svg;
  EXPECT_EQ(count(lower, "inf"), 0) << svg;
}

// Every point inside the plot area of a chart of the default size (720 × 420: x 64…704, y 40…376).
void expect_markers_inside_the_plot(const std::string& svg) {
  static const std::regex circle("data-cx=\"([^\"]*)\" data-cy=\"([^\"]*)\"");
  for (std::sregex_iterator it(svg.begin(), svg.end(), circle), end; it != end; ++it) {
    EXPECT_TRUE(std::stod((*it)[1]) >= 64 && std::stod((*it)[1]) <= 704) << (*it)[0];
    EXPECT_TRUE(std::stod((*it)[2]) >= 40 && std::stod((*it)[2]) <= 376) << (*it)[0];
  }
}

Series series_of(std::string name, const std::vector<std::pair<double, double>>& xy) {
  Series series{.name = std::move(name)};
  for (const auto& [x, y] : xy) series.points.push_back({.x = x, .y = y});
  return series;
}

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

using testing::svg_elements;

// The series' groups, each with its markup.
std::vector<std::pair<std::map<std::string, std::string>, std::string>> series_groups(
    const std::string& svg) {
  std::vector<std::pair<std::map<std::string, std::string>, std::string>> all;
  const std::string opening = "<g class=\"series\"";
  for (auto at = svg.find(opening); at != std::string::npos; at = svg.find(opening, at + 1)) {
    const std::string markup = group(svg.substr(at), opening);
    all.push_back({svg_elements(markup, opening).front(), markup});
  }
  return all;
}

// A text's box by the layout's own estimate (svg::text_width), from its baseline y and its anchor: the texts
// of class `cls`, or (cls empty) every text that is not turned.
struct TextBox {
  double left, top, right, bottom;
  std::string text;
};
std::vector<TextBox> text_boxes(const std::string& markup, const std::string& cls) {
  static const std::regex text_element("<text x=\"([^\"]*)\" y=\"([^\"]*)\"([^>]*)>([^<]*)</text>");
  std::vector<TextBox> boxes;
  for (std::sregex_iterator it(markup.begin(), markup.end(), text_element), end; it != end; ++it) {
    const std::string attributes = (*it)[3];
    if (cls.empty() ? attributes.find("transform") != std::string::npos
                    : attributes.find("class=\"" + cls + "\"") == std::string::npos)
      continue;
    const bool bold = attributes.find("font-weight=\"bold\"") != std::string::npos;
    const double size = attributes.find("font-size=\"15\"") != std::string::npos   ? 15
                        : attributes.find("font-size=\"14\"") != std::string::npos ? 14
                                                                                   : 12;
    // Entities count as the one character they stand for.
    const std::string shown = std::regex_replace((*it)[4].str(), std::regex("&[a-z0-9#]+;"), "&");
    const double x = std::stod((*it)[1]), y = std::stod((*it)[2]), width = text_width(shown, size, bold);
    const double left = attributes.find("text-anchor=\"middle\"") != std::string::npos ? x - width / 2
                        : attributes.find("text-anchor=\"end\"") != std::string::npos  ? x - width
                                                                                       : x;
    boxes.push_back({left, y - 0.96 * size, left + width, y + 0.28 * size, (*it)[4]});
  }
  return boxes;
}
bool overlap(const TextBox& a, double left, double top, double right, double bottom) {
  return a.left < right && left < a.right && a.top < bottom && top < a.bottom;
}
bool overlap(const TextBox& a, const TextBox& b) { return overlap(a, b.left, b.top, b.right, b.bottom); }

std::string look_key(const std::map<std::string, std::string>& g) {
  return g.at("data-color") + " " + g.at("data-marker") + " " + g.at("data-dash");
}

TEST(SvgLooks, TheFirst256SlotsAreAllDifferentAndSameColouredOnesDifferInShape) {
  std::set<std::string> seen;
  for (std::size_t slot = 0; slot < 256; ++slot) {
    const Look one = look(slot);
    EXPECT_TRUE(seen.insert(one.color + " " + std::string(shape_name(one.shape)) + " " + one.dash).second)
        << slot;
    if (slot >= 8 && slot < 64) {
      EXPECT_NE(one.shape, look(slot - 8).shape) << slot;
    }
  }
  EXPECT_EQ(look(0).color, "#0072B2");
  EXPECT_EQ(look(0).dash, "solid");
  EXPECT_EQ(look(8).color, "#0072B2") << "the palette's eight colours, then again";
  EXPECT_NE(look(8).dash, "solid") << "in another dash";
}

// Twenty-four series of every style: no two alike, even where the styles leave only colour and dash.
TEST(SvgLooks, NoTwoSeriesOfAChartLookAlike) {
  Plot chart{.id = "many", .title = "Many"};
  const Style styles[] = {Style::line_and_markers, Style::line, Style::markers, Style::dashed};
  for (int index = 0; index < 24; ++index) {
    chart.series.push_back(series_of("s" + std::to_string(index), {{1, 1.0 * index}, {2, 2.0 * index}}));
    chart.series.back().style = styles[index / 6];
  }
  const auto groups = series_groups(line_chart(chart));
  ASSERT_EQ(groups.size(), 24u);
  std::set<std::string> looks;
  for (const auto& [g, markup] : groups) EXPECT_TRUE(looks.insert(look_key(g)).second) << look_key(g);
  EXPECT_EQ(groups[6].first.at("data-marker"), "none") << "a line series draws no marker";
  EXPECT_EQ(groups[12].first.at("data-dash"), "none") << "a markers series draws no line";
  EXPECT_NE(groups[18].first.at("data-dash"), "solid") << "a dashed series is dashed";
  // Four dashed lines of one given colour: only their dashes can differ, and they do.
  chart.series.clear();
  for (int index = 0; index < 4; ++index) {
    chart.series.push_back(series_of("grey " + std::to_string(index), {{1, 1.0 * index}, {2, 2.0}}));
    chart.series.back().style = Style::dashed;
    chart.series.back().color = "#999999";
  }
  std::set<std::string> dashes;
  for (const auto& [g, markup] : series_groups(line_chart(chart)))
    EXPECT_TRUE(dashes.insert(look_key(g)).second) << look_key(g);
}

// A caller's slot gives the series that slot's look, wherever it stands, before any automatic series; a
// second series asking for a taken look gets another.
TEST(SvgLooks, AFixedSlotIsHonouredAndNeverShared) {
  Plot chart{.id = "fixed", .title = "Fixed"};
  chart.series.push_back(series_of("auto", {{1, 1}, {2, 2}}));
  chart.series.push_back(series_of("tbb", {{1, 2}, {2, 3}}));
  chart.series.back().slot = 0;
  chart.series.push_back(series_of("twin", {{1, 3}, {2, 4}}));
  chart.series.back().slot = 0;
  chart.series.push_back(series_of("eigen", {{1, 4}, {2, 5}}));
  chart.series.back().slot = 13;
  const auto groups = series_groups(line_chart(chart));
  ASSERT_EQ(groups.size(), 4u);
  const auto expect_look = [](const std::map<std::string, std::string>& g, const Look& want) {
    EXPECT_EQ(g.at("data-color"), want.color) << g.at("data-series");
    EXPECT_EQ(g.at("data-marker"), shape_name(want.shape)) << g.at("data-series");
    EXPECT_EQ(g.at("data-dash"), want.dash) << g.at("data-series");
  };
  expect_look(groups[1].first, look(0));
  expect_look(groups[3].first, look(13));
  expect_look(groups[0].first, look(1));  // the first look not taken
  std::set<std::string> looks;
  for (const auto& [g, markup] : groups) EXPECT_TRUE(looks.insert(look_key(g)).second) << look_key(g);
  // A line style keeps the slot's colour and dash, without the marker.
  chart.series = {series_of("tbb", {{1, 2}, {2, 3}})};
  chart.series[0].slot = 13;
  chart.series[0].style = Style::line;
  const auto line = series_groups(line_chart(chart));
  EXPECT_EQ(line[0].first.at("data-color"), look(13).color);
  EXPECT_EQ(line[0].first.at("data-dash"), look(13).dash);
  EXPECT_EQ(line[0].first.at("data-marker"), "none");
}

// What each series' attributes say is what is drawn: the line's stroke and dash, each point's shape and
// colour (filled shapes by fill, the open cross and plus by stroke).
TEST(SvgLooks, TheAttributesMatchTheDrawnElements) {
  Plot chart{.id = "drawn", .title = "Drawn", .x = {.label = "n", .log = true}};
  for (int index = 0; index < 20; ++index)
    chart.series.push_back(
        series_of("s" + std::to_string(index), {{1, 1.0 + index}, {10, 2.0 + index}, {100, 3.0 + index}}));
  chart.series[19].style = Style::markers;
  std::set<std::string> shapes;
  for (const auto& [g, markup] : series_groups(line_chart(chart))) {
    SCOPED_TRACE(g.at("data-series"));
    const auto lines = svg_elements(markup, "<path class=\"line\"");
    if (g.at("data-dash") == "none") {
      EXPECT_TRUE(lines.empty());
    } else {
      ASSERT_EQ(lines.size(), 1u);
      EXPECT_EQ(lines[0].at("stroke"), g.at("data-color"));
      if (g.at("data-dash") == "solid")
        EXPECT_EQ(lines[0].count("stroke-dasharray"), 0u);
      else
        EXPECT_EQ(lines[0].at("stroke-dasharray"), g.at("data-dash"));
    }
    auto points = svg_elements(markup, "<circle class=\"point\"");
    const auto paths = svg_elements(markup, "<path class=\"point\"");
    points.insert(points.end(), paths.begin(), paths.end());
    ASSERT_EQ(points.size(), 3u);
    for (const auto& point : points) {
      EXPECT_EQ(point.at("data-shape"), g.at("data-marker"));
      const bool open = point.at("data-shape") == "cross" || point.at("data-shape") == "plus";
      EXPECT_EQ(point.at(open ? "stroke" : "fill"), g.at("data-color"));
      shapes.insert(point.at("data-shape"));
    }
  }
  EXPECT_EQ(shapes.size(), 8u) << "all eight shapes drawn";
}

// Fifteen lines ending at the same value: fifteen end labels right of the plot, none overlapping another
// by the layout's own estimate, those moved joined to their line's end by a leader.
TEST(SvgEndLabels, FifteenLinesEndingTogetherGetLabelsThatDoNotOverlap) {
  Plot chart{.id = "ends", .title = "Ends"};
  for (int index = 0; index < 15; ++index)
    chart.series.push_back(
        series_of("tier-" + std::to_string(index) + (index % 3 == 0 ? " (Python) wide" : ""),
                  {{1, 1.0 * index}, {2, 10}}));
  const std::string svg = line_chart(chart);
  expect_sound(svg);
  const auto labels = text_boxes(svg, "end-label");
  ASSERT_EQ(labels.size(), 15u);
  for (std::size_t i = 0; i < labels.size(); ++i) {
    EXPECT_GT(labels[i].left, 704) << "right of the plot";
    for (std::size_t j = i + 1; j < labels.size(); ++j)
      EXPECT_FALSE(overlap(labels[i], labels[j])) << labels[i].text << " / " << labels[j].text;
  }
  EXPECT_GE(count(svg, "class=\"leader\""), 14);
  // The SVG widens to hold the widest label.
  static const std::regex view_box("viewBox=\"0 0 ([^ ]+) ");
  std::smatch width;
  ASSERT_TRUE(std::regex_search(svg, width, view_box));
  double right = 0;
  for (const auto& label : labels) right = std::max(right, label.right);
  EXPECT_LE(right, std::stod(width[1]));
  EXPECT_EQ(count(svg, "<text"), count(svg, "</text>"));
  // No text at all overlaps the end labels (ticks, axis titles, legend, notes).
  const auto all = text_boxes(svg, "");
  ASSERT_GT(all.size(), 30u) << "the title, ticks, axis title, legend and end labels";
  for (std::size_t i = 0; i < all.size(); ++i)
    for (std::size_t j = i + 1; j < all.size(); ++j)
      EXPECT_FALSE(overlap(all[i], all[j])) << all[i].text << " / " << all[j].text;
}

// The leader lines of a chart, each with the text of the label it leads to (the next <text> in the markup).
struct Leader {
  double x1, y1, x2, y2;
  std::string own;
};
std::vector<Leader> leaders_of(const std::string& svg) {
  std::vector<Leader> all;
  const std::string opening = "<line class=\"leader\"";
  for (auto at = svg.find(opening); at != std::string::npos; at = svg.find(opening, at + 1)) {
    const auto line = svg_elements(svg.substr(at, svg.find('>', at) - at + 1), opening).front();
    const auto text = svg.find('>', svg.find("<text", at)) + 1;
    all.push_back({std::stod(line.at("x1")), std::stod(line.at("y1")), std::stod(line.at("x2")),
                   std::stod(line.at("y2")), svg.substr(text, svg.find("</text>", text) - text)});
  }
  return all;
}

// No leader passes through a text other than its own label (checked every half pixel along it, against the
// text's box less half a pixel all round), nor crosses another leader.
void expect_leaders_clear(const std::string& svg) {
  const auto leaders = leaders_of(svg);
  const auto texts = text_boxes(svg, "");
  for (std::size_t i = 0; i < leaders.size(); ++i) {
    const Leader& l = leaders[i];
    const double length = std::hypot(l.x2 - l.x1, l.y2 - l.y1);
    for (const auto& box : texts) {
      if (box.text == l.own) continue;
      bool through = false;
      for (double t = 0; t <= 1 && !through; t += 0.5 / std::max(length, 1.0)) {
        const double x = l.x1 + t * (l.x2 - l.x1), y = l.y1 + t * (l.y2 - l.y1);
        through = box.left + 0.5 < x && x < box.right - 0.5 && box.top + 0.5 < y && y < box.bottom - 0.5;
      }
      EXPECT_FALSE(through) << "the leader of " << l.own << " crosses " << box.text;
    }
    for (std::size_t j = i + 1; j < leaders.size(); ++j) {
      const Leader& m = leaders[j];
      const auto side = [](double ax, double ay, double bx, double by, double x, double y) {
        const double cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
        return cross > 1e-6 ? 1 : cross < -1e-6 ? -1 : 0;
      };
      const bool cross =
          side(l.x1, l.y1, l.x2, l.y2, m.x1, m.y1) * side(l.x1, l.y1, l.x2, l.y2, m.x2, m.y2) < 0 &&
          side(m.x1, m.y1, m.x2, m.y2, l.x1, l.y1) * side(m.x1, m.y1, m.x2, m.y2, l.x2, l.y2) < 0;
      EXPECT_FALSE(cross) << "the leaders of " << l.own << " and " << m.own << " cross";
    }
  }
}

double distance(const TextBox& box, double x, double y) {
  return std::hypot(std::max({box.left - x, 0.0, x - box.right}),
                    std::max({box.top - y, 0.0, y - box.bottom}));
}

// A Pareto chart's frame: cost 0 to 10 across, speedup on a log scale up, no end labels.
Plot pareto_like() {
  return {.id = "pareto",
          .title = "Pareto",
          .x = {.label = "cost", .min = 0.0, .max = 10.0},
          .y = {.label = "speedup", .log = true},
          .end_labels = false};
}

// No two texts of the chart overlap, by the layout's own estimate.
void expect_no_texts_overlap(const std::string& svg) {
  const auto all = text_boxes(svg, "");
  for (std::size_t i = 0; i < all.size(); ++i)
    for (std::size_t j = i + 1; j < all.size(); ++j)
      EXPECT_FALSE(overlap(all[i], all[j])) << all[i].text << " / " << all[j].text;
}

// A crowded Pareto-like set: twenty dots, most at cost 1 to 1.5 and nearly the same speed, each tagged;
// every tag inside the plot, clear of every other tag and every dot.
TEST(SvgPointLabels, CrowdedTagsAvoidEachOtherTheDotsAndTheEdges) {
  Plot chart = pareto_like();
  Series frontier{.name = "frontier", .style = Style::line_and_markers};
  Series others{.name = "others", .style = Style::markers};
  Series peers{.name = "peers", .style = Style::markers};
  const char* names[] = {"naive",    "openmp",  "tbb", "xsimd", "eigen",   "tuned-exp", "stdpar", "kahan",
                         "unrolled", "blocked", "mpi", "cuda",  "autovec", "fast-math", "sleef"};
  for (int index = 0; index < 15; ++index) {
    const double cost = index < 10 ? 1.0 + 0.05 * index : 2.0 + index * 0.5;
    const double speed = index < 10 ? 2.0 + 0.1 * (index % 4) : 1.5 * index;
    (index % 4 == 0 ? frontier : others)
        .points.push_back({.x = cost, .y = speed, .tag = names[index], .emphasis = index % 4 == 0});
  }
  for (int index = 0; index < 5; ++index)
    peers.points.push_back(
        {.x = 1.0 + 0.02 * index, .y = 0.01 * (index + 1), .tag = "py-peer-" + std::to_string(index)});
  chart.series = {frontier, others, peers};
  const std::string svg = line_chart(chart);
  expect_sound(svg);
  const auto tags = text_boxes(svg, "point-label");
  // Ten dots within 30 × 6 px: a tag or two may find no place whose leader crosses nothing; those are named
  // under the chart instead.
  const auto note = svg.find("Not tagged for lack of room: ");
  const std::string said =
      note == std::string::npos ? "" : svg.substr(note, svg.find("</text>", note) - note);
  EXPECT_GE(tags.size(), 18u);
  EXPECT_EQ(tags.size() + static_cast<std::size_t>(std::count(said.begin(), said.end(), ',')) +
                (said.empty() ? 0 : 1),
            20u)
      << said;
  expect_leaders_clear(svg);
  EXPECT_EQ(count(svg, "font-weight=\"bold\""), 4) << "the frontier's four";
  const auto points = svg_elements(svg, "class=\"point\"");
  ASSERT_EQ(points.size(), 20u);
  for (std::size_t i = 0; i < tags.size(); ++i) {
    EXPECT_TRUE(tags[i].left >= 64 && tags[i].right <= 704 && tags[i].top >= 40 && tags[i].bottom <= 376)
        << tags[i].text;
    for (std::size_t j = i + 1; j < tags.size(); ++j)
      EXPECT_FALSE(overlap(tags[i], tags[j])) << tags[i].text << " / " << tags[j].text;
    for (const auto& point : points) {
      const double x = std::stod(point.at("data-cx")), y = std::stod(point.at("data-cy")), r = 7;
      EXPECT_FALSE(overlap(tags[i], x - r, y - r, x + r, y + r))
          << tags[i].text << " on the point at " << x << ", " << y;
    }
  }
}

// The Pareto chart's crowded corner as a default run draws it: fifteen dots, most of them within a few
// pixels of each other at the plot's right edge. Each tag with a leader lies nearer its own dot (where its
// leader starts) than any other dot — but tbb's, boxed in by three dots within 15 px; no leader crosses a
// text or another leader; no two texts overlap.
TEST(SvgPointLabels, LeadersInACrowdedCornerPointAtTheirOwnDotAndCrossNothing) {
  Plot chart = pareto_like();
  Series frontier{.name = "frontier", .style = Style::line_and_markers};
  Series others{.name = "others", .style = Style::markers};
  const std::vector<std::tuple<const char*, double, double, bool>> dots = {
      {"naive", 0, 1, true},         {"streaming", 1, 1.1, false},
      {"inlined", 1.5, 1.05, false}, {"std-algorithms", 2, 2.3, true},
      {"autovec", 3, 9, true},       {"xsimd", 5, 8.5, false},
      {"eigen", 5.5, 7, false},      {"compensated", 6, 4.2, false},
      {"openmp", 8.9, 27, true},     {"tbb", 9.2, 25, false},
      {"stdpar", 9.0, 22, false},    {"mpi", 9.4, 26, false},
      {"tuned-exp", 9.6, 12, false}, {"openmp-tuned", 10, 42, true},
      {"tbb-tuned", 10, 38, false}};
  for (const auto& [name, cost, speed, on] : dots)
    (on ? frontier : others).points.push_back({.x = cost, .y = speed, .tag = name, .emphasis = on});
  chart.series = {frontier, others};
  const std::string svg = line_chart(chart);
  expect_sound(svg);
  expect_leaders_clear(svg);
  const auto tags = text_boxes(svg, "point-label");
  expect_no_texts_overlap(svg);
  EXPECT_EQ(tags.size(), 15u) << "every dot tagged: " << svg;
  std::vector<std::pair<double, double>> centres;
  for (const auto& point : svg_elements(svg, "class=\"point\""))
    centres.emplace_back(std::stod(point.at("data-cx")), std::stod(point.at("data-cy")));
  for (const auto& leader : leaders_of(svg)) {
    const auto own = std::min_element(centres.begin(), centres.end(), [&](const auto& a, const auto& b) {
      return std::hypot(a.first - leader.x1, a.second - leader.y1) <
             std::hypot(b.first - leader.x1, b.second - leader.y1);
    });
    const auto tag =
        std::find_if(tags.begin(), tags.end(), [&](const auto& t) { return t.text == leader.own; });
    ASSERT_NE(tag, tags.end()) << leader.own;
    if (leader.own == "tbb") continue;  // boxed in by three dots within 15 px: no place is nearer its own
    for (const auto& other : centres)
      EXPECT_LE(distance(*tag, own->first, own->second), distance(*tag, other.first, other.second))
          << leader.own << " lies nearer the dot at " << other.first << ", " << other.second;
  }
}

// A dot at the plot's right edge: its tag goes right of it, into a margin the chart widens to hold, rather
// than left of it or away on a leader.
TEST(SvgPointLabels, ADotAtTheRightEdgeTagsIntoTheMargin) {
  Plot chart{.id = "edge",
             .title = "Edge",
             .x = {.label = "cost", .min = 0.0, .max = 10.0},
             .y = {.label = "speedup", .min = 0.0, .max = 10.0},
             .end_labels = false};
  Series dots{.name = "tiers", .style = Style::markers};
  dots.points = {{.x = 10, .y = 5, .tag = "openmp-tuned"}, {.x = 9.6, .y = 5, .tag = "tbb"}};
  chart.series = {dots};
  const std::string svg = line_chart(chart);
  expect_sound(svg);
  const auto tags = text_boxes(svg, "point-label");
  ASSERT_EQ(tags.size(), 2u);
  const auto edge =
      std::find_if(tags.begin(), tags.end(), [](const auto& t) { return t.text == "openmp-tuned"; });
  EXPECT_GT(edge->left, 704) << "right of the dot at the plot's right edge (704)";
  EXPECT_NEAR((edge->top + edge->bottom) / 2, 208, 8) << "at the dot's height";
  EXPECT_EQ(count(svg, "class=\"leader\""), 0);
  static const std::regex view_box("viewBox=\"0 0 ([^ ]+) ");
  std::smatch width;
  ASSERT_TRUE(std::regex_search(svg, width, view_box));
  EXPECT_LE(edge->right, std::stod(width[1])) << "the chart widens to hold it";
}

// Forty dots in one spot, each tagged: where no place is clear, a tag is left out rather than drawn over
// another, and a note under the chart names those left out.
TEST(SvgPointLabels, TagsWithNoRoomAreLeftOutAndNamedInANote) {
  Plot chart{.id = "pile",
             .title = "Pile",
             .x = {.label = "cost", .min = 0.0, .max = 10.0},
             .y = {.label = "speedup", .min = 0.0, .max = 10.0},
             .width = 300,
             .height = 200,
             .end_labels = false};
  Series dots{.name = "tiers", .style = Style::markers};
  for (int index = 0; index < 40; ++index)
    dots.points.push_back({.x = 5, .y = 5, .tag = "tier-number-" + std::to_string(index)});
  chart.series = {dots};
  const std::string svg = line_chart(chart);
  expect_sound(svg);
  expect_leaders_clear(svg);
  const auto tags = text_boxes(svg, "point-label");
  expect_no_texts_overlap(svg);
  ASSERT_LT(tags.size(), 40u) << "not all forty fit";
  ASSERT_GT(tags.size(), 0u);
  const auto note = svg.find("Not tagged for lack of room: ");
  ASSERT_NE(note, std::string::npos) << svg;
  const std::string said = svg.substr(note, svg.find("</text>", note) - note);
  for (int index = 0; index < 40; ++index) {
    const std::string tag = "tier-number-" + std::to_string(index);
    const bool drawn = std::any_of(tags.begin(), tags.end(), [&](const auto& t) { return t.text == tag; });
    const bool named = std::regex_search(said, std::regex("[ ,]" + tag + "(,| \\()"));
    EXPECT_NE(drawn, named) << tag << ": drawn or named in the note, once";
  }
}

// Small multiples: after share_axes, each chart has the same ranges, ticks and margins.
TEST(SvgSmallMultiples, SharedAxesGiveTheSameTicksAndPositions) {
  std::vector<Plot> charts(2);
  charts[0] = {.id = "a", .title = "A", .x = {.label = "n", .log = true}, .y = {.label = "s", .log = true}};
  charts[0].series = {series_of("naive", {{1e3, 1e-3}, {1e6, 1}})};
  charts[1] = {.id = "b", .title = "B", .x = {.label = "n", .log = true}, .y = {.label = "s", .log = true}};
  charts[1].series = {series_of("a much longer tier name", {{1e4, 1e-5}, {1e8, 1e-2}}),
                      series_of("naive", {{1e3, 1e-3}})};
  EXPECT_NE(texts(group(line_chart(charts[0]), "<g class=\"axis x\"")),
            texts(group(line_chart(charts[1]), "<g class=\"axis x\"")))
      << "apart, each on its own axes";
  share_axes(charts);
  const std::string a = line_chart(charts[0]), b = line_chart(charts[1]);
  for (const std::string axis : {"<g class=\"axis x\"", "<g class=\"axis y\""})
    EXPECT_EQ(texts(group(a, axis)), texts(group(b, axis))) << axis;
  EXPECT_EQ(svg_elements(a, "<svg").front().at("viewBox").substr(0, 10),
            svg_elements(b, "<svg").front().at("viewBox").substr(0, 10))
      << "the same width: the widest end label's margin in both";
  // The same point (naive at 1e3) stands at the same place in both.
  const auto in_a = svg_elements(group(a, "<g class=\"series\" data-series=\"naive\""), "class=\"point\"");
  const auto in_b = svg_elements(group(b, "<g class=\"series\" data-series=\"naive\""), "class=\"point\"");
  ASSERT_FALSE(in_a.empty());
  ASSERT_FALSE(in_b.empty());
  EXPECT_EQ(in_a.front().at("data-cx"), in_b.front().at("data-cx"));
  EXPECT_EQ(in_a.front().at("data-cy"), in_b.front().at("data-cy"));

  std::vector<BarPlot> bars{{.id = "a", .log = true, .bars = {{.label = "x", .value = 2}}},
                            {.id = "b", .log = true, .bars = {{.label = "x", .value = 200}}}};
  share_axes(bars);
  EXPECT_EQ(texts(group(bar_chart(bars[0]), "<g class=\"axis x\"")),
            texts(group(bar_chart(bars[1]), "<g class=\"axis x\"")));
}

TEST(SvgLabels, NamesAndTagsAreEscapedInLabelsAndTitles) {
  Plot chart{.id = "escape", .title = "Escape"};
  chart.series.push_back(series_of(hostile, {{1, 1}, {2, 2}}));
  chart.series[0].points[0].tag = hostile;
  chart.series[0].points[1].label = hostile;
  const std::string svg = line_chart(chart);
  expect_sound(svg);
  const std::string escaped = "&lt;script&gt;alert(&quot;1&quot; &amp; &#39;2&#39;)&lt;/script&gt;";
  EXPECT_EQ(text_boxes(svg, "end-label").at(0).text, escaped);
  EXPECT_EQ(text_boxes(svg, "point-label").at(0).text, escaped);
  EXPECT_NE(svg.find("<title>" + escaped + "</title>"), std::string::npos);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
}

// The scaling chart's boundaries at the same or neighbouring x: their turned labels are set apart.
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
