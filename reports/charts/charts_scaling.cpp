// The thread-scaling and parallel-efficiency charts' figures (charts.hpp): each tier's speedup or efficiency
// against threads on a log₂ axis, the machine's boundaries marked, a diamond where a tier stops gaining.
#include <algorithm>
#include <cmath>

#include "charts.hpp"
#include "scaling.hpp"

namespace ladder::report {
namespace {

using Slots = std::map<std::string, std::size_t>;

// A log₂ axis: ticks at the powers of two from the one at or below `lowest` up to `most`, and at `most`
// itself where it is a whole number (a count: 24 threads), not a power of two, and far enough from the power
// below to be read apart — a measured top such as a 3.111× speedup gets no tick of its own, whose label
// would read unlike the others.
std::vector<double> doubling_ticks(double lowest, double most) {
  std::vector<double> ticks;
  for (double power = std::exp2(std::floor(std::log2(std::max(lowest, 1e-6)))); power <= most; power *= 2)
    ticks.push_back(power);
  if (most > ticks.back() * 1.25 && most == std::floor(most)) ticks.push_back(most);
  return ticks;
}

// The thread axis of both scaling charts, with the machine's boundaries marked on it.
void thread_axis(svg::Plot& chart, const Run& run, const std::vector<TierScaling>& lines) {
  double most = 1;
  for (const auto& line : lines) most = std::max(most, static_cast<double>(line.steps.back().count));
  chart.x = {"threads (ranks for an mpi ranks line), log₂ scale", true, std::nullopt, std::nullopt,
             doubling_ticks(1, most)};
  if (!run.topology) {
    chart.notes.push_back("Topology not recorded in this results file: no L3, NUMA, socket or SMT marks.");
    return;
  }
  for (const auto& boundary : boundaries(*run.topology))
    chart.markers.push_back({static_cast<double>(boundary.threads), boundary.label});
  chart.notes.push_back("Dotted lines: the most threads one L3 group, NUMA node or socket holds; all cores.");
}

// A tier's line, each point labelled with its figures, a diamond where it stops gaining; a rank line keeps
// its tier's colour and marker in another dash.
svg::Series scaling_series(const TierScaling& line, bool efficiency, const Slots& slots) {
  svg::Series series{line.series, {}};
  series.slot = slot_of(slots, line.tier, line.ranks ? 64 : 0);
  const std::string unit = line.ranks ? " ranks" : " threads";
  for (const auto& step : line.steps) {
    svg::Point point{static_cast<double>(step.count), efficiency ? 100 * step.efficiency : step.speedup,
                     line.series + " at n = " + format_count(static_cast<double>(step.cell->n)) + ", " +
                         std::to_string(step.count) + unit + ": " + format_seconds(step.cell->median()) +
                         ", " + times(step.speedup) + " over 1, " + percent(step.efficiency, 0) +
                         " parallel efficiency" + (step.cell->oversubscribed ? " (oversubscribed)" : "")};
    if (line.stops_gaining == step.count) point.mark = line.series + " " + line.verdict;
    series.points.push_back(point);
  }
  return series;
}

std::string scaling_title(const std::string& what, const Analysis& analysis) {
  return what + " at n = " + format_count(static_cast<double>(analysis.n)) + " — " + analysis.run->machine;
}

}  // namespace

svg::Plot scaling_figures(const Analysis& analysis, std::size_t machine, const Slots& slots) {
  const Run& run = *analysis.run;
  const auto lines = thread_scaling(run, analysis.n);
  svg::Plot chart{"scaling" + suffix(machine), scaling_title("Thread scaling", analysis), {}, {}, {}};
  thread_axis(chart, run, lines);
  double most = 1, fastest = 1, slowest = 1;
  for (const auto& line : lines) {
    chart.series.push_back(scaling_series(line, false, slots));
    for (const auto& step : line.steps) {
      fastest = std::max(fastest, step.speedup);
      slowest = std::min(slowest, step.speedup);
    }
    const auto& last = line.steps.back();
    most = std::max(most, static_cast<double>(last.count));
    chart.notes.push_back(line.series + ": " + times(last.speedup) + " on " + std::to_string(last.count) +
                          ", efficiency " + percent(last.efficiency, 0) + "; " + line.verdict);
  }
  chart.y = {"speedup against 1 thread (×), log₂ scale", true, std::nullopt, std::nullopt,
             doubling_ticks(slowest, std::max(most, fastest))};
  // Both axes log₂: ideal scaling (speedup = threads) is the straight diagonal.
  chart.series.push_back({"ideal", {{1, 1}, {most, most}}, svg::Style::dashed, "#999999"});
  chart.notes.push_back("◇ where a tier stops gaining: its last step that added at least " +
                        percent(gain_fraction, 0) + " of the ideal rise,");
  chart.notes.push_back("with two measured counts past it that did not (the report's scaling section).");
  return chart;
}

svg::Plot efficiency_figures(const Analysis& analysis, std::size_t machine, const Slots& slots) {
  const Run& run = *analysis.run;
  const auto lines = thread_scaling(run, analysis.n);
  svg::Plot chart{"efficiency" + suffix(machine), scaling_title("Parallel efficiency", analysis), {}, {}, {}};
  thread_axis(chart, run, lines);
  double highest = 100, most = 1;
  for (const auto& line : lines) {
    chart.series.push_back(scaling_series(line, true, slots));
    for (const auto& step : line.steps) highest = std::max(highest, 100 * step.efficiency);
    most = std::max(most, static_cast<double>(line.steps.back().count));
  }
  chart.y = {"parallel efficiency (% of ideal: speedup ÷ threads)", false, 0.0, 1.05 * highest};
  chart.series.push_back({"ideal (100 %)", {{1, 100}, {most, 100}}, svg::Style::dashed, "#999999"});
  chart.notes.push_back("◇ where a tier stops gaining (as in the thread-scaling chart).");
  return chart;
}

}  // namespace ladder::report
