// The report's charts: each gathers one machine's cells into the series and notes of an svg::Plot; the
// charts of one kind are then drawn on shared axes.
#include "charts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>

#include "svg.hpp"

namespace ladder::report {

using Slots = std::map<std::string, std::size_t>;

std::string suffix(std::size_t machine) { return "-" + std::to_string(machine + 1); }

std::optional<std::size_t> slot_of(const Slots& slots, const std::string& tier, std::size_t offset) {
  const auto found = slots.find(tier);
  if (found == slots.end()) return std::nullopt;
  return found->second + offset;
}

namespace {

// A cell's figures for a tooltip: "tbb at n = 1e8, 2 threads: 12.3 ms".
std::string cell_figures(const CellResult& cell) {
  std::string out = cell.tier + " at n = " + format_count(static_cast<double>(cell.n)) + ", " +
                    counted(cell.threads, "thread", "threads");
  if (cell.ranks > 1) out += " × " + std::to_string(cell.ranks) + " ranks";
  return out + ": " + format_seconds(cell.median());
}

// One series per tier over n, from each tier's best configuration; `value` gives a point's y (none: no
// point) and `what` its figure for the tooltip.
std::vector<svg::Series> per_tier(const Run& run, const Slots& slots,
                                  const std::function<std::optional<double>(const CellResult&)>& value,
                                  const std::function<std::string(double)>& what) {
  std::vector<svg::Series> all;
  for (const auto& card : run.cards) {
    svg::Series series{card.id, {}};
    series.slot = slot_of(slots, card.id);
    for (const auto n : run.sizes()) {
      const CellResult* best = nullptr;
      for (const auto& cell : run.cells)
        if (cell.tier == card.id && cell.n == n && cell.ok() && (!best || cell.median() < best->median()))
          best = &cell;
      if (best)
        if (const auto y = value(*best))
          series.points.push_back({static_cast<double>(n), *y, cell_figures(*best) + ", " + what(*y)});
    }
    if (!series.points.empty()) all.push_back(std::move(series));
  }
  return all;
}

Slots slots_of(const Run& run) { return tier_slots({&run}); }

// Charts of one kind drawn on the same axes.
std::vector<Chart> drawn(std::vector<svg::Plot> charts) {
  svg::share_axes(charts);
  std::vector<Chart> out;
  for (const auto& chart : charts) out.push_back({chart.id, svg::line_chart(chart)});
  return out;
}

// Each tier's cell at n that sampled one call over time (at least `samples` points), on its fewest threads
// × ranks, or its most: the timeline charts' choice.
std::vector<const CellResult*> timeline_cells(const Run& run, std::int64_t n, bool most_threads,
                                              std::size_t samples) {
  std::vector<const CellResult*> chosen;
  for (const auto& card : run.cards) {
    const CellResult* best = nullptr;
    for (const auto& cell : run.cells) {
      if (cell.tier != card.id || cell.n != n || !cell.ok() || cell.timeline().seconds.size() < samples)
        continue;
      const int cores = cell.threads * cell.ranks;
      if (!best || (most_threads ? cores > best->threads * best->ranks : cores < best->threads * best->ranks))
        best = &cell;
    }
    if (best) chosen.push_back(best);
  }
  return chosen;
}

// The bars of one machine's speedups against naive, each with its cost.
svg::BarPlot speedup_figures(const Analysis& analysis, std::size_t machine) {
  svg::BarPlot chart{"speedup" + suffix(machine),
                     "Speedup against naive at n = " + format_count(static_cast<double>(analysis.n)) + " — " +
                         analysis.run->machine,
                     "× naive (log scale)",
                     true,
                     {}};
  for (const auto& row : analysis.rows)
    if (row.speedup)
      chart.bars.push_back({row.card->id + (row.card->peer ? " (Python)" : ""), *row.speedup,
                            format_number("cost %.1f", row.cost.score), row.card->peer ? "#999999" : ""});
  return chart;
}

// Every tier a dot labelled with its id: the frontier's larger, bold and joined by the frontier line, the
// others lighter; Python peers off the frontier as diamonds.
svg::Plot pareto_figures(const Analysis& analysis, std::size_t machine) {
  svg::Plot chart{"pareto" + suffix(machine),
                  "Speedup against maintenance cost — " + analysis.run->machine,
                  {"maintenance cost (1 to 10)", false, 0.0, 10.0},
                  {"× naive (log scale)", true},
                  {}};
  chart.height = 480;
  chart.end_labels = false;
  svg::Series frontier{"Pareto frontier (bold)", {}, svg::Style::line_and_markers, "#0072B2", 0};
  svg::Series others{"other tiers", {}, svg::Style::markers, "#56B4E9", 0};
  svg::Series peers{"Python peers", {}, svg::Style::markers, "#E69F00", 3};
  for (const auto& row : analysis.rows) {
    if (!row.speedup) continue;
    const CellResult& cell = *row.cell;
    std::string figures = row.card->id + (row.card->peer ? " (Python)" : "") + ": " + times(*row.speedup) +
                          " naive, cost " + format_number("%.1f", row.cost.score) +
                          "; n = " + format_count(static_cast<double>(cell.n)) + ", " +
                          counted(cell.threads, "thread", "threads") + ", " + format_seconds(cell.median());
    if (cell.rel_error())
      figures += ", relative error " + format_number("%.2g", std::fabs(*cell.rel_error()));
    svg::Point point{row.cost.score, *row.speedup, figures, {}, row.card->id, row.pareto};
    (row.pareto ? frontier : row.card->peer ? peers : others).points.push_back(std::move(point));
  }
  std::sort(frontier.points.begin(), frontier.points.end(),
            [](const svg::Point& x, const svg::Point& y) { return x.x < y.x; });
  for (auto* series : {&frontier, &others, &peers})
    if (!series->points.empty()) chart.series.push_back(std::move(*series));
  chart.notes.push_back("On the frontier, no other tier is both faster and no more costly.");
  return chart;
}

svg::Plot memory_figures(const Run& run, std::size_t machine, const Slots& slots) {
  svg::Plot chart{"memory" + suffix(machine),
                  "Peak heap against n — " + run.machine,
                  {"n", true},
                  {"peak heap bytes (log; 0 drawn at 1)", true},
                  {}};
  chart.series = per_tier(
      run, slots,
      [](const CellResult& cell) {
        const auto heap = cell.counted_peak_heap();  // none where it could not be counted: no point, not 0
        return heap ? std::optional<double>(std::max(1.0, *heap)) : std::nullopt;
      },
      [](double bytes) { return "peak heap " + format_bytes(bytes); });
  chart.notes.push_back("O(n) tiers climb with n; streaming tiers stay flat.");
  return chart;
}

svg::Plot error_figures(const Run& run, std::size_t machine, const Slots& slots) {
  svg::Plot chart{"error" + suffix(machine),
                  "Relative error against n — " + run.machine,
                  {"n", true},
                  {"|relative error| (log)", true},
                  {}};
  chart.series = per_tier(
      run, slots,
      [](const CellResult& cell) -> std::optional<double> {
        if (!cell.rel_error() || *cell.rel_error() == 0) return std::nullopt;
        return std::fabs(*cell.rel_error());
      },
      [](double error) { return "relative error " + format_number("%.3g", error); });
  svg::Series theory{"h² (the rule's own error)", {}, svg::Style::dashed, "#555555"};
  svg::Series floor{"rounding bound (xsimd)", {}, svg::Style::dashed, "#aaaaaa"};
  for (const auto n : run.sizes())
    for (const auto& cell : run.cells) {
      if (cell.n != n || !cell.ok() || !cell.exact() || *cell.exact() == 0) continue;
      const double exact = *cell.exact();
      const std::string at = "n = " + format_count(static_cast<double>(n)) + ": ";
      if (theory.points.empty() || theory.points.back().x != static_cast<double>(n))
        if (cell.midpoint() && *cell.midpoint() != exact) {
          const double error = std::fabs((*cell.midpoint() - exact) / exact);
          theory.points.push_back({static_cast<double>(n), error,
                                   "h² at " + at + "relative error " + format_number("%.3g", error)});
        }
      if (cell.tier == "xsimd" && cell.rounding_bound()) {
        const double bound = *cell.rounding_bound() / std::fabs(exact);
        floor.points.push_back({static_cast<double>(n), bound,
                                "rounding bound at " + at + "relative " + format_number("%.3g", bound)});
      }
    }
  chart.series.push_back(std::move(theory));
  if (!floor.points.empty()) chart.series.push_back(std::move(floor));
  chart.notes.push_back(
      "Tiers follow h² until rounding takes over; the compensated sum stays near the floor.");
  return chart;
}

// Resident memory over one call at the largest n, each tier on its fewest threads (the mprof view).
svg::Plot timeline_figures(const Run& run, std::size_t machine, const Slots& slots) {
  svg::Plot chart{"memory-over-time" + suffix(machine),
                  "Memory during one call — " + run.machine,
                  {"milliseconds into the call", false},
                  {"resident memory (MiB)", false},
                  {}};
  const auto sizes = run.sizes();
  if (sizes.empty()) return chart;
  const std::int64_t n = sizes.back();
  chart.title = "Memory during one call at n = " + format_count(static_cast<double>(n)) + " — " + run.machine;
  for (const CellResult* cell : timeline_cells(run, n, false, 1)) {
    svg::Series series{cell->tier, {}, svg::Style::line};
    series.slot = slot_of(slots, cell->tier);
    for (std::size_t i = 0; i < cell->timeline().seconds.size(); ++i)
      if (cell->timeline().rss_bytes[i] >= 0) {
        const double ms = 1e3 * cell->timeline().seconds[i], mib = cell->timeline().rss_bytes[i] / (1 << 20);
        series.points.push_back({ms, mib,
                                 cell_figures(*cell) + "; at " + format_number("%.1f", ms) + " ms, " +
                                     format_number("%.1f", mib) + " MiB resident"});
      }
    chart.series.push_back(std::move(series));
    chart.notes.push_back(cell->tier + ": " + format_number("%.0f", cell->minor_faults()) +
                          " minor page faults, peak RSS " + format_bytes(cell->peak_rss()));
  }
  if (chart.series.empty())
    chart.notes.push_back("No cell at this size sampled its memory (an older results file).");
  chart.notes.push_back("Sampled every 2 ms in one call outside the timed repetitions.");
  chart.notes.push_back("A vector of nodes climbs as its pages are touched; a streaming tier stays flat.");
  return chart;
}

// Cores busy over one call at the largest n, each tier on its most threads: a parallel tier that quietly
// runs on one core draws a line at 1.
svg::Plot cpu_timeline_figures(const Run& run, std::size_t machine, const Slots& slots) {
  svg::Plot chart{"cpu-over-time" + suffix(machine),
                  "Cores busy during one call — " + run.machine,
                  {"milliseconds into the call", false},
                  {"cores busy (CPU time / wall time)", false},
                  {}};
  const auto sizes = run.sizes();
  if (sizes.empty()) return chart;
  const std::int64_t n = sizes.back();
  chart.title =
      "Cores busy during one call at n = " + format_count(static_cast<double>(n)) + " — " + run.machine;
  for (const CellResult* cell : timeline_cells(run, n, true, 3)) {
    svg::Series series{
        cell->tier + " (" + std::to_string(cell->threads) + (cell->threads == 1 ? " thread)" : " threads)"),
        {},
        svg::Style::line};
    series.slot = slot_of(slots, cell->tier);
    for (std::size_t i = 1; i < cell->timeline().seconds.size(); ++i) {
      const double wall = cell->timeline().seconds[i] - cell->timeline().seconds[i - 1];
      if (wall <= 0) continue;
      const double ms = 1e3 * 0.5 * (cell->timeline().seconds[i] + cell->timeline().seconds[i - 1]);
      const double cores = (cell->timeline().cpu_seconds[i] - cell->timeline().cpu_seconds[i - 1]) / wall;
      series.points.push_back({ms, cores,
                               cell_figures(*cell) + "; at " + format_number("%.1f", ms) + " ms, " +
                                   format_number("%.2f", cores) + " cores busy"});
    }
    if (!series.points.empty()) chart.series.push_back(std::move(series));
  }
  chart.notes.push_back("The worker's CPU time between two samples over the wall time between them.");
  return chart;
}

std::vector<const Run*> runs_of(const std::vector<Analysis>& analyses) {
  std::vector<const Run*> runs;
  for (const auto& analysis : analyses) runs.push_back(analysis.run);
  return runs;
}

std::vector<const Run*> runs_of(const std::vector<Run>& runs) {
  std::vector<const Run*> out;
  for (const auto& run : runs) out.push_back(&run);
  return out;
}

using AnalysisFigures = svg::Plot (*)(const Analysis&, std::size_t, const Slots&);
using RunFigures = svg::Plot (*)(const Run&, std::size_t, const Slots&);

std::vector<Chart> each(const std::vector<Analysis>& analyses, AnalysisFigures figures) {
  const Slots slots = tier_slots(runs_of(analyses));
  std::vector<svg::Plot> charts;
  for (std::size_t i = 0; i < analyses.size(); ++i) charts.push_back(figures(analyses[i], i, slots));
  return drawn(std::move(charts));
}

std::vector<Chart> each(const std::vector<Run>& runs, RunFigures figures) {
  const Slots slots = tier_slots(runs_of(runs));
  std::vector<svg::Plot> charts;
  for (std::size_t i = 0; i < runs.size(); ++i) charts.push_back(figures(runs[i], i, slots));
  return drawn(std::move(charts));
}

}  // namespace

std::map<std::string, std::size_t> tier_slots(const std::vector<const Run*>& runs) {
  Slots slots;
  for (const Run* run : runs)
    for (const Card* card : run->cards_by_rung()) slots.emplace(card->id, slots.size());
  return slots;
}

std::vector<Chart> speedup_charts(const std::vector<Analysis>& analyses) {
  std::vector<svg::BarPlot> charts;
  for (std::size_t i = 0; i < analyses.size(); ++i) charts.push_back(speedup_figures(analyses[i], i));
  svg::share_axes(charts);
  std::vector<Chart> out;
  for (const auto& chart : charts) out.push_back({chart.id, svg::bar_chart(chart)});
  return out;
}
std::vector<Chart> scaling_charts(const std::vector<Analysis>& analyses) {
  return each(analyses, scaling_figures);
}
std::vector<Chart> efficiency_charts(const std::vector<Analysis>& analyses) {
  return each(analyses, efficiency_figures);
}
std::vector<Chart> pareto_charts(const std::vector<Analysis>& analyses) {
  return each(analyses, [](const Analysis& analysis, std::size_t machine, const Slots&) {
    return pareto_figures(analysis, machine);
  });
}
std::vector<Chart> memory_charts(const std::vector<Run>& runs) { return each(runs, memory_figures); }
std::vector<Chart> error_charts(const std::vector<Run>& runs) { return each(runs, error_figures); }
std::vector<Chart> timeline_charts(const std::vector<Run>& runs) { return each(runs, timeline_figures); }
std::vector<Chart> cpu_timeline_charts(const std::vector<Run>& runs) {
  return each(runs, cpu_timeline_figures);
}

Chart speedup_chart(const Analysis& analysis, std::size_t machine) {
  const svg::BarPlot chart = speedup_figures(analysis, machine);
  return {chart.id, svg::bar_chart(chart)};
}
Chart scaling_chart(const Analysis& analysis, std::size_t machine) {
  return drawn({scaling_figures(analysis, machine, slots_of(*analysis.run))}).front();
}
Chart efficiency_chart(const Analysis& analysis, std::size_t machine) {
  return drawn({efficiency_figures(analysis, machine, slots_of(*analysis.run))}).front();
}
Chart pareto_chart(const Analysis& analysis, std::size_t machine) {
  return drawn({pareto_figures(analysis, machine)}).front();
}
Chart memory_chart(const Run& run, std::size_t machine) {
  return drawn({memory_figures(run, machine, slots_of(run))}).front();
}
Chart error_chart(const Run& run, std::size_t machine) {
  return drawn({error_figures(run, machine, slots_of(run))}).front();
}
Chart timeline_chart(const Run& run, std::size_t machine) {
  return drawn({timeline_figures(run, machine, slots_of(run))}).front();
}
svg::Plot cpu_timeline(const Run& run, std::size_t machine) {
  return cpu_timeline_figures(run, machine, slots_of(run));
}
Chart cpu_timeline_chart(const Run& run, std::size_t machine) {
  return drawn({cpu_timeline(run, machine)}).front();
}

}  // namespace ladder::report
