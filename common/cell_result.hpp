// The results schema, part one: one measured cell, `CellResult`, as the worker measures it, the run's journal
// keeps it, results.json carries it (its `cells`) and every reader gets it back: the summary, the warnings,
// the CSV, the report, pick, compare and the history. Each type has its nlohmann to_json/from_json beside
// it; from_json checks every field (json_reader.hpp), so a damaged journal or worker result is an error
// naming the field, never an abort. Fields Ladder does not read itself (the methods in words, the
// environment, a peer's compile time) travel in `extra`, verbatim.
//
// Part two, results.json as written and read, is results_file.hpp; Google Benchmark's view of the cells
// (results.json's `benchmarks`) is a projection written from these records, benchmark_entries.hpp.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cell_coordinates.hpp"
#include "json_reader.hpp"
#include "topology.hpp"

namespace ladder {

// 3: a cell is measured in rounds (its `rounds`, the matrix's `rounds`), and its measurement's repetitions
// are its clean rounds' together; 2: results.json carries its cells as CellResult records (`cells`), each
// measured in one worker; 1: only as Google Benchmark entries. Older files are read through one migration a
// version (schema_v1.hpp, schema_v2.hpp: a version-2 matrix ran one round a cell).
constexpr int results_schema_version = 3;

// How a cell ended. Only `ok` has a measurement; skipped and unavailable cells were never attempted.
enum class CellStatus { ok, skipped, unavailable, failed, crashed, killed, timeout, out_of_memory };
std::string_view to_string(CellStatus status);
// A cell that was attempted and did not finish: the run's exit code is 1.
bool is_failure(CellStatus status);
void to_json(nlohmann::json& out, CellStatus status);
void from_json(const nlohmann::json& in, CellStatus& status);
CellStatus read_cell_status(const JsonReader& in);

// One measurement: one tier at one size, thread count and rank count (its coordinates), over an interval.
struct CellKey : CellCoordinates {
  double a = 0, b = 1;
  bool reproducible_requested = false;  // ask the tier for the same bits at every thread count
  // The build it runs in, when the run measures several (`--compilers`, `--arch`): "gcc-native",
  // "clang-x86-64-v2"; empty in a run of the build at hand alone (and in files written before builds).
  std::string build{};
};
void to_json(nlohmann::json& out, const CellKey& cell);
void from_json(const nlohmann::json& in, CellKey& cell);
CellKey read_cell_key(const JsonReader& in);

// Times in nanoseconds a call, the record's one time unit; a percentage aggregate (cv) holds a fraction.
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
// Repetitions as a measurement and a round write them, and read back (each field checked).
nlohmann::json repetitions_json(const std::vector<Repetition>& repetitions);
std::vector<Repetition> read_repetitions(const JsonReader& in);

// The aggregates of the repetitions, as Google Benchmark computes its statistics (the sample standard
// deviation, cv = stddev / mean); one repetition is all of them, with no spread. The one place they are
// computed. Throws std::invalid_argument for no repetitions.
Aggregates aggregate(const std::vector<Repetition>& repetitions);

// The CPUs a cell's threads were allowed while they ran, read by the worker (each thread's
// Cpus_allowed_list): OS indices, ascending.
struct ThreadPlacement {
  std::vector<int> union_of_cpus;            // every thread's CPUs together
  std::vector<std::vector<int>> per_thread;  // each thread's, one list a thread
  int threads() const { return static_cast<int>(per_thread.size()); }
};
void to_json(nlohmann::json& out, const ThreadPlacement& placement);
ThreadPlacement read_thread_placement(const JsonReader& in);

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
  std::optional<ThreadPlacement> thread_placement;
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
  // The machine's other work during the cell, in cores: its CPU time less the worker's and the runner's,
  // less the resolution of /proc/stat's counters (a tick a CPU), so the least other work they show.
  double other_load_cores = 0;
  // Of the machine's CPU time, taken by the hypervisor: less the same resolution, the least they show.
  double steal_fraction = 0;
  std::string ended;     // "exit code 0", "signal SIGSEGV (…)"; empty when it never ran
  std::string launcher;  // the MPI launcher's words, for a distributed tier
  nlohmann::json environment = nlohmann::json::object();  // what the worker's environment was given
};
void to_json(nlohmann::json& out, const WorkerReport& worker);
WorkerReport read_worker_report(const JsonReader& in);

// The build a cell ran in, as it said of itself (harness/builds/builds.hpp): the compiler and its version,
// the target, the full flags of the tier's file, and the build's own reading of the tier's hot loop from its
// disassembly (variants/vectorization.hpp). Its compiler and target mean what build.hpp's Build's do, but it
// is not a Build: a cell keeps its tier's flags in full (the build's common ones and the tier's own, as one
// string in the file), not the build's common flags, which it cannot tell apart from them.
struct BuildRecord {
  std::string id;               // "gcc-native", "clang-x86-64-v2"; empty: the run's own, in a run of one
  std::string compiler;         // as Build::compiler: "GNU 12.2.0", "Clang 16.0.6"
  std::string target;           // as Build::target: the -march, "native", "x86-64-v3", …
  std::string flags;            // the common flags and the tier's own, as the tier's file was compiled
  std::string instruction_set;  // what xsimd's batches use in that build: "avx512bw", "sse4_2", …
  std::string vectorization;    // the hot loop: vectorized, scalar, partly or unknown
  int lanes = 0;                // doubles a register in the hot loop; 1 when scalar; 0 when unknown
  std::string evidence;         // one line: where the hot loop is and what it computes
};
void to_json(nlohmann::json& out, const BuildRecord& build);
BuildRecord read_build_record(const JsonReader& in);

// Where the runner placed a cell's threads (topology.hpp's compact placement): the PUs, and what they span
// (topology.hpp's Span; the file calls its shares_cores "smt"). A placement over two NUMA nodes means some
// threads read memory across the interconnect.
struct Placement : Span {
  std::vector<int> pus;  // OS indices of the hardware threads, in the order the threads take them
  bool crosses_numa() const { return numa_nodes > 1; }
};
void to_json(nlohmann::json& out, const Placement& placement);
Placement read_placement(const JsonReader& in);

// A cell measured again because its measurement was disturbed (disturbance.hpp's rule; the runner's
// harness/run/remeasure.hpp): how many times, what its first measurement said and why it was doubted, and
// whether the measurement kept is disturbed still. Absent from a cell measured once (and from files
// written before cells were measured again).
struct Remeasured {
  int attempts = 0;                        // measurements after the first, at least 1
  double first_median_ns = 0;              // the first measurement's median, nanoseconds a call
  std::vector<std::string> first_reasons;  // why the first was disturbed ("1.01 cores of other load")
  bool still_disturbed = false;            // the kept measurement is disturbed too
};
void to_json(nlohmann::json& out, const Remeasured& remeasured);
Remeasured read_remeasured(const JsonReader& in);

// One round of a cell (harness/run/rounds.hpp): one worker process that warmed up and timed its share of the
// repetitions, at its place in the run's schedule. The first round also measured memory, counters and the
// error; later rounds time only, with the first round's iterations a repetition.
struct Round {
  int index = 1;  // 1 … R the run's rounds; above R a round measured again in place of a disturbed one
  std::vector<Repetition> repetitions;
  double median_ns = 0;                             // of its repetitions, nanoseconds a call
  double other_load_cores = 0, steal_fraction = 0;  // as WorkerReport's, over this process
  std::optional<double> wall_seconds;
  long pid = 0;          // the worker process
  std::string finished;  // ISO 8601
  // Why it was dropped (common/noise/disturbance.hpp's round rule): empty for a clean round.
  std::vector<std::string> disturbed{};
  bool clean() const { return disturbed.empty(); }
};
void to_json(nlohmann::json& out, const Round& round);
Round read_round(const JsonReader& in);

// One measured cell: a journal line, an entry of results.json's `cells`, and what every reader reads. It is
// its key (the coordinates, written as its "cell") and what was measured there.
struct CellResult : CellKey {
  std::string name;  // Google Benchmark's name: "tier/integrand/n:N/threads:T[/ranks:R]"
  const CellKey& key() const { return *this; }
  int rung = 0;
  bool oversubscribed = false;
  CellStatus status = CellStatus::ok;
  std::string reason;                       // why it is not ok
  std::optional<Measurement> measurement;   // when ok
  std::optional<Placement> placement;       // where its threads were placed; null when it did not run
  std::optional<BuildRecord> build_record;  // the build it ran in; null when it did not run (or before)
  WorkerReport worker;
  std::string finished;  // ISO 8601
  // Whether the tier gave the same bits at every thread count of this cell's group (tier, integrand, n,
  // ranks, reproducible asked); set when results.json is written (results_by_group), null in the journal
  // and where the group has one measured thread count or none.
  std::optional<bool> reproducible;
  std::optional<Remeasured> remeasured;  // when it was measured again; the measurement is the kept one
  // Its rounds, in the order they ran (schema 3; empty in older files and in a cell that did not run): the
  // measurement's repetitions are the clean rounds' together.
  std::vector<Round> rounds{};
  int clean_rounds() const;

  // What the readers ask of it. Times are seconds a call (the record keeps nanoseconds); all are 0, null or
  // empty for a cell that is not ok.
  bool ok() const { return status == CellStatus::ok && measurement.has_value(); }
  double median() const { return seconds(&Aggregates::median); }
  double min() const { return seconds(&Aggregates::min); }
  double max() const { return seconds(&Aggregates::max); }
  double mean() const { return seconds(&Aggregates::mean); }
  double stddev() const { return seconds(&Aggregates::stddev); }
  double cv() const { return ok() ? measurement->aggregates.cv.real_time : 0; }  // a fraction
  double cpu_median() const { return ok() ? measurement->aggregates.median.cpu_time * 1e-9 : 0; }
  std::vector<double> repetition_seconds() const;
  // CPU time over wall time over threads, of the median: 1 when every thread was busy all along.
  double efficiency() const;
  double ns_per_node() const;
  // The errors and their references (null where they could not be computed).
  std::optional<double> rel_error() const { return measured(&Measurement::rel_error); }
  std::optional<double> rounding_error() const { return measured(&Measurement::rounding_error); }
  std::optional<double> exact() const { return measured(&Measurement::exact); }
  std::optional<double> midpoint() const { return measured(&Measurement::midpoint); }
  std::optional<double> rounding_bound() const { return measured(&Measurement::rounding_bound); }
  std::optional<double> exact_error_estimate() const { return measured(&Measurement::exact_error_estimate); }
  std::string exact_method() const { return ok() ? measurement->exact_method : std::string(); }
  std::vector<std::string> reference_notes() const;
  std::string instruction_set() const { return ok() ? measurement->instruction_set : std::string(); }
  // One call's memory; a figure a peer cannot count (Python has no malloc count) is 0 here.
  double peak_heap() const { return memory_figure(&Memory::peak_heap_bytes); }
  // The peak heap as counted, or nothing where it could not be (PyPy has no tracemalloc): what a reader
  // prints, "not counted" then, never 0 B.
  std::optional<double> counted_peak_heap() const {
    return ok() ? measurement->memory.peak_heap_bytes : std::nullopt;
  }
  double peak_rss() const { return memory_figure(&Memory::peak_rss_bytes); }
  double allocations() const { return memory_figure(&Memory::allocations); }
  double minor_faults() const { return memory_figure(&Memory::minor_faults); }
  double major_faults() const { return memory_figure(&Memory::major_faults); }
  const MemoryTimeline& timeline() const;  // empty when the run sampled none
  // Hardware counters over one call; null, with the reason, when there are none.
  std::optional<double> ipc() const { return counter(&Counters::ipc); }
  std::optional<double> hw_instructions_per_node() const { return counter(&Counters::instructions_per_node); }
  std::optional<double> cache_misses() const { return counter(&Counters::cache_misses); }
  std::optional<double> branch_misses() const { return counter(&Counters::branch_misses); }
  std::string counters_unavailable() const;  // empty when they were counted

 private:
  double seconds(Timing Aggregates::*aggregate) const {
    return ok() ? (measurement->aggregates.*aggregate).real_time * 1e-9 : 0;
  }
  std::optional<double> measured(std::optional<double> Measurement::*figure) const {
    return ok() ? (*measurement).*figure : std::nullopt;
  }
  double memory_figure(std::optional<double> Memory::*figure) const {
    return ok() ? (measurement->memory.*figure).value_or(0) : 0;
  }
  std::optional<double> counter(std::optional<double> Counters::*figure) const;
};
void to_json(nlohmann::json& out, const CellResult& record);
void from_json(const nlohmann::json& in, CellResult& record);
CellResult read_cell_result(const JsonReader& in);

}  // namespace ladder
