// The report's charts, as SVG ready for the page (svg.hpp draws them). Each kind comes once per machine,
// side by side on the same axes (small multiples); `machine` numbers the chart's id (speedup-1, speedup-2,
// …). A tier keeps one look (colour, marker, dash) in every chart of the report and on every machine: the
// slot of its place in the rung order of all the report's runs.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "document.hpp"
#include "report.hpp"
#include "svg.hpp"

namespace ladder::report {

// Each tier's look slot (svg::look): the runs' cards in rung order, the first run's first, a tier only some
// runs have after those of the runs before.
std::map<std::string, std::size_t> tier_slots(const std::vector<const Run*>& runs);
// What the chart files share (charts.cpp): a tier's slot plus `offset` (none where `slots` lacks the tier),
// and the suffix of a machine's chart ids ("-1" for the first).
std::optional<std::size_t> slot_of(const std::map<std::string, std::size_t>& slots, const std::string& tier,
                                   std::size_t offset = 0);
std::string suffix(std::size_t machine);

// Speedup and parallel efficiency against threads, one machine's figures before drawing
// (charts_scaling.cpp).
svg::Plot scaling_figures(const Analysis& analysis, std::size_t machine,
                          const std::map<std::string, std::size_t>& slots);
svg::Plot efficiency_figures(const Analysis& analysis, std::size_t machine,
                             const std::map<std::string, std::size_t>& slots);

// A year's cost of each tier against calls a day, with the usage map's envelope (charts_money.cpp): one a
// decision (one a run: runs[i] is decisions[i]'s), on shared axes.
struct Decision;
svg::Plot money_figures(const Decision& decision, const Run& run, std::size_t machine,
                        const std::map<std::string, std::size_t>& slots);
std::vector<Chart> money_charts(const std::vector<Decision>& decisions, const std::vector<const Run*>& runs);

// One chart per analysis or run, on axes shared by all.
std::vector<Chart> speedup_charts(const std::vector<Analysis>& analyses);
std::vector<Chart> scaling_charts(const std::vector<Analysis>& analyses);
std::vector<Chart> efficiency_charts(const std::vector<Analysis>& analyses);
std::vector<Chart> pareto_charts(const std::vector<Analysis>& analyses);
std::vector<Chart> memory_charts(const std::vector<Run>& runs);
std::vector<Chart> error_charts(const std::vector<Run>& runs);
std::vector<Chart> timeline_charts(const std::vector<Run>& runs);
std::vector<Chart> cpu_timeline_charts(const std::vector<Run>& runs);

// One machine's chart alone, on its own axes.
Chart speedup_chart(const Analysis& analysis, std::size_t machine);
// Speedup and parallel efficiency against threads, on a log₂ thread axis with the machine's L3, NUMA,
// socket and SMT boundaries marked and a diamond where each tier stops gaining (scaling.hpp).
Chart scaling_chart(const Analysis& analysis, std::size_t machine);
Chart efficiency_chart(const Analysis& analysis, std::size_t machine);
// Speedup against maintenance cost, each dot labelled with its tier, the frontier's emphasised.
Chart pareto_chart(const Analysis& analysis, std::size_t machine);
Chart memory_chart(const Run& run, std::size_t machine);
Chart error_chart(const Run& run, std::size_t machine);
Chart timeline_chart(const Run& run, std::size_t machine);
Chart cpu_timeline_chart(const Run& run, std::size_t machine);
// The CPU-over-time chart's figures before drawing: one series a tier, points (ms into the call, cores).
svg::Plot cpu_timeline(const Run& run, std::size_t machine);

}  // namespace ladder::report
