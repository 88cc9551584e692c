#include "svg.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <utility>

namespace ladder::svg {
namespace {

// Okabe and Ito's palette, strongest on white first; yellow last, as thin lines in it are faint on paper.
constexpr std::array<std::string_view, 8> palette = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                                     "#E69F00", "#56B4E9", "#000000", "#F0E442"};
constexpr std::string_view font_stack =
    "system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif";
// Text is laid out without measuring it: an average character of the 12px font is about this wide.
constexpr double char_width = 7;
// Differences of larger values overflow, and smaller positive ones lose their logarithm's padding.
constexpr double largest = 1e300, smallest_positive = 1e-300;

// No precision: the shortest text that reads back as the same double.
std::string chars(double value, std::chars_format format, int precision = -1) {
  std::array<char, 64> buffer{};
  char* const first = buffer.data();
  char* const last = first + buffer.size();
  return {first, precision < 0 ? std::to_chars(first, last, value, format).ptr
                               : std::to_chars(first, last, value, format, precision).ptr};
}

// Pixel coordinates: a tenth of a pixel is finer than any screen or printer shows.
std::string px(double value) {
  if (!std::isfinite(value)) return "0";  // never reached for what is drawn; the file must not say NaN
  std::string text = chars(value, std::chars_format::fixed, 1);
  if (text.ends_with(".0")) text.resize(text.size() - 2);
  return text == "-0" ? "0" : text;
}

// The tick-label format described in svg.hpp.
std::string compact(double value, int significant = 3) {
  if (!std::isfinite(value)) return "?";
  // Rounded first, so that 999.96 becomes "1k" rather than "1e+03".
  const std::string rounded_text = chars(value, std::chars_format::scientific, significant - 1);
  double rounded = 0;
  std::from_chars(rounded_text.data(), rounded_text.data() + rounded_text.size(), rounded);
  const double magnitude = std::fabs(rounded);
  if (magnitude == 0) return "0";
  if (magnitude < 1e-3 || magnitude >= 1e15) {
    const std::string text = chars(rounded, std::chars_format::scientific);  // "2.5e-06", "1e+18"
    const auto e = text.find('e');
    return text.substr(0, e + 1) + std::to_string(std::stoi(text.substr(e + 1)));
  }
  constexpr std::pair<double, const char*> suffixes[] = {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
  for (const auto& [scale, suffix] : suffixes)
    if (magnitude >= scale) return chars(rounded / scale, std::chars_format::general, significant) + suffix;
  return chars(rounded, std::chars_format::general, significant);
}

std::string attribute(std::string_view name, std::string_view value) {
  return " " + std::string(name) + "=\"" + escape(value) + "\"";
}

std::string text(double x, double y, std::string_view content, std::string_view attributes = "") {
  return "<text x=\"" + px(x) + "\" y=\"" + px(y) + "\"" + std::string(attributes) + ">" + escape(content) +
         "</text>\n";
}

std::string line(double x1, double y1, double x2, double y2, std::string_view stroke) {
  return "<line x1=\"" + px(x1) + "\" y1=\"" + px(y1) + "\" x2=\"" + px(x2) + "\" y2=\"" + px(y2) +
         "\" stroke=\"" + std::string(stroke) + "\"/>\n";
}

// A caller's colour lands in an attribute: only a hex colour or a plain name gets there, so that a value
// such as url(http://…) cannot make the chart fetch anything.
std::string colour(std::string_view wanted, std::size_t& next_in_palette) {
  const bool hex =
      wanted.size() > 1 && wanted.size() <= 9 && wanted[0] == '#' &&
      std::all_of(wanted.begin() + 1, wanted.end(), [](unsigned char c) { return std::isxdigit(c) != 0; });
  const bool name =
      !wanted.empty() && wanted.size() <= 20 &&
      std::all_of(wanted.begin(), wanted.end(), [](unsigned char c) { return std::isalpha(c) != 0; });
  if (hex || name) return std::string(wanted);
  return std::string(palette[next_in_palette++ % palette.size()]);
}

double text_width(std::string_view content) {  // in characters of UTF-8, not bytes
  return char_width * static_cast<double>(std::count_if(content.begin(), content.end(), [](char c) {
           return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
         }));
}

bool plottable(double value, bool log) {
  return std::isfinite(value) && std::fabs(value) <= largest && (!log || value >= smallest_positive);
}

struct Range {
  double lo, hi;
};

Range data_range(const std::vector<double>& values, bool log) {
  if (values.empty()) return log ? Range{1, 10} : Range{0, 1};
  const auto [low, high] = std::minmax_element(values.begin(), values.end());
  const double lo = *low, hi = *high;
  if (log) {  // padded in decades, at most one, so that the bounds stay finite and positive
    const double padding =
        lo == hi ? std::log10(2.0) : std::min(1.0, 0.05 * (std::log10(hi) - std::log10(lo)));
    return {lo / std::pow(10.0, padding), hi * std::pow(10.0, padding)};
  }
  const double padding = lo == hi ? (lo == 0 ? 1 : std::fabs(lo) * 0.1) : 0.05 * (hi - lo);
  Range range{lo - padding, hi + padding};
  if (lo >= 0 && range.lo < 0) range.lo = 0;  // times and sizes: no negative half-tick under them
  return range;
}

Range axis_range(const std::vector<double>& values, bool log, std::optional<double> min,
                 std::optional<double> max) {
  const Range from_data = data_range(values, log);
  const auto usable = [log](std::optional<double> bound) { return bound && plottable(*bound, log); };
  const Range wanted{usable(min) ? *min : from_data.lo, usable(max) ? *max : from_data.hi};
  return wanted.lo < wanted.hi ? wanted : from_data;
}

// Maps an axis range onto pixels.
struct Scale {
  Range range;
  bool log;
  double start, end;
  double at(double value) const {
    const auto position = [this](double v) { return log ? std::log10(v) : v; };
    const double t = (position(value) - position(range.lo)) / (position(range.hi) - position(range.lo));
    return start + t * (end - start);
  }
  bool contains(double value) const { return value >= range.lo && value <= range.hi; }
};

struct Ticks {
  std::vector<double> values;
  int significant = 3;  // digits the labels need to differ
};

Ticks linear_ticks(Range range) {
  const double raw_step = (range.hi - range.lo) / 5;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw_step)));
  const double normalized = raw_step / magnitude;
  const double step = (normalized < 1.5 ? 1 : normalized < 3 ? 2 : normalized < 7 ? 5 : 10) * magnitude;
  if (!std::isnormal(step)) return {{range.lo, range.hi}, 15};  // a given range too narrow to divide
  Ticks ticks;
  // Multiples of the step, not sums of it, so that 0.1 + 0.1 + 0.1 does not drift off 0.3.
  for (double k = std::ceil(range.lo / step - 1e-9); k * step <= range.hi + step * 1e-9; ++k) {
    ticks.values.push_back(k * step);
    if (ticks.values.size() > 20) break;
  }
  const double largest_tick = std::max(std::fabs(range.lo), std::fabs(range.hi));
  ticks.significant = std::clamp(static_cast<int>(std::ceil(std::log10(largest_tick / step))) + 1, 3, 15);
  return ticks;
}

// Powers of ten over three decades or more (every second, third… one past eight decades); 1-2-5 within
// fewer; evenly spaced ticks where not even two of those fall in the range.
Ticks log_ticks(Range range) {
  const int first = static_cast<int>(std::ceil(std::log10(range.lo) - 1e-9));
  const int last = static_cast<int>(std::floor(std::log10(range.hi) + 1e-9));
  Ticks ticks;
  if (last - first + 1 >= 3) {
    const int stride = (last - first + 8) / 8;
    for (int exponent = first; exponent <= last; ++exponent)
      if ((exponent % stride + stride) % stride == 0) ticks.values.push_back(std::pow(10.0, exponent));
    return ticks;
  }
  for (int exponent = first - 1; exponent <= last; ++exponent)
    for (double multiple : {1.0, 2.0, 5.0}) {
      const double value = multiple * std::pow(10.0, exponent);
      if (value >= range.lo * (1 - 1e-9) && value <= range.hi * (1 + 1e-9)) ticks.values.push_back(value);
    }
  return ticks.values.size() >= 2 ? ticks : linear_ticks(range);
}

Ticks ticks_for(const Scale& scale, const std::vector<double>& wanted) {
  if (wanted.empty()) return scale.log ? log_ticks(scale.range) : linear_ticks(scale.range);
  Ticks ticks{{}, 4};
  for (const double value : wanted)
    if (plottable(value, scale.log) && scale.contains(value)) ticks.values.push_back(value);
  return ticks;
}

struct Frame {  // the plot area, in pixels
  double left, top, right, bottom;
};

std::string open_svg(std::string_view id, std::string_view title, double width, double height) {
  std::string out =
      "<svg xmlns=\"http://www.w3.org/2000/svg\"" + attribute("id", id) + attribute("data-chart", id) +
      " viewBox=\"0 0 " + px(width) + " " + px(height) + "\" width=\"" + px(width) + "\" height=\"" +
      px(height) + "\" role=\"img\" style=\"max-width:100%;height:auto\"" +
      attribute("font-family", font_stack) + " font-size=\"12\">\n<title>" + escape(title) + "</title>\n";
  out += "<rect width=\"" + px(width) + "\" height=\"" + px(height) + "\" fill=\"#fff\"/>\n";
  return out + text(width / 2, 22, title, " text-anchor=\"middle\" font-size=\"15\" font-weight=\"600\"");
}

// Grid lines and labelled ticks across the frame, the axis line and its label.
std::string axis(const Scale& scale, bool horizontal, const Frame& frame, std::string_view label,
                 const std::vector<double>& wanted_ticks = {}) {
  std::string out = std::string("<g class=\"axis ") + (horizontal ? "x" : "y") + "\" fill=\"#333\">\n";
  const Ticks ticks = ticks_for(scale, wanted_ticks);
  for (double value : ticks.values) {
    const double at = scale.at(value);
    const std::string tick_label = compact(value, ticks.significant);
    if (horizontal) {
      out += line(at, frame.top, at, frame.bottom, "#e4e4e4");
      out += text(at, frame.bottom + 16, tick_label, " text-anchor=\"middle\"");
    } else {
      out += line(frame.left, at, frame.right, at, "#e4e4e4");
      out += text(frame.left - 6, at + 4, tick_label, " text-anchor=\"end\"");
    }
  }
  if (horizontal) {
    out += line(frame.left, frame.bottom, frame.right, frame.bottom, "#444");
    out += text((frame.left + frame.right) / 2, frame.bottom + 34, label, " text-anchor=\"middle\"");
  } else {
    out += line(frame.left, frame.top, frame.left, frame.bottom, "#444");
    const std::string middle = px((frame.top + frame.bottom) / 2);
    out += text(16, (frame.top + frame.bottom) / 2, label,
                " text-anchor=\"middle\" transform=\"rotate(-90 16 " + middle + ")\"");
  }
  return out + "</g>\n";
}

std::string notes_below(const std::vector<std::string>& notes, double left, double top) {
  std::string out = "<g class=\"notes\" fill=\"#555\">\n";
  for (std::size_t index = 0; index < notes.size(); ++index)
    out += text(left, top + 16 * static_cast<double>(index + 1), notes[index]);
  return out + "</g>\n";
}

// A legend's sample of a series: a short stroke for the line styles, a square for markers alone (not a
// circle, so that every <circle> in the chart is a data point).
std::string swatch(Style style, std::string_view stroke, double x, double y) {
  if (style == Style::markers)
    return "<rect x=\"" + px(x + 6) + "\" y=\"" + px(y - 4) + "\" width=\"8\" height=\"8\" fill=\"" +
           std::string(stroke) + "\"/>\n";
  return "<line x1=\"" + px(x) + "\" y1=\"" + px(y) + "\" x2=\"" + px(x + 20) + "\" y2=\"" + px(y) +
         "\" stroke=\"" + std::string(stroke) + "\" stroke-width=\"2\"" +
         (style == Style::dashed ? " stroke-dasharray=\"6 4\"" : "") + "/>\n";
}

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

// Vertical lines at the markers within the x axis' range, each labelled along it from the top; `left_out`
// counts the others.
std::string markers_group(const std::vector<Marker>& markers, const Scale& x, const Frame& frame,
                          int& left_out) {
  std::string out = "<g class=\"markers\" fill=\"#555\" font-size=\"11\">\n";
  for (const auto& marker : markers) {
    if (!plottable(marker.x, x.log) || !x.contains(marker.x)) {
      ++left_out;
      continue;
    }
    const double at = x.at(marker.x);
    out += "<g class=\"marker\"" + attribute("data-marker", marker.label) +
           attribute("data-x", chars(marker.x, std::chars_format::general)) + ">\n";
    out += "<line x1=\"" + px(at) + "\" y1=\"" + px(frame.top) + "\" x2=\"" + px(at) + "\" y2=\"" +
           px(frame.bottom) + "\" stroke=\"#888\" stroke-dasharray=\"2 3\"/>\n";
    out +=
        text(at - 3, frame.top + 4, marker.label,
             " text-anchor=\"end\" transform=\"rotate(-90 " + px(at - 3) + " " + px(frame.top + 4) + ")\"");
    out += "</g>\n";
  }
  return out + "</g>\n";
}

// A series' <g>: a line through each run of drawable points (a point left out breaks the line rather than
// bridging the gap) and the markers, each with its tooltip.
std::string series_group(const Series& series, std::string_view colour, const Scale& x, const Scale& y,
                         std::map<std::string_view, int>& left_out, int& drawn) {
  struct Drawn {
    const Point* point;
    double x, y;
  };
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
  std::string path;
  for (const auto& run : runs)
    for (std::size_t index = 0; run.size() > 1 && index < run.size(); ++index)
      path += (index == 0 ? "M" : "L") + px(run[index].x) + " " + px(run[index].y);

  const std::string stroke(colour);
  std::string out =
      "<g class=\"series\"" + attribute("data-series", series.name) + " fill=\"" + stroke + "\">\n";
  if (series.style != Style::markers && !path.empty())
    out += "<path d=\"" + path + "\" fill=\"none\" stroke=\"" + stroke + "\" stroke-width=\"2\"" +
           (series.style == Style::dashed ? " stroke-dasharray=\"6 4\"" : "") + "/>\n";
  const bool markers = series.style == Style::markers || series.style == Style::line_and_markers;
  for (const auto& run : runs)
    for (const auto& drawn_point : run) {
      if (!markers && run.size() > 1) continue;  // a lone point of a line is shown as a marker
      const Point& point = *drawn_point.point;
      const std::string tooltip = !point.label.empty()
                                      ? point.label
                                      : series.name + ": " + compact(point.x, 4) + ", " + compact(point.y, 4);
      out += "<circle cx=\"" + px(drawn_point.x) + "\" cy=\"" + px(drawn_point.y) +
             "\" r=\"3.5\" stroke=\"#fff\"><title>" + escape(tooltip) + "</title></circle>\n";
    }
  for (const auto& run : runs)
    for (const auto& drawn_point : run)
      if (!drawn_point.point->mark.empty())
        out += mark(*drawn_point.point, drawn_point.x, drawn_point.y, stroke);
  return out + "</g>\n";
}

// The legend flows in rows from `top` down, within the frame's width; `top` ends below its last row.
std::string legend(const std::vector<Series>& series, const std::vector<std::string>& colours,
                   const Frame& frame, double& top) {
  std::string out = "<g class=\"legend\">\n";
  double x = frame.left;
  for (std::size_t index = 0; index < series.size(); ++index) {
    const double entry_width = 34 + text_width(series[index].name);
    if (x > frame.left && x + entry_width > frame.right) {
      x = frame.left;
      top += 18;
    }
    out += swatch(series[index].style, colours[index], x, top) + text(x + 26, top + 4, series[index].name);
    x += entry_width + 16;
  }
  if (!series.empty()) top += 6;
  return out + "</g>\n";
}

std::string no_data(const Frame& frame) {
  return text((frame.left + frame.right) / 2, (frame.top + frame.bottom) / 2 + 4, "no data",
              " class=\"no-data\" text-anchor=\"middle\" fill=\"#777\" font-size=\"14\"");
}

}  // namespace

std::string escape(std::string_view text) {
  constexpr std::pair<char, std::string_view> entities[] = {
      {'&', "&amp;"}, {'<', "&lt;"}, {'>', "&gt;"}, {'"', "&quot;"}, {'\'', "&#39;"}};
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto entity = std::find_if(std::begin(entities), std::end(entities),
                                     [c](const auto& candidate) { return candidate.first == c; });
    // Control characters other than tab and line breaks are not allowed in XML at all, even escaped.
    const bool forbidden = static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r';
    if (entity != std::end(entities))
      out += entity->second;
    else
      out += forbidden ? std::string_view("\xEF\xBF\xBD") : std::string_view(&c, 1);
  }
  return out;
}

std::string line_chart(const Chart& chart) {
  const double width = std::max(chart.width, 240), height = std::max(chart.height, 160);
  const Frame frame{64, 40, width - 16, height - 44};

  std::vector<double> xs, ys;
  for (const auto& series : chart.series)
    for (const auto& point : series.points)
      if (plottable(point.x, chart.x.log) && plottable(point.y, chart.y.log)) {
        xs.push_back(point.x);
        ys.push_back(point.y);
      }
  const Scale x{axis_range(xs, chart.x.log, chart.x.min, chart.x.max), chart.x.log, frame.left, frame.right};
  const Scale y{axis_range(ys, chart.y.log, chart.y.min, chart.y.max), chart.y.log, frame.bottom, frame.top};

  std::string plot;
  std::vector<std::string> notes = chart.notes, colours;
  std::map<std::string_view, int> left_out;  // points, by the reason
  int drawn = 0;
  std::size_t next_in_palette = 0;
  for (const auto& series : chart.series) {
    colours.push_back(colour(series.color, next_in_palette));
    plot += series_group(series, colours.back(), x, y, left_out, drawn);
    if (series.points.empty() && !xs.empty()) notes.push_back(series.name + ": no points");
  }
  for (const auto& [why, count] : left_out)
    notes.push_back(std::to_string(count) + (count == 1 ? " point" : " points") +
                    " left out: " + std::string(why));
  int markers_left_out = 0;
  const std::string marker_lines =
      chart.markers.empty() ? "" : markers_group(chart.markers, x, frame, markers_left_out);
  if (markers_left_out > 0)
    notes.push_back(std::to_string(markers_left_out) + (markers_left_out == 1 ? " marker" : " markers") +
                    " left out: outside the axis range");

  double notes_top = height + 8;
  const std::string legend_group = legend(chart.series, colours, frame, notes_top);
  std::string out =
      open_svg(chart.id, chart.title, width, notes_top + 16 * static_cast<double>(notes.size()) + 10);
  out += axis(x, true, frame, chart.x.label, chart.x.ticks) +
         axis(y, false, frame, chart.y.label, chart.y.ticks);
  if (drawn == 0) out += no_data(frame);
  // The markers over the series, so that their labels read on their halo.
  return out + plot + marker_lines + legend_group + notes_below(notes, frame.left, notes_top) + "</svg>\n";
}

std::string bar_chart(const BarChart& chart) {
  const double width = std::max(chart.width, 320);
  double label_width = 0, annotation_width = 0;
  for (const auto& bar : chart.bars) {
    label_width = std::max(label_width, text_width(bar.label));
    annotation_width = std::max(annotation_width, text_width(bar.annotation));
  }
  constexpr double row = 26, thickness = 18;
  const double top = 40,
               bottom = top + row * static_cast<double>(std::max<std::size_t>(chart.bars.size(), 1));
  const Frame frame{std::clamp(label_width + 14, 60.0, width * 0.35), top,
                    width - std::clamp(annotation_width + 14, 20.0, width * 0.3), bottom};

  std::vector<double> values;
  if (!chart.log) values.push_back(0);  // linear bars start at zero, which must be on the axis
  for (const auto& bar : chart.bars)
    if (plottable(bar.value, chart.log)) values.push_back(bar.value);
  const Scale scale{axis_range(values, chart.log, std::nullopt, std::nullopt), chart.log, frame.left,
                    frame.right};
  const double base = scale.at(chart.log ? scale.range.lo : 0.0);

  std::string bars;
  int left_out = 0;
  std::size_t next_in_palette = 0;
  for (std::size_t index = 0; index < chart.bars.size(); ++index) {
    const Bar& bar = chart.bars[index];
    const double middle = top + row * (static_cast<double>(index) + 0.5);
    bars += "<g class=\"bar\"" + attribute("data-bar", bar.label) + "><title>" +
            escape(bar.label + ": " + compact(bar.value, 4) + " " + chart.value_label) + "</title>\n";
    bars += text(frame.left - 8, middle + 4, bar.label, " text-anchor=\"end\"");
    double annotation_x = base + 70;
    if (plottable(bar.value, chart.log)) {
      const double end = scale.at(bar.value);
      bars += "<rect x=\"" + px(std::min(base, end)) + "\" y=\"" + px(middle - thickness / 2) +
              "\" width=\"" + px(std::fabs(end - base)) + "\" height=\"" + px(thickness) + "\" fill=\"" +
              colour(bar.color, next_in_palette) + "\"/>\n";
      annotation_x = std::max(base, end) + 6;
    } else {
      ++left_out;
      bars += text(base + 6, middle + 4, "not drawn", " fill=\"#777\"");
    }
    bars += text(annotation_x, middle + 4, bar.annotation, " fill=\"#333\"") + "</g>\n";
  }

  std::vector<std::string> notes;
  if (left_out > 0)
    notes.push_back(std::to_string(left_out) + (left_out == 1 ? " bar" : " bars") +
                    " not drawn: " + (chart.log ? "≤ 0 or not finite on a log scale" : "not finite"));
  const double notes_top = bottom + 44;
  std::string out =
      open_svg(chart.id, chart.title, width, notes_top + 16 * static_cast<double>(notes.size()) + 10);
  out += axis(scale, true, frame, chart.value_label);
  if (chart.bars.empty()) out += no_data(frame);
  out += bars + line(base, top, base, bottom, "#444") + notes_below(notes, frame.left, notes_top);
  return out + "</svg>\n";
}

}  // namespace ladder::svg
