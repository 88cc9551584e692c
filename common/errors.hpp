// The errors every layer may throw, caught once at the top of the command line (app/main.cpp), each with
// its exit code. A message names the bad value, or the file and the problem, and what is accepted.
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

// Exit codes, one meaning each, for every command.
constexpr int exit_ok = 0;
constexpr int exit_failed = 1;  // some cell failed, a constraint met by no tier, a regression past a gate
constexpr int exit_bad_input = 2;
constexpr int exit_unavailable = 3;
constexpr int exit_cannot_write = 4;
constexpr int exit_interrupted = 130;

}  // namespace ladder
