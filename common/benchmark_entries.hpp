// Google Benchmark's view of a run: results.json's `benchmarks`, one entry for each repetition and each
// aggregate of a measured cell, and one errored entry for a cell that did not run, with Google Benchmark's
// field names (so its compare.py and other tools read the file) and Ladder's beside them. It is a
// projection, written from the cells' records (cell_result.hpp); Ladder never reads it back, except the one
// migration of a schema-1 file, which had nothing else (schema_v1.hpp).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cell_result.hpp"

namespace ladder {

// One entry of `benchmarks`: a repetition, an aggregate, or a cell that did not run (written as Google
// Benchmark writes an errored run: error_occurred, error_message, and zero times).
struct BenchmarkEntry {
  // Google Benchmark's fields.
  std::string name, run_name, run_type;  // run_type: "iteration" or "aggregate"
  int family_index = 0, per_family_instance_index = 0, repetitions = 0;
  std::optional<int> repetition_index;
  std::int64_t iterations = 0;
  std::string aggregate_name, aggregate_unit;  // aggregates only: "median", "time" or "percentage"
  double real_time = 0, cpu_time = 0;          // nanoseconds (cv: a fraction)
  bool error_occurred = false;
  std::string error_message;
  // Ladder's: the cell and how it ended.
  std::string cell;  // the cell's name, shared by its entries
  CellKey coordinates;
  int rung = 0;
  bool oversubscribed = false;
  CellStatus status = CellStatus::ok;
  std::string reason;
  std::optional<bool> reproducible;  // same bits at every thread count; null when not known
  // Measured cells.
  std::optional<double> result, exact, midpoint, rel_error, rounding_error, rounding_bound, ns_per_node,
      nodes_per_second, parallel_efficiency, other_load_cores;
  std::optional<bool> within_rounding_bound, bit_identical;
  // How the exact integral was found ("antiderivative", "Boost.Math tanh_sinh in …"; empty in older
  // files), the quadrature's error estimate, and what about the references cannot be trusted.
  std::string exact_method;
  std::optional<double> exact_error_estimate;
  std::vector<std::string> reference_notes;
  std::string instruction_set;
  Memory memory;                                    // its figures (the timeline on the median entry only)
  std::optional<Counters> counters;                 // measured cells
  std::optional<Placement> placement;               // where its threads ran; null in older files
  nlohmann::json extra = nlohmann::json::object();  // thread placement, environment, launcher
};
void to_json(nlohmann::json& out, const BenchmarkEntry& entry);

// The entries of `cells`, in their order: a family a cell.
std::vector<BenchmarkEntry> benchmark_entries(const std::vector<CellResult>& cells);

}  // namespace ladder
