// What a results file's times and a cell's `remeasured` record may hold, checked where they are read: a
// call's time within what a machine can measure, and a record of measuring again that the runner could have
// written (issue 50, T5-19). Header-only, so that the readers of common/ (cell_result.cpp) and the history's
// import (history/cells_from_results.cpp) share one rule.
#pragma once

#include <string>

#include "cell_result.hpp"
#include "json_reader.hpp"
#include "text.hpp"

namespace ladder {

// A call's time in nanoseconds, as a results file keeps it: a picosecond is less than one clock cycle of any
// machine, and a million seconds (11.6 days) is longer than any cell is let run. Outside this range a time is
// an edited or damaged file's, never a measurement (times scaled by 1e300 or 1e-300).
inline constexpr double min_call_ns = 1e-3;
inline constexpr double max_call_ns = 1e15;
inline bool plausible_call_ns(double ns) { return ns >= min_call_ns && ns <= max_call_ns; }
// The range in words, for messages: "from 0.001 ns to 1e+15 ns (11.6 days)".
inline std::string call_ns_range() {
  return "from " + format_number("%g", min_call_ns) + " ns to " + format_number("%g", max_call_ns) +
         " ns (11.6 days)";
}

// The most times a cell is measured again (`ladder run --remeasure`, harness/run/run_request.hpp's
// most_remeasure): a record of more attempts was not written by a run.
inline constexpr int max_remeasure_attempts = 10;
// The most reasons a first measurement can have been disturbed for (a few a round, max_rounds rounds), and
// the longest one ("round 3: 1.01 cores of other load"): beyond them a record is junk.
inline constexpr std::size_t max_remeasure_reasons = 1000;
inline constexpr std::size_t max_remeasure_reason_chars = 1000;

// Refuses (SchemaError, naming the field) a `remeasured` record no run writes: attempts from 1 to
// max_remeasure_attempts, a first median that is a call's time, at most max_remeasure_reasons reasons of at
// most max_remeasure_reason_chars each, and only on a cell that was attempted (not skipped or unavailable).
inline void check_remeasured(const JsonReader& in, const Remeasured& again, CellStatus status) {
  if (again.attempts < 1 || again.attempts > max_remeasure_attempts)
    in.at("attempts")
        .fail("a cell measured again was measured again from 1 to " + std::to_string(max_remeasure_attempts) +
              " times (`--remeasure` allows no more), not " + std::to_string(again.attempts));
  if (!plausible_call_ns(again.first_median_ns))
    in.at("first_median_ns")
        .fail("the first measurement's median " + format_number("%g", again.first_median_ns) +
              " ns is not a call's time (" + call_ns_range() + ")");
  if (again.first_reasons.size() > max_remeasure_reasons)
    in.at("first_reasons")
        .fail(std::to_string(again.first_reasons.size()) + " reasons; a run writes at most " +
              std::to_string(max_remeasure_reasons));
  for (const auto& reason : again.first_reasons)
    if (reason.size() > max_remeasure_reason_chars)
      in.at("first_reasons")
          .fail("a reason of " + std::to_string(reason.size()) + " characters; a run writes at most " +
                std::to_string(max_remeasure_reason_chars));
  if (status == CellStatus::skipped || status == CellStatus::unavailable)
    in.fail("a cell that was " + std::string(to_string(status)) +
            " was never measured, so it cannot have been measured again ('remeasured')");
}

}  // namespace ladder
