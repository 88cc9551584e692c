// What change detection (history_detect.cpp) and history check (history_check.cpp) share: the median, and
// how a run and a change are named (internal to history/).
#pragma once

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "history_detect.hpp"
#include "text.hpp"

namespace ladder::history::detail {

// The median of `values` (NaN for none).
inline double median_of(std::vector<double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const std::size_t half = values.size() / 2;
  return values.size() % 2 ? values[half] : (values[half - 1] + values[half]) / 2;
}

// A commit as the sentences name it: its first 10 hex digits.
inline std::string short_commit(const std::string& commit) { return commit.substr(0, 10); }

// "run 1a2b3c4d5e6f (commit 3f2a1b0c9d, with uncommitted changes)".
inline std::string run_name(const CellRun& run) {
  return "run " + run.run_id + " (commit " + short_commit(run.commit) +
         (run.dirty ? ", with uncommitted changes" : "") + ")";
}

// "30.2 %": how much larger a ratio is than 1.
inline std::string percent_more(double ratio) { return format_number("%.1f %%", (ratio - 1) * 100); }

// One of a run's deterministic counts a node: its instructions or its FLOPs.
using Count = std::optional<double> CellRun::*;

// The last run before `before` with a count, or none.
inline const CellRun* previous_with_count(const HistorySeries& series, std::size_t before,
                                          Count count = &CellRun::instructions_per_node) {
  for (std::size_t i = before; i-- > 0;)
    if (series.runs[i].*count && *(series.runs[i].*count) > 0) return &series.runs[i];
  return nullptr;
}

}  // namespace ladder::history::detail
