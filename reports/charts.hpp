// The report's charts, each one machine's, as SVG ready for the page (svg.hpp draws them): `machine`
// numbers the chart's id (speedup-1, speedup-2, …) when the report covers several machines.
#pragma once

#include <cstddef>

#include "document.hpp"
#include "report.hpp"
#include "svg.hpp"

namespace ladder::report {

Chart speedup_chart(const Analysis& analysis, std::size_t machine);
// Speedup and parallel efficiency against threads, on a log₂ thread axis with the machine's L3, NUMA,
// socket and SMT boundaries marked and a diamond where each tier stops gaining (scaling.hpp).
Chart scaling_chart(const Analysis& analysis, std::size_t machine);
Chart efficiency_chart(const Analysis& analysis, std::size_t machine);
Chart pareto_chart(const Analysis& analysis, std::size_t machine);
Chart memory_chart(const Run& run, std::size_t machine);
Chart error_chart(const Run& run, std::size_t machine);
Chart timeline_chart(const Run& run, std::size_t machine);
Chart cpu_timeline_chart(const Run& run, std::size_t machine);
// The CPU-over-time chart's figures before drawing: one series a tier, points (ms into the call, cores).
svg::Chart cpu_timeline(const Run& run, std::size_t machine);

}  // namespace ladder::report
