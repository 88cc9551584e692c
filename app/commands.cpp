#include "commands.hpp"

#include <iostream>
#include <new>
#include <stdexcept>

#include "errors.hpp"
#include "parse.hpp"
#include "process.hpp"
#include "registry.hpp"

namespace ladder {
namespace app {

void add_interval_options(CLI::App* command, IntervalOptions& options, bool several) {
  command->add_option("--integrand", options.integrand,
                      several ? "integrands, comma-separated (a name given twice runs once): " +
                                    integrand_names() + " (default gauss; `ladder list --integrands`)"
                              : "integrand: " + integrand_names() + " (default gauss)");
  command->add_option("--a", options.a, "left end of the interval (default 0)");
  command->add_option("--b", options.b, "right end of the interval (default 1)");
}

std::size_t integrand_index(const IntervalOptions& options) {
  return options.integrand.empty() ? 0 : find_integrand(options.integrand);
}

Interval parsed_interval(const IntervalOptions& options) {
  return {options.a.empty() ? 0.0 : parse_real("a", options.a),
          options.b.empty() ? 1.0 : parse_real("b", options.b)};
}

namespace {

// What reached the top of a command: "ladder: " and its message on stderr, and the exit code of its kind
// (common/errors.hpp). An exception of no Ladder type is a bug, said as one, never an abort.
int report_failure(const std::string& command) {
  const auto say = [](const std::string& message) { std::cerr << "ladder: " << message << "\n"; };
  try {
    throw;
  } catch (const InputError& failure) {
    say(failure.what());
    return exit_bad_input;
  } catch (const Unavailable& failure) {
    say(failure.what());
    return exit_unavailable;
  } catch (const WriteError& failure) {
    say(failure.what());
    return exit_cannot_write;
  } catch (const ToolFailed& failure) {
    say(failure.what());
    return exit_tool_failed;
  } catch (const std::bad_alloc&) {
    std::cerr << command << ": out of memory\n";
    return exit_failed;
  } catch (const std::exception& failure) {
    say("internal error in `" + command + "`: " + failure.what() +
        " (a bug in Ladder, not in the input: please report it with the command line)");
  } catch (...) {
    say("internal error in `" + command + "`: an exception of no known type (a bug in Ladder)");
  }
  return exit_internal_error;
}

}  // namespace
}  // namespace app

namespace {

// Declares every command, parses the command line and runs the one given.
int parse_and_run(int argc, char** argv, std::string& name) {
  CLI::App cli{"Ladder: one kernel (the midpoint rule) as a ladder of optimization tiers, measured"};
  cli.require_subcommand(1);
  app::add_version_flag(cli);

  app::Invocation invocation;
  for (int i = 0; i < argc; ++i) {
    invocation.arguments.push_back(argv[i]);
    invocation.text += (i ? " " : "") + std::string(argv[i]);
  }
  try {
    invocation.arguments[0] = self_path();
  } catch (const Unavailable&) {  // argv[0] as given stands
  }

  const std::vector<app::Command> commands = {app::add_list(cli),
                                              app::add_eval(cli, invocation),
                                              app::add_run(cli, invocation),
                                              app::add_plan(cli, invocation),
                                              app::add_report(cli),
                                              app::add_pick(cli),
                                              app::add_compare(cli),
                                              app::add_ab(cli),
                                              app::add_profile(cli),
                                              app::add_instructions(cli),
                                              app::add_worker(cli),
                                              app::add_history(cli),
                                              app::add_export(cli, invocation),
                                              app::add_machine(cli)};

  try {
    cli.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    return cli.exit(help);
  } catch (const CLI::CallForVersion& version) {
    return cli.exit(version);
  } catch (const CLI::ParseError& failure) {
    cli.exit(failure);  // prints CLI11's message
    return exit_bad_input;
  }

  for (const auto& command : commands)
    if (command.subcommand->parsed()) {
      name += " " + command.subcommand->get_name();
      return command.run();
    }
  return exit_ok;
}

}  // namespace

int run_command_line(int argc, char** argv) {
  std::string name = "ladder";
  try {
    return parse_and_run(argc, argv, name);
  } catch (...) {  // every error ends here: a message and its exit code, never an abort
    return app::report_failure(name);
  }
}

}  // namespace ladder
