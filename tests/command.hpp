// Running a program as a user does — its output (stdout and stderr together) and its exit code — and a
// scratch directory for what it writes.
#pragma once

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace ladder::testing {

struct Outcome {
  int exit_code;  // -1 when the program did not exit normally
  std::string output;
};

// The calibration cache of `ladder plan` and `ladder run` (harness/run/calibration.hpp): one for the tests,
// in the temporary directory, never the user's own.
inline void use_the_tests_cache() {
  const std::string cache = (std::filesystem::temp_directory_path() / "ladder-tests-cache").string();
  setenv("LADDER_CACHE_DIR", cache.c_str(), 0);
}

// The history database (LADDER_HISTORY) of the runs a test makes: one a test process (ctest runs each test
// in its own), in the temporary directory, removed when the process exits. One history shared by every test
// let one test's runs decide another's report: five recorded runs of a build are pooled into each cell's
// interval (reports/analysis/run_noise.hpp), so a test's figures depended on the tests before it. A test that
// names a history (`LADDER_HISTORY=… ladder …`, or --history) still gets it.
inline const std::filesystem::path& the_tests_history_dir() {
  static const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("ladder-test-history-" + std::to_string(getpid()));
  return dir;
}
// The folder's path is made before the handler that removes it is registered: objects are destroyed in the
// reverse order of their registrations, so a path made after the handler was gone when the handler ran, and
// the folder stayed behind (41 of them in /tmp after one run of the tests).
inline void use_a_history_of_its_own() {
  static const bool once = [] {
    const std::filesystem::path& dir = the_tests_history_dir();
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(the_tests_history_dir(), ignored);
    });
    return setenv("LADDER_HISTORY", (dir / "history.sqlite").c_str(), 1) == 0;
  }();
  (void)once;
}

inline Outcome run_command(const std::string& program, const std::string& arguments) {
  use_the_tests_cache();
  use_a_history_of_its_own();
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

// A file's contents, and a results file's JSON.
inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
inline nlohmann::json read_json(const std::filesystem::path& path) {
  return nlohmann::json::parse(read_text(path));
}
// Replaces a file's contents with `text`.
inline void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

// A text's lines.
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The median aggregate of every cell of a results file (the errored entry of a cell that did not run), by
// cell name.
inline std::map<std::string, nlohmann::json> medians(const nlohmann::json& results) {
  std::map<std::string, nlohmann::json> cells;
  for (const auto& entry : results.at("benchmarks"))
    if (entry.value("aggregate_name", "") == "median" || entry.value("error_occurred", false))
      cells[entry.at("cell")] = entry;
  return cells;
}

// `program run OPTIONS --no-instructions --out OUT`: its outcome, and the results.json it wrote (null when
// none).
struct RunResults {
  Outcome outcome;
  nlohmann::json results;
};
inline RunResults run_and_read(const std::string& program, const std::string& options,
                               const std::filesystem::path& out) {
  RunResults run{run_command(program, "run " + options + " --no-instructions --out " + out.string()),
                 nullptr};
  if (std::filesystem::exists(out / "results.json")) run.results = read_json(out / "results.json");
  return run;
}

// A fresh directory under the system's temporary directory, removed afterwards.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "ladder-test-XXXXXX").string();
    path_ = mkdtemp(pattern.data());
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  std::string str() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace ladder::testing
