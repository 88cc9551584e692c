#include "history_series.hpp"

#include <map>
#include <set>

#include "errors.hpp"
#include "noise_store.hpp"
#include "quote.hpp"
#include "text.hpp"

namespace ladder::history {
namespace {

constexpr std::size_t id_digits = 12;  // a run id as `history list` prints it

bool machine_matches(const std::string& wanted, const std::string& fingerprint, const std::string& host) {
  return wanted.empty() || host == wanted || fingerprint.rfind(wanted, 0) == 0;
}

CellRun as_run(const SeriesPoint& point) {
  const auto seconds = [](double ns) { return ns * 1e-9; };
  CellRun run;
  run.run_id = point.run_id.substr(0, id_digits);
  run.time = point.started;
  run.commit = point.git_commit.empty() ? "unknown" : point.git_commit;
  run.dirty = point.git_dirty == "yes";
  run.median = seconds(*point.cell.median);
  run.min = seconds(point.cell.min.value_or(*point.cell.median));
  run.max = seconds(point.cell.max.value_or(*point.cell.median));
  for (const double repetition : point.cell.repetitions) run.repetitions.push_back(seconds(repetition));
  run.instructions_per_node = point.cell.instructions_per_node;
  run.flops_per_node = point.cell.flops_per_node;
  return run;
}

// "thresholds: this machine's noise floor for 3 series, the documented default 5 % … for 2": what the
// verdicts were judged against, counted by where the threshold came from.
std::string thresholds_text(const std::vector<VerdictRow>& rows) {
  int floor = 0, given = 0, unknown = 0;
  double given_percent = 0;
  for (const auto& row : rows) {
    if (row.threshold.measured)
      ++floor;
    else if (row.threshold.source == "--min-change")
      ++given, given_percent = row.threshold.percent;
    else
      ++unknown;
  }
  std::string parts;
  const auto add = [&parts](int count, const std::string& what) {
    if (count > 0) parts += (parts.empty() ? "" : "; ") + what + " for " + counted(count, "series", "series");
  };
  add(given, "--min-change " + format_number("%g %%", given_percent) + " (each ± its noise floor)");
  add(floor, "this machine's noise floor");
  add(unknown, default_threshold().source);
  return parts.empty() ? std::string() : "thresholds: " + parts + "\n";
}

}  // namespace

std::vector<HistorySeries> history_series(const Store& store, const HistorySeriesFilter& filter) {
  std::map<std::string, std::string> hosts;  // machine fingerprint -> host
  for (const auto& run : store.runs()) hosts[run.machine] = run.host;
  const auto keys = store.series_keys(filter.tier);
  std::map<std::string, std::set<std::string>> builds;      // machine -> its builds
  std::map<std::string, std::set<std::string>> integrands;  // tier -> its integrands
  for (const auto& key : keys)
    builds[key.machine].insert(key.build_fingerprint), integrands[key.tier].insert(key.integrand);

  std::vector<HistorySeries> all;
  for (const auto& key : keys) {
    const std::string host = hosts.count(key.machine) ? hosts.at(key.machine) : "unknown host";
    if (!machine_matches(filter.machine, key.machine, host)) continue;
    HistorySeries series;
    series.tier = key.tier + (integrands[key.tier].size() > 1 ? ", " + key.integrand : "") +
                  (key.ranks > 1 ? ", " + counted(key.ranks, "rank", "ranks") : "") +
                  (key.build.empty() ? "" : ", build " + key.build);
    series.n = key.n;
    series.threads = key.threads;
    series.tier_id = key.tier;
    series.integrand = key.integrand;
    series.ranks = key.ranks;
    series.cell_build = key.build;
    series.machine = host + " (machine " + key.machine.substr(0, 8) +
                     (builds[key.machine].size() > 1 ? ", build " + key.build_fingerprint.substr(0, 8) : "") +
                     ")";
    for (const auto& point : store.series(key))
      if (point.cell.median && (filter.since.empty() || point.started >= filter.since))
        series.runs.push_back(as_run(point));
    if (!series.runs.empty()) all.push_back(std::move(series));
  }
  return all;
}

HistoryCheck check_history(const Store& store, const std::string& tier, const DetectOptions& options) {
  validate(options);
  RunFilter filter;
  filter.tier = tier;
  const auto runs = store.runs(filter);
  if (runs.empty())
    throw InputError("history database '" + quote_text(store.path()) + "' holds no run" +
                     (tier.empty() ? "" : " with tier '" + quote_text(tier) + "'") +
                     ": nothing to check (`ladder run` records each run; `ladder history import DIR` an "
                     "earlier one)");
  HistoryCheck check{runs.back(), 0, {}, {}};
  const std::string newest = check.newest.run_id.substr(0, id_digits);
  for (const auto& series : history_series(store, {tier, "", ""})) {
    if (series.runs.back().run_id != newest) continue;
    ++check.series;
    auto checked = check_newest_run(series, options);
    for (auto& reason : checked.reasons) check.reasons.push_back(std::move(reason));
    if (checked.row) check.rows.push_back(std::move(*checked.row));
  }
  sort_worst_first(check.rows);
  return check;
}

std::string check_text(const HistoryCheck& check, const std::string& database) {
  const auto& run = check.newest;
  std::string text = "history check: the newest run " + run.run_id.substr(0, id_digits) + " (commit " +
                     (run.git_commit.empty() ? "unknown" : run.git_commit.substr(0, 12)) +
                     (run.git_dirty == "yes" ? ", with uncommitted changes" : "") + ", started " +
                     run.started + " on " + run.host + ") in " + database + ": " +
                     counted(static_cast<int>(check.series), "series", "series") +
                     " checked against the runs before it on the same machine and build\n";
  text += thresholds_text(check.rows);
  for (const auto& reason : check.reasons) text += "  " + reason + "\n";
  text +=
      check.reasons.empty()
          ? std::string(
                "ok: nothing slower beyond the threshold and no instruction-count "
                "increase\n")
          : "FAILED: " + counted(static_cast<int>(check.reasons.size()), "reason", "reasons") + " (exit 1)\n";
  return text;
}

}  // namespace ladder::history
