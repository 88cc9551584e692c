#include "svg.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <numbers>
#include <utility>

namespace ladder::svg {
namespace {

// Okabe and Ito's palette, strongest on white first; yellow last, as thin lines in it are faint on paper.
constexpr std::array<std::string_view, 8> palette = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                                     "#E69F00", "#56B4E9", "#000000", "#F0E442"};
constexpr std::string_view font_stack =
    "system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif";
// Text is laid out without measuring it: each character's width at 12px is estimated from its kind, a
// little over DejaVu Sans' (the widest of the usual sans-serif fonts a headless browser falls back to).
constexpr double font_size = 12;
constexpr double pi = std::numbers::pi;
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
bool valid_colour(std::string_view wanted) {
  const bool hex =
      wanted.size() > 1 && wanted.size() <= 9 && wanted[0] == '#' &&
      std::all_of(wanted.begin() + 1, wanted.end(), [](unsigned char c) { return std::isxdigit(c) != 0; });
  const bool name =
      !wanted.empty() && wanted.size() <= 20 &&
      std::all_of(wanted.begin(), wanted.end(), [](unsigned char c) { return std::isalpha(c) != 0; });
  return hex || name;
}

std::string colour(std::string_view wanted, std::size_t& next_in_palette) {
  if (valid_colour(wanted)) return std::string(wanted);
  return std::string(palette[next_in_palette++ % palette.size()]);
}

// A character's width at 12px by its kind; UTF-8 continuation bytes add nothing.
double char_width(unsigned char c) {
  if ((c & 0xC0) == 0x80) return 0;
  if (c >= 0x80) return 10.5;  // ×, ÷, ≤, ±, …, ², letters with accents
  if (std::string_view("il.,:;'|!j ").find(static_cast<char>(c)) != std::string_view::npos) return 4.4;
  if (std::string_view("frt()[]{}-/\\\"`I").find(static_cast<char>(c)) != std::string_view::npos) return 5.6;
  if (c == 'm' || c == 'w' || c == 'M' || c == 'W' || c == '%' || c == '@') return 12.5;
  if (std::isupper(c) != 0) return 9.8;
  if (std::isdigit(c) != 0) return 8.4;
  return 8;  // the other lowercase letters, + = < > _ ~ #
}

// A text's box, for telling whether two overlap, by the estimate above: the font's ascent and descent
// around the baseline y, the width to the right of, around or to the left of x by the anchor.
struct Box {
  double left, top, right, bottom;
};
enum class Anchor { start, middle, end };
Box text_box(double x, double y, std::string_view content, Anchor anchor = Anchor::start,
             double size = font_size, bool bold = false) {
  const double width = text_width(content, size, bold);
  const double left = anchor == Anchor::start ? x : anchor == Anchor::middle ? x - width / 2 : x - width;
  return {left, y - 0.96 * size, left + width, y + 0.28 * size};
}
bool overlap(const Box& a, const Box& b, double gap = 1) {
  return a.left < b.right + gap && b.left < a.right + gap && a.top < b.bottom + gap && b.top < a.bottom + gap;
}
bool overlaps_any(const Box& box, const std::vector<Box>& others, double gap = 1) {
  return std::any_of(others.begin(), others.end(),
                     [&](const Box& other) { return overlap(box, other, gap); });
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
  int significant = 3;                // digits the labels need to differ
  std::vector<std::string> labels{};  // the given labels, one per value; empty: the values'
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

Ticks ticks_for(const Scale& scale, const Axis& axis) {
  const std::vector<double>& wanted = axis.ticks;
  if (wanted.empty()) return scale.log ? log_ticks(scale.range) : linear_ticks(scale.range);
  Ticks ticks{{}, 4, {}};
  const bool labelled = axis.tick_labels.size() == wanted.size();
  for (std::size_t index = 0; index < wanted.size(); ++index)
    if (plottable(wanted[index], scale.log) && scale.contains(wanted[index])) {
      ticks.values.push_back(wanted[index]);
      if (labelled) ticks.labels.push_back(axis.tick_labels[index]);
    }
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

// Ticks with their labels, left out where a label would overlap the one before (its grid line stays).
struct Tick {
  double at;
  std::string label;
  bool labelled;
};
enum class Side { bottom, left, right };  // where an axis stands: x below, y left, y2 right of the plot
std::vector<Tick> ticks_drawn(const Scale& scale, Side side, const Frame& frame, const Axis& given) {
  const Ticks ticks = ticks_for(scale, given);
  std::vector<Tick> out;
  std::optional<Box> last;
  for (std::size_t index = 0; index < ticks.values.size(); ++index) {
    const double at = scale.at(ticks.values[index]);
    std::string label =
        ticks.labels.empty() ? compact(ticks.values[index], ticks.significant) : ticks.labels[index];
    const Box box = side == Side::bottom ? text_box(at, frame.bottom + 16, label, Anchor::middle)
                    : side == Side::left ? text_box(frame.left - 6, at + 4, label, Anchor::end)
                                         : text_box(frame.right + 6, at + 4, label);
    const bool labelled = !last || !overlap(box, *last, 2);
    if (labelled) last = box;
    out.push_back({at, std::move(label), labelled});
  }
  return out;
}

double widest_label(const std::vector<Tick>& ticks) {
  double widest = 0;
  for (const auto& tick : ticks)
    if (tick.labelled) widest = std::max(widest, text_width(tick.label));
  return widest;
}

// The right axis' width right of the plot: its tick labels, then its turned label.
double right_axis_width(const std::vector<Tick>& ticks) {
  return 6 + widest_label(ticks) + 8 + 1.24 * font_size;
}

// The right axis: short ticks outwards (the grid is the left axis'), labels right of them, the axis line and
// its label turned, right of the widest tick label.
std::string right_axis(const std::vector<Tick>& ticks, const Frame& frame, std::string_view label) {
  std::string out = "<g class=\"axis y2\" fill=\"#333\">\n";
  for (const auto& tick : ticks) {
    out += line(frame.right, tick.at, frame.right + 4, tick.at, "#444");
    if (tick.labelled) out += text(frame.right + 6, tick.at + 4, tick.label);
  }
  out += line(frame.right, frame.top, frame.right, frame.bottom, "#444");
  const double baseline = frame.right + right_axis_width(ticks) - 0.28 * font_size;
  const std::string middle = px((frame.top + frame.bottom) / 2);
  out += text(baseline, (frame.top + frame.bottom) / 2, label,
              " text-anchor=\"middle\" transform=\"rotate(-90 " + px(baseline) + " " + middle + ")\"");
  return out + "</g>\n";
}

// Grid lines and labelled ticks across the frame, the axis line and its label (the y axis' turned, in the
// margin left of its tick labels).
std::string axis(const std::vector<Tick>& ticks, Side side, const Frame& frame, std::string_view label) {
  if (side == Side::right) return right_axis(ticks, frame, label);
  const bool horizontal = side == Side::bottom;
  std::string out = std::string("<g class=\"axis ") + (horizontal ? "x" : "y") + "\" fill=\"#333\">\n";
  for (const auto& tick : ticks) {
    if (horizontal) {
      out += line(tick.at, frame.top, tick.at, frame.bottom, "#e4e4e4");
      if (tick.labelled) out += text(tick.at, frame.bottom + 16, tick.label, " text-anchor=\"middle\"");
    } else {
      out += line(frame.left, tick.at, frame.right, tick.at, "#e4e4e4");
      if (tick.labelled) out += text(frame.left - 6, tick.at + 4, tick.label, " text-anchor=\"end\"");
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

// The eight shapes in the order the looks take them: the filled ones first, the open strokes (fainter)
// last, on the palette's last colours.
constexpr std::array<Shape, 8> shape_order = {Shape::circle,  Shape::square, Shape::triangle,
                                              Shape::diamond, Shape::star,   Shape::triangle_down,
                                              Shape::cross,   Shape::plus};
constexpr std::array<std::string_view, 4> dashes = {"solid", "7 4", "2 3", "10 3 2 3"};

// The slot's look with the series' own colour, less what its style does not draw.
Look styled(Look look, const Series& series) {
  if (valid_colour(series.color)) look.color = series.color;
  // A series of one point draws no line, so its dash cannot tell it apart (its colour and marker must).
  const auto finite = std::count_if(series.points.begin(), series.points.end(), [](const Point& point) {
    return std::isfinite(point.x) && std::isfinite(point.y);
  });
  if (finite < 2 && series.style != Style::line && series.style != Style::dashed) look.dash = "none";
  switch (series.style) {
    case Style::markers:
      look.dash = "none";
      break;
    case Style::line:
      look.shape = Shape::none;
      break;
    case Style::dashed:
      look.shape = Shape::none;
      if (look.dash == "solid") look.dash = "6 4";
      break;
    case Style::line_and_markers:
      break;
  }
  return look;
}

bool same(const Look& a, const Look& b) {
  return a.color == b.color && a.shape == b.shape && a.dash == b.dash;
}

// Each series' look: the fixed ones first, in order, each its slot's unless taken; then the others, each
// the first of the sequence not yet taken.
std::vector<Look> looks_of(const std::vector<Series>& series) {
  std::vector<Look> looks(series.size());
  std::vector<Look> taken;
  const auto take = [&](std::size_t index, const Look& candidate) {
    const bool free =
        std::none_of(taken.begin(), taken.end(), [&](const Look& t) { return same(t, candidate); });
    if (free) {
      looks[index] = candidate;
      taken.push_back(candidate);
    }
    return free;
  };
  std::vector<bool> done(series.size(), false);
  for (std::size_t index = 0; index < series.size(); ++index)
    if (series[index].slot) done[index] = take(index, styled(look(*series[index].slot), series[index]));
  std::size_t next = 0;  // a series of its own colour looks from the first, using up none of the palette's
  for (std::size_t index = 0; index < series.size(); ++index) {
    std::size_t own = 0;
    std::size_t& candidate = valid_colour(series[index].color) ? own : next;
    // 4 dashes × 8 shapes × 8 colours: past that many series a look repeats (as it must, the styles allowing
    // fewer).
    const std::size_t limit = candidate + 256;
    while (!done[index] && candidate < limit)
      done[index] = take(index, styled(look(candidate++), series[index]));
    if (!done[index]) looks[index] = styled(look(index), series[index]);
  }
  return looks;
}

std::string dash_attribute(std::string_view dash) {
  return dash == "solid" || dash == "none" ? "" : " stroke-dasharray=\"" + std::string(dash) + "\"";
}

// A marker of `shape` centred on (x, y), about 2r across; `attributes` go first (class, data-…).
std::string shape_element(Shape shape, double x, double y, double r, std::string_view colour,
                          std::string_view attributes, std::string_view inside) {
  const std::string fill = " fill=\"" + std::string(colour) + "\" stroke=\"#fff\" stroke-width=\"1\"";
  const std::string open_stroke =
      " fill=\"none\" stroke=\"" + std::string(colour) + "\" stroke-width=\"2.2\" stroke-linecap=\"square\"";
  const auto p = [](double a, double b) { return px(a) + " " + px(b); };
  std::string d, paint = fill;
  switch (shape) {
    case Shape::circle:
    case Shape::none:
      return "<circle" + std::string(attributes) + " cx=\"" + px(x) + "\" cy=\"" + px(y) + "\" r=\"" +
             px(shape == Shape::none ? 1.5 : r) + "\"" +
             (shape == Shape::none ? " fill=\"" + std::string(colour) + "\" stroke=\"none\"" : fill) + ">" +
             std::string(inside) + "</circle>\n";
    case Shape::square:
      d = "M" + p(x - 0.85 * r, y - 0.85 * r) + "L" + p(x + 0.85 * r, y - 0.85 * r) + "L" +
          p(x + 0.85 * r, y + 0.85 * r) + "L" + p(x - 0.85 * r, y + 0.85 * r) + "Z";
      break;
    case Shape::triangle:
      d = "M" + p(x, y - 1.2 * r) + "L" + p(x + 1.05 * r, y + 0.75 * r) + "L" +
          p(x - 1.05 * r, y + 0.75 * r) + "Z";
      break;
    case Shape::triangle_down:
      d = "M" + p(x, y + 1.2 * r) + "L" + p(x + 1.05 * r, y - 0.75 * r) + "L" +
          p(x - 1.05 * r, y - 0.75 * r) + "Z";
      break;
    case Shape::diamond:
      d = "M" + p(x, y - 1.25 * r) + "L" + p(x + r, y) + "L" + p(x, y + 1.25 * r) + "L" + p(x - r, y) + "Z";
      break;
    case Shape::cross:
      d = "M" + p(x - 0.8 * r, y - 0.8 * r) + "L" + p(x + 0.8 * r, y + 0.8 * r) + "M" +
          p(x + 0.8 * r, y - 0.8 * r) + "L" + p(x - 0.8 * r, y + 0.8 * r);
      paint = open_stroke;
      break;
    case Shape::plus:
      d = "M" + p(x - r, y) + "L" + p(x + r, y) + "M" + p(x, y - r) + "L" + p(x, y + r);
      paint = open_stroke;
      break;
    case Shape::star:
      for (int vertex = 0; vertex < 10; ++vertex) {
        const double radius = vertex % 2 == 0 ? 1.3 * r : 0.55 * r;
        const double angle = -pi / 2 + vertex * pi / 5;
        d += (vertex == 0 ? "M" : "L") + p(x + radius * std::cos(angle), y + radius * std::sin(angle));
      }
      d += "Z";
      break;
  }
  return "<path" + std::string(attributes) + " d=\"" + d + "\"" + paint + ">" + std::string(inside) +
         "</path>\n";
}

double radius(const Point& point) { return point.emphasis ? 5.5 : 4; }

// A legend's sample of a series: a short stroke in its dash with its marker in the middle (not of class
// "point": no data point).
std::string swatch(const Look& look, double x, double y) {
  std::string out;
  if (look.dash != "none")
    out += "<line x1=\"" + px(x) + "\" y1=\"" + px(y) + "\" x2=\"" + px(x + 22) + "\" y2=\"" + px(y) +
           "\" stroke=\"" + look.color + "\" stroke-width=\"2\"" + dash_attribute(look.dash) + "/>\n";
  if (look.shape != Shape::none)
    out += shape_element(look.shape, x + 11, y, 4, look.color, " class=\"swatch\"", "");
  return out;
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

// Vertical lines at the markers within the x axis' range, each labelled along it from the top, on its
// left, else on its right, else lower down, so that no two labels overlap; `left_out` counts the others
// and `boxes` gets the labels' boxes.
std::string markers_group(const std::vector<Marker>& markers, const Scale& x, const Frame& frame,
                          int& left_out, std::vector<Box>& boxes) {
  std::string out = "<g class=\"markers\" fill=\"#555\" font-size=\"11\">\n";
  std::vector<Box> placed;
  for (const auto& marker : markers) {
    if (!plottable(marker.x, x.log) || !x.contains(marker.x)) {
      ++left_out;
      continue;
    }
    const double at = x.at(marker.x), length = text_width(marker.label, 11);
    // Turned a quarter left, a label's glyphs sit left of its baseline, and it reads upwards from its end.
    const auto box_at = [&](bool right, double top) {
      const double baseline = right ? at + 3 + 0.96 * 11 : at - 3;
      return Box{baseline - 0.96 * 11, top, baseline + 0.28 * 11, top + length};
    };
    std::vector<double> tops{frame.top + 4};
    for (const auto& box : placed) tops.push_back(box.bottom + 6);
    std::optional<Box> chosen;
    for (const double top : tops) {
      for (const bool right : {false, true})
        if (const Box box = box_at(right, top); !overlaps_any(box, placed, 2)) {
          chosen = box;
          break;
        }
      if (chosen) break;
    }
    const Box box = chosen.value_or(box_at(false, frame.top + 4));
    placed.push_back(box);
    const double baseline = box.right - 0.28 * 11;
    out += "<g class=\"marker\"" + attribute("data-marker", marker.label) +
           attribute("data-x", chars(marker.x, std::chars_format::general)) + ">\n";
    if (!marker.tooltip.empty()) out += "<title>" + escape(marker.tooltip) + "</title>\n";
    out += "<line x1=\"" + px(at) + "\" y1=\"" + px(frame.top) + "\" x2=\"" + px(at) + "\" y2=\"" +
           px(frame.bottom) + "\" stroke=\"#888\" stroke-dasharray=\"2 3\"/>\n";
    out += text(baseline, box.top, marker.label,
                " text-anchor=\"end\" transform=\"rotate(-90 " + px(baseline) + " " + px(box.top) +
                    ")\" stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\"");
    out += "</g>\n";
  }
  boxes.insert(boxes.end(), placed.begin(), placed.end());
  return out + "</g>\n";
}

struct Drawn {
  const Point* point;
  double x, y;
};

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
                    attribute("data-dash", dash) + " fill=\"" + look.color + "\">\n";
  if (dash != "none")
    out += "<path class=\"line\" d=\"" + path + "\" fill=\"none\" stroke=\"" + look.color +
           "\" stroke-width=\"2\"" + dash_attribute(look.dash) + "/>\n";
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

// Each band as one path (a piece per run of drawable intervals: along the highs, back along the lows; a
// lone interval 6 px wide), faint in its series' colour, with its name as the tooltip. `left_out` counts
// the intervals the axes cannot show.
std::string bands_group(const std::vector<Series>& series, const std::vector<Look>& looks, const Scale& x,
                        const Scale& y, const Scale& y2, int& left_out) {
  std::string out;
  for (std::size_t index = 0; index < series.size(); ++index) {
    if (series[index].band.empty()) continue;
    const Scale& scale = series[index].right_axis ? y2 : y;
    std::vector<std::vector<std::array<double, 3>>> pieces(1);  // x, the high's y, the low's y in pixels
    for (const auto& interval : series[index].band) {
      const bool shown = plottable(interval.x, x.log) && x.contains(interval.x) &&
                         plottable(interval.low, scale.log) && plottable(interval.high, scale.log) &&
                         scale.contains(interval.low) && scale.contains(interval.high);
      if (shown) {
        pieces.back().push_back({x.at(interval.x), scale.at(std::max(interval.low, interval.high)),
                                 scale.at(std::min(interval.low, interval.high))});
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

std::string no_data(const Frame& frame) {
  return text((frame.left + frame.right) / 2, (frame.top + frame.bottom) / 2 + 4, "no data",
              " class=\"no-data\" text-anchor=\"middle\" fill=\"#777\" font-size=\"14\"");
}

// The end labels' centres: each at its line's end where it can, else moved the least that keeps every two
// `spacing` apart, all within [lowest, highest] where they fit.
std::vector<double> spread(const std::vector<double>& wanted, double lowest, double highest, double spacing) {
  std::vector<std::size_t> order(wanted.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return wanted[a] < wanted[b]; });
  std::vector<double> at(wanted.size());
  double previous = lowest - spacing;
  for (const std::size_t i : order)
    previous = at[i] = std::max(std::clamp(wanted[i], lowest, highest), previous + spacing);
  double next = std::max(highest, lowest + spacing * static_cast<double>(order.size() - 1)) + spacing;
  for (auto it = order.rbegin(); it != order.rend(); ++it) next = at[*it] = std::min(at[*it], next - spacing);
  return at;
}

struct Label {  // a text placed by the layout, with its leader line when it is away from what it names
  Box box;
  std::string text;
  std::optional<std::array<double, 4>> leader;
  bool bold = false;
};

// Each line's name right of the plot at its last point's height, moved apart.
// x: where they start; with a right axis between them and the plot, each gets a leader.
std::vector<std::vector<Label>> end_labels(const std::vector<Series>& series, const std::vector<Look>& looks,
                                           const std::vector<std::vector<std::vector<Drawn>>>& runs,
                                           const Frame& frame, double x, bool beyond_an_axis) {
  std::vector<std::size_t> labelled;
  std::vector<double> wanted;
  for (std::size_t index = 0; index < series.size(); ++index)
    if (looks[index].dash != "none" && !runs[index].empty()) {
      labelled.push_back(index);
      wanted.push_back(runs[index].back().back().y);
    }
  constexpr double spacing = 16;
  const std::vector<double> at = spread(wanted, frame.top + 6, frame.bottom - 4, spacing);
  std::vector<std::vector<Label>> labels(series.size());
  for (std::size_t i = 0; i < labelled.size(); ++i) {
    const auto& end = runs[labelled[i]].back().back();
    Label label{text_box(x, at[i] + 4, series[labelled[i]].name), series[labelled[i]].name, {}};
    if (beyond_an_axis || std::fabs(at[i] - end.y) > 1 || end.x < frame.right - 12)
      // From the line's end, or for a line that ends short of the right edge, from the edge at its height,
      // so that no leader crosses the plot.
      label.leader = {end.x < frame.right - 12 ? frame.right + 1 : end.x + 5, end.y, x - 3, at[i]};
    labels[labelled[i]].push_back(std::move(label));
  }
  return labels;
}

// Whether a segment (x1, y1, x2, y2) passes through a box, by points along it a pixel or two apart.
bool crosses(const std::array<double, 4>& segment, const Box& box) {
  const double length = std::hypot(segment[2] - segment[0], segment[3] - segment[1]);
  const int steps = static_cast<int>(std::ceil(length / 1.5)) + 1;
  for (int step = 0; step <= steps; ++step) {
    const double t = static_cast<double>(step) / steps;
    const double x = segment[0] + t * (segment[2] - segment[0]),
                 y = segment[1] + t * (segment[3] - segment[1]);
    if (x > box.left && x < box.right && y > box.top && y < box.bottom) return true;
  }
  return false;
}

// Whether two segments cross (touching ends do not count).
bool crosses(const std::array<double, 4>& a, const std::array<double, 4>& b) {
  const auto side = [](double x1, double y1, double x2, double y2, double x, double y) {
    const double cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1);
    return cross > 1e-9 ? 1 : cross < -1e-9 ? -1 : 0;
  };
  return side(a[0], a[1], a[2], a[3], b[0], b[1]) * side(a[0], a[1], a[2], a[3], b[2], b[3]) < 0 &&
         side(b[0], b[1], b[2], b[3], a[0], a[1]) * side(b[0], b[1], b[2], b[3], a[2], a[3]) < 0;
}

double distance(const Box& box, double x, double y) {
  return std::hypot(std::max({box.left - x, 0.0, x - box.right}),
                    std::max({box.top - y, 0.0, y - box.bottom}));
}

// Each tagged point's tag, clear of the other tags, every leader, every point, the given boxes (texts) and
// the plot's edges — a point within `edge` px of the plot's right edge may put its tag in the margin right of
// the plot, up to `margin` px: beside the point where it can, else further out along one of 16 directions
// with a leader line that crosses no text and no other leader (it may pass a point). Placements whose tag is
// nearer its own point than any other point come first. The emphasised points' tags are placed first.
// A tag with no such place anywhere is not drawn: its name goes to `untagged` (the chart says so below).
std::vector<std::vector<Label>> point_labels(const std::vector<Series>& series,
                                             const std::vector<std::vector<std::vector<Drawn>>>& runs,
                                             const Frame& frame, std::vector<Box> obstacles, double margin,
                                             std::vector<std::string>& untagged) {
  constexpr double edge = 64;
  const std::vector<Box> texts = obstacles;  // the given boxes: leaders cross none of them
  std::vector<std::array<double, 2>> dots;
  for (const auto& series_runs : runs)
    for (const auto& run : series_runs)
      for (const auto& drawn : run) {
        const double r = radius(*drawn.point) * 1.35 + 1;  // the largest shape's reach
        obstacles.push_back({drawn.x - r, drawn.y - r, drawn.x + r, drawn.y + r});
        dots.push_back({drawn.x, drawn.y});
      }
  std::vector<std::vector<Label>> labels(series.size());
  std::vector<std::array<double, 4>> leaders;  // and the tags they lead to
  std::vector<Box> placed;
  for (const bool emphasised : {true, false})
    for (std::size_t index = 0; index < series.size(); ++index)
      for (const auto& run : runs[index])
        for (const auto& drawn : run) {
          const Point& point = *drawn.point;
          if (point.tag.empty() || point.emphasis != emphasised) continue;
          const double width = text_width(point.tag, font_size, point.emphasis), height = 1.24 * font_size;
          const double reach = radius(point) * 1.35 + 3;  // clear of its own dot's box by more than the gap
          const double right = drawn.x >= frame.right - edge ? frame.right + margin : frame.right - 2;
          // A box whose side (or corner) facing the point sits at distance d along direction angle.
          const auto box_at = [&](double angle, double d) {
            const double ax = drawn.x + d * std::cos(angle), ay = drawn.y + d * std::sin(angle);
            const double c = std::cos(angle), s = std::sin(angle);
            const double left = c > 0.3 ? ax : c < -0.3 ? ax - width : ax - width / 2;
            const double top = s > 0.3 ? ay : s < -0.3 ? ay - height : ay - height / 2;
            return Box{left, top, left + width, top + height};
          };
          bool near = true;  // first only places nearer this point than any other point
          const auto fits = [&](const Box& box) {
            const double own = distance(box, drawn.x, drawn.y);
            return box.left >= frame.left + 2 && box.right <= right && box.top >= frame.top + 2 &&
                   box.bottom <= frame.bottom - 2 && !overlaps_any(box, obstacles, 1.5) &&
                   std::none_of(leaders.begin(), leaders.end(),
                                [&](const auto& leader) { return crosses(leader, box); }) &&
                   (!near || std::none_of(dots.begin(), dots.end(), [&](const auto& dot) {
                     return (dot[0] != drawn.x || dot[1] != drawn.y) && distance(box, dot[0], dot[1]) < own;
                   }));
          };
          const auto clear = [&](const std::array<double, 4>& leader) {
            const auto through = [&](const Box& other) { return crosses(leader, other); };
            return std::none_of(placed.begin(), placed.end(), through) &&
                   std::none_of(texts.begin(), texts.end(), through) &&
                   std::none_of(leaders.begin(), leaders.end(),
                                [&](const auto& other) { return crosses(leader, other); });
          };
          std::optional<Label> chosen;
          for (; !chosen; near = false) {
            for (const double angle : {0.0, pi, -pi / 2, pi / 2, -pi / 4, pi / 4, -3 * pi / 4, 3 * pi / 4})
              if (const Box box = box_at(angle, reach); !chosen && fits(box))
                chosen = Label{box, point.tag, {}};
            for (const double d : {18.0, 28.0, 40.0, 54.0, 70.0, 90.0, 115.0, 145.0, 180.0, 220.0})
              for (int step = 0; step < 32 && !chosen; ++step) {
                const double angle = -pi / 2 + step * pi / 16;
                const std::array<double, 4> leader{
                    drawn.x + reach * std::cos(angle), drawn.y + reach * std::sin(angle),
                    drawn.x + (d + reach - 2) * std::cos(angle), drawn.y + (d + reach - 2) * std::sin(angle)};
                if (const Box box = box_at(angle, d + reach); clear(leader) && fits(box))
                  chosen = Label{box, point.tag, leader};
              }
            if (!near) break;
          }
          if (!chosen) {  // nowhere clear (a plot too crowded): the tag is left out, and said so
            untagged.push_back(point.tag);
            continue;
          }
          chosen->bold = point.emphasis;
          obstacles.push_back(chosen->box);
          placed.push_back(chosen->box);
          if (chosen->leader) leaders.push_back(*chosen->leader);
          labels[index].push_back(std::move(*chosen));
        }
  return labels;
}

// The labels, bold ones darker, each after its leader line (class "leader": not the series' drawing).
std::string labels_text(const std::vector<Label>& labels, std::string_view cls) {
  std::string out;
  for (const auto& label : labels) {
    const std::string_view colour = label.bold ? "#111" : "#555";
    if (label.leader)
      out += "<line class=\"leader\" x1=\"" + px((*label.leader)[0]) + "\" y1=\"" + px((*label.leader)[1]) +
             "\" x2=\"" + px((*label.leader)[2]) + "\" y2=\"" + px((*label.leader)[3]) + "\" stroke=\"" +
             std::string(colour) + "\" stroke-width=\"0.8\"/>\n";
    out += text(label.box.left, label.box.top + 0.96 * font_size, label.text,
                " class=\"" + std::string(cls) + "\" fill=\"" + std::string(colour) + "\"" +
                    (label.bold ? " font-weight=\"bold\"" : ""));
  }
  return out;
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
    for (const auto& interval : one.band)
      if (plottable(interval.x, log_x) && plottable(interval.low, log_y) && plottable(interval.high, log_y)) {
        xs.push_back(interval.x);
        ys.push_back(interval.low);
        ys.push_back(interval.high);
      }
  }
}

bool has_right_axis(const Chart& chart) {
  return std::any_of(chart.series.begin(), chart.series.end(),
                     [](const Series& one) { return one.right_axis; });
}

double end_label_width(const Chart& chart) {
  double widest = 0;
  if (chart.end_labels)
    for (const auto& series : chart.series)
      if (series.style != Style::markers) widest = std::max(widest, text_width(series.name));
  return std::max(widest > 0 ? widest + 22 : 0.0, chart.end_margin);
}

}  // namespace

double text_width(std::string_view content, double size, bool bold) {
  double width = 0;
  for (const char c : content) width += char_width(static_cast<unsigned char>(c));
  return width * size / font_size * (bold ? 1.1 : 1.0);
}

std::string_view shape_name(Shape shape) {
  constexpr std::array<std::string_view, 9> names = {
      "circle", "square", "triangle", "diamond", "cross", "plus", "triangle-down", "star", "none"};
  return names[static_cast<std::size_t>(shape)];  // in the enum's order
}

Look look(std::size_t slot) {
  const std::size_t colour = slot % palette.size(), round = slot / palette.size();
  return {std::string(palette[colour]), shape_order[(colour + round) % shape_order.size()],
          std::string(dashes[(round + round / shape_order.size()) % dashes.size()])};
}

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
void share(std::vector<Chart>& charts, Axis Chart::*axis, Values values_of) {
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
std::vector<double> x_values(const Chart& chart, bool log) {
  std::vector<double> xs, ys;
  collect(chart.series, false, log, false, xs, ys);
  collect(chart.series, true, log, false, xs, ys);
  return xs;
}
std::vector<double> y_values(const Chart& chart, bool right, bool log) {
  std::vector<double> xs, ys;
  collect(chart.series, right, false, log, xs, ys);
  return ys;
}

}  // namespace

void share_axes(std::vector<Chart>& charts) {
  if (charts.size() < 2) return;
  share(charts, &Chart::x, x_values);
  share(charts, &Chart::y, [](const Chart& chart, bool log) { return y_values(chart, false, log); });
  if (std::any_of(charts.begin(), charts.end(), has_right_axis))
    share(charts, &Chart::y2, [](const Chart& chart, bool log) { return y_values(chart, true, log); });
  double margin = 0;
  for (const auto& chart : charts) margin = std::max(margin, end_label_width(chart));
  for (auto& chart : charts) chart.end_margin = margin;
}

void share_axes(std::vector<BarChart>& charts) {
  if (charts.size() < 2) return;
  const bool log = charts.front().log;
  std::vector<double> values;
  if (!log) values.push_back(0);
  for (const auto& chart : charts)
    for (const auto& bar : chart.bars)
      if (plottable(bar.value, log)) values.push_back(bar.value);
  const Range range = data_range(values, log);
  for (auto& chart : charts) {
    chart.min = range.lo;
    chart.max = range.hi;
  }
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
  const Scale scale{axis_range(values, chart.log, chart.min, chart.max), chart.log, frame.left, frame.right};
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
  out += axis(ticks_drawn(scale, Side::bottom, frame, {}), Side::bottom, frame, chart.value_label);
  if (chart.bars.empty()) out += no_data(frame);
  out += bars + line(base, top, base, bottom, "#444") + notes_below(notes, frame.left, notes_top);
  return out + "</svg>\n";
}

}  // namespace ladder::svg
