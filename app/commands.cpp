#include "commands.hpp"

#include <iostream>
#include <new>
#include <stdexcept>

#include "emulation_check.hpp"
#include "errors.hpp"
#include "noise_store.hpp"
#include "parse.hpp"
#include "process.hpp"
#include "quote.hpp"
#include "registry.hpp"
#include "text.hpp"
#include "verdict_outputs.hpp"

namespace ladder {
namespace app {

void add_ci_options(CLI::App* command, GateOptions& gate, report::VerdictOutputs& outputs,
                    const std::string& min_change_default) {
  command->add_option("--fail-above", gate.fail_above,
                      "exit 1 only for a cell slower by more than this many per cent (default: any slower "
                      "cell)");
  command->add_option("--min-change", gate.min_change,
                      "the threshold in per cent: slower or faster only when the whole interval lies beyond "
                      "it (default: " +
                          min_change_default + ")");
  command->add_option("--summary", outputs.summary,
                      "also append the verdicts as Markdown to FILE (as $GITHUB_STEP_SUMMARY expects)");
  command->add_flag("--annotations", outputs.annotations,
                    "also print GitHub's ::error/::warning lines for slower cells");
  command->add_option(
      "--bmf", outputs.bmf,
      "also write the verdicts in Bencher's metric format to FILE, with lower and upper values");
}

void check_gate_options(const GateOptions& gate) {
  for (const auto& [name, value] :
       {std::pair{"--fail-above", gate.fail_above}, {"--min-change", gate.min_change}})
    if (value && !(*value >= 0 && *value < history::max_change_percent))
      throw InputError(std::string(name) + " " + format_number("%g", *value) +
                       ": give a change in per cent, 0 or more and under " +
                       format_number("%g", history::max_change_percent) + " (5 means 5 %)");
}

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
  const Interval interval{options.a.empty() ? 0.0 : parse_real("a", options.a),
                          options.b.empty() ? 1.0 : parse_real("b", options.b)};
  check_interval(interval.a, interval.b);
  return interval;
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

std::string CommandWords::check(int argc, const char* const* argv) {
  CLI::App* current = &root;
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--") break;
    if (word.size() < 2 || word[0] != '-') {
      const auto found = current->get_subcommands([&](CLI::App* sub) { return sub->check_name(word); });
      if (!found.empty()) {
        current = found.front();
        name += (name.empty() ? "" : " ") + current->get_name();
      }
      continue;
    }
    const auto equals = word.find('=');
    const CLI::Option* option = current->get_option_no_throw(word.substr(0, equals));
    if (!option || option->get_expected_min() == 0) continue;    // not one of its options, or a flag
    if (equals == std::string::npos && i + 1 >= argc) continue;  // CLI11 says the value is missing
    const std::string value = equals == std::string::npos ? argv[++i] : word.substr(equals + 1);
    const std::string option_name = word.substr(0, equals);
    const std::string takes = " (" + option_name + " takes " + option->get_description() + ")";
    if (value.empty()) return option_name + " is empty" + takes;
    const char delimiter = option->get_delimiter();
    if (delimiter != '\0' && (value.front() == delimiter || value.back() == delimiter ||
                              value.find(std::string(2, delimiter)) != std::string::npos))
      return option_name + " '" + quote_text(value) +
             "' has an empty item; separate items by one comma, with none at either end" + takes;
  }
  return {};
}

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

  // CLI11's own refusals carry `ladder: COMMAND:` like every other message, with exit 2; help and
  // --version are not refusals (exit 0).
  app::CommandWords words{cli, ""};
  const std::string refused = words.check(argc, argv);
  const auto refuse = [&](const std::string& message) {
    const std::string command = words.name.empty() ? "ladder" : "ladder " + words.name;
    std::cerr << "ladder: " << (words.name.empty() ? "" : words.name + ": ") << message << " (`" << command
              << " --help` lists the options)\n";
    return exit_bad_input;
  };
  if (!refused.empty()) return refuse(refused);
  try {
    cli.parse(argc, argv);
  } catch (const CLI::Success& help_or_version) {
    return cli.exit(help_or_version);
  } catch (const CLI::ParseError& failure) {  // CLI11 may echo a whole value: shown bounded
    return refuse(quote_text(failure.what(), 4 * quote_limit));
  }

  for (const auto& command : commands)
    if (command.subcommand->parsed()) {
      name += " " + command.subcommand->get_name();
      refuse_mismatched_c_library();  // said, where the first thread would hang
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
