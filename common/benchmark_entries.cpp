#include "benchmark_entries.hpp"

#include <cmath>
#include <utility>

#include "optional_json.hpp"

namespace ladder {

using nlohmann::json;

namespace {

// The fields every entry of a cell shares: Ladder's, beside Google Benchmark's.
BenchmarkEntry cell_entry(const CellResult& record, int family) {
  BenchmarkEntry entry;
  entry.name = entry.run_name = entry.cell = record.name;
  entry.family_index = family;
  entry.run_type = "iteration";
  entry.coordinates = record;
  entry.rung = record.rung;
  entry.oversubscribed = record.oversubscribed;
  entry.status = record.status;
  entry.reason = record.reason;
  entry.reproducible = record.reproducible;
  entry.placement = record.placement;
  if (!record.measurement) return entry;
  const Measurement& measurement = *record.measurement;
  entry.result = measurement.result;
  entry.exact = measurement.exact;
  entry.midpoint = measurement.midpoint;
  entry.exact_method = measurement.exact_method;
  entry.exact_error_estimate = measurement.exact_error_estimate;
  entry.reference_notes = measurement.reference_notes;
  entry.rel_error = measurement.rel_error;
  entry.rounding_error = measurement.rounding_error;
  entry.rounding_bound = measurement.rounding_bound;
  entry.within_rounding_bound = measurement.within_rounding_bound;
  entry.bit_identical = measurement.bit_identical;
  entry.instruction_set = measurement.instruction_set;
  entry.memory = measurement.memory;
  entry.memory.timeline.reset();  // on the median entry only, not repeated on every entry
  // Hardware counters over one call: figures, or why there are none.
  entry.counters = measurement.counters.value_or(Counters{});
  entry.other_load_cores = record.worker.other_load_cores;
  entry.extra["environment"] = record.worker.environment;
  if (!record.worker.launcher.empty()) entry.extra["launcher"] = record.worker.launcher;
  return entry;
}

// Per-entry rates from that entry's times: nanoseconds a node, nodes a second, CPU per wall per thread.
void add_rates(BenchmarkEntry& entry) {
  const double real_ns = entry.real_time, n = static_cast<double>(entry.coordinates.n);
  entry.ns_per_node = real_ns / n;
  if (real_ns > 0) {
    entry.nodes_per_second = n / (real_ns * 1e-9);
    entry.parallel_efficiency = entry.cpu_time / (real_ns * entry.coordinates.threads);
  }
}

void add_entries(std::vector<BenchmarkEntry>& benchmarks, const CellResult& record, int family) {
  const BenchmarkEntry common = cell_entry(record, family);
  if (!record.measurement) {  // as Google Benchmark writes a run that stopped with an error
    BenchmarkEntry entry = common;
    entry.error_occurred = true;
    entry.error_message = record.reason;
    benchmarks.push_back(entry);
    return;
  }
  const Measurement& measurement = *record.measurement;
  const auto count = static_cast<int>(measurement.repetitions.size());
  for (const auto& repetition : measurement.repetitions) {
    BenchmarkEntry entry = common;
    entry.repetitions = count;
    entry.repetition_index = repetition.repetition_index;
    entry.iterations = repetition.iterations;
    entry.real_time = repetition.real_time;
    entry.cpu_time = repetition.cpu_time;
    add_rates(entry);
    benchmarks.push_back(entry);
  }
  const auto& aggregates = measurement.aggregates;
  for (const auto& [aggregate, timing] : {std::pair{"mean", aggregates.mean},
                                          {"median", aggregates.median},
                                          {"stddev", aggregates.stddev},
                                          {"cv", aggregates.cv},
                                          {"min", aggregates.min},
                                          {"max", aggregates.max}}) {
    const std::string name = aggregate;
    BenchmarkEntry entry = common;
    entry.name = record.name + "_" + name;
    entry.run_type = "aggregate";
    entry.repetitions = count;
    entry.aggregate_name = name;
    entry.aggregate_unit = name == "cv" ? "percentage" : "time";
    entry.iterations = measurement.repetitions.front().iterations;
    entry.real_time = timing.real_time;
    entry.cpu_time = timing.cpu_time;
    if (name == "median") entry.memory.timeline = measurement.memory.timeline;
    if (name != "cv" && name != "stddev") add_rates(entry);
    benchmarks.push_back(entry);
  }
}

}  // namespace

void to_json(json& out, const BenchmarkEntry& entry) {
  out = entry.extra;
  out.update({{"name", entry.name},
              {"family_index", entry.family_index},
              {"per_family_instance_index", entry.per_family_instance_index},
              {"run_name", entry.run_name},
              {"run_type", entry.run_type},
              {"repetitions", entry.repetitions},
              {"iterations", entry.iterations},
              {"real_time", entry.real_time},
              {"cpu_time", entry.cpu_time},
              {"time_unit", "ns"},
              {"cell", entry.cell},
              {"rung", entry.rung},
              {"oversubscribed", entry.oversubscribed},
              {"status", entry.status},
              {"reproducible", optional_json(entry.reproducible)}});
  if (entry.placement) out["placement"] = *entry.placement;
  out.update(json(entry.coordinates));  // tier, integrand, a, b, n, threads, ranks, reproducible_requested
  if (entry.repetition_index) out["repetition_index"] = *entry.repetition_index;
  if (!entry.aggregate_name.empty()) {
    out["aggregate_name"] = entry.aggregate_name;
    out["aggregate_unit"] = entry.aggregate_unit;
  }
  if (entry.error_occurred) {
    out["error_occurred"] = true;
    out["error_message"] = entry.error_message;
  }
  if (!entry.reason.empty()) out["reason"] = entry.reason;
  if (entry.status != CellStatus::ok) return;
  for (const auto& [key, value] : {std::pair{"result", entry.result},
                                   {"exact", entry.exact},
                                   {"midpoint", entry.midpoint},
                                   {"rel_error", entry.rel_error},
                                   {"rounding_error", entry.rounding_error},
                                   {"rounding_bound", entry.rounding_bound},
                                   {"other_load_cores", entry.other_load_cores}})
    out[key] = value && std::isfinite(*value) ? json(*value) : json(nullptr);  // a NaN result: null
  write_memory_figures(entry.memory, out);
  out["within_rounding_bound"] = entry.within_rounding_bound.value_or(false);
  out["bit_identical"] = entry.bit_identical.value_or(false);
  out["exact_method"] = entry.exact_method;
  out["exact_error_estimate"] = optional_json(entry.exact_error_estimate);
  out["reference_notes"] = entry.reference_notes;
  out["instruction_set"] = entry.instruction_set;
  if (entry.counters) out["counters"] = *entry.counters;
  if (entry.memory.timeline) out["memory_timeline"] = *entry.memory.timeline;
  // Rates from the entry's own times; a stddev or a cv has none.
  if (entry.ns_per_node) {
    out["ns_per_node"] = *entry.ns_per_node;
    out["nodes_per_second"] = optional_json(entry.nodes_per_second);
    out["parallel_efficiency"] = optional_json(entry.parallel_efficiency);
  }
}

std::vector<BenchmarkEntry> benchmark_entries(const std::vector<CellResult>& cells) {
  std::vector<BenchmarkEntry> benchmarks;
  int family = 0;
  for (const auto& record : cells) add_entries(benchmarks, record, family++);
  return benchmarks;
}

}  // namespace ladder
