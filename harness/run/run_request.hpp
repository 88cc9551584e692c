// What the user asked `ladder run` (and `ladder plan`, `ladder ab`) for: the options as typed
// (RunArguments, which CLI11 fills), parsed once into their types (RunRequest, by parse_request: every bad
// value is refused there, named), and the matrix the request makes (requested_matrix): unset options come
// from the preset (or, on --resume, from the run being resumed). The harness reads the RunRequest only.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "builds.hpp"
#include "matrix.hpp"
#include "measure_limits.hpp"
#include "topology.hpp"

namespace ladder {

// What the user typed, as the command line fills it; an empty text is an option not given.
struct RunArguments {
  std::string preset;
  std::vector<std::string> tiers, sizes, threads, ranks;
  std::string integrand;  // --integrand: one name or several, comma-separated
  std::string a, b;
  std::optional<int> repetitions;
  std::optional<int> rounds;
  std::optional<double> min_time;
  std::string seed;
  bool reproducible = false;
  std::string out;  // --out; empty: a new ladder-out/run-DATE-TIME (output_directory.hpp)
  std::string resume;
  bool force = false;
  std::string label;
  std::string hostfile;      // MPI hostfile for distributed tiers: one rank a host
  std::string peers;         // "python"
  std::string python_limit;  // n above which pure-Python peers are not attempted
  double cell_timeout = 600;
  std::string budget;  // --budget: "90s", "15m", "2h"
  // --compilers, --arch: the builds each tier is measured in (builds.hpp); both empty: the build at hand.
  std::vector<std::string> compilers, arches;
  bool instructions = true;  // count each tier's instructions a node under callgrind before the cells
  bool limits = true;        // measure the machine's limits beside the cells (run_limits.hpp)
  std::string limits_tool;   // --limits-tool: "auto", "likwid-bench", "probe"; empty: the run's default
  std::string remeasure;     // --remeasure: the rounds a cell may be measured again; empty: the default
  std::string command_line;
};

// --remeasure (harness/run/remeasure.hpp): the rounds a cell may run in place of its disturbed ones, 2 by
// default, and at most ten: a cell disturbed ten times running is measuring the machine's steady load, not a
// passing one. --rounds (harness/run/rounds.hpp): each cell in 3 worker processes by default.
constexpr int default_remeasure = 2, most_remeasure = 10;
constexpr int default_rounds = 3;

// --budget: the duration as typed (for messages and the record) and in seconds.
struct Budget {
  std::string text;
  double seconds = 0;
};

// One word of --threads: a count, or a keyword the topology resolves (requested_matrix).
struct ThreadsWanted {
  enum class Kind { count, all, cores, smt };
  Kind kind = Kind::count;
  int count = 0;     // for Kind::count
  std::string text;  // as typed, for messages
};

// One --threads word: a count, or all, cores or smt (resolved on a topology by thread_counts).
ThreadsWanted parse_threads_word(const std::string& text);

// The request, every option in its type; unset (nullopt, empty) where not given.
struct RunRequest {
  std::optional<std::string> preset;
  std::vector<std::string> tiers;   // checked by requested_matrix, once the peers are loaded
  std::vector<std::int64_t> sizes;  // sorted, each once
  std::vector<ThreadsWanted> threads;
  std::vector<int> ranks;  // sorted, each once
  std::optional<std::vector<std::string>> integrands;
  std::optional<double> a, b;
  std::optional<int> repetitions;  // 1 to 1000
  std::optional<int> rounds;       // 1 to max_rounds
  std::optional<double> min_time;  // above 0, at most 100
  std::optional<std::uint64_t> seed;
  bool reproducible = false;
  std::string out = "ladder-out";
  std::optional<std::string> resume;
  bool force = false;
  std::string label;
  std::string hostfile;
  std::optional<std::string> peers;
  std::optional<std::int64_t> python_limit;
  double cell_timeout = 600;
  std::optional<Budget> budget;
  std::vector<BuildSpec> builds;  // empty: the build at hand
  bool instructions = true;
  bool limits = true;
  LimitsTool limits_tool = LimitsTool::probe;  // Ladder's probes unless --limits-tool says otherwise
  int remeasure = default_remeasure;           // 0 to most_remeasure; 0 measures no round again
  // LADDER_TEST_DISTURB, a switch for tests only (remeasure.hpp's TestDisturbance): cell name → the first
  // measurements it reports disturbed.
  std::map<std::string, int> test_disturbed;
  std::string command_line;
};

// Parses every option once. Throws InputError naming a bad value and what is accepted.
RunRequest parse_request(const RunArguments& args);

// The matrix the request asks for on a machine of this topology; `resumed` is the matrix of the run being
// resumed, or null. Parallel tiers default to the topology's thread ladder; --threads takes counts, `all`
// (every count from 1 to the hardware threads), `cores` (all physical cores) and `smt` (all hardware
// threads). Loads the peers it names. Throws InputError naming a bad tier or a thread count above the
// machine's.
Matrix requested_matrix(const RunRequest& request, const Matrix* resumed, const Topology& topology);

}  // namespace ladder
