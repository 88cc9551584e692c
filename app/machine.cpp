// `ladder machine [--json]`: the machine's limits alone (harness/machine/measure_limits.hpp), measured now:
// the peak vector FMA rate and the memory bandwidth of one core and of all the CPUs Ladder may use, each the
// best of several short runs, with every run's figure, the tool and the method.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "context.hpp"
#include "errors.hpp"
#include "machine_topology.hpp"
#include "measure_limits.hpp"

namespace ladder::app {

namespace {

struct MachineOptions {
  bool json = false;
  int runs = 5;
  std::string tool = "auto";
};

int print_machine(const MachineOptions& options) {
  if (options.runs < 1 || options.runs > 100)
    throw InputError("--runs " + std::to_string(options.runs) + " is not a number of runs from 1 to 100");
  const LimitsTool tool = parse_limits_tool(options.tool);
  const Topology topology = read_topology();
  if (topology.synthetic)
    throw InputError("ladder machine measures this machine, and the topology is " + topology.source +
                     ", a machine that is not here: its limits cannot be measured. Unset the variable to "
                     "measure this one");
  if (!cpu_runs_this_build())
    throw InputError("this binary's kernels use instructions this CPU lacks (it has " +
                     best_instruction_set() + "): rebuild here to measure it");
  if (!options.json) {
    std::printf("measuring the machine's limits on %s, %d runs each …\n", topology.describe().c_str(),
                options.runs);
    std::fflush(stdout);
  }
  const MachineLimits limits = measure_machine_limits(topology, tool, options.runs);
  if (options.json) {
    std::printf("%s\n", nlohmann::json(limits).dump(2).c_str());
  } else {
    for (const auto& line : describe_limits(limits)) std::printf("%s\n", line.c_str());
  }
  if (!limits.measured && !options.json) std::fprintf(stderr, "ladder: machine: %s\n", limits.reason.c_str());
  return limits.measured ? exit_ok : exit_unavailable;
}

}  // namespace

Command add_machine(CLI::App& app) {
  auto options = std::make_shared<MachineOptions>();
  auto* command = app.add_subcommand(
      "machine", "measure the machine's limits now: FMA peak and memory bandwidth, one core and all");
  command->add_flag("--json", options->json, "print the limits as JSON (results.json's context.limits)");
  command->add_option("--runs", options->runs, "short runs a reading, the best kept (default 5)");
  command
      ->add_option("--limits-tool", options->tool,
                   "what measures: auto (likwid-bench where installed, else Ladder's probe; the default), "
                   "likwid-bench, probe")
      ->check(CLI::IsMember(limits_tool_names()));
  return {command, [options] { return print_machine(*options); }};
}

}  // namespace ladder::app
