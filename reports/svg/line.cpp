// The line and scatter charts (line_chart in svg.hpp) and their small multiples (share_axes): series in
// runs of drawable points, bands, markers, a legend, each line's name at its end and the points' tags.
#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "axis.hpp"
#include "elements.hpp"
#include "labels.hpp"
#include "looks.hpp"
#include "svg.hpp"

namespace ladder::svg {
using namespace detail;
namespace {

// Why a point cannot be drawn on these axes; empty if it can.
std::string_view left_out_because(const Point& point, const Scale& x, const Scale& y) {
  if (!plottable(point.x, false) || !plottable(point.y, false)) return "NaN, infinite or beyond 1e±300";
  if (!plottable(point.x, x.log) || !plottable(point.y, y.log)) return "≤ 0 on a log axis";
  if (!x.contains(point.x) || !y.contains(point.y)) return "outside the axis range";
  return {};
}

// A diamond around a marked point, in the series' colour, its mark as its tooltip.
std::string mark(const Point& point, double x, double y, std::string_view stroke) {
  return "<rect class=\"mark\"" + attribute("data-mark", point.mark) + " x=\"" + px(x - 6) + "\" y=\"" +
         px(y - 6) + "\" width=\"12\" height=\"12\" transform=\"rotate(45 " + px(x) + " " + px(y) +
         ")\" fill=\"none\" stroke=\"" + std::string(stroke) + "\" stroke-width=\"2\"><title>" +
         escape(point.mark) + "</title></rect>\n";
}

// The drawable points of a series in runs between the points left out (counted in `left_out` by why).
std::vector<std::vector<Drawn>> runs_of(const Series& series, const Scale& x, const Scale& y,
                                        std::map<std::string_view, int>& left_out, int& drawn) {
  std::vector<std::vector<Drawn>> runs(1);
  for (const auto& point : series.points) {
    const std::string_view why = left_out_because(point, x, y);
    if (why.empty()) {
      runs.back().push_back({&point, x.at(point.x), y.at(point.y)});
      ++drawn;
    } else {
      ++left_out[why];
      if (!runs.back().empty()) runs.emplace_back();
    }
  }
  if (runs.back().empty()) runs.pop_back();
  return runs;
}

// A series' <g>: a line through each run of drawable points (a point left out breaks the line rather than
// bridging the gap) and a marker on each point, each with its tooltip.
std::string series_group(const Series& series, const Look& look,
                         const std::vector<std::vector<Drawn>>& runs) {
  std::string path;
  for (const auto& run : runs)
    for (std::size_t index = 0; run.size() > 1 && index < run.size(); ++index)
      path += (index == 0 ? "M" : "L") + px(run[index].x) + " " + px(run[index].y);
  const std::string shape(shape_name(look.shape));
  // The dash as drawn: none where no two neighbouring points are left to join.
  const std::string dash = path.empty() ? std::string("none") : look.dash;
  std::string out = "<g class=\"series\"" + attribute("data-series", series.name) +
                    attribute("data-color", look.color) + attribute("data-marker", shape) +
                    attribute("data-dash", dash) + (series.bold ? " data-bold=\"true\"" : "") + " fill=\"" +
                    look.color + "\">\n";
  if (dash != "none")
    out += "<path class=\"line\" d=\"" + path + "\" fill=\"none\" stroke=\"" + look.color +
           "\" stroke-width=\"" + (series.bold ? "4" : "2") + "\"" + dash_attribute(look.dash) + "/>\n";
  for (const auto& run : runs)
    for (const auto& drawn : run) {
      const Point& point = *drawn.point;
      const std::string tooltip = !point.label.empty()
                                      ? point.label
                                      : series.name + ": " + compact(point.x, 4) + ", " + compact(point.y, 4);
      out += shape_element(look.shape, drawn.x, drawn.y, radius(point), look.color,
                           " class=\"point\"" + attribute("data-shape", shape) + " data-cx=\"" + px(drawn.x) +
                               "\" data-cy=\"" + px(drawn.y) + "\"",
                           "<title>" + escape(tooltip) + "</title>");
    }
  for (const auto& run : runs)
    for (const auto& drawn : run)
      if (!drawn.point->mark.empty()) out += mark(*drawn.point, drawn.x, drawn.y, look.color);
  return out;  // closed by the caller, after the series' labels
}

constexpr std::string_view band_opacity = "0.2";
std::string band_name(const Series& series) {
  return series.band_name.empty() ? series.name + " range" : series.band_name;
}

// Each band as one path (a piece per run of drawable spans: along the highs, back along the lows; a
// lone span 6 px wide), faint in its series' colour, with its name as the tooltip. `left_out` counts
// the spans the axes cannot show.
std::string bands_group(const std::vector<Series>& series, const std::vector<Look>& looks, const Scale& x,
                        const Scale& y, const Scale& y2, int& left_out) {
  std::string out;
  for (std::size_t index = 0; index < series.size(); ++index) {
    if (series[index].band.empty()) continue;
    const Scale& scale = series[index].right_axis ? y2 : y;
    std::vector<std::vector<std::array<double, 3>>> pieces(1);  // x, the high's y, the low's y in pixels
    for (const auto& span : series[index].band) {
      const bool shown = plottable(span.x, x.log) && x.contains(span.x) && plottable(span.low, scale.log) &&
                         plottable(span.high, scale.log) && scale.contains(span.low) &&
                         scale.contains(span.high);
      if (shown) {
        pieces.back().push_back(
            {x.at(span.x), scale.at(std::max(span.low, span.high)), scale.at(std::min(span.low, span.high))});
      } else {
        ++left_out;
        if (!pieces.back().empty()) pieces.emplace_back();
      }
    }
    std::string d;
    for (auto piece : pieces) {
      if (piece.size() == 1)
        piece = {{piece[0][0] - 3, piece[0][1], piece[0][2]}, {piece[0][0] + 3, piece[0][1], piece[0][2]}};
      for (std::size_t i = 0; i < piece.size(); ++i)
        d += (i == 0 ? "M" : "L") + px(piece[i][0]) + " " + px(piece[i][1]);
      for (auto it = piece.rbegin(); it != piece.rend(); ++it) d += "L" + px((*it)[0]) + " " + px((*it)[2]);
      if (!piece.empty()) d += "Z";
    }
    if (d.empty()) continue;
    out += "<path class=\"band\"" + attribute("data-band", series[index].name) + " d=\"" + d + "\" fill=\"" +
           looks[index].color + "\" fill-opacity=\"" + std::string(band_opacity) +
           "\" stroke=\"none\"><title>" + escape(band_name(series[index])) + "</title></path>\n";
  }
  return out.empty() ? "" : "<g class=\"bands\">\n" + out + "</g>\n";
}

// The legend flows in rows from `top` down, within the frame's width; `top` ends below its last row.
std::string legend(const std::vector<Series>& series, const std::vector<Look>& looks, const Frame& frame,
                   double& top) {
  std::string out = "<g class=\"legend\">\n";
  double x = frame.left;
  for (std::size_t index = 0; index < series.size(); ++index) {
    const double entry_width = 30 + text_width(series[index].name);
    if (x > frame.left && x + entry_width > frame.right) {
      x = frame.left;
      top += 18;
    }
    out += swatch(looks[index], x, top) + text(x + 28, top + 4, series[index].name);
    x += entry_width + 16;
    if (series[index].band.empty()) continue;
    const std::string name = band_name(series[index]);
    const double band_width = 30 + text_width(name);
    if (x + band_width > frame.right) {
      x = frame.left;
      top += 18;
    }
    out += "<rect class=\"swatch\" x=\"" + px(x) + "\" y=\"" + px(top - 6) +
           "\" width=\"22\" height=\"12\" fill=\"" + looks[index].color + "\" fill-opacity=\"" +
           std::string(band_opacity) + "\"/>\n" + text(x + 28, top + 4, name);
    x += band_width + 16;
  }
  if (!series.empty()) top += 6;
  return out + "</g>\n";
}

// The values of the series (and bands) on one side's y axis that the axes can show, and their xs.
void collect(const std::vector<Series>& series, bool right, bool log_x, bool log_y, std::vector<double>& xs,
             std::vector<double>& ys) {
  for (const auto& one : series) {
    if (one.right_axis != right) continue;
    for (const auto& point : one.points)
      if (plottable(point.x, log_x) && plottable(point.y, log_y)) {
        xs.push_back(point.x);
        ys.push_back(point.y);
      }
    for (const auto& span : one.band)
      if (plottable(span.x, log_x) && plottable(span.low, log_y) && plottable(span.high, log_y)) {
        xs.push_back(span.x);
        ys.push_back(span.low);
        ys.push_back(span.high);
      }
  }
}

bool has_right_axis(const Plot& chart) {
  return std::any_of(chart.series.begin(), chart.series.end(),
                     [](const Series& one) { return one.right_axis; });
}

double end_label_width(const Plot& chart) {
  double widest = 0;
  if (chart.end_labels)
    for (const auto& series : chart.series)
      if (series.style != Style::markers) widest = std::max(widest, text_width(series.name));
  return std::max(widest > 0 ? widest + 22 : 0.0, chart.end_margin);
}

}  // namespace

std::string line_chart(const Plot& chart) {
  const double width = std::max(chart.width, 240), height = std::max(chart.height, 160);
  const bool right = has_right_axis(chart);
  std::vector<double> xs, ys, y2s;
  collect(chart.series, false, chart.x.log, chart.y.log, xs, ys);
  collect(chart.series, true, chart.x.log, chart.y2.log, xs, y2s);
  const Range x_range = axis_range(xs, chart.x.log, chart.x.min, chart.x.max);
  const Range y_range = axis_range(ys, chart.y.log, chart.y.min, chart.y.max);
  const Range y2_range = axis_range(y2s, chart.y2.log, chart.y2.min, chart.y2.max);
  // The y tick labels decide the left margin: right of the turned axis title, left of the plot; the right
  // axis' its width right of the plot.
  Frame frame{64, 40, width - 16, height - 44};
  const Scale y_first{y_range, chart.y.log, frame.bottom, frame.top};
  frame.left = std::max(
      64.0, 16 + 0.28 * font_size + 6 + widest_label(ticks_drawn(y_first, Side::left, frame, chart.y)) + 6);
  const Scale y2{y2_range, chart.y2.log, frame.bottom, frame.top};
  const std::vector<Tick> y2_ticks =
      right ? ticks_drawn(y2, Side::right, frame, chart.y2) : std::vector<Tick>{};
  if (right) frame.right -= right_axis_width(y2_ticks);
  const double end_margin = end_label_width(chart);
  const Scale x{x_range, chart.x.log, frame.left, frame.right};
  const Scale y{y_range, chart.y.log, frame.bottom, frame.top};

  const std::vector<Look> looks = looks_of(chart.series);
  std::vector<std::string> notes = chart.notes;
  std::map<std::string_view, int> left_out;  // points, by the reason
  int drawn = 0;
  std::vector<std::vector<std::vector<Drawn>>> runs;
  for (const auto& series : chart.series) {
    runs.push_back(runs_of(series, x, series.right_axis ? y2 : y, left_out, drawn));
    if (series.points.empty() && !xs.empty()) notes.push_back(series.name + ": no points");
  }
  for (const auto& [why, count] : left_out)
    notes.push_back(std::to_string(count) + (count == 1 ? " point" : " points") +
                    " left out: " + std::string(why));
  int intervals_left_out = 0;
  const std::string bands = bands_group(chart.series, looks, x, y, y2, intervals_left_out);
  if (intervals_left_out > 0)
    notes.push_back(std::to_string(intervals_left_out) +
                    (intervals_left_out == 1 ? " band interval" : " band intervals") +
                    " left out: beyond the axes or not finite");
  int markers_left_out = 0;
  std::vector<Box> boxes;
  const std::string marker_lines =
      chart.markers.empty() ? "" : markers_group(chart.markers, x, frame, markers_left_out, boxes);
  if (markers_left_out > 0)
    notes.push_back(std::to_string(markers_left_out) + (markers_left_out == 1 ? " marker" : " markers") +
                    " left out: outside the axis range");
  const double end_x = right ? width : frame.right + 16;
  const auto ends = chart.end_labels ? end_labels(chart.series, looks, runs, frame, end_x, right)
                                     : std::vector<std::vector<Label>>(chart.series.size());
  // Tags may use a margin right of the plot (as wide as the widest tag) where their point is at its edge;
  // the chart widens by what they use.
  double widest_tag = 0;
  for (const auto& series : chart.series)
    for (const auto& point : series.points)
      if (!point.tag.empty())
        widest_tag = std::max(widest_tag, text_width(point.tag, font_size, point.emphasis));
  for (const auto& series_ends : ends)
    for (const auto& label : series_ends) boxes.push_back(label.box);
  std::vector<std::string> untagged;
  const auto tags = point_labels(chart.series, runs, frame, boxes, widest_tag + 16, untagged);
  double tag_margin = 0;
  for (const auto& series_tags : tags)
    for (const auto& tag : series_tags)
      tag_margin = std::max(tag_margin, tag.box.right + 8 - (frame.right + 16));
  if (!untagged.empty()) {
    std::string names;
    for (const auto& name : untagged) names += (names.empty() ? "" : ", ") + name;
    notes.push_back("Not tagged for lack of room: " + names + " (each point's tooltip names it).");
  }

  std::string plot = bands;
  double lowest = height;
  for (std::size_t index = 0; index < chart.series.size(); ++index) {
    plot += series_group(chart.series[index], looks[index], runs[index]);
    plot += labels_text(tags[index], "point-label");
    plot += labels_text(ends[index], "end-label");
    plot += "</g>\n";
    for (const auto& label : ends[index]) lowest = std::max(lowest, label.box.bottom + 6);
  }
  double notes_top = lowest + 8;
  const std::string legend_group = legend(chart.series, looks, frame, notes_top);
  std::string out = open_svg(chart.id, chart.title, width + std::max(end_margin, tag_margin),
                             notes_top + 16 * static_cast<double>(notes.size()) + 10);
  out += axis(ticks_drawn(x, Side::bottom, frame, chart.x), Side::bottom, frame, chart.x.label) +
         axis(ticks_drawn(y, Side::left, frame, chart.y), Side::left, frame, chart.y.label);
  if (right) out += axis(y2_ticks, Side::right, frame, chart.y2.label);
  if (drawn == 0) out += no_data(frame);
  // The markers over the series, so that their labels read on their halo.
  return out + plot + marker_lines + legend_group + notes_below(notes, frame.left, notes_top) + "</svg>\n";
}

namespace {

// One axis of every chart made the same: the range over all their values on it (`values` collects a chart's)
// and given bounds, all given ticks with their labels.
template <typename Values>
void share(std::vector<Plot>& charts, Axis Plot::*axis, Values values_of) {
  const bool log = (charts.front().*axis).log;
  std::vector<double> values;
  std::vector<std::pair<double, std::string>> ticks;
  bool labelled = true;
  std::optional<double> lo, hi;
  bool every_lo = true, every_hi = true;
  for (const auto& chart : charts) {
    for (const double value : values_of(chart, log))
      if (plottable(value, log)) values.push_back(value);
    const Axis& given = chart.*axis;
    if (given.min && plottable(*given.min, log))
      lo = std::min(lo.value_or(*given.min), *given.min);
    else
      every_lo = false;
    if (given.max && plottable(*given.max, log))
      hi = std::max(hi.value_or(*given.max), *given.max);
    else
      every_hi = false;
    labelled = labelled && given.tick_labels.size() == given.ticks.size();
    for (std::size_t index = 0; index < given.ticks.size(); ++index)
      ticks.emplace_back(given.ticks[index],
                         index < given.tick_labels.size() ? given.tick_labels[index] : std::string());
  }
  const Range data = data_range(values, log);
  Range range{every_lo ? *lo : std::min(lo.value_or(data.lo), data.lo),
              every_hi ? *hi : std::max(hi.value_or(data.hi), data.hi)};
  if (!(range.lo < range.hi)) range = data;
  std::stable_sort(ticks.begin(), ticks.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  ticks.erase(std::unique(ticks.begin(), ticks.end(),
                          [](const auto& a, const auto& b) { return a.first == b.first; }),
              ticks.end());
  for (auto& chart : charts) {
    (chart.*axis).min = range.lo;
    (chart.*axis).max = range.hi;
    if (ticks.empty()) continue;
    (chart.*axis).ticks.clear();
    (chart.*axis).tick_labels.clear();
    for (const auto& [value, label] : ticks) {
      (chart.*axis).ticks.push_back(value);
      if (labelled) (chart.*axis).tick_labels.push_back(label);
    }
  }
}

// A chart's values on x, or on the left or the right y axis (bands included).
std::vector<double> x_values(const Plot& chart, bool log) {
  std::vector<double> xs, ys;
  collect(chart.series, false, log, false, xs, ys);
  collect(chart.series, true, log, false, xs, ys);
  return xs;
}
std::vector<double> y_values(const Plot& chart, bool right, bool log) {
  std::vector<double> xs, ys;
  collect(chart.series, right, false, log, xs, ys);
  return ys;
}

}  // namespace

void share_axes(std::vector<Plot>& charts) {
  if (charts.size() < 2) return;
  share(charts, &Plot::x, x_values);
  share(charts, &Plot::y, [](const Plot& chart, bool log) { return y_values(chart, false, log); });
  if (std::any_of(charts.begin(), charts.end(), has_right_axis))
    share(charts, &Plot::y2, [](const Plot& chart, bool log) { return y_values(chart, true, log); });
  double margin = 0;
  for (const auto& chart : charts) margin = std::max(margin, end_label_width(chart));
  for (auto& chart : charts) chart.end_margin = margin;
}

}  // namespace ladder::svg
