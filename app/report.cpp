// `ladder report`, `ladder pick` and `ladder compare`: answers from results files (reports/).
#include "report.hpp"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "choose.hpp"
#include "commands.hpp"
#include "errors.hpp"
#include "parse.hpp"

namespace ladder::app {

Command add_report(CLI::App& app) {
  struct Options {
    std::vector<std::string> inputs;
    std::string out, integrand, current;
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
  return {report_command, [options] {
            std::vector<report::Run> runs;
            for (const auto& input : options->inputs) runs.push_back(report::load_run(input));
            const auto& first = options->inputs[0];
            const std::string out = !options->out.empty() ? options->out
                                    : std::filesystem::is_directory(first)
                                        ? first
                                        : std::filesystem::path(first).parent_path().string();
            for (const auto& file :
                 report::write_report(runs, out.empty() ? "." : out, options->integrand, options->current))
              std::printf("wrote %s\n", file.c_str());
            return 0;
          }};
}

Command add_pick(CLI::App& app) {
  struct Options {
    std::string input, n;
    report::PickConstraints constraints;
    // The money model's inputs (reports/economics.hpp); any of them asks for its answer.
    std::string costs, calls_per_day, deadline, core_hour, engineer_day, horizon, current;
    std::optional<int> bus_factor;
    std::vector<std::string> team_knows;
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
                   "libraries you will not take on, comma-separated")
      ->delimiter(',');
  pick->add_option("--integrand", options->constraints.integrand,
                   "answer for this integrand of the file; without it, a file of several integrands is "
                   "answered for each in turn (exit 1 when some has no tier that meets the constraints)");
  pick->add_option("--calls-per-day", options->calls_per_day,
                   "calls a day at the report's n: the money answer is then one tier (without: a usage map)");
  pick->add_option("--deadline", options->deadline, "the wall time one call must meet, e.g. 30ms");
  pick->add_option(
          "--team-knows", options->team_knows,
          "concepts and libraries the team knows, comma-separated (the names of `ladder list --json`'s "
          "cards, e.g. openmp,xsimd): they cost it no learning")
      ->delimiter(',');
  pick->add_option("--bus-factor", options->bus_factor, "people who must know each tier (default 1)");
  pick->add_option("--core-hour", options->core_hour, "price of a core-hour in dollars (default 0.0425)");
  pick->add_option("--engineer-day", options->engineer_day,
                   "price of an engineer-day in dollars (default 800)");
  pick->add_option("--horizon", options->horizon, "years the choice is for (default 3)");
  pick->add_option("--costs", options->costs, "a costs file: a JSON object of the model's figures");
  pick->add_option("--current", options->current, "the rung the team runs now (break-even is against it)");
  pick->add_flag("--json", options->json, "the money and latency answer as JSON: every tier's figures");
  return {pick, [options] {
            if (!options->n.empty()) options->constraints.n = parse_size(options->n);
            const bool money = options->json || !options->costs.empty() || !options->calls_per_day.empty() ||
                               !options->deadline.empty() || !options->core_hour.empty() ||
                               !options->engineer_day.empty() || !options->horizon.empty() ||
                               !options->current.empty() || options->bus_factor ||
                               !options->team_knows.empty();
            if (money) {
              report::PickConstraints::Money inputs;
              if (!options->costs.empty()) inputs.figures = report::read_cost_figures(options->costs);
              if (!options->core_hour.empty())
                inputs.figures.core_hour = parse_real("--core-hour", options->core_hour);
              if (!options->engineer_day.empty())
                inputs.figures.engineer_day = parse_real("--engineer-day", options->engineer_day);
              if (!options->horizon.empty())
                inputs.figures.horizon_years = parse_real("--horizon", options->horizon);
              if (options->bus_factor) inputs.figures.bus_factor = *options->bus_factor;
              if (!options->team_knows.empty()) inputs.figures.team_knows = options->team_knows;
              report::check_cost_figures(inputs.figures);
              if (!options->calls_per_day.empty()) {
                inputs.usage.calls_per_day = parse_real("--calls-per-day", options->calls_per_day);
                if (!(*inputs.usage.calls_per_day >= 0))
                  throw InputError("--calls-per-day " + options->calls_per_day +
                                   " is out of range; give a number of calls of 0 or more");
              }
              if (!options->deadline.empty())
                inputs.usage.deadline_seconds = report::parse_deadline(options->deadline);
              inputs.usage.current = options->current;
              inputs.json = options->json;
              options->constraints.money = inputs;
            }
            return report::pick(options->input, options->constraints);
          }};
}

Command add_compare(CLI::App& app) {
  struct Options {
    std::string old_run, new_run;
    report::CompareOptions compare;
  };
  auto options = std::make_shared<Options>();
  auto* compare = app.add_subcommand(
      "compare", "did a change make a difference? cell by cell, with a Mann–Whitney U test");
  compare->add_option("old", options->old_run, "the run before")->required();
  compare->add_option("new", options->new_run, "the run after")->required();
  compare->add_option("--fail-above", options->compare.fail_above_percent,
                      "exit 1 when a cell is significantly slower by more than this many per cent");
  compare->add_option("--min-change", options->compare.min_change_percent,
                      "smallest change in per cent called faster or slower (default 2)");
  compare->add_flag("--across-machines", options->compare.across_machines,
                    "compare runs from different machines anyway");
  return {compare,
          [options] { return report::compare(options->old_run, options->new_run, options->compare); }};
}

}  // namespace ladder::app
