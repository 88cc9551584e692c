#include "axis.hpp"

#include <algorithm>
#include <utility>

namespace ladder::svg::detail {
namespace {

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

}  // namespace

bool plottable(double value, bool log) {
  return std::isfinite(value) && std::fabs(value) <= largest && (!log || value >= smallest_positive);
}

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

double right_axis_width(const std::vector<Tick>& ticks) {
  return 6 + widest_label(ticks) + 8 + 1.24 * font_size;
}

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

}  // namespace ladder::svg::detail
