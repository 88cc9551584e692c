// The errors every layer may throw, caught once at the top of the command line (app/commands.cpp), each
// with its exit code. A message names the bad value, or the file and the problem, and what is accepted.
// Anything else that reaches the top is an internal error: said as one, with its own code, never an abort.
#pragma once

#include <stdexcept>

namespace ladder {

// Bad input from a user, or a file a user gave that cannot be read as what it should be: exit 2.
struct InputError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// A tier or a tool that cannot run on this machine (no GPU, no valgrind, …); the message says why: exit 3.
struct Unavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A file Ladder writes could not be written (a full disk, a directory made read-only): exit 4. What was
// written before stays whole (every results file is replaced atomically), and the message says so.
struct WriteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A tool Ladder measures with could not be started, or ran and failed: a program it starts (valgrind's
// callgrind, addr2line; a cell's worker when no process can be made for it) or the library that times
// (Google Benchmark): exit 5. The message names the tool, the work it was given and what it said.
struct ToolFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Exit codes, one meaning each, for every command (README.md, "Exit codes", lists them for the user).
constexpr int exit_ok = 0;
constexpr int exit_failed = 1;  // some cell failed, a constraint met by no tier, a regression past a gate
constexpr int exit_bad_input = 2;
constexpr int exit_unavailable = 3;
constexpr int exit_cannot_write = 4;
constexpr int exit_tool_failed = 5;
// An error none of the types above names reached the top: a bug in Ladder, not in the input. 70 is
// sysexits.h's EX_SOFTWARE ("internal software error"), a code no other meaning here shares.
constexpr int exit_internal_error = 70;
constexpr int exit_instructions_not_comparable = 77;  // `ladder instructions --baseline`: ctest's "skipped"
constexpr int exit_interrupted = 130;

}  // namespace ladder
