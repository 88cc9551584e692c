// The money chart: a year's cost of each tier against calls a day, log-log, one line a tier, and the
// cheapest at each usage (the usage map's envelope) drawn bold over them, its break-even points tagged
// with the tier that takes over there.
#include <algorithm>
#include <cmath>

#include "charts.hpp"
#include "decision.hpp"

namespace ladder::report {
namespace {

// Calls a day from a hundredth of the first break-even to a hundred times the last (1 to 1e9 without any),
// at 41 points spread evenly in log, and each break-even itself.
std::vector<double> usage_axis(const Decision& decision) {
  double first = 0, last = 0;
  for (const auto& step : decision.usage_map)
    if (step.from > 0) {
      first = first > 0 ? std::min(first, step.from) : step.from;
      last = std::max(last, step.from);
    }
  const double low = first > 0 ? std::max(1.0, first / 100) : 1, high = last > 0 ? last * 100 : 1e9;
  std::vector<double> xs;
  const int count = 40;
  for (int i = 0; i <= count; ++i) xs.push_back(low * std::pow(high / low, static_cast<double>(i) / count));
  for (const auto& step : decision.usage_map)
    if (step.from >= low && step.from <= high) xs.push_back(step.from);
  std::sort(xs.begin(), xs.end());
  return xs;
}

std::string a_year(double dollars) { return "$" + format_amount(dollars, dollars < 100 ? 2 : 0); }

}  // namespace

svg::Plot money_figures(const Decision& decision, const Run& run, std::size_t machine,
                        const std::map<std::string, std::size_t>& slots) {
  const double years = decision.figures.horizon_years;
  svg::Plot chart{"money-" + std::to_string(machine + 1),
                  "A year's cost against calls a day — " + run.machine,
                  {"calls a day (log scale)", true},
                  {"dollars a year (log scale)", true},
                  {}};
  chart.height = 460;
  const std::vector<double> xs = usage_axis(decision);
  for (const auto& each : decision.tiers) {
    svg::Series line{each.card->id, {}, svg::Style::line};
    if (const auto slot = slots.find(each.card->id); slot != slots.end()) line.slot = slot->second;
    for (const double calls : xs) {
      const double cost = each.money.total(calls) / years;
      line.points.push_back(
          {calls, cost,
           each.card->id + " at " + calls_text(calls) + " calls a day: " + a_year(cost) + " a year"});
    }
    chart.series.push_back(std::move(line));
  }
  svg::Series cheapest{"the cheapest (bold): the usage map", {}, svg::Style::line_and_markers, "#000000"};
  cheapest.bold = true;
  for (const double calls : xs) {
    const UsageStep* step = &decision.usage_map.front();
    for (const auto& each : decision.usage_map)
      if (calls >= each.from) step = &each;
    const double cost = decision.tier(step->tier)->money.total(calls) / years;
    svg::Point point{calls, cost,
                     "the cheapest at " + calls_text(calls) + " calls a day: " + step_tiers_text(*step) +
                         ", " + a_year(cost) + " a year"};
    if (step->from > 0 && calls == step->from) {
      point.tag = step_tiers_text(*step) + " from " + calls_text(calls);
      point.emphasis = true;
    } else if (cheapest.points.empty()) {
      point.tag = step_tiers_text(*step);  // the first step's tiers, below the first break-even
    }
    cheapest.points.push_back(std::move(point));
  }
  chart.series.push_back(std::move(cheapest));
  chart.notes.push_back("A year's cost: (adoption × bus factor + upkeep × years) × engineer-day ÷ years,");
  chart.notes.push_back("plus calls a day × 365 × core-seconds a call ÷ 3600 × core-hour.");
  return chart;
}

std::vector<Chart> money_charts(const std::vector<Decision>& decisions, const std::vector<const Run*>& runs) {
  const auto slots = tier_slots(runs);
  std::vector<svg::Plot> plots;
  for (std::size_t i = 0; i < decisions.size(); ++i)
    if (!decisions[i].tiers.empty()) plots.push_back(money_figures(decisions[i], *runs[i], i, slots));
  svg::share_axes(plots);
  std::vector<Chart> out;
  for (const auto& plot : plots) out.push_back({plot.id, svg::line_chart(plot)});
  return out;
}

}  // namespace ladder::report
