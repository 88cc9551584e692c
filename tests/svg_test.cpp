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
#include <regex>
#include <string>
#include <utility>
#include <vector>

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
  // Every coordinate is a plain number (a path: numbers after M and L).
  static const std::regex coordinate(R"(\b(x|y|x1|y1|x2|y2|cx|cy|r|width|height|d|viewBox)="([^"]*)\")");
  static const std::regex plain(R"(^[-0-9. ML]*$)");
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

// Every marker inside the plot area of a chart of the default size (720 × 420: x 64…704, y 40…376).
void expect_markers_inside_the_plot(const std::string& svg) {
  static const std::regex circle("<circle cx=\"([^\"]*)\" cy=\"([^\"]*)\"");
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
  Chart chart{.id = "id" + hostile, .title = hostile, .x = {.label = hostile}, .y = {.label = hostile}};
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

TEST(SvgLineChart, TwoSeriesGetTheirOwnGroupsWithACirclePerPoint) {
  Chart chart{.id = "speed", .title = "Speed", .x = {.label = "n"}, .y = {.label = "seconds"}};
  chart.series.push_back(series_of("naive", {{1, 5}, {2, 6}, {3, 7}}));
  chart.series.push_back(series_of("it's \"xsimd\"", {{1, 1}, {2, 2}, {3, 2.5}, {4, 3}}));
  const std::string svg = line_chart(chart);
  expect_sound(svg);
  EXPECT_EQ(count(svg, "<g class=\"series\""), 2);
  EXPECT_EQ(count(group(svg, "<g class=\"series\" data-series=\"naive\""), "<circle"), 3);
  EXPECT_EQ(count(group(svg, "<g class=\"series\" data-series=\"it&#39;s &quot;xsimd&quot;\""), "<circle"),
            4);
  EXPECT_EQ(count(svg, "<circle"), 7) << "every circle is a data point";
  EXPECT_EQ(count(svg, "<title>naive: 2, 6</title>"), 1) << "a point without a label gets its values";
  // Two series, two colours, both from the palette.
  EXPECT_NE(svg.find("data-series=\"naive\" fill=\"#0072B2\""), std::string::npos);
  EXPECT_NE(svg.find("fill=\"#D55E00\""), std::string::npos);
}

TEST(SvgLineChart, AGivenColourIsUsedAndTheStyleDecidesLinesAndMarkers) {
  Chart chart{.id = "styles", .title = "Styles"};
  chart.series.push_back(series_of("dashed", {{1, 1}, {2, 2}}));
  chart.series[0].style = Style::dashed;
  chart.series[0].color = "#123abc";
  chart.series.push_back(series_of("markers", {{1, 3}, {2, 4}}));
  chart.series[1].style = Style::markers;
  const std::string svg = line_chart(chart);
  const std::string dashed = group(svg, "<g class=\"series\" data-series=\"dashed\"");
  EXPECT_NE(dashed.find("stroke=\"#123abc\""), std::string::npos);
  EXPECT_NE(dashed.find("stroke-dasharray"), std::string::npos);
  EXPECT_EQ(count(dashed, "<circle"), 0);
  const std::string markers = group(svg, "<g class=\"series\" data-series=\"markers\"");
  EXPECT_EQ(count(markers, "<path"), 0);
  EXPECT_EQ(count(markers, "<circle"), 2);
  // A given colour does not use up one of the palette's.
  EXPECT_NE(markers.find("fill=\"#0072B2\""), std::string::npos);
}

TEST(SvgLineChart, LogAxisTicksArePowersOfTenEvenlySpaced) {
  Chart chart{.id = "log", .title = "Log", .x = {.label = "n"}, .y = {.label = "seconds", .log = true}};
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
  Chart chart{.id = "wide-log", .title = "Log", .y = {.label = "y", .log = true}};
  chart.series.push_back(series_of("s", {{0, 1e-20}, {1, 1e20}}));
  const auto labels = texts(group(line_chart(chart), "<g class=\"axis y\""));
  EXPECT_EQ(labels, (std::vector<std::string>{"1e-18", "1e-12", "1e-6", "1", "1M", "1T", "1e18", "y"}));
}

TEST(SvgLineChart, NonNegativeDataGetsNoNegativeAxis) {
  Chart chart{.id = "from-zero", .title = "From zero", .y = {.label = "seconds"}};
  chart.series.push_back(series_of("s", {{0, 0.1}, {1, 10}}));
  const std::string axis = group(line_chart(chart), "<g class=\"axis y\"");
  // The lowest tick, 0, sits on the x axis (the plot's bottom edge at 420 - 44).
  EXPECT_EQ(texts(axis).front(), "0");
  EXPECT_NE(axis.find("<line x1=\"64\" y1=\"376\" x2=\"704\" y2=\"376\""), std::string::npos) << axis;
}

TEST(SvgLineChart, LogAxisOverFewerThanThreeDecadesTicksAtOneTwoFive) {
  Chart chart{.id = "log125", .title = "Log", .y = {.label = "y", .log = true}};
  chart.series.push_back(series_of("s", {{0, 1}, {1, 40}}));
  const auto labels = texts(group(line_chart(chart), "<g class=\"axis y\""));
  EXPECT_EQ(labels, (std::vector<std::string>{"1", "2", "5", "10", "20", "y"}));
}

TEST(SvgLineChart, LogAxisWithinOneStepOfOneTwoFiveTicksEvenly) {
  Chart chart{.id = "narrow-log", .title = "Log", .y = {.label = "y", .log = true}};
  chart.series.push_back(series_of("s", {{0, 2.1}, {1, 2.4}}));
  const auto labels = texts(group(line_chart(chart), "<g class=\"axis y\""));
  EXPECT_EQ(labels, (std::vector<std::string>{"2.1", "2.15", "2.2", "2.25", "2.3", "2.35", "2.4", "y"}));
}

TEST(SvgLineChart, TickLabelsAreCompact) {
  Chart chart{.id = "compact", .title = "Compact", .x = {.label = "x", .log = true}, .y = {.label = "y"}};
  chart.series.push_back(series_of("s", {{1e-12, 0}, {1e-6, 2e6}}));
  const std::string svg = line_chart(chart);
  const auto x_labels = texts(group(svg, "<g class=\"axis x\""));
  EXPECT_EQ(x_labels,
            (std::vector<std::string>{"1e-12", "1e-11", "1e-10", "1e-9", "1e-8", "1e-7", "1e-6", "x"}));
  const auto y_labels = texts(group(svg, "<g class=\"axis y\""));
  EXPECT_EQ(y_labels, (std::vector<std::string>{"0", "500k", "1M", "1.5M", "2M", "y"}));
}

TEST(SvgLineChart, TickLabelsOfANarrowRangeCarryTheDigitsThatTellThemApart) {
  Chart chart{.id = "narrow", .title = "Narrow", .y = {.label = "y"}};
  chart.series.push_back(series_of("s", {{0, 1.0001}, {1, 1.0005}}));
  const auto labels = texts(group(line_chart(chart), "<g class=\"axis y\""));
  EXPECT_EQ(labels, (std::vector<std::string>{"1.0001", "1.0002", "1.0003", "1.0004", "1.0005", "y"}));
}

TEST(SvgLineChart, NonPositivePointsOnALogAxisAreLeftOutWithANote) {
  Chart chart{.id = "skips", .title = "Skips", .y = {.label = "y", .log = true}};
  chart.series.push_back(series_of("s", {{1, 1}, {2, 0}, {3, 10}, {4, -5}, {5, 100}}));
  const std::string svg = line_chart(chart);
  expect_sound(svg);
  EXPECT_EQ(count(svg, "<circle"), 3);
  EXPECT_NE(group(svg, "<g class=\"notes\"").find(">2 points left out: ≤ 0 on a log axis</text>"),
            std::string::npos);
}

TEST(SvgLineChart, APointLeftOutBreaksTheLineRatherThanBridgingIt) {
  Chart chart{.id = "gap", .title = "Gap", .y = {.label = "y", .log = true}};
  chart.series.push_back(series_of("s", {{1, 1}, {2, 2}, {3, 0}, {4, 4}, {5, 5}, {6, -1}, {7, 7}}));
  static const std::regex path_data("<path d=\"([^\"]*)\"");
  std::smatch path;
  const std::string svg = line_chart(chart);
  ASSERT_TRUE(std::regex_search(svg, path, path_data));
  EXPECT_EQ(count(path[1], "M"), 2) << path[1];
  EXPECT_EQ(count(path[1], "L"), 2) << path[1];
  EXPECT_EQ(count(svg, "<circle"), 5) << "the lone point after the last gap still shows";
}

TEST(SvgLineChart, NonFinitePointsAreLeftOutWithANoteAndNoNumberIsNaN) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  constexpr double inf = std::numeric_limits<double>::infinity();
  Chart chart{.id = "nan", .title = "NaN"};
  chart.series.push_back(series_of("s", {{1, 1}, {nan, 2}, {3, inf}, {-inf, 4}, {5, 5}}));
  const std::string svg = line_chart(chart);
  expect_sound(svg);  // every coordinate a plain number
  EXPECT_EQ(count(svg, "<circle"), 2);
  EXPECT_NE(svg.find(">3 points left out: NaN, infinite or beyond 1e±300</text>"), std::string::npos);
  for (const auto& label : texts(group(svg, "<g class=\"axis y\"")))
    EXPECT_EQ(label.find("nan"), std::string::npos);
}

// The scaling charts' boundaries (L3 group, NUMA node, socket, SMT): a dotted vertical line at each x
// within the axis, labelled along it; one outside the range is left out, and a note says so.
TEST(SvgLineChart, MarkersAreVerticalLinesAtTheirXLabelledAndEscaped) {
  Chart chart{.id = "marks", .title = "Marks", .x = {.label = "threads", .log = true}};
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
  static const std::regex circle_x("<circle cx=\"([^\"]*)\"");
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
  Chart chart{
      .id = "ticks", .title = "Ticks", .x = {.label = "threads", .log = true, .ticks = {1, 2, 4, 8, 16, 32}}};
  chart.series.push_back(series_of("s", {{1, 1}, {16, 8}}));
  const auto labels = texts(group(line_chart(chart), "<g class=\"axis x\""));
  EXPECT_EQ(labels, (std::vector<std::string>{"1", "2", "4", "8", "16", "threads"})) << "32 is off the axis";
}

TEST(SvgLineChart, AMarkedPointGetsADiamondCentredOnItWithItsMarkAsTooltip) {
  Chart chart{.id = "mark", .title = "Mark"};
  chart.series.push_back(series_of("s", {{1, 1}, {2, 3}, {3, 4}}));
  chart.series[0].points[1].mark = hostile;
  const std::string svg = line_chart(chart);
  expect_sound(svg);
  const std::string series = group(svg, "<g class=\"series\"");
  EXPECT_EQ(count(series, "<rect class=\"mark\""), 1);
  EXPECT_EQ(count(series, "<circle"), 3) << "the diamond is no extra data point";
  static const std::regex circle("<circle cx=\"([^\"]*)\" cy=\"([^\"]*)\"");
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
  Chart chart{.id = "range", .title = "Range", .x = {.label = "x", .min = 0, .max = 10}};
  chart.series.push_back(series_of("s", {{-1, 1}, {5, 2}, {11, 3}}));
  const std::string svg = line_chart(chart);
  EXPECT_EQ(count(svg, "<circle"), 1);
  EXPECT_NE(svg.find("2 points left out: outside the axis range"), std::string::npos);
  EXPECT_EQ(texts(group(svg, "<g class=\"axis x\"")).front(), "0");

  chart.x = {.label = "x", .min = 10, .max = 0};  // no range at all: the data's instead
  EXPECT_EQ(count(line_chart(chart), "<circle"), 3);
}

TEST(SvgLineChart, DegenerateInputsDrawAxesAndNoNaN) {
  std::vector<Chart> charts;
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
  EXPECT_EQ(count(line_chart(charts[2]), "<circle"), 1);
}

TEST(SvgLineChart, AnEmptySeriesBesideOthersIsNoted) {
  Chart chart{.id = "partly",
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
  Chart chart{.id = "legend", .title = "Legend"};
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
  EXPECT_NE(svg.find("fill=\"#F0E442\""), std::string::npos) << "all eight colours";
  EXPECT_EQ(count(svg, "fill=\"#0072B2\""), 2) << "then the palette repeats";
}

TEST(SvgBarChart, OneGroupPerBarWithLabelAndAnnotation) {
  BarChart chart{.id = "cost", .title = "Cost", .value_label = "× naive"};
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
    BarChart chart{.id = "lengths", .title = "Lengths", .value_label = "x", .log = log};
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
  BarChart chart{.id = "zero", .title = "From zero", .value_label = "x"};
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
  BarChart chart{.id = "log-bars", .title = "Log", .value_label = "speed-up", .log = true};
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
  std::vector<BarChart> charts;
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
  Chart chart{.id = "lint",
              .title = hostile,
              .x = {.label = "x", .log = true, .ticks = {1, 10, 100}},
              .y = {.label = hostile},
              .markers = {{.x = 10, .label = hostile}}};
  chart.series.push_back(series_of(hostile, {{1, 1}, {10, 0}, {100, std::nan("")}}));
  chart.series[0].points[0].mark = hostile;
  BarChart bars{
      .id = "lint-bars", .title = hostile, .value_label = hostile, .bars = {{.label = hostile, .value = 2}}};
  int index = 0;
  for (const std::string& svg : {line_chart(chart), bar_chart(bars), line_chart(Chart{})}) {
    const std::string path = ::testing::TempDir() + "ladder-svg-test-" + std::to_string(getpid()) + "-" +
                             std::to_string(index++) + ".svg";
    std::ofstream(path) << svg;
    EXPECT_EQ(std::system(("xmllint --noout '" + path + "'").c_str()), 0) << svg;
    std::remove(path.c_str());
  }
}

}  // namespace
}  // namespace ladder::svg
