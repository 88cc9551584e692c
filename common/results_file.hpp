// The results schema, part two: results.json as the harness writes it and the reports read it. Its
// `benchmarks` entries keep Google Benchmark's field names (so its compare.py reads the file), with
// Ladder's beside them; its `tiers` carry the cards, so a report made elsewhere needs no registry.
// Part one, a cell as measured, journaled and read back (CellResult), is cell_result.hpp; Google Benchmark's
// view of the cells is benchmark_entries.hpp.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cell_result.hpp"
#include "topology.hpp"

namespace ladder {

// Whether a tier's hot loop is vectorized in one build, read from its disassembly.
struct VectorizationRecord {
  std::string build, status, evidence;
  int register_bits = 0, lanes = 0;
  bool linked = false;  // the build this run's tiers came from
};
void to_json(nlohmann::json& out, const VectorizationRecord& entry);

// A tier's card (or a peer's) as results.json and `ladder list --json` carry it.
struct CardRecord {
  std::string id{}, summary{}, learning_time{}, reproducible{}, summation{}, source_file{};
  int rung = 0, source_lines = 0, shared_lines = 0;
  std::vector<std::string> libraries{}, concepts{}, flags{}, shares{}, environment{};
  bool parallel = false, distributed = false;
  double heap_bytes_per_node = 0;
  bool peer = false;
  std::string language = "C++";
  std::optional<std::int64_t> size_limit{};  // a peer's largest n
  std::string note{};
  std::optional<double> max_ulp_error{};  // of an elementary function the tier implements itself
  std::vector<VectorizationRecord> vectorization{};
  std::optional<bool> available{};  // on the machine that ran it
  std::string unavailable_reason{};
};
void to_json(nlohmann::json& out, const CardRecord& card);
void from_json(const nlohmann::json& in, CardRecord& card);
CardRecord read_card_record(const JsonReader& in);

// Instructions a node under callgrind for each tier, or why they were not counted.
struct InstructionCounts {
  bool available = false;
  std::string reason;                   // when not available
  std::string tool, target, integrand;  // when available
  std::vector<std::int64_t> n;
  struct Tier {
    std::string id;
    std::optional<double> per_node;
    std::string unavailable;
  };
  std::vector<Tier> tiers;
  // Each integrand's counts, when the run counted more than one (the first is also the fields above).
  std::map<std::string, std::vector<Tier>> by_integrand;
  nlohmann::json all;  // as counted

  // Instructions a node of `tier` on `integrand`; null when not counted.
  std::optional<double> per_node(const std::string& tier, const std::string& integrand) const;
};
InstructionCounts read_instruction_counts(const JsonReader& in);

struct WarningRecord {
  std::string kind, message;
  std::vector<std::string> cells;
};
void to_json(nlohmann::json& out, const WarningRecord& warning);

// How a run was fitted to --budget (harness/plan.hpp's fit_budget), as its context.run.budget carries it.
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
// Checked: a missing or mistyped field is a SchemaError naming it ("context.run.budget.dropped: …").
BudgetRecord read_budget_record(const JsonReader& in);

// An integrand of a run, as its context.integrands carries it (one entry an integrand of the matrix):
// {"name", "formula", "source", "antiderivative": bool, "unsupported": {"<tier id>": "<reason>", …}}.
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
// Checked: a missing or mistyped field is a SchemaError naming it ("context.integrands[1].source: …").
IntegrandRecord read_integrand_record(const JsonReader& in);

// What the reports read of the context: the machine, the build, the run.
struct ContextRecord {
  std::string host_name, cpu_model, kernels_use, compiler, common_flags;
  int logical_cpus = 1, repetitions = 0;
  std::optional<double> memory_total_bytes;
  bool hypervisor = false;
  std::optional<Topology> topology;    // null in results written before Ladder read it (schema 1 files)
  std::string label, started, status;  // the run's
  std::optional<BudgetRecord> budget;  // absent when the run was not budgeted
  std::vector<WarningRecord> warnings;
  std::vector<IntegrandRecord> integrands;  // the matrix's; empty in results written before Ladder kept them
  // What the run was built from (context.source, read at build time), and with (context.libraries): "unknown"
  // and empty in results written before Ladder kept them, or built from a checkout that is not a git
  // repository.
  std::string git_commit = "unknown", git_branch = "unknown", git_dirty = "unknown";  // dirty: yes, no
  std::map<std::string, std::string> tier_sources;  // source file -> SHA-256 of its text
  std::map<std::string, std::string> libraries;     // library -> version
  std::string build_type, finished;                 // finished: the run's end, empty until it ends
  int physical_cores = 0;                           // 0: not recorded
};

struct ResultsFile {
  std::string path;
  ContextRecord context;
  std::vector<CardRecord> tiers;
  InstructionCounts instructions;
  std::vector<CellResult> cells;  // in the order they finished
};

// Reads DIR/results.json, or the file itself, of schema version 2, or of version 1 through its one migration
// (schema_v1.hpp). Throws InputError naming the file and the problem: missing, not JSON, cut short, another
// schema version, or the path of a field that is missing or of the wrong type.
ResultsFile read_results_file(const std::string& path);

}  // namespace ladder
