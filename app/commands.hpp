// The command line: one file per command (app/*.cpp), each declaring its options with CLI11 and then
// calling into a layer. Parsing only: what a command does lives in harness/ or reports/. Errors are
// caught once, in run_command_line, each with its exit code (common/errors.hpp).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tier.hpp"

namespace ladder {
namespace report {
struct VerdictOutputs;
}

// Runs `ladder VERB …`; returns the exit code.
int run_command_line(int argc, char** argv);

namespace app {

// A command: its subcommand, and what runs when the user gave it (returns the exit code).
struct Command {
  CLI::App* subcommand;
  std::function<int()> run;
};

// The words the user typed, for commands that record them or start themselves again (under mpirun).
struct Invocation {
  std::vector<std::string> arguments;  // argv, with argv[0] this program's own path
  std::string text;                    // argv joined by spaces, as typed
};

Command add_list(CLI::App& app);
Command add_eval(CLI::App& app, const Invocation& invocation);
Command add_run(CLI::App& app, const Invocation& invocation);
Command add_plan(CLI::App& app, const Invocation& invocation);
Command add_report(CLI::App& app);
Command add_pick(CLI::App& app);
Command add_compare(CLI::App& app);
Command add_ab(CLI::App& app);  // two revisions interleaved (app/ab.cpp)
Command add_profile(CLI::App& app);
Command add_instructions(CLI::App& app);
Command add_worker(CLI::App& app);   // hidden: one cell, started by `ladder run`
Command add_history(CLI::App& app);  // import, list, show, report, check (app/history.cpp)
Command add_export(CLI::App& app, const Invocation& invocation);  // the kernel as a project (export/)
Command add_machine(CLI::App& app);  // the machine's limits alone (app/machine.cpp)
// `ladder --version`: the version, the commit and the build (app/version.cpp).
void add_version_flag(CLI::App& app);

// The words of a command line before CLI11 parses it: "pick", "history import" (name), and
// check() refuses what CLI11 would take silently: an empty value of an option that takes one (`--costs ''`)
// and an empty item of a comma-separated one (`--compilers gcc,`, `--compilers ,`). Returns the problem, or
// empty when there is none.
struct CommandWords {
  CLI::App& root;
  std::string name;  // empty: no command given
  std::string check(int argc, const char* const* argv);
};

// The CI options of `ladder ab`, `ladder compare` and `ladder history check`, declared once so all three
// take them alike: --fail-above and --min-change (per cent; `min_change_default` says what an unset one
// means there), --summary, --annotations and --bmf (into `outputs`).
struct GateOptions {
  std::optional<double> fail_above, min_change;
};
void add_ci_options(CLI::App* command, GateOptions& gate, report::VerdictOutputs& outputs,
                    const std::string& min_change_default);
// InputError naming --fail-above or --min-change when it is not a per cent from 0 up to (not including)
// the bound a recorded noise floor has; called before anything is measured or read.
void check_gate_options(const GateOptions& gate);

// --history FILE, declared alike on `ladder run` and the history commands.
void add_history_option(CLI::App* command, std::optional<std::string>& history);

// The integrand and interval options, declared alike wherever a command takes them. Empty: not given.
struct IntervalOptions {
  std::string integrand, a, b;
};
// `several`: --integrand takes a comma-separated list (`ladder run`, `ladder plan`), else one name.
void add_interval_options(CLI::App* command, IntervalOptions& options, bool several = false);
// The integrand's index in the registry (the default when not given), and the interval ([0, 1] when not
// given); InputError naming a bad value.
std::size_t integrand_index(const IntervalOptions& options);
Interval parsed_interval(const IntervalOptions& options);

}  // namespace app
}  // namespace ladder
