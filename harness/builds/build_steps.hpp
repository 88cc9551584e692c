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

// Whether the build folder `tree` is configured, to the end, from the sources in `source`: a marker that
// mark_configured writes once CMake's configure has returned 0 names that source. A CMakeCache.txt alone is
// not enough (a configure stopped before its build files leaves one). When it is not, the marker is removed,
// and a folder CMake configured from another source (another checkout's working tree under one name) is
// emptied, as CMake would refuse to configure it again: the caller configures it afresh.
bool configured_from(const std::string& tree, const std::string& source);
void mark_configured(const std::string& tree, const std::string& source);
// The tiers the build folder `tree` was configured to carry (-DLADDER_ONLY_TIERS), sorted, each once; empty
// when it carries every tier (or is not configured).
std::vector<std::string> configured_tiers(const std::string& tree);
// The tiers a build must carry to give `wanted` once it carries `carried` (each sorted; empty: every tier):
// the union of the two, or every tier where either is every tier.
std::vector<std::string> tiers_to_carry(const std::vector<std::string>& carried,
                                        const std::vector<std::string>& wanted);
// Whether a build carrying `carried` has every tier of `wanted` (as above).
bool carries_all(const std::vector<std::string>& carried, const std::vector<std::string>& wanted);
std::vector<std::string> sorted_once(std::vector<std::string> tiers);
// "every tier", or "tiers a, b".
std::string tiers_text(const std::vector<std::string>& tiers);

// The compiled Python peers' modules (the ladder_peers target: cmake/python_extension.cmake,
// cmake/pythran_peers.cmake, cmake/cython_peers.cmake) built where this binary's build folder lacks any of
// their folders, so that `ladder run --peers python` after a build of `ladder` alone measures them. Only for
// a binary in a CMake build folder (its CMakeCache.txt beside it), and not when LADDER_PEER_MODULES names
// another folder. Prints what it does; a build that fails is printed with its log (the peers it concerns
// then say they are unavailable, and why), never an error of the run.
void build_peer_modules();

// Holds DIR/.lock while a build is prepared: a second run waits instead of building the same tree. The lock
// is opened close-on-exec, so the compilers a build starts never hold it after the run has ended.
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
