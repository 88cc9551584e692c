// The roofline chart a machine: arithmetic intensity (FLOPs a byte from memory) against GFLOP/s, on log
// axes, with both roofs (the memory bandwidth's slope up to the ridge, then the FMA peak) for one core and
// for all cores, and each C++ tier a labelled point at its best cell. A tier that moves no bytes a node has
// no finite intensity: it is drawn at the right edge, and a note says so.
#include <algorithm>
#include <cmath>

#include "charts.hpp"
#include "roofline.hpp"
#include "svg.hpp"
#include "text.hpp"

namespace ladder::report {
namespace {

svg::Series roof(const std::string& name, double peak, double bandwidth, double x_min, double x_max,
                 const std::string& color, bool dashed) {
  svg::Series series{name, {}, dashed ? svg::Style::dashed : svg::Style::line, color};
  const double ridge = peak / bandwidth;
  const auto at = [&](double x) {
    return svg::Point{x, std::min(peak, bandwidth * x),
                      name + ": " + format_number("%.3g", std::min(peak, bandwidth * x)) + " GFLOP/s at " +
                          format_number("%.3g", x) + " FLOPs a byte"};
  };
  series.points.push_back(at(x_min));
  if (ridge > x_min && ridge < x_max) series.points.push_back(at(ridge));
  series.points.push_back(at(x_max));
  return series;
}

svg::Plot roofline_figures(const Analysis& analysis, std::size_t machine,
                           const std::map<std::string, std::size_t>& slots) {
  const Roofline figures = roofline(analysis);
  const MachineLimits& limits = analysis.run->limits;
  svg::Plot chart{"roofline-" + std::to_string(machine + 1),
                  "Roofline — " + analysis.run->machine,
                  {"arithmetic intensity (FLOPs a byte from memory, log)", true},
                  {"GFLOP/s (log)", true},
                  {}};
  chart.height = 460;
  chart.end_labels = false;
  const double one_peak = limits.fma_one_core->best, one_bandwidth = limits.bandwidth_one_core->best;
  double x_min = 0.01, x_max = 100 * one_peak / one_bandwidth;
  for (const auto& point : figures.points)
    if (point.intensity)
      x_min = std::min(x_min, *point.intensity / 4), x_max = std::max(x_max, *point.intensity * 4);
  chart.x.min = x_min, chart.x.max = x_max;
  chart.series.push_back(roof("roof, one core", one_peak, one_bandwidth, x_min, x_max, "#000000", false));
  if (limits.fma_all_cores && limits.bandwidth_all_cores)
    chart.series.push_back(roof("roof, " + counted(limits.fma_all_cores->threads, "thread", "threads"),
                                limits.fma_all_cores->best, limits.bandwidth_all_cores->best, x_min, x_max,
                                "#999999", true));
  int at_the_edge = 0, uncounted = 0;
  for (const auto& point : figures.points) {
    if (!point.gflops) {
      ++uncounted;
      continue;
    }
    const Card& card = *point.row->card;
    const double x = point.intensity ? *point.intensity : x_max;
    at_the_edge += point.intensity ? 0 : 1;
    std::string tooltip = card.id + ": " + format_number("%.3g", *point.gflops) + " GFLOP/s, " +
                          counted(point.threads, "thread", "threads") + ", " +
                          format_number("%.3g", *card.flops_per_node) + " FLOPs a node";
    if (point.share_of_peak)
      tooltip += ", " + format_number("%.0f %% of the FMA peak", 100 * *point.share_of_peak);
    const auto slot = slots.find(card.id);
    svg::Series series{card.id, {{x, *point.gflops, tooltip, {}, card.id}}, svg::Style::markers};
    if (slot != slots.end()) series.slot = slot->second;
    chart.series.push_back(std::move(series));
  }
  if (at_the_edge)
    chart.notes.push_back(
        counted(at_the_edge, "tier moves", "tiers move") +
        " no bytes a node from memory (streaming: the nodes never leave registers), drawn at the "
        "right edge: only the FMA roof bounds them.");
  if (uncounted)
    chart.notes.push_back(counted(uncounted, "tier has", "tiers have") +
                          " no counted FLOPs a node: not drawn.");
  chart.notes.push_back(
      "Roofs: the measured bandwidth × intensity, up to the measured FMA peak (How far each tier is from "
      "the limits).");
  return chart;
}

}  // namespace

std::vector<Chart> roofline_charts(const std::vector<Analysis>& analyses) {
  std::vector<const Run*> runs;
  for (const auto& analysis : analyses) runs.push_back(analysis.run);
  const auto slots = tier_slots(runs);
  std::vector<svg::Plot> plots;
  for (std::size_t machine = 0; machine < analyses.size(); ++machine) {
    const MachineLimits& limits = analyses[machine].run->limits;
    if (!limits.measured || !limits.fma_one_core || !limits.bandwidth_one_core) continue;
    plots.push_back(roofline_figures(analyses[machine], machine, slots));
  }
  svg::share_axes(plots);
  std::vector<Chart> out;
  for (const auto& plot : plots) out.push_back({plot.id, svg::line_chart(plot)});
  return out;
}

}  // namespace ladder::report
