#include "disturbance.hpp"

#include <algorithm>

#include "text.hpp"

namespace ladder {

std::vector<std::string> outside_disturbance(double other_load_cores, double steal_fraction) {
  std::vector<std::string> reasons;
  if (other_load_cores >= disturbed_other_cores)
    reasons.push_back(format_number("%.2f cores of other load", other_load_cores));
  if (steal_fraction >= disturbed_steal)
    reasons.push_back(format_number("%.1f %% of the CPU time stolen", 100 * steal_fraction));
  return reasons;
}

std::vector<std::string> round_outside_disturbance(const Round& round, int cell_cpus, int machine_cpus) {
  const int used = std::max(1, cell_cpus), free_cpus = std::max(0, machine_cpus - used);
  const double competing = std::max(0.0, round.other_load_cores - free_cpus);
  std::vector<std::string> reasons;
  if (competing >= disturbed_other_cores * used) {
    const std::string cpus = std::to_string(used) + (used == 1 ? " CPU" : " CPUs");
    reasons.push_back(free_cpus == 0
                          ? format_number("%.2f cores of other load on the cell's ", round.other_load_cores) +
                                cpus
                          : format_number("%.2f cores of other load, ", round.other_load_cores) +
                                format_number("%.2f beyond the ", competing) + std::to_string(free_cpus) +
                                (free_cpus == 1 ? " CPU" : " CPUs") + " the cell left free");
  }
  for (auto& reason : outside_disturbance(0, round.steal_fraction)) reasons.push_back(std::move(reason));
  return reasons;
}

std::vector<std::string> repetition_disturbance(const Aggregates& aggregates) {
  std::vector<std::string> reasons;
  const double low = aggregates.min.real_time, high = aggregates.max.real_time;
  if (low > 0 && high > disturbed_spread * low) reasons.push_back(format_number("max/min %.2f", high / low));
  if (aggregates.cv.real_time > disturbed_cv)
    reasons.push_back(format_number("cv %.1f %%", 100 * aggregates.cv.real_time));
  return reasons;
}

std::string slow_round(const Round& round, double others_ns, double band_percent) {
  if (others_ns <= 0 || round.median_ns <= others_ns * (1 + band_percent / 100)) return "";
  return format_number("median %.1f %% above its other rounds'", 100 * (round.median_ns / others_ns - 1)) +
         format_number(" (the run's noise at this size: %.1f %%)", band_percent);
}

std::vector<std::string> disturbance(const CellResult& cell) {
  if (!cell.ok()) return {};
  if (cell.rounds.size() >= 2) {  // measured in rounds: disturbed when fewer than two are clean
    if (cell.clean_rounds() >= 2) return {};
    std::vector<std::string> reasons = {std::to_string(cell.clean_rounds()) + " of " +
                                        std::to_string(cell.rounds.size()) + " rounds clean"};
    for (const Round& round : cell.rounds)
      for (const auto& reason : round.disturbed)
        reasons.push_back("round " + std::to_string(round.index) + ": " + reason);
    return reasons;
  }
  std::vector<std::string> reasons =
      outside_disturbance(cell.worker.other_load_cores, cell.worker.steal_fraction);
  for (auto& reason : repetition_disturbance(cell.measurement->aggregates))
    reasons.push_back(std::move(reason));
  return reasons;
}

std::string disturbance_rule() {
  return format_number("other processes' load of %.2f cores or more, ", disturbed_other_cores) +
         format_number("%.0f %% or more of the CPU time stolen, ", 100 * disturbed_steal) +
         format_number("a slowest repetition over %.1f × the fastest, ", disturbed_spread) +
         format_number("or a cv over %.0f %%", 100 * disturbed_cv);
}

}  // namespace ladder
