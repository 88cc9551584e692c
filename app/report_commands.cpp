// `ladder report`, `ladder pick` and `ladder compare`: answers from results files (reports/). It has no
// header of its own (commands.hpp declares the commands); report.hpp is reports/'s.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "choose.hpp"
#include "commands.hpp"
#include "errors.hpp"
#include "money_options.hpp"
#include "parse.hpp"
#include "report.hpp"
#include "run_noise.hpp"
#include "text.hpp"

namespace ladder::app {

Command add_report(CLI::App& app) {
  struct Options {
    std::vector<std::string> inputs;
    std::string out, integrand, current;
    MoneyOptions money;
    std::optional<std::string> history;  // where this machine's noise is known (run_noise.hpp)
  };
  auto options = std::make_shared<Options>();
  auto* report_command = app.add_subcommand(
      "report", "the tradeoff report (report.md, report.html, charts/) from one or more runs' results");
  report_command
      ->add_option("results", options->inputs,
                   "run directories (or results.json files); several: one a machine")
      ->required();
  report_command->add_option("--out", options->out, "where to write it (default: the first run's directory)");
  report_command->add_option("--integrand", options->integrand,
                             "with several integrands in a run: each gets its answer, and the detailed "
                             "sections are about this one (default: the first in the run)");
  report_command->add_option("--current", options->current,
                             "the tier your team runs now: the answer says what the ladder buys over it, or "
                             "to stay (default: the fastest plain single-threaded rung, no library)");
  options->money.add(report_command);
  add_history_option(report_command, options->history);
  return {report_command, [options] {
            const report::MoneyInputs money = options->money.inputs(options->current);
            std::vector<report::Run> runs;
            for (const auto& input : options->inputs)
              runs.push_back(report::load_run_with_noise(input, options->history));
            const auto& first = options->inputs[0];
            std::error_code unreadable;  // load_run has read it; a path refused here is no directory
            const std::string out = !options->out.empty() ? options->out
                                    : std::filesystem::is_directory(first, unreadable)
                                        ? first
                                        : std::filesystem::path(first).parent_path().string();
            for (const auto& file : report::write_report(runs, out.empty() ? "." : out, options->integrand,
                                                         options->current, money))
              std::printf("wrote %s\n", file.c_str());
            return 0;
          }};
}

Command add_pick(CLI::App& app) {
  struct Options {
    std::string input, n;
    report::PickConstraints constraints;
    // The money model's inputs (reports/analysis/economics.hpp); any of them asks for its answer.
    MoneyOptions money;
    std::string current;
    bool json = false;
  };
  auto options = std::make_shared<Options>();
  auto* pick =
      app.add_subcommand("pick", "the fastest tier that meets your constraints, from a run's results");
  pick->add_option("results", options->input, "a run directory (or its results.json)")->required();
  pick->add_option("--max-cost", options->constraints.max_cost,
                   "highest maintenance cost (1 to 10) you accept");
  pick->add_option("--max-error", options->constraints.max_error,
                   "largest relative error you accept, e.g. 1e-12");
  pick->add_option("--threads", options->constraints.threads, "cores you can give it (threads × ranks)");
  pick->add_option("--n", options->n, "the size you care about (default: the report's)");
  pick->add_flag("--include-peers", options->constraints.include_peers,
                 "let the Python peers win too (staying in Python is an answer)");
  pick->add_option("--without", options->constraints.without,
                   "libraries or concepts you will not take on, comma-separated, as `ladder list` names them")
      ->delimiter(',');
  pick->add_option("--integrand", options->constraints.integrand,
                   "answer for this integrand of the file; without it, a file of several integrands is "
                   "answered for each in turn (exit 1 when some has no tier that meets the constraints)");
  options->money.add(pick);
  pick->add_option("--current", options->current, "the rung the team runs now (break-even is against it)");
  pick->add_flag("--json", options->json, "the money and latency answer as JSON: every tier's figures");
  add_history_option(pick, options->constraints.history);
  return {pick, [options] {
            if (!options->n.empty()) options->constraints.n = parse_size(options->n);
            if (options->json || options->money.given() || !options->current.empty()) {
              report::PickConstraints::Money money;
              static_cast<report::MoneyInputs&>(money) = options->money.inputs(options->current);
              money.json = options->json;
              options->constraints.money = money;
            }
            return report::pick(options->input, options->constraints);
          }};
}

Command add_compare(CLI::App& app) {
  struct Options {
    std::string old_run, new_run;
    report::CompareOptions compare;
    GateOptions gate;
  };
  auto options = std::make_shared<Options>();
  auto* compare = app.add_subcommand(
      "compare",
      "did a change make a difference? each cell's ratio new/old, judged against this machine's run-to-run "
      "noise where the history knows it, else against the wider of the two runs' own noise, measured from "
      "their rounds");
  compare->add_option("old", options->old_run, "the run before")->required();
  compare->add_option("new", options->new_run, "the run after")->required();
  add_ci_options(compare, options->gate, options->compare.outputs,
                 "each cell's noise floor on this machine, from the history");
  compare->add_flag("--across-machines", options->compare.across_machines,
                    "compare runs from different machines anyway");
  add_history_option(compare, options->compare.history);
  return {compare, [options] {
            check_gate_options(options->gate);
            auto given = options->compare;
            given.outputs.fail_above_percent = options->gate.fail_above;
            given.min_change_percent = options->gate.min_change;
            return report::compare(options->old_run, options->new_run, given);
          }};
}

}  // namespace ladder::app
