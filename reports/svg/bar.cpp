// The bar charts (bar_chart in svg.hpp) and their small multiples: one row a bar, on a linear or log axis.
#include <algorithm>
#include <cmath>

#include "axis.hpp"
#include "elements.hpp"
#include "looks.hpp"
#include "svg.hpp"

namespace ladder::svg {
using namespace detail;

void share_axes(std::vector<BarPlot>& charts) {
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

std::string bar_chart(const BarPlot& chart) {
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
