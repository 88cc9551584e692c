#include "scaling.hpp"

#include <algorithm>
#include <map>

#include "document.hpp"

namespace ladder::report {
namespace {

// The repetitions' range of a cell, in seconds (its median where it has none).
std::pair<double, double> spread(const CellResult& cell) {
  const std::vector<double> repetitions = cell.repetition_seconds();
  if (repetitions.empty()) return {cell.median(), cell.median()};
  const auto [low, high] = std::minmax_element(repetitions.begin(), repetitions.end());
  return {*low, *high};
}

ScalingStep step_from(const ScalingStep& before, const CellResult& cell, int count, const CellResult& one) {
  ScalingStep step{&cell, count, one.median() / cell.median(), 0, std::nullopt, ScalingStep::Step::flat};
  step.efficiency = step.speedup / count;
  const double ideal_rise = before.speedup * (static_cast<double>(count) / before.count - 1);
  step.gain_of_ideal = (step.speedup - before.speedup) / ideal_rise;
  if (*step.gain_of_ideal >= gain_fraction)
    // A rise the repetitions cannot tell from noise: this count's slowest run is not faster than the
    // previous count's fastest.
    step.step = spread(cell).second < spread(*before.cell).first ? ScalingStep::Step::gained
                                                                 : ScalingStep::Step::unclear;
  return step;
}

// Where the line stops gaining, by the rule in scaling.hpp, and the verdict in words.
void judge(TierScaling& line) {
  const std::string unit = line.ranks ? "ranks" : "threads";
  const auto& steps = line.steps;
  std::size_t last_gain = 0;
  for (std::size_t i = 1; i < steps.size(); ++i)
    if (steps[i].step == ScalingStep::Step::gained) last_gain = i;
  const int knee = steps[last_gain].count;
  const std::size_t past = steps.size() - 1 - last_gain;
  std::string unclear;
  for (std::size_t i = last_gain + 1; i < steps.size(); ++i)
    if (steps[i].step == ScalingStep::Step::unclear)
      unclear += (unclear.empty() ? "" : ", ") + std::to_string(steps[i].count);
  if (past == 0) {
    line.verdict =
        "still gaining at " + counted(knee, unit.substr(0, unit.size() - 1), unit) + " (the most measured)";
  } else if (!unclear.empty()) {
    line.verdict = "unclear past " + counted(knee, unit.substr(0, unit.size() - 1), unit) + ": the rise at " +
                   unclear + " is within the repetitions' spread";
  } else if (past == 1) {
    line.verdict = "may stop gaining at " + counted(knee, unit.substr(0, unit.size() - 1), unit) + ": only " +
                   std::to_string(steps.back().count) + " was measured past it, too few to tell";
  } else {
    line.stops_gaining = knee;
    line.verdict = "stops gaining at " + counted(knee, unit.substr(0, unit.size() - 1), unit);
  }
}

}  // namespace

std::string stop_rule() {
  return "A step to more threads gains when it raises the speedup (of the medians) by at least " +
         percent(gain_fraction, 0) +
         " of what ideal scaling would add from the count before, and its slowest repetition beats the "
         "count before's fastest. A tier stops gaining at its last count that gained, once two or more "
         "measured counts past it did not: one slow measurement makes no knee.";
}

std::vector<TierScaling> thread_scaling(const Run& run, std::int64_t n) {
  std::vector<TierScaling> lines;
  for (const auto& card : run.cards) {
    if (!card.parallel) continue;
    for (const bool ranks : {false, true}) {
      if (ranks && !card.distributed) continue;
      const CellResult* one = nullptr;
      std::vector<const CellResult*> cells;
      for (const auto& cell : run.cells) {
        if (cell.tier != card.id || cell.n != n || !cell.ok()) continue;
        if (ranks ? cell.threads != 1 : cell.ranks != 1) continue;
        if (cell.threads == 1 && cell.ranks == 1) one = &cell;
        cells.push_back(&cell);
      }
      if (!one || cells.size() < 2) continue;
      const auto count = [ranks](const CellResult* cell) { return ranks ? cell->ranks : cell->threads; };
      std::sort(cells.begin(), cells.end(),
                [&](const CellResult* x, const CellResult* y) { return count(x) < count(y); });
      TierScaling line{card.distributed ? card.id + (ranks ? " ranks" : " threads") : card.id, card.id,
                       ranks};
      line.steps.push_back({one, 1, 1, 1, std::nullopt, ScalingStep::Step::first});
      for (const CellResult* cell : cells)
        if (count(cell) > line.steps.back().count)
          line.steps.push_back(step_from(line.steps.back(), *cell, count(cell), *one));
      judge(line);
      lines.push_back(std::move(line));
    }
  }
  return lines;
}

std::vector<Boundary> boundaries(const Topology& topology) {
  std::map<int, std::string> labels;
  const auto add = [&](int threads, const std::string& label) {
    if (threads < 1) return;
    std::string& text = labels[threads];
    text += (text.empty() ? "" : " · ") + label;
  };
  if (topology.l3_groups > 1) add(topology.cores_per_l3(), "L3 group");
  if (topology.numa_nodes > 1) add(topology.cores_per_numa(), "NUMA node");
  if (topology.packages > 1) add(topology.cores_per_package(), "socket");
  if (topology.hardware_threads() > topology.cores) {
    add(topology.cores, "all cores (SMT past)");
    add(topology.hardware_threads(), "all hardware threads");
  } else if (topology.cores > 1) {
    add(topology.cores, "all cores");
  }
  std::vector<Boundary> all;
  for (const auto& [threads, label] : labels) all.push_back({threads, label});
  return all;
}

std::string placement_text(const std::optional<Placement>& placement) {
  if (!placement) return "not recorded";
  std::string text = placement->crosses_numa()
                         ? "crosses NUMA: " + std::to_string(placement->numa_nodes) + " nodes; "
                         : "1 NUMA node: ";
  text += counted(placement->cores, "core", "cores");
  if (placement->l3_groups > 0) text += ", " + counted(placement->l3_groups, "L3 group", "L3 groups");
  text += ", " + counted(placement->packages, "socket", "sockets");
  if (placement->shares_cores) text += "; SMT shared";
  return text;
}

}  // namespace ladder::report
