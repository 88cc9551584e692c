// What the user asked `ladder run` for, and the matrix it makes: unset options come from the preset (or,
// on --resume, from the run being resumed).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "matrix.hpp"
#include "topology.hpp"

namespace ladder {

// What the user typed.
struct RunArguments {
  std::optional<std::string> preset;
  std::vector<std::string> tiers, sizes, threads, ranks;
  std::optional<std::string> integrand;  // --integrand: one name or several, comma-separated
  std::optional<std::string> a, b;
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
  std::optional<std::string> budget;  // --budget: "90s", "15m", "2h" (plan.hpp fits the matrix to it)
  // --compilers, --arch: the builds each tier is measured in (builds.hpp); both empty: the build at hand.
  std::vector<std::string> compilers, arches;
  bool instructions = true;  // count each tier's instructions a node under callgrind before the cells
  bool limits = true;        // measure the machine's limits beside the cells (run_limits.hpp)
  std::string limits_tool;   // --limits-tool: "auto", "likwid-bench", "probe"; empty: the run's default
  std::string command_line;
};

// The matrix the arguments ask for on a machine of this topology; `resumed` is the matrix of the run being
// resumed, or null. Parallel tiers default to the topology's thread ladder; --threads takes counts, `all`
// (every count from 1 to the hardware threads), `cores` (all physical cores) and `smt` (all hardware
// threads). Loads the peers it names. Throws InputError naming a bad value.
Matrix requested_matrix(const RunArguments& args, const Matrix* resumed, const Topology& topology);

}  // namespace ladder
