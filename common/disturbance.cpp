#include "disturbance.hpp"

#include "text.hpp"

namespace ladder {

std::vector<std::string> disturbance(const CellResult& cell) {
  std::vector<std::string> reasons;
  if (!cell.ok()) return reasons;
  if (cell.worker.other_load_cores >= disturbed_other_cores)
    reasons.push_back(format_number("%.2f cores of other load", cell.worker.other_load_cores));
  if (cell.worker.steal_fraction >= disturbed_steal)
    reasons.push_back(format_number("%.1f %% of the CPU time stolen", 100 * cell.worker.steal_fraction));
  const Aggregates& aggregates = cell.measurement->aggregates;
  const double low = aggregates.min.real_time, high = aggregates.max.real_time;
  if (low > 0 && high > disturbed_spread * low) reasons.push_back(format_number("max/min %.2f", high / low));
  if (aggregates.cv.real_time > disturbed_cv)
    reasons.push_back(format_number("cv %.1f %%", 100 * aggregates.cv.real_time));
  return reasons;
}

std::string disturbance_rule() {
  return format_number("other processes' load of %.2f cores or more, ", disturbed_other_cores) +
         format_number("%.0f %% or more of the CPU time stolen, ", 100 * disturbed_steal) +
         format_number("a slowest repetition over %.1f × the fastest, ", disturbed_spread) +
         format_number("or a cv over %.0f %%", 100 * disturbed_cv);
}

}  // namespace ladder
