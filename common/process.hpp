// The one way Ladder starts a program: an argv vector, never a shell, so a path with spaces or quotes reaches
// the program as it is. A program may be given text on its stdin, extra environment variables and a
// timeout; its stdout and stderr are each captured, merged, discarded or left to this process's own. The
// result says how it ended: its exit code, the signal that killed it, whether it ran past its timeout, or
// why it could not be started at all. Where a shell redirection or a pipe was once written, a caller says it
// here (stderr merged, say). Nothing here throws for a program that fails: each caller says what failure is.
//
// One exception starts programs by hand: the worker (harness/worker/worker_process.cpp) forks and execs
// itself, because its child sets resource limits and pins its threads between fork and exec, which no
// posix_spawn attribute can do.
//
// This program's own path (/proc/self/exe) is read here too, and nowhere else.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ladder {

// Where one of a program's output streams goes.
enum class Stream {
  capture,  // into Finished::out (stdout) or Finished::err (stderr)
  merge,    // stderr only: into the same pipe as stdout (`2>&1`), so both land in Finished::out in order
  discard,  // /dev/null
  inherit,  // this process's own stdout or stderr
};

struct Program {
  std::vector<std::string> argv;  // argv[0] is looked up on PATH when it holds no '/'
  // Written to its stdin, which is then closed; none: it reads this process's own stdin.
  std::optional<std::string> input{};
  // NAME, value pairs set for it on top of this process's environment (a name already set is replaced).
  std::vector<std::pair<std::string, std::string>> environment{};
  double timeout_seconds = 0;  // > 0: killed (SIGKILL) once it has run this long
  Stream stdout_to = Stream::capture;
  Stream stderr_to = Stream::capture;
  // Where given, each chunk of a captured stdout is handed here as it arrives instead of kept in
  // Finished::out (a build's log, written while it runs).
  std::function<void(std::string_view)> on_output{};
  // Started in a process group of its own, which its timeout kills whole: what it started dies with it.
  bool own_group = false;
};

struct Finished {
  std::string not_started;  // why it could not be started ("No such file or directory"); empty when it was
  int exit_code = -1;       // its exit code when it exited, else -1
  int signal = 0;           // the signal that ended it, else 0 (SIGKILL when it timed out)
  bool timed_out = false;
  std::string out, err;  // what was captured

  bool started() const { return not_started.empty(); }
  bool ok() const { return started() && exit_code == 0; }
  // "exited with 3", "was killed by signal 11", "ran past 60 s", "could not be started: …".
  std::string how() const;
};

// Runs `program` to its end (or its timeout) and says how it ended. Safe to call from several threads at
// once: each child holds only its own pipes.
Finished run_program(const Program& program);

// The program's path on PATH (an executable file, not a directory), or empty.
std::string on_path(const std::string& name);

// argv as a reader would type it, the words joined by spaces: for messages and logs, never for a shell.
std::string command_text(const std::vector<std::string>& argv);

// This program's own path (/proc/self/exe); Unavailable when it cannot be read.
std::string self_path();

}  // namespace ladder
