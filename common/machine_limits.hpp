// The results schema's record of the machine's limits (context.limits): the peak vector FMA rate and the
// memory bandwidth of one core and of all the run's CPUs, each the best of several short runs taken
// beside the run's cells, with every run's figure, the tool and method that measured it and when. A
// tier's share of the machine's limit is computed from these and the cells' own FLOPs and bytes, from the
// results file alone. harness/machine_limits.hpp measures them; `ladder machine` prints them.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "json_reader.hpp"

namespace ladder {

// One limit, measured: the best of several short runs right beside a run's cells.
struct LimitReading {
  int threads = 1;
  std::string unit;          // "GFLOP/s" or "GB/s"
  double best = 0;           // the best of the runs, in unit
  std::vector<double> runs;  // every run's figure in the order taken, in unit
  int lanes =
      0;  // for an FMA peak: the doubles per FMA instruction of the kernel (8 for AVX-512); 0 for bandwidth
  std::string tool;         // "likwid-bench 5.2.2" or "ladder probe"
  std::string method;       // the command line, or the probe described in words (what is counted, sizes)
  std::string measured_at;  // UTC, ISO 8601, of the first run
  std::string note;  // why this tool ("likwid-bench failed: <its output>; Ladder's probe used"), or empty
};
void to_json(nlohmann::json& out, const LimitReading& reading);
LimitReading read_limit_reading(const JsonReader& in);

struct MachineLimits {
  bool measured = false;
  std::string reason;  // when not measured: why ("not measured: --no-limits", "unavailable: …")
  std::optional<LimitReading> fma_one_core, fma_all_cores, bandwidth_one_core, bandwidth_all_cores;
};
void to_json(nlohmann::json& out, const MachineLimits& limits);
// Checked like the rest of the schema: a missing or mistyped field is a SchemaError naming its path
// ("context.limits.fma_one_core.runs[2]: …").
MachineLimits read_machine_limits(const JsonReader& in);

// What a results file written before Ladder measured the limits reads as.
MachineLimits limits_of_older_file();

// One reading in a line: "FMA peak, 1 thread: 91.4 GFLOP/s (best of 10: 57.1 … 91.4; likwid-bench 5.2.2,
// 2026-12-01T10:00:00Z)".
std::string describe_reading(const std::string& what, const LimitReading& reading);
// The limits in lines, as `ladder machine` prints them (the reason alone when not measured).
std::vector<std::string> describe_limits(const MachineLimits& limits);

}  // namespace ladder
