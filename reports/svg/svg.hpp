// Charts as standalone SVG elements, for the reports: no dependencies, no script, no external references,
// so a report stays one self-contained file that opens, scales and prints anywhere.
//
// Every text that comes from the caller goes through escape(). Points the axes cannot show (NaN, ±inf,
// beyond 1e±300, ≤ 0 on a log axis, outside a given min/max) are left out, and a note under the chart
// says how many and why. Tick labels are compact, with three significant digits unless the axis needs
// more to tell its ticks apart: 0, 0.25, 1, 500, then SI suffixes 1.5k, 2M, 1G, 10T from 1000 up to
// 1e15, and scientific notation (1e-12, 2.5e-6, 1e18) below 0.001 and from 1e15.
//
// A plot is what the caller describes (Plot: a line or scatter chart; BarPlot: bars); line_chart and
// bar_chart draw it. This header is the charts' one interface: each chart kind is drawn in a file of its
// own in svg/ (line.cpp, bar.cpp), on helpers shared there (the axes in axis.hpp, the label layout in
// labels.hpp, the series' looks in looks.hpp, the SVG elements and text boxes in elements.hpp).
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ladder::svg {

// Every member has a default ({}), so that designated initializers may leave any out under -Wextra.

// Text made safe for XML/HTML element content and attribute values (& < > " '). Control characters that
// XML forbids even when escaped become U+FFFD.
std::string escape(std::string_view text);

// The width, in pixels, a text is laid out with (the layout does not measure text): each character's by its
// kind, a little over DejaVu Sans' (the widest of the sans-serif fonts a headless browser falls back to).
double text_width(std::string_view text, double font_size = 12, bool bold = false);

struct Point {
  double x = 0, y = 0;
  std::string label{};  // a tooltip (<title>) on the point; empty: "SERIES: x, y"
  std::string mark{};   // non-empty: a diamond around the point (<rect class="mark" data-mark="MARK">)
  // Non-empty: a label beside the point (<text class="point-label">), placed clear of every other label,
  // point and the plot's edges, further out with a leader line where it must be.
  std::string tag{};
  bool emphasis = false;  // a larger marker and a bold tag
};
enum class Style { line, markers, line_and_markers, dashed };

// How a series is drawn, told apart beyond colour: its colour, its marker shape and its line's dash
// pattern ("solid", a stroke-dasharray such as "7 4", or "none": no line). Each <g class="series"> says
// its look in data-color, data-marker and data-dash, and no two series of one chart share one.
enum class Shape { circle, square, triangle, diamond, cross, plus, triangle_down, star, none };
std::string_view shape_name(Shape shape);  // "circle", …, "triangle-down", "star", "none"
struct Look {
  std::string color{};
  Shape shape = Shape::circle;
  std::string dash = "solid";
};
// The slot'th look of the sequence the charts draw from: the colours of Okabe and Ito's colour-blind-safe
// palette of eight, the eight shapes in another order, and four dash patterns, so that the first 256
// slots are all different and two slots of the same colour differ in shape and, past 8, in dash.
Look look(std::size_t slot);

// color: "#rgb" or "#rrggbb" (with or without alpha) or a CSS colour name; empty (or anything else): the
// look's. slot: the look this series keeps in every chart (e.g. a tier's rung), where no earlier series of
// the chart has it; otherwise (and where not given) the first look of the sequence no earlier series has.
// The style then takes away what it does not draw: the marker of a line or dashed series (whose points
// stay tooltips: small dots), the line of a markers series; a dashed series gets a dash.
//
// A band: from low to high at each x (e.g. the min and max over runs around their median), filled in the
// series' colour, faint, under every line: one <path class="band" data-band="NAME"> (not a g.series: it has
// no look of its own), in <g class="bands">, its legend entry a faint swatch named band_name (empty: "NAME
// range"). Spans in x order; one the axes cannot show is left out (noted), breaking the band there.
// right_axis: the series (and its band) on the chart's right axis, Plot::y2, rather than on y.
struct Span {
  double x = 0, low = 0, high = 0;
};
struct Series {
  std::string name{};
  std::vector<Point> points{};
  Style style = Style::line_and_markers;
  std::string color{};
  std::optional<std::size_t> slot{};
  std::vector<Span> band{};
  std::string band_name{};
  bool right_axis = false;
  bool bold = false;  // its line drawn thicker (stroke-width 4, data-bold="true"): the one to follow
};
struct Axis {
  std::string label{};
  bool log = false;
  std::optional<double> min{}, max{};  // from the data, padded a little, where not given
  std::vector<double> ticks{};         // where given, the ticks (those in range) instead of the automatic
  // Where given with the ticks (one each), their labels (e.g. commits) instead of their values; a label that
  // would overlap the one before is left out, as a number's is.
  std::vector<std::string> tick_labels{};
};
// A vertical line across the plot at x, labelled along it from the top: <g class="marker"
// data-marker="LABEL" data-x="X">. One outside the x axis' range is left out, and a note says so.
struct Marker {
  double x = 0;
  std::string label{};
  std::string tooltip{};  // non-empty: the marker's <title> (e.g. the change it marks, in figures)
};
// A line or scatter chart: its axes, series, markers and notes (line_chart draws it).
struct Plot {
  std::string id{};  // the <svg>'s id and data-chart attribute
  std::string title{};
  Axis x{}, y{};
  // The right axis, drawn where a series is on it (Series::right_axis): its own range, ticks and turned
  // label right of its tick labels (<g class="axis y2">); its grid is the left axis' alone. The end labels
  // then stand right of its label.
  Axis y2{};
  std::vector<Series> series{};
  std::vector<std::string> notes{};  // short lines printed under the plot area
  int width = 720, height = 420;     // the plot with its axes; the legend and notes add rows below
  std::vector<Marker> markers{};
  // Each line's name at its end, right of the plot (<text class="end-label">), moved apart where two would
  // overlap, with a thin leader line to the end it names when moved; the SVG widens to hold them.
  bool end_labels = true;
  double end_margin = 0;  // the end labels' margin at least this wide (share_axes: the same in each chart)
};
// A line/scatter chart: linear or log axes (log: decades with 1-2-5 or power-of-ten ticks), a legend,
// each series in <g class="series" data-series="NAME" data-color data-marker data-dash>, each point an
// element of class "point" (data-shape: its marker; data-cx, data-cy: its centre) with a <title>.
// No two texts overlap by the layout's own estimate of their size (tick labels that would are left out).
std::string line_chart(const Plot& chart);

// Small multiples: gives every chart the same x, y and y2 ranges (over all their drawable points and given
// bounds), the same given ticks (all of theirs) and the same end-label margin, so that side by side they
// read on the same axes at the same scale.
void share_axes(std::vector<Plot>& charts);

struct Bar {
  std::string label{};
  double value = 0;
  std::string annotation{};
  std::string color{};
};
// A bar chart: one bar a row on one value axis (bar_chart draws it).
struct BarPlot {
  std::string id{};
  std::string title{};
  std::string value_label{};
  bool log = false;
  std::vector<Bar> bars{};
  int width = 720;
  std::optional<double> min{}, max{};  // the value axis' range; from the bars, padded, where not given
};
// Horizontal bars, one row per bar, label on the left, annotation (e.g. "cost 4.5") on the right of the bar,
// each bar in <g class="bar" data-bar="LABEL">; log scale when `log` (values must be > 0 then).
std::string bar_chart(const BarPlot& chart);
// Small multiples of bar charts: the same value axis (over all their bars) in each.
void share_axes(std::vector<BarPlot>& charts);

}  // namespace ladder::svg
