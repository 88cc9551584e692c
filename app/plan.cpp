// `ladder plan [any run options]`: the matrix `ladder run` would measure, without running it (harness/run/
// plan.hpp): every cell, the thread counts and why, the predicted wall time in parts, the peak memory.
// It takes every option of `ladder run`, so that a run's command line plans as it is: those that do not
// change what is measured (--history, --no-history, the money options of the run's report) are checked as
// the run checks them and change nothing in the plan.
#include "plan.hpp"

#include <cstdio>
#include <memory>

#include "ab.hpp"
#include "commands.hpp"
#include "errors.hpp"
#include "money_options.hpp"
#include "noise.hpp"
#include "quote.hpp"
#include "run_options.hpp"
#include "text.hpp"

namespace ladder::app {

Command add_plan(CLI::App& app, const Invocation& invocation) {
  auto options = std::make_shared<RunCommandOptions>();
  auto json_output = std::make_shared<bool>(false);
  auto* plan_command = app.add_subcommand(
      "plan", "what `ladder run` with the same options would measure, and how long it would take");
  add_run_options(plan_command, *options);
  add_history_options(plan_command, *options);
  auto money = std::make_shared<MoneyOptions>();
  money->add(plan_command);
  plan_command->add_flag("--json", *json_output, "print the plan as JSON");
  auto ab = std::make_shared<bool>(false);
  plan_command->add_flag(
      "--ab", *ab,
      "estimate `ladder ab` of this matrix instead: its defaults (3 repetitions a process, "
      "0.05 s), and each cell's fewest pairs of two processes");
  const std::string executable = invocation.arguments.at(0);
  return {
      plan_command, [options, json_output, executable, ab, money] {
        RunRequest request = options->request();
        money->inputs();  // refused as `ladder run` would refuse it; the plan does not depend on it
        if (*ab) {
          if (!request.repetitions) request.repetitions = 3;
          if (!request.min_time) request.min_time = 0.05;
          request.instructions = false, request.limits = false;
        }
        if (request.resume)
          throw InputError("ladder plan --resume: a resumed run keeps its matrix; plan a new run instead");
        const Plan plan = make_plan(request, executable);
        if (*ab) {
          // A cell of ab is at least ab_min_pairs pairs of two processes like the run's one (an A/A run:
          // as many); it stops there when its verdict is clear, and --budget caps the whole.
          double seconds = 0;
          for (const auto& cell : plan.estimate.cells) seconds += 2.0 * ab_min_pairs * cell.seconds;
          std::printf(
              "ladder ab of %zu cells: each at least %d pairs of two processes (an A/A run: as many), "
              "about %s for the cells when every verdict is clear at once; "
              "undecided cells take more pairs, up to --max-pairs, within --budget\n",
              plan.estimate.cells.size(), ab_min_pairs, format_seconds(seconds, Rounding::up).c_str());
          return exit_ok;
        }
        if (*json_output)
          std::printf("%s\n", dump_json(plan.to_json(), 2).c_str());
        else
          std::printf("%s", plan.text().c_str());
        return exit_ok;
      }};
}

}  // namespace ladder::app
