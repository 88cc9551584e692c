// The reports' SVG charts, how series are told apart and named: the looks of the slots, the end labels, the
// point labels and their leaders, shared axes of small multiples, escaped names.
#include <gtest/gtest.h>

#include "svg_test_support.hpp"

namespace ladder::svg {
namespace {

using namespace ladder::svg::test;

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

}  // namespace
}  // namespace ladder::svg
