// The command line: the one place that parses what a user types.
#pragma once

namespace ladder {

// Runs `ladder VERB …`; returns the exit code: 0 on success, 2 on bad input (after a message naming the
// bad value and what is accepted).
int run_command_line(int argc, char** argv);

}  // namespace ladder
