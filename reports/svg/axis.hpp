// The axes: a range from the data or as given, its scale onto pixels, its ticks (linear, or logarithmic in
// decades), their compact labels (those that would overlap left out) and the axis drawn with them.
#pragma once
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "elements.hpp"
#include "svg.hpp"

namespace ladder::svg::detail {

// Differences of larger values overflow, and smaller positive ones lose their logarithm's padding.
inline constexpr double largest = 1e300, smallest_positive = 1e-300;

// Whether an axis (log or not) can show the value.
bool plottable(double value, bool log);

struct Range {
  double lo, hi;
};

// The values' range, padded a little (on a log axis in decades, at most one); a default one where none.
Range data_range(const std::vector<double>& values, bool log);
// The given bounds where the axis can show them, else the data's range.
Range axis_range(const std::vector<double>& values, bool log, std::optional<double> min,
                 std::optional<double> max);

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

// The axis' given ticks (those in range, with their labels), else the automatic ones for its scale.
Ticks ticks_for(const Scale& scale, const Axis& axis);

// Ticks with their labels, left out where a label would overlap the one before (its grid line stays).
struct Tick {
  double at;
  std::string label;
  bool labelled;
};
enum class Side { bottom, left, right };  // where an axis stands: x below, y left, y2 right of the plot
std::vector<Tick> ticks_drawn(const Scale& scale, Side side, const Frame& frame, const Axis& given);
// The widest of the tick labels drawn.
double widest_label(const std::vector<Tick>& ticks);
// The right axis' width right of the plot: its tick labels, then its turned label.
double right_axis_width(const std::vector<Tick>& ticks);
// Grid lines and labelled ticks across the frame, the axis line and its label (the y axis' turned, in the
// margin left of its tick labels).
std::string axis(const std::vector<Tick>& ticks, Side side, const Frame& frame, std::string_view label);

}  // namespace ladder::svg::detail
