// `ladder export` as a user runs it, for the tests of what it writes, keeps and refuses
// (export_safety_test.cpp, export_keeps_test.cpp; LADDER_BINARY is the binary under test).
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "command.hpp"

namespace ladder::testing {

// A path in single quotes, for a shell command line (the tests' paths hold no quote).
inline std::string shell_quoted(const std::filesystem::path& path) { return "'" + path.string() + "'"; }

// What `ladder export TIER --out OUT` (and more arguments) prints, and its exit code.
inline Outcome export_to(const std::filesystem::path& out, const std::string& more = "",
                         const std::string& tier = "inlined") {
  return run_command(LADDER_BINARY, "export " + tier + " --out " + shell_quoted(out) + " " + more);
}

// The names in a directory, sorted.
inline std::vector<std::string> entries(const std::filesystem::path& directory) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(directory))
    names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace ladder::testing
