// The options of `ladder run`, declared once: `ladder plan` takes the very same, so the plan is the
// matrix the run would make, and `ladder ab` takes those that choose the cells and their repetitions.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "commands.hpp"
#include "run_request.hpp"

namespace ladder::app {

// What the user typed, as declared on a command: the run's arguments (an empty text is an option not
// given: the preset, or the resumed run, decides it), the interval options shared with other commands.
struct RunCommandOptions {
  RunArguments args;
  IntervalOptions interval;
  std::optional<std::string> history;  // --history; unset: $LADDER_HISTORY, else the default
  bool no_history = false;
  // Every option parsed once (parse_request): InputError naming a bad value.
  RunRequest request() const;
};

// The options that choose the cells (--tiers, the interval's, --n, --threads) and their repetitions
// (--reps, --min-time): `ladder ab` declares them from here as well, so it takes them as `run` does and
// parse_request holds them to the same ranges.
void add_cell_options(CLI::App* command, RunArguments& args, IntervalOptions& interval);
void add_repetition_options(CLI::App* command, RunArguments& args);
// Declares every option of `ladder run` (and `ladder plan`) on `command`, filling `options`.
void add_run_options(CLI::App* command, RunCommandOptions& options);
// --history and --no-history, `ladder run`'s only.
void add_history_options(CLI::App* command, RunCommandOptions& options);

}  // namespace ladder::app
