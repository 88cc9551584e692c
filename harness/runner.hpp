// `ladder run`: expands the matrix into cells, runs each in a worker process (the same binary, the hidden
// `worker` subcommand) with a time limit and a memory limit, journals each finished cell at once, and
// keeps results.json and results.csv current. Ctrl-C leaves every finished cell on disk; `--resume DIR`
// runs the rest.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ladder {

// What the user typed; unset options come from the preset (or, on --resume, from the run being resumed).
struct RunArguments {
  std::optional<std::string> preset;
  std::vector<std::string> tiers, sizes, threads, ranks;
  std::optional<std::string> integrand, a, b;
  std::optional<int> repetitions;
  std::optional<double> min_time;
  std::optional<std::uint64_t> seed;
  bool reproducible = false;
  std::string out = "ladder-out";
  std::optional<std::string> resume;
  bool force = false;
  std::string label;
  std::string hostfile;                     // MPI hostfile for distributed tiers: one rank per node
  std::optional<std::string> peers;         // "python"
  std::optional<std::string> python_limit;  // n above which pure-Python peers are not attempted
  double cell_timeout = 600;
  bool instructions = true;  // count each tier's instructions a node under callgrind before the cells
  std::string command_line;
};

// Exit codes: 0 every cell measured (or skipped with a reason), 1 some cell failed, 2 bad input (nothing
// written), 130 interrupted (finished cells kept).
int run_matrix(const RunArguments& arguments);

}  // namespace ladder
