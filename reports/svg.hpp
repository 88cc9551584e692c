// Charts as standalone SVG elements, for the reports: no dependencies, no script, no external references,
// so a report stays one self-contained file that opens, scales and prints anywhere.
//
// Every text that comes from the caller goes through escape(). Points the axes cannot show (NaN, ±inf,
// beyond 1e±300, ≤ 0 on a log axis, outside a given min/max) are left out, and a note under the chart
// says how many and why. Tick labels are compact, with three significant digits unless the axis needs
// more to tell its ticks apart: 0, 0.25, 1, 500, then SI suffixes 1.5k, 2M, 1G, 10T from 1000 up to
// 1e15, and scientific notation (1e-12, 2.5e-6, 1e18) below 0.001 and from 1e15.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ladder::svg {

// Every member has a default ({}), so that designated initializers may leave any out under -Wextra.

// Text made safe for XML/HTML element content and attribute values (& < > " '). Control characters that
// XML forbids even when escaped become U+FFFD.
std::string escape(std::string_view text);

struct Point {
  double x = 0, y = 0;
  std::string label{};  // a tooltip (<title>) on the point; empty: "SERIES: x, y"
  std::string mark{};   // non-empty: a diamond around the point (<rect class="mark" data-mark="MARK">)
};
enum class Style { line, markers, line_and_markers, dashed };
// color: "#rgb" or "#rrggbb" (with or without alpha) or a CSS colour name; empty (or anything else): the
// palette's next, which is Okabe and Ito's colour-blind-safe set of eight.
struct Series {
  std::string name{};
  std::vector<Point> points{};
  Style style = Style::line_and_markers;
  std::string color{};
};
struct Axis {
  std::string label{};
  bool log = false;
  std::optional<double> min{}, max{};  // from the data, padded a little, where not given
  std::vector<double> ticks{};         // where given, the ticks (those in range) instead of the automatic
};
// A vertical line across the plot at x, labelled along it from the top: <g class="marker"
// data-marker="LABEL" data-x="X">. One outside the x axis' range is left out, and a note says so.
struct Marker {
  double x = 0;
  std::string label{};
};
struct Chart {
  std::string id{};  // the <svg>'s id and data-chart attribute
  std::string title{};
  Axis x{}, y{};
  std::vector<Series> series{};
  std::vector<std::string> notes{};  // short lines printed under the plot area
  int width = 720, height = 420;     // the plot with its axes; the legend and notes add rows below
  std::vector<Marker> markers{};
};
// A line/scatter chart: linear or log axes (log: decades with 1-2-5 or power-of-ten ticks), a legend,
// each series in <g class="series" data-series="NAME">, each point a <circle> (for markers) with <title>.
// The line styles draw a circle only for a point with no neighbour to join.
std::string line_chart(const Chart& chart);

struct Bar {
  std::string label{};
  double value = 0;
  std::string annotation{};
  std::string color{};
};
struct BarChart {
  std::string id{};
  std::string title{};
  std::string value_label{};
  bool log = false;
  std::vector<Bar> bars{};
  int width = 720;
};
// Horizontal bars, one row per bar, label on the left, annotation (e.g. "cost 4.5") on the right of the bar,
// each bar in <g class="bar" data-bar="LABEL">; log scale when `log` (values must be > 0 then).
std::string bar_chart(const BarChart& chart);

}  // namespace ladder::svg
