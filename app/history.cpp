// `ladder history import|list|show|report|check`: the runs kept in the history database
// (history/history_store.hpp), checked for changes (history/history_series.hpp) and drawn
// (reports/outputs/history_report.hpp).
#include <cstdio>
#include <memory>
#include <optional>

#include "commands.hpp"
#include "errors.hpp"
#include "history_report.hpp"
#include "history_series.hpp"
#include "history_store.hpp"
#include "parse.hpp"
#include "quote.hpp"
#include "verdict_outputs.hpp"

namespace ladder::app {
namespace {

// --since: a date, or a date and time, in UTC as results files write them.
std::string checked_since(const std::string& since) {
  const auto digits = [&](std::size_t from, std::size_t count) {
    for (std::size_t i = from; i < from + count; ++i)
      if (i >= since.size() || since[i] < '0' || since[i] > '9') return false;
    return true;
  };
  const bool date = since.size() >= 10 && digits(0, 4) && since[4] == '-' && digits(5, 2) &&
                    since[7] == '-' && digits(8, 2);
  const bool time = since.size() == 10 || (since.size() >= 16 && since[10] == 'T' && digits(11, 2) &&
                                           since[13] == ':' && digits(14, 2));
  if (since.empty() || !date || !time)
    throw InputError("--since '" + quote_text(since) +
                     "' is not a date: give 2026-11-30 or 2026-11-30T14:00 (UTC)");
  return since;
}

struct HistoryOptions {
  std::optional<std::string> history;
  std::vector<std::string> inputs;
  history::RunFilter filter;
  history::SeriesQuery query;
  std::string n;
  bool json = false;
  std::string out;
  history::HistorySeriesFilter series;
  history::DetectOptions detect;
  report::VerdictOutputs verdicts;  // history check's --summary, --bmf and --annotations
  GateOptions gate;                 // history check's --fail-above and --min-change
};

// The subcommands of `ladder history`, as declared: the one the user gave runs.
struct HistoryCommands {
  CLI::App *import, *list, *report, *check;
};

// Records each input in turn. One that is refused (an emulated or unfinished run, a file that is not a
// results file, times that are not a call's) is said at once on stderr and the rest are still recorded; the
// summary names what was added, what was already there and what was refused, and any refusal makes the exit
// 2. A database that cannot be written (WriteError) stops it: the next input would fail the same way.
int import_runs(const HistoryOptions& options, const std::string& path) {
  history::Store store(path, history::Store::Mode::write);
  int added = 0, already = 0;
  std::vector<std::string> refused;
  for (const auto& input : options.inputs) {
    try {
      const auto recorded = store.record(input);
      added += recorded.added;
      already += !recorded.added;
      if (recorded.added)
        std::printf("recorded %s: run %s, %zu cells\n", input.c_str(), recorded.run_id.substr(0, 12).c_str(),
                    recorded.cells);
      else
        std::printf("already recorded, nothing added: %s is run %s (the same host, start time and matrix)\n",
                    input.c_str(), recorded.run_id.substr(0, 12).c_str());
    } catch (const InputError& failure) {
      std::fflush(stdout);
      std::fprintf(stderr, "ladder: history import: not recorded: %s\n", failure.what());
      refused.push_back(quote_text(input));
    }
  }
  std::printf("history: %d of %zu runs added to %s", added, options.inputs.size(), path.c_str());
  if (already > 0) std::printf(", %d already there", already);
  if (!refused.empty()) std::printf(", %zu refused", refused.size());
  std::printf("\n");
  std::fflush(stdout);
  if (refused.empty()) return exit_ok;
  std::string names;
  for (const auto& name : refused) names += (names.empty() ? "'" : ", '") + name + "'";
  std::fprintf(stderr, "ladder: history import: %zu of %zu not recorded (%s): see why above\n",
               refused.size(), options.inputs.size(), names.c_str());
  return exit_bad_input;
}

int run_history(HistoryOptions& options, const HistoryCommands& commands) {
  const std::string path = history::database_path(options.history);
  if (commands.import->parsed()) return import_runs(options, path);
  if (!options.filter.since.empty()) checked_since(options.filter.since);
  if (!options.series.since.empty()) checked_since(options.series.since);
  check_gate_options(options.gate);  // before the database
  options.detect.fail_above_percent = options.gate.fail_above;
  options.detect.min_change_percent = options.gate.min_change;
  history::validate(options.detect);
  if (!options.n.empty()) options.query.n = parse_size(options.n);
  const history::Store store(path, history::Store::Mode::read);
  if (commands.report->parsed()) {
    std::printf("wrote %s\n",
                report::write_history_report(store, options.series, options.detect, options.out).c_str());
    return exit_ok;
  }
  if (commands.check->parsed()) {
    const auto checked = history::check_history(store, options.series.tier, options.detect);
    std::printf("%s", history::check_text(checked, path).c_str());
    std::fflush(stdout);  // before the annotations, which follow on stdout
    options.verdicts.fail_above_percent = options.gate.fail_above;
    const auto& run = checked.newest;
    report::write_verdict_outputs(checked.rows, options.verdicts,
                                  "ladder history check: run " + run.run_id.substr(0, 12) + " (commit " +
                                      (run.git_commit.empty() ? "unknown" : run.git_commit.substr(0, 12)) +
                                      ") against the runs before it");
    return checked.reasons.empty() ? exit_ok : exit_failed;
  }
  if (commands.list->parsed()) {
    history::print_runs(store, options.filter, options.json);
    return exit_ok;
  }
  history::print_series(store, options.query, options.json);
  return exit_ok;
}

}  // namespace

void add_history_option(CLI::App* command, std::optional<std::string>& history) {
  command->add_option(
      "--history", history,
      std::string("the history database (default: $LADDER_HISTORY, else ") + history::default_database + ")");
}

Command add_history(CLI::App& app) {
  auto options = std::make_shared<HistoryOptions>();
  auto* command = app.add_subcommand(
      "history", "the runs kept in the history database: import, list, show, report, check");
  command->require_subcommand(1);

  auto* import = command->add_subcommand(
      "import",
      "record earlier runs (their directories or results.json files); a run already there is skipped");
  import->add_option("results", options->inputs, "run directories (or results.json files)")->required();
  add_history_option(import, options->history);

  auto* list = command->add_subcommand("list", "the recorded runs, oldest first");
  list->add_option("--machine", options->filter.machine,
                   "runs of this machine: its fingerprint (a prefix) or host name");
  list->add_option("--tier", options->filter.tier, "runs with cells of this tier");
  list->add_option("--since", options->filter.since, "runs started on or after this date (2026-11-30, UTC)");
  list->add_flag("--json", options->json, "as JSON, every field");
  add_history_option(list, options->history);

  auto* show =
      command->add_subcommand("show", "a tier's series over the runs: one table a cell, machine and build");
  show->add_option("tier", options->query.tier, "the tier id")->required();
  show->add_option("--n", options->n, "this size only (1e6 or 2^20)");
  show->add_option("--threads", options->query.threads, "this thread count only");
  show->add_option("--integrand", options->query.integrand, "this integrand only");
  show->add_flag("--json", options->json, "as JSON, with every repetition");
  add_history_option(show, options->history);

  auto* report = command->add_subcommand(
      "report",
      "the history as a page, DIR/index.html: a chart per series, detected changes marked and listed");
  report->add_option("--out", options->out, "the directory to write index.html in")->required();
  report->add_option("--tier", options->series.tier, "the series of this tier only");
  report->add_option("--machine", options->series.machine,
                     "the series of this machine only: its fingerprint (a prefix) or host name");
  report->add_option("--since", options->series.since,
                     "runs started on or after this date (2026-11-30, UTC)");
  add_history_option(report, options->history);

  auto* check = command->add_subcommand(
      "check",
      "for CI: exit 1 when the newest run is slower beyond this machine's run-to-run noise, or counts more "
      "instructions, than the runs before it");
  check->add_option("--tier", options->series.tier, "check this tier's series only");
  add_ci_options(check, options->gate, options->verdicts,
                 "this machine's noise floor for the cell, else the documented 5 %");
  add_history_option(check, options->history);

  return {command, [options, commands = HistoryCommands{import, list, report, check}] {
            return run_history(*options, commands);
          }};
}

}  // namespace ladder::app
