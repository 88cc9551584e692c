// Whether a cell's measurement was disturbed: the one rule the runner (which measures a disturbed cell
// again, harness/remeasure.hpp), the run's warnings and the report's answer (which never lets a disturbed
// figure decide silently) share. A cell is disturbed when, while it ran,
// - other processes kept a quarter of a core or more busy (the worker's other_load_cores);
// - the hypervisor stole 2 % or more of the machine's CPU time;
// - its slowest repetition took over 1.5 × its fastest;
// - its repetitions' coefficient of variation was over 5 %.
// Each threshold is named once, here; the messages quote them.
#pragma once

#include <string>
#include <vector>

#include "cell_result.hpp"

namespace ladder {

inline constexpr double disturbed_other_cores = 0.25;  // other processes' load, in cores
inline constexpr double disturbed_steal = 0.02;        // of the machine's CPU time, to the hypervisor
inline constexpr double disturbed_spread = 1.5;        // slowest repetition over the fastest
inline constexpr double disturbed_cv = 0.05;           // the repetitions' coefficient of variation

// Why the cell's measurement was disturbed, one phrase a reason ("1.01 cores of other load", "2.3 % of
// the CPU time stolen", "max/min 1.82", "cv 7.4 %"); empty when it was not, or the cell is not ok.
std::vector<std::string> disturbance(const CellResult& cell);
inline bool disturbed(const CellResult& cell) { return !disturbance(cell).empty(); }

// The rule in words, for the docs and the report: "other load ≥ 0.25 cores, steal ≥ 2 %, …".
std::string disturbance_rule();

}  // namespace ladder
