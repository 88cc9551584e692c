// Running a program as a user does: its output (stdout and stderr together) and its exit code.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace ladder::testing {

struct Outcome {
  int exit_code;  // -1 when the program did not exit normally
  std::string output;
};

inline Outcome run_command(const std::string& program, const std::string& arguments) {
  const std::string command = program + " " + arguments + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return {-1, "popen failed"};
  std::string output;
  std::array<char, 4096> buffer{};
  while (const std::size_t read = fread(buffer.data(), 1, buffer.size(), pipe))
    output.append(buffer.data(), read);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

}  // namespace ladder::testing
