// The results schema, part three: what a run says of itself beside its cells. The machine and the build
// (MachineContext, gathered by harness/machine/context.cpp), the matrix (MatrixRecord), the run's own record
// (RunRecord: started, progress, end, budget) and results.json's `context`, which holds all of them
// (ContextRecord). Each type is written by its to_json and read back by its checked reader, the same type
// both ways: a missing or mistyped field is a SchemaError naming its path ("context.simd.kernels_use: …").
// Fields that a version-1 file may lack are filled in by its migration (schema_v1.hpp), not here.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "build.hpp"
#include "emulation.hpp"
#include "json_reader.hpp"
#include "machine_limits.hpp"
#include "topology.hpp"

namespace ladder {

// What a run measures and how hard: tiers × integrands × sizes × threads (× ranks) on one interval. The
// harness's Matrix (harness/matrix/matrix.hpp) adds the cells it expands into.
// The most rounds a cell may run in (`--rounds`).
inline constexpr int max_rounds = 20;

struct MatrixRecord {
  std::vector<std::string> tiers;
  std::vector<std::string> integrands;  // in the order given
  double a = 0, b = 1;
  std::vector<std::int64_t> sizes;
  std::vector<int> threads;      // for parallel tiers; serial tiers run on 1
  std::vector<int> ranks = {1};  // for distributed tiers
  // Given explicitly, every ranks × threads pair runs (oversubscribed where it exceeds the CPUs); by
  // default only the pairs that fit on the machine's CPUs.
  bool ranks_given = false;
  int cpus = 1;  // the machine's logical CPUs when the run started
  bool reproducible = false;
  int repetitions = 10;
  // Each cell's rounds: fresh worker processes spread over the run (harness/run/rounds.hpp), the repetitions
  // shared among them. 1 in files written before rounds (schema_v2.hpp's migration).
  int rounds = 1;
  double min_time = 0.1;          // seconds a repetition runs at least (Google Benchmark's min_time)
  double min_warmup_time = 0.05;  // seconds of warm-up before the first repetition
  std::uint64_t seed = 0;         // the order the cells run in
  std::string peers{};            // "python": the Python peers run too (scripts/peers/)
  // Pure-Python peers are not attempted above this n: at a microsecond a node they would take minutes.
  std::int64_t python_limit = 10'000'000;
  // The builds each tier is measured in (`--compilers`, `--arch`), by id ("gcc-native", "clang-x86-64-v2");
  // empty: the build at hand alone (and in files written before builds were a dimension).
  std::vector<std::string> builds{};

  nlohmann::json to_json() const;
  // Checked: a damaged journal's matrix is a SchemaError naming the field. A matrix written before
  // integrands were a dimension has one `integrand`: it reads as a list of one.
  static MatrixRecord from_json(const JsonReader& in);
  // The first setting in which two matrices differ, in words; empty when they are the same matrix.
  static std::string difference(const MatrixRecord& x, const MatrixRecord& y);
};

// An integrand of a run (one entry of context.integrands).
struct IntegrandRecord {
  std::string name;
  std::string formula;          // empty unless the integrand gives one
  std::string source;           // "built-in", or the header it came from
  bool antiderivative = false;  // given by the integrand (else the exact integral is Boost.Math's quadrature)
  // The run's tiers that cannot run it, each with why: a phrase that follows "it" ("does not work on xsimd
  // batches: …").
  std::map<std::string, std::string> unsupported;
};
void to_json(nlohmann::json& out, const IntegrandRecord& integrand);
IntegrandRecord read_integrand_record(const JsonReader& in);

// How a run was fitted to --budget (harness/run/plan.hpp's fit_budget), as context.run.budget carries it.
struct BudgetRecord {
  std::string text;                     // as typed: "2m"
  double seconds = 0;                   // the budget
  double estimated_seconds_before = 0;  // the matrix's estimate before it was fitted
  double estimated_seconds = 0;         // the fitted matrix's
  std::vector<std::string> dropped;     // what was cut, in order, each with why; empty when it fitted
  struct Floor {  // what the repetitions and minimum times come down to before anything is dropped
    int repetitions = 0;
    double min_time = 0, min_warmup_time = 0;
  } floor;
};
void to_json(nlohmann::json& out, const BudgetRecord& budget);
BudgetRecord read_budget_record(const JsonReader& in);

struct WarningRecord {
  std::string kind, message;
  std::vector<std::string> cells;
};
void to_json(nlohmann::json& out, const WarningRecord& warning);
WarningRecord read_warning_record(const JsonReader& in);

// The machine and the build a run measured. A reading that is not available says so and why, in its
// text ("unavailable: no cpufreq interface (usual in a VM)"); numbers that could not be read are null.
struct MachineContext {
  std::string host_name, cpu_model;
  int logical_cpus = 1;
  int physical_cores = 0;            // 0: not recorded (a version-1 file)
  std::optional<Topology> topology;  // null in version-1 files written before Ladder read it
  struct Cache {
    std::string level, type, size, shared_cpu_list;  // as /sys says them
  };
  std::vector<Cache> caches;
  struct Simd {
    std::string kernels_use;  // the build's instruction set
    int doubles_per_batch = 0;
    std::string best_on_this_cpu;
    std::vector<std::string> cpu_flags;
  } simd;
  std::optional<double> memory_total_bytes, memory_available_bytes;
  std::string kernel, glibc;
  // Whether the machine's processor ran the code or an emulator did (qemu-user): an emulated run's times
  // rank nothing. Null in a file written before Ladder looked: not recorded, never taken for native.
  std::optional<Emulation> emulation;
  struct Hypervisor {
    bool present = false;
    std::optional<std::string> vendor, product;  // where /sys/class/dmi says them
  } hypervisor;
  struct FrequencyScaling {
    std::string governor, driver, boost;
  } frequency_scaling;
  std::string clocksource, transparent_hugepages, hardware_counters;
  // The build at hand's compiler and common flags, meaning what build.hpp's Build's do; not a Build, as the
  // file's context has never said the target apart from the flags (-march=… is in common_flags).
  std::string compiler, build_type, common_flags;
  std::map<std::string, std::string> flags_per_tier;  // tier id -> its full flags
  std::map<std::string, std::string> libraries;       // library -> version
  // The OMP_, GOMP_, KMP_ and TBB_ variables, and a Slurm job's allocation (SLURM_JOB_ID, its nodes and CPUs)
  std::map<std::string, std::string> parallel_environment;
  std::string ladder_version;
  // The checkout the binary was built from: "unknown" where it was not a git repository.
  struct Source {
    std::string git_commit = "unknown", git_branch = "unknown", git_dirty = "unknown";  // dirty: yes, no
    std::map<std::string, std::string> tier_sources;  // source file -> SHA-256 of its text
  } source;
  std::vector<IntegrandRecord> integrands;  // the matrix's
};
void to_json(nlohmann::json& out, const MachineContext& machine);
MachineContext read_machine_context(const JsonReader& in);

// The run's own record (context.run): written when the first cell starts, updated after every cell, and
// ended by the run's end (status, finished, this session's times).
struct RunRecord {
  std::string label, preset, started;
  std::string status = "running";  // running, complete, interrupted
  std::int64_t cells_total = 0, cells_done = 0;
  double estimated_seconds = 0, cell_timeout_seconds = 0;
  std::vector<int> worker_cpus;  // the CPUs the run's workers could use
  std::optional<std::string> hostfile;
  std::string thread_binding, interleaving;  // how threads were placed and cells ordered, in words
  std::optional<BudgetRecord> budget;        // absent when the run was not budgeted
  std::string updated;                       // when this record was last written
  std::optional<std::string> finished;       // null until the run completes
  std::optional<std::vector<double>> load_average_after;  // the 1-, 5- and 15-minute load averages
  struct Session {  // this session of the run (a resumed run has several): where its wall time went
    double wall_seconds = 0, measured_seconds = 0, harness_seconds = 0;
    std::string note;
  };
  std::optional<Session> this_session;  // set at the run's end
  // The builds the run measured in (`--compilers`, `--arch`), each as it was made ready for this session:
  // empty in a run of the build at hand alone.
  struct BuildUsed : Build {
    std::string id;     // "gcc-native", "clang-x86-64-v2"
    std::string state;  // "the build at hand (this binary)", "reused: …", "built: configure …, compile …"
    double configure_seconds = 0, compile_seconds = 0;  // this session's; 0 when nothing was done
  };
  std::vector<BuildUsed> builds;
};
void to_json(nlohmann::json& out, const RunRecord& run);
RunRecord read_run_record(const JsonReader& in);

// results.json's `context`: the machine, and the run on it.
struct ContextRecord : MachineContext {
  std::string date;  // when the file was written
  RunRecord run;
  MatrixRecord matrix;
  std::vector<WarningRecord> warnings;
  // The machine's limits, measured beside the cells (key "limits"); a file written before Ladder measured
  // them reads as not measured, saying so (machine_limits.hpp's limits_of_older_file).
  MachineLimits limits = limits_of_older_file();
};
void to_json(nlohmann::json& out, const ContextRecord& context);
ContextRecord read_context_record(const JsonReader& in);

}  // namespace ladder
