// The results schema, part one: a cell as the worker measures it and the run's journal keeps it. Each
// type has its nlohmann to_json/from_json beside it; from_json checks every field (json_reader.hpp), so a
// damaged journal or worker result is an error naming the field, never an abort. Fields Ladder does not
// read itself (the methods in words, the environment, a peer's compile time) travel in `extra`, verbatim.
//
// Part two, results.json as written and read, is results_file.hpp.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json_reader.hpp"

namespace ladder {

constexpr int results_schema_version = 1;

// How a cell ended. Only `ok` has a measurement; skipped and unavailable cells were never attempted.
enum class CellStatus { ok, skipped, unavailable, failed, crashed, killed, timeout, out_of_memory };
std::string_view to_string(CellStatus status);
// A cell that was attempted and did not finish: the run's exit code is 1.
bool is_failure(CellStatus status);
void to_json(nlohmann::json& out, CellStatus status);
void from_json(const nlohmann::json& in, CellStatus& status);
CellStatus read_cell_status(const JsonReader& in);

// One measurement's coordinates: one tier at one size, thread count and rank count.
struct Cell {
  std::string tier;
  std::string integrand;
  double a = 0, b = 1;
  std::int64_t n = 0;
  int threads = 1;
  int ranks = 1;              // processes, for a distributed tier (under the MPI launcher)
  bool reproducible = false;  // ask the tier for the same bits at every thread count
};
void to_json(nlohmann::json& out, const Cell& cell);
void from_json(const nlohmann::json& in, Cell& cell);
Cell read_cell(const JsonReader& in);

// Times in nanoseconds a call; a percentage aggregate (cv) holds a fraction instead.
struct Timing {
  double real_time = 0, cpu_time = 0;
};
struct Repetition {
  int repetition_index = 0;
  std::int64_t iterations = 0;
  double real_time = 0, cpu_time = 0;
};
struct Aggregates {
  Timing mean, median, stddev, cv, min, max;
};

// Every type below is read two ways: read_TYPE(JsonReader), which names the path of a bad field from the
// document's root, and nlohmann's from_json hook (json.get<TYPE>()), the same check from the value itself.
// Both throw SchemaError, never nlohmann's exceptions.

// Resident memory and CPU time sampled over one call.
struct MemoryTimeline {
  std::vector<double> seconds, rss_bytes, cpu_seconds;
  nlohmann::json extra = nlohmann::json::object();  // interval, sample count, method
};
MemoryTimeline read_timeline(const JsonReader& in);
void to_json(nlohmann::json& out, const MemoryTimeline& timeline);

// One call's memory. A peer cannot count everything (Python has no malloc count): null then.
struct Memory {
  std::optional<double> peak_heap_bytes, allocations, peak_rss_bytes, peak_rss_growth_bytes, minor_faults,
      major_faults;
  std::optional<nlohmann::json> thread_placement;
  std::optional<MemoryTimeline> timeline;
  nlohmann::json extra = nlohmann::json::object();  // methods in words, rss before, allocated bytes, notes
};

// The figures of a Memory, as members of `out` (a measurement's "memory", or a results entry itself), and
// read back from `in`; its extra and its timeline are the caller's.
void write_memory_figures(const Memory& memory, nlohmann::json& out);
void read_memory_figures(const JsonReader& in, Memory& memory);

// Hardware counters over one call, or why there are none ("unavailable: …"): never a zero.
struct Counters {
  bool available = false;
  std::string reason = "unavailable: not recorded by this version of Ladder";
  std::optional<double> ipc, instructions_per_node, cache_misses, branch_misses;
  nlohmann::json all = nlohmann::json();  // as counted (every event, the method); null when not recorded
};
Counters read_counters(const JsonReader& in);
void to_json(nlohmann::json& out, const Counters& counters);

// What the worker measured in an `ok` cell.
struct Measurement {
  std::vector<Repetition> repetitions;
  Aggregates aggregates;
  double measured_seconds = 0;  // inside Google Benchmark's timed repetitions
  double result = 0;            // the first result the kernel returned (NaN or ±inf is written null)
  bool bit_identical = true;    // the same bits in every call
  // The references: null where they could not be computed (a quadrature that failed, a node where f is
  // not finite); reference_notes says why, and what else about them cannot be trusted.
  std::optional<double> exact, midpoint;
  std::string exact_method;                    // "antiderivative", "Boost.Math tanh_sinh in …"; empty: old
  std::optional<double> exact_error_estimate;  // the quadrature's
  std::vector<std::string> reference_notes;
  std::optional<double> rel_error, rounding_error;  // null where the reference is 0 or absent
  std::optional<double> rounding_bound;  // null where the reference is not finite (f is not, at a node)
  bool within_rounding_bound = true;
  Memory memory;
  std::optional<Counters> counters;  // absent from a peer's measurement
  std::string instruction_set;
  nlohmann::json extra = nlohmann::json::object();
};
void to_json(nlohmann::json& out, const Measurement& measurement);
void from_json(const nlohmann::json& in, Measurement& measurement);
// The references' method, estimate and notes, read from a measurement or a results entry (absent from
// files written before them: empty then).
void read_reference_fields(const JsonReader& in, std::string& exact_method,
                           std::optional<double>& exact_error_estimate, std::vector<std::string>& notes);
Measurement read_measurement(const JsonReader& in);

// The worker process as the runner saw it.
struct WorkerReport {
  std::optional<double> wall_seconds, cpu_seconds;
  double other_load_cores = 0;  // the machine's other work during the cell, in cores
  double steal_fraction = 0;    // of the machine's CPU time, taken by the hypervisor
  std::string ended;            // "exit code 0", "signal SIGSEGV (…)"; empty when it never ran
  std::string launcher;         // the MPI launcher's words, for a distributed tier
  nlohmann::json environment = nlohmann::json::object();  // what the worker's environment was given
};
void to_json(nlohmann::json& out, const WorkerReport& worker);
WorkerReport read_worker_report(const JsonReader& in);

// Where the runner placed a cell's threads (topology.hpp's compact placement), and what that spans. A
// placement over two NUMA nodes means some threads read memory across the interconnect.
struct Placement {
  std::vector<int> pus;  // OS indices of the hardware threads, in the order the threads take them
  int cores = 0, l3_groups = 0, numa_nodes = 0, packages = 0;
  bool smt = false;  // two of its threads share a physical core
  bool crosses_numa() const { return numa_nodes > 1; }
};
void to_json(nlohmann::json& out, const Placement& placement);
Placement read_placement(const JsonReader& in);

// A journal line for one finished cell.
struct CellRecord {
  std::string name;  // Google Benchmark's name: "tier/integrand/n:N/threads:T[/ranks:R]"
  Cell cell;
  int rung = 0;
  bool oversubscribed = false;
  CellStatus status = CellStatus::ok;
  std::string reason;                      // why it is not ok
  std::optional<Measurement> measurement;  // when ok
  std::optional<Placement> placement;      // where its threads were placed; null when it did not run
  WorkerReport worker;
  std::string finished;  // ISO 8601
};
void to_json(nlohmann::json& out, const CellRecord& record);
void from_json(const nlohmann::json& in, CellRecord& record);
CellRecord read_cell_record(const JsonReader& in);

// A journal line saying the run was resumed.
struct ResumeRecord {
  std::string at, host_name, command_line;
};
void to_json(nlohmann::json& out, const ResumeRecord& record);

// The journal, in order: the run's first line (its matrix, context and cards: what the harness reads of it
// it reads itself), then cells and resumptions as they happened.
struct Journal {
  nlohmann::json header;
  std::vector<CellRecord> cells;
  std::vector<ResumeRecord> resumptions;
};

}  // namespace ladder
