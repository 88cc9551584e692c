// The report's charts: each gathers one machine's cells into the series and notes of an svg::Chart.
#include "charts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "scaling.hpp"
#include "svg.hpp"

namespace ladder::report {
namespace {

std::string suffix(std::size_t machine) { return "-" + std::to_string(machine + 1); }

// One series per tier over n, from each tier's best configuration.
template <class Value>
std::vector<svg::Series> per_tier(const Run& run, Value value) {
  std::vector<svg::Series> all;
  for (const auto& card : run.cards) {
    svg::Series series{card.id, {}};
    for (const auto n : run.sizes()) {
      const Cell* best = nullptr;
      for (const auto& cell : run.cells)
        if (cell.tier == card.id && cell.n == n && cell.ok() && (!best || cell.median < best->median))
          best = &cell;
      if (best)
        if (const auto y = value(*best)) series.points.push_back({static_cast<double>(n), *y});
    }
    if (!series.points.empty()) all.push_back(std::move(series));
  }
  return all;
}

// Each tier's cell at n that sampled one call over time (at least `samples` points), on its fewest threads
// × ranks, or its most: the timeline charts' choice.
std::vector<const Cell*> timeline_cells(const Run& run, std::int64_t n, bool most_threads,
                                        std::size_t samples) {
  std::vector<const Cell*> chosen;
  for (const auto& card : run.cards) {
    const Cell* best = nullptr;
    for (const auto& cell : run.cells) {
      if (cell.tier != card.id || cell.n != n || !cell.ok() || cell.timeline_seconds.size() < samples)
        continue;
      const int cores = cell.threads * cell.ranks;
      if (!best || (most_threads ? cores > best->threads * best->ranks : cores < best->threads * best->ranks))
        best = &cell;
    }
    if (best) chosen.push_back(best);
  }
  return chosen;
}

}  // namespace

Chart speedup_chart(const Analysis& analysis, std::size_t machine) {
  svg::BarChart chart{"speedup" + suffix(machine),
                      "Speedup against naive at n = " + format_count(static_cast<double>(analysis.n)) +
                          " — " + analysis.run->machine,
                      "× naive (log scale)",
                      true,
                      {}};
  for (const auto& row : analysis.rows)
    if (row.speedup)
      chart.bars.push_back({row.card->id + (row.card->peer ? " (Python)" : ""), *row.speedup,
                            format_number("cost %.1f", row.cost.score), row.card->peer ? "#999999" : ""});
  return {chart.id, svg::bar_chart(chart)};
}

namespace {

// A log₂ axis: ticks at the powers of two from the one at or below `lowest` up to `most`, and at `most`
// itself where it is not one and sits far enough from the power below to be read apart.
std::vector<double> doubling_ticks(double lowest, double most) {
  std::vector<double> ticks;
  for (double power = std::exp2(std::floor(std::log2(std::max(lowest, 1e-6)))); power <= most; power *= 2)
    ticks.push_back(power);
  if (most > ticks.back() * 1.25) ticks.push_back(most);
  return ticks;
}

// The thread axis of both scaling charts, with the machine's boundaries marked on it.
void thread_axis(svg::Chart& chart, const Run& run, const std::vector<TierScaling>& lines) {
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

// A tier's line, each point labelled with its speedup and efficiency, a diamond where it stops gaining.
svg::Series scaling_series(const TierScaling& line, bool efficiency) {
  svg::Series series{line.series, {}};
  const std::string unit = line.ranks ? " ranks" : " threads";
  for (const auto& step : line.steps) {
    svg::Point point{static_cast<double>(step.count), efficiency ? 100 * step.efficiency : step.speedup,
                     line.series + " at " + std::to_string(step.count) + unit + ": " + times(step.speedup) +
                         ", " + percent(step.efficiency) + " parallel efficiency" +
                         (step.cell->oversubscribed ? " (oversubscribed)" : "")};
    if (line.stops_gaining == step.count) point.mark = line.series + " " + line.verdict;
    series.points.push_back(point);
  }
  return series;
}

std::string scaling_title(const std::string& what, const Analysis& analysis) {
  return what + " at n = " + format_count(static_cast<double>(analysis.n)) + " — " + analysis.run->machine;
}

}  // namespace

Chart scaling_chart(const Analysis& analysis, std::size_t machine) {
  const Run& run = *analysis.run;
  const auto lines = thread_scaling(run, analysis.n);
  svg::Chart chart{"scaling" + suffix(machine), scaling_title("Thread scaling", analysis), {}, {}, {}};
  thread_axis(chart, run, lines);
  double most = 1, fastest = 1, slowest = 1;
  for (const auto& line : lines) {
    chart.series.push_back(scaling_series(line, false));
    for (const auto& step : line.steps) {
      fastest = std::max(fastest, step.speedup);
      slowest = std::min(slowest, step.speedup);
    }
    const auto& last = line.steps.back();
    most = std::max(most, static_cast<double>(last.count));
    chart.notes.push_back(line.series + ": " + times(last.speedup) + " on " + std::to_string(last.count) +
                          ", efficiency " + percent(last.efficiency) + "; " + line.verdict);
  }
  chart.y = {"speedup against 1 thread (×), log₂ scale", true, std::nullopt, std::nullopt,
             doubling_ticks(slowest, std::max(most, fastest))};
  // Both axes log₂: ideal scaling (speedup = threads) is the straight diagonal.
  chart.series.push_back({"ideal", {{1, 1}, {most, most}}, svg::Style::dashed, "#999999"});
  chart.notes.push_back("◇ where a tier stops gaining: its last step that added at least " +
                        percent(gain_fraction) + " of the ideal rise,");
  chart.notes.push_back("with two measured counts past it that did not (the report's scaling section).");
  return {chart.id, svg::line_chart(chart)};
}

Chart efficiency_chart(const Analysis& analysis, std::size_t machine) {
  const Run& run = *analysis.run;
  const auto lines = thread_scaling(run, analysis.n);
  svg::Chart chart{
      "efficiency" + suffix(machine), scaling_title("Parallel efficiency", analysis), {}, {}, {}};
  thread_axis(chart, run, lines);
  double highest = 100, most = 1;
  for (const auto& line : lines) {
    chart.series.push_back(scaling_series(line, true));
    for (const auto& step : line.steps) highest = std::max(highest, 100 * step.efficiency);
    most = std::max(most, static_cast<double>(line.steps.back().count));
  }
  chart.y = {"parallel efficiency (% of ideal: speedup ÷ threads)", false, 0.0, 1.05 * highest};
  chart.series.push_back({"ideal (100 %)", {{1, 100}, {most, 100}}, svg::Style::dashed, "#999999"});
  chart.notes.push_back("◇ where a tier stops gaining (as in the thread-scaling chart).");
  return {chart.id, svg::line_chart(chart)};
}

Chart pareto_chart(const Analysis& analysis, std::size_t machine) {
  svg::Chart chart{"pareto" + suffix(machine),
                   "Speedup against maintenance cost — " + analysis.run->machine,
                   {"maintenance cost (1 to 10)", false, 0.0, 10.0},
                   {"× naive (log scale)", true},
                   {}};
  svg::Series tiers{"tiers", {}, svg::Style::markers};
  std::vector<svg::Point> frontier;
  for (const auto& row : analysis.rows) {
    if (!row.speedup) continue;
    const svg::Point point{
        row.cost.score, *row.speedup,
        row.card->id + ": " + times(*row.speedup) + ", cost " + format_number("%.1f", row.cost.score)};
    tiers.points.push_back(point);
    if (row.pareto) frontier.push_back(point);
  }
  std::sort(frontier.begin(), frontier.end(),
            [](const svg::Point& x, const svg::Point& y) { return x.x < y.x; });
  chart.series.push_back(std::move(tiers));
  chart.series.push_back({"Pareto frontier", frontier, svg::Style::line_and_markers});
  chart.notes.push_back("On the frontier, no other tier is both faster and no more costly.");
  return {chart.id, svg::line_chart(chart)};
}

Chart memory_chart(const Run& run, std::size_t machine) {
  svg::Chart chart{"memory" + suffix(machine),
                   "Peak heap against n — " + run.machine,
                   {"n", true},
                   {"peak heap bytes (log; 0 drawn at 1)", true},
                   {}};
  chart.series =
      per_tier(run, [](const Cell& cell) { return std::optional<double>(std::max(1.0, cell.peak_heap)); });
  chart.notes.push_back("O(n) tiers climb with n; streaming tiers stay flat.");
  return {chart.id, svg::line_chart(chart)};
}

Chart error_chart(const Run& run, std::size_t machine) {
  svg::Chart chart{"error" + suffix(machine),
                   "Relative error against n — " + run.machine,
                   {"n", true},
                   {"|relative error| (log)", true},
                   {}};
  chart.series = per_tier(run, [](const Cell& cell) -> std::optional<double> {
    if (!cell.rel_error || *cell.rel_error == 0) return std::nullopt;
    return std::fabs(*cell.rel_error);
  });
  svg::Series theory{"h² (the midpoint rule's own error)", {}, svg::Style::dashed, "#555555"};
  svg::Series floor{"rounding bound (xsimd)", {}, svg::Style::dashed, "#aaaaaa"};
  for (const auto n : run.sizes())
    for (const auto& cell : run.cells) {
      if (cell.n != n || !cell.ok() || !cell.exact || *cell.exact == 0) continue;
      const double exact = *cell.exact;
      if (theory.points.empty() || theory.points.back().x != static_cast<double>(n))
        if (cell.midpoint && *cell.midpoint != exact)
          theory.points.push_back({static_cast<double>(n), std::fabs((*cell.midpoint - exact) / exact)});
      if (cell.tier == "xsimd" && cell.rounding_bound)
        floor.points.push_back({static_cast<double>(n), *cell.rounding_bound / std::fabs(exact)});
    }
  chart.series.push_back(std::move(theory));
  if (!floor.points.empty()) chart.series.push_back(std::move(floor));
  chart.notes.push_back(
      "Tiers follow h² until rounding takes over; the compensated sum stays near the floor.");
  return {chart.id, svg::line_chart(chart)};
}

// Resident memory over one call at the largest n, each tier on its fewest threads (the mprof view).
Chart timeline_chart(const Run& run, std::size_t machine) {
  svg::Chart chart{"memory-over-time" + suffix(machine),
                   "Memory during one call — " + run.machine,
                   {"milliseconds into the call", false},
                   {"resident memory (MiB)", false},
                   {}};
  const auto sizes = run.sizes();
  if (sizes.empty()) return {chart.id, svg::line_chart(chart)};
  const std::int64_t n = sizes.back();
  chart.title = "Memory during one call at n = " + format_count(static_cast<double>(n)) + " — " + run.machine;
  for (const Cell* cell : timeline_cells(run, n, false, 1)) {
    svg::Series series{cell->tier, {}, svg::Style::line};
    for (std::size_t i = 0; i < cell->timeline_seconds.size(); ++i)
      if (cell->timeline_rss[i] >= 0)
        series.points.push_back({1e3 * cell->timeline_seconds[i], cell->timeline_rss[i] / (1 << 20)});
    chart.series.push_back(std::move(series));
    chart.notes.push_back(cell->tier + ": " + format_number("%.0f", cell->minor_faults) +
                          " minor page faults, peak RSS " + format_bytes(cell->peak_rss));
  }
  if (chart.series.empty())
    chart.notes.push_back("No cell at this size sampled its memory (an older results file).");
  chart.notes.push_back("Sampled every 2 ms in one call after the timed runs.");
  chart.notes.push_back("A vector of nodes climbs as its pages are touched; a streaming tier stays flat.");
  return {chart.id, svg::line_chart(chart)};
}

// Cores busy over one call at the largest n, each tier on its most threads: a parallel tier that quietly
// runs on one core draws a line at 1.
svg::Chart cpu_timeline(const Run& run, std::size_t machine) {
  svg::Chart chart{"cpu-over-time" + suffix(machine),
                   "Cores busy during one call — " + run.machine,
                   {"milliseconds into the call", false},
                   {"cores busy (CPU time / wall time)", false},
                   {}};
  const auto sizes = run.sizes();
  if (sizes.empty()) return chart;
  const std::int64_t n = sizes.back();
  chart.title =
      "Cores busy during one call at n = " + format_count(static_cast<double>(n)) + " — " + run.machine;
  for (const Cell* cell : timeline_cells(run, n, true, 3)) {
    svg::Series series{cell->tier + " (" + std::to_string(cell->threads) + " threads)", {}, svg::Style::line};
    for (std::size_t i = 1; i < cell->timeline_seconds.size(); ++i) {
      const double wall = cell->timeline_seconds[i] - cell->timeline_seconds[i - 1];
      if (wall <= 0) continue;
      series.points.push_back({1e3 * 0.5 * (cell->timeline_seconds[i] + cell->timeline_seconds[i - 1]),
                               (cell->timeline_cpu[i] - cell->timeline_cpu[i - 1]) / wall});
    }
    if (!series.points.empty()) chart.series.push_back(std::move(series));
  }
  chart.notes.push_back("The worker's CPU time between two samples over the wall time between them.");
  return chart;
}

Chart cpu_timeline_chart(const Run& run, std::size_t machine) {
  const svg::Chart chart = cpu_timeline(run, machine);
  return {chart.id, svg::line_chart(chart)};
}

}  // namespace ladder::report
