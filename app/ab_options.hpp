// What `ladder ab` is asked (app/ab.cpp declares its options), and the parts its two uses share: Ladder's own
// tiers (app/ab.cpp) and a repository's own Google Benchmark binary (app/ab_repository.cpp).
#pragma once

#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ab.hpp"
#include "commands.hpp"
#include "noise.hpp"
#include "revisions.hpp"
#include "run_options.hpp"
#include "verdict_outputs.hpp"

namespace ladder::app {

struct AbOptions {
  std::string base, head, repo = ".";
  RunArguments matrix;
  IntervalOptions interval;
  std::string budget = "10m";
  int max_pairs = 40;
  int pairs = 0;     // fixed; 0: adaptive (an A/A run takes 10)
  GateOptions gate;  // --fail-above, --min-change
  bool json = false, no_history = false;
  std::optional<std::string> history;
  report::VerdictOutputs outputs;
  // A repository's own benchmark (ab_repository.cpp): --target, or --build with --bench; --metric, --filter.
  std::string target, build, bench, metric = "real_time", filter;
  std::vector<std::string> matrix_options_given;  // the matrix's options on the command line ("--tiers")
  bool repository_benchmark() const { return !target.empty() || !build.empty() || !bench.empty(); }
};

// `ladder ab --repo DIR --target NAME | --build CMD --bench CMD`: the repository's benchmarks, each a cell.
int run_repository_ab(AbOptions& options);

// The verdicts as both uses print them: the table (or --json), then `before_outputs` (an A/A's floors, given
// stdout, or stderr under --json), then the CI outputs; the exit code (the gate, an interrupt).
int report_ab(const AbOptions& options, std::vector<VerdictRow> rows, const Revision& base,
              const Revision& head, const std::function<void(std::FILE*)>& before_outputs);

nlohmann::json side_json(const Revision& revision);
// The history database to read the noise floors from (and record an A/A's in), or empty: --no-history.
std::string noise_database(const AbOptions& options);
// Each cell's threshold: --min-change, else this machine's noise floor from the history, else the default.
std::function<Threshold(const CellKey&)> thresholds(const AbOptions& options, const std::string& database,
                                                    const std::string& machine);
// An A/A run's pairs are this machine's run-to-run noise: each cell's floor, printed to `out` and recorded in
// the history (`database`; empty: none) under the cell and the machine.
void record_noise_floors(
    const std::vector<AbCell>& cells, const std::string& database, const std::string& machine,
    const Revision& revision, std::FILE* out,
    const std::string& used_by = "the default threshold of ab, compare and history check here");

// Each verdict as --json gives it: a tier's cell, or a repository's benchmark (`benchmarks`).
nlohmann::json cells_json(const std::vector<VerdictRow>& rows, bool benchmarks);

}  // namespace ladder::app
