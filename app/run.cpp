// `ladder run`: the benchmark matrix (harness/runner.hpp), then the report from the results it wrote.
#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "errors.hpp"
#include "registry.hpp"
#include "report.hpp"
#include "run_options.hpp"
#include "runner.hpp"
#include "text.hpp"

namespace ladder::app {
namespace {

int run(const RunArguments& args) {
  const RunOutcome outcome = run_matrix(args);
  if (outcome.exit_code == exit_cannot_write) return outcome.exit_code;
  try {  // the report, from the results file just written, as `ladder report DIR` would make it
    const auto written = report::write_report({report::load_run(outcome.paths.json)}, outcome.paths.dir);
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
  return outcome.exit_code;
}

}  // namespace

Command add_run(CLI::App& app, const Invocation& invocation) {
  auto options = std::make_shared<RunOptions>();
  options->args.command_line = invocation.text;
  auto* run_command = app.add_subcommand(
      "run", "the benchmark matrix: every tier × sizes × threads, timed, with memory and error");
  add_run_options(run_command, *options);
  return {run_command, [options] { return run(options->arguments()); }};
}

}  // namespace ladder::app
