// The steps a build of a worker is made of, shared by the builds of the matrix (builds.hpp) and the
// revisions of `ladder ab` (revisions.hpp): a program run with its output in a log and its progress on one
// line, the first error of a log, and a lock that makes two runs preparing one
// build wait for each other.
#pragma once

#include <string>
#include <vector>

namespace ladder {

// Runs `argv` (no shell, common/process.hpp) with its stdout and stderr appended to `log`; while it runs,
// ninja's "[N/M]" lines become one progress line labelled `label`. Returns its exit status: 127 (said in
// the log) when it cannot be started, 128 when a signal ended it.
int run_logged(const std::vector<std::string>& argv, const std::string& log, const std::string& label);
// The first line of `log` that reads as an error (the compiler's, or CMake's with the first line of its
// message), else its first FAILED line.
std::string first_error(const std::string& log);

// Holds DIR/.lock while a build is prepared: a second run waits instead of building the same tree.
class BuildLock {
 public:
  explicit BuildLock(const std::string& dir);
  ~BuildLock();
  BuildLock(const BuildLock&) = delete;
  BuildLock& operator=(const BuildLock&) = delete;

 private:
  int fd_;
};

}  // namespace ladder
