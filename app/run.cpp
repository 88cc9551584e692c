// `ladder run`: the benchmark matrix (harness/run/runner.hpp), then the report from the results it wrote.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "cards.hpp"
#include "commands.hpp"
#include "errors.hpp"
#include "history_store.hpp"
#include "money_options.hpp"
#include "registry.hpp"
#include "report.hpp"
#include "results_file.hpp"
#include "run_noise.hpp"
#include "run_options.hpp"
#include "runner.hpp"
#include "text.hpp"

namespace ladder::app {
namespace {

// Records a finished run in the history database: 0, or exit_cannot_write with why on stderr when the
// database cannot take it (the results directory is whole either way).
int record_history(const std::string& database, const RunOutcome& outcome) {
  if (!outcome.complete) {
    std::printf("history: not recorded yet (the run is interrupted); recorded when --resume finishes it\n");
    return exit_ok;
  }
  try {  // like the report: a results file that cannot be read back is said, not a failure of the run
    // An emulated run's times are the emulator's: in the history they would become this machine's series
    // and its noise.
    if (const auto emulation = read_results_file(outcome.paths.json).context.emulation;
        emulation && emulation->is_emulated()) {
      std::printf("history: not recorded: %s\n", emulation->text().c_str());
      return exit_ok;
    }
  } catch (const InputError& failure) {
    std::printf("history: not recorded: %s\n", failure.what());
    return exit_ok;
  }
  try {
    history::Store store(database, history::Store::Mode::write);
    const auto recorded = store.record(outcome.paths.json);
    const auto runs = store.runs();
    const auto self = std::find_if(runs.begin(), runs.end(), [&](const history::RecordedRun& run) {
      return run.run_id == recorded.run_id;
    });
    const auto same_machine = std::count_if(runs.begin(), runs.end(), [&](const history::RecordedRun& run) {
      return self != runs.end() && run.machine == self->machine;
    });
    std::printf(
        "history: %s run %s in %s (%s on this machine); `ladder history report --history %s --out DIR` "
        "draws them\n",
        recorded.added ? "recorded" : "already holds", recorded.run_id.substr(0, 12).c_str(),
        database.c_str(), counted(static_cast<int>(same_machine), "run", "runs").c_str(), database.c_str());
    return exit_ok;
  } catch (const std::exception& failure) {  // InputError (a damaged or foreign file) or WriteError
    std::fprintf(stderr,
                 "ladder: history: this run was not recorded: %s\n(the results in %s are complete; `ladder "
                 "history import %s` records them later)\n",
                 failure.what(), outcome.paths.dir.c_str(), outcome.paths.dir.c_str());
    return exit_cannot_write;
  }
}

int run(const RunCommandOptions& options, const MoneyOptions& money_options) {
  if (options.no_history && options.history)
    throw InputError("--history and --no-history contradict each other: give one");
  // The report's money figures, checked before any cell runs.
  const report::MoneyInputs money = money_options.inputs();
  std::vector<CardRecord> cards;
  for (const Tier& tier : tiers()) cards.push_back(card_record(tier.card));
  report::check_team_knows(money.figures.team_knows, cards);
  // Checked before the run: an empty path or a directory (the file itself is opened once the run is done).
  const std::string database = options.no_history ? "" : history::database_path(options.history);
  // A history that exists is opened as the run's end will open it, before any cell: a damaged or foreign
  // file, or one that cannot be written, is refused now rather than after the measuring; so is one that is
  // not a regular file (a FIFO, a socket, a device), which has no size.
  std::error_code missing;
  const auto status = std::filesystem::status(database, missing);
  if (!database.empty() && std::filesystem::exists(status) &&
      (!std::filesystem::is_regular_file(status) || std::filesystem::file_size(database, missing) > 0))
    history::Store(database, history::Store::Mode::write);
  const RunOutcome outcome = run_matrix(options.request());
  if (outcome.exit_code == exit_cannot_write) return outcome.exit_code;
  // The report, from the results file just written, as `ladder report DIR` would make it: with this
  // machine's noise figures from the history, read even under --no-history (which keeps this run out of the
  // history, not the history out of its report).
  try {
    const auto written = report::write_report(
        {report::load_run_with_noise(outcome.paths.json, options.history)}, outcome.paths.dir, "", "", money);
    std::printf(
        "report: %s\n",
        join(written.size() >= 2 ? std::vector<std::string>(written.end() - 2, written.end()) : written, ", ")
            .c_str());
  } catch (const std::exception& failure) {
    std::printf("report: not written: %s\n", failure.what());
  }
  if (!outcome.complete)
    std::printf(
        "\ninterrupted: %zu of %zu cells are finished and saved; `ladder run --resume %s` runs the rest\n",
        outcome.cells_done, outcome.cells_total, outcome.paths.dir.c_str());
  if (!database.empty() && record_history(database, outcome) != exit_ok) return exit_cannot_write;
  return outcome.exit_code;
}

}  // namespace

Command add_run(CLI::App& app, const Invocation& invocation) {
  auto options = std::make_shared<RunCommandOptions>();
  auto money = std::make_shared<MoneyOptions>();
  options->args.command_line = invocation.text;
  auto* run_command = app.add_subcommand(
      "run", "the benchmark matrix: every tier × sizes × threads, timed, with memory and error");
  add_run_options(run_command, *options);
  add_history_options(run_command, *options);
  money->add(run_command);
  return {run_command, [options, money] { return run(*options, *money); }};
}

}  // namespace ladder::app
