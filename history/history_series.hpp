// The history store's series as change detection takes them (history_store.hpp -> history_detect.hpp):
// what `ladder history report` draws and `ladder history check` checks.
#pragma once

#include <string>
#include <vector>

#include "history_detect.hpp"
#include "history_store.hpp"

namespace ladder::history {

// Which series and runs are kept; empty fields keep everything.
struct HistorySeriesFilter {
  std::string tier;
  std::string machine;  // a machine fingerprint prefix or a host name, as `history list --machine`
  std::string since;    // runs started on or after this date or time (UTC, ISO 8601)
};

// Every series the store holds (one a tier × integrand × n × threads × ranks × machine × build), its runs
// oldest first, each run with a median.
// Times in seconds; a run id is its first 12 hex digits, as `history list` prints it; a commit the store does
// not know is "unknown"; the series' machine reads "host (machine 1a2b3c4d)", with the build's fingerprint
// added where one machine holds several builds, and the tier reads "tier, integrand" where the store holds
// several integrands (and "…, 2 ranks").
std::vector<HistorySeries> history_series(const Store& store, const HistorySeriesFilter& filter = {});

// What `ladder history check` checked and found.
struct HistoryCheck {
  RecordedRun newest;      // the last recorded run: its series are checked
  std::size_t series = 0;  // how many series hold it as their newest run
  std::vector<std::string> reasons;
  // One verdict a checked series of two runs or more (check_newest_run's row), worst first: what
  // --summary, --annotations and --bmf write.
  std::vector<VerdictRow> rows;
};
// Checks the newest recorded run (the last by start time, among the runs the filter's tier keeps) against
// the history of each of its series (check_newest_run), each with its noise floor on this machine: its runs
// of one clean commit (same_commit_noise), else the documented default; never an A/A figure
// (common/noise/README.md).
// InputError when the store holds no run (of the tier).
HistoryCheck check_history(const Store& store, const std::string& tier, const DetectOptions& options);

// The lines `ladder history check` prints: what was checked, then each reason, then the verdict.
std::string check_text(const HistoryCheck& check, const std::string& database);

}  // namespace ladder::history
