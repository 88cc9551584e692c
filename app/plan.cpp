// `ladder plan [any run options]`: the matrix `ladder run` would measure, without running it (harness/
// plan.hpp): every cell, the thread counts and why, the predicted wall time in parts, the peak memory.
#include "plan.hpp"

#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "errors.hpp"
#include "run_options.hpp"

namespace ladder::app {

Command add_plan(CLI::App& app, const Invocation& invocation) {
  auto options = std::make_shared<RunCommandOptions>();
  auto json_output = std::make_shared<bool>(false);
  auto* plan_command = app.add_subcommand(
      "plan", "what `ladder run` with the same options would measure, and how long it would take");
  add_run_options(plan_command, *options);
  plan_command->add_flag("--json", *json_output, "print the plan as JSON");
  const std::string executable = invocation.arguments.at(0);
  return {
      plan_command, [options, json_output, executable] {
        const RunArguments args = options->arguments();
        if (args.resume)
          throw InputError("ladder plan --resume: a resumed run keeps its matrix; plan a new run instead");
        const Plan plan = make_plan(args, executable);
        if (*json_output)
          std::printf("%s\n", plan.to_json().dump(2).c_str());
        else
          std::printf("%s", plan.text().c_str());
        return exit_ok;
      }};
}

}  // namespace ladder::app
