// Results files made by hand, for the tests of what reads them (report, pick, compare): every figure is the
// test's own, so each answer the readers give is known in advance.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "benchmark_entries.hpp"
#include "cell_result.hpp"
#include "json_reader.hpp"
#include "results_file.hpp"

namespace ladder::testing {

// A tier's card as results.json carries it; a peer is Python's (ladder run --peers python).
inline nlohmann::json crafted_card(const std::string& id, int rung, std::vector<std::string> libraries,
                                   bool parallel, const std::string& learning, int lines, bool peer = false) {
  nlohmann::json card = {{"id", id},
                         {"rung", rung},
                         {"summary", id + " tier"},
                         {"learning_time", learning},
                         {"reproducible", parallel ? "no" : "always"},
                         {"source_lines", lines},
                         {"shared_lines", 0},
                         {"libraries", libraries},
                         {"concepts", nlohmann::json::array({"loops"})},
                         {"flags", nlohmann::json::array()},
                         {"parallel", parallel},
                         {"distributed", false}};
  if (peer) card.update({{"peer", true}, {"language", "Python"}});
  return card;
}

// One measured cell: its repetitions in seconds a call.
struct CraftedCell {
  std::string tier;
  int rung = 0;
  std::int64_t n = 1000000;
  int threads = 1;
  std::vector<double> seconds;
  double rel_error = 1e-15;
  nlohmann::json placement = nullptr;  // crafted_placement(…); null: not recorded, as in older files
  std::string integrand = "gauss";
  nlohmann::json extra =
      nlohmann::json::object();  // measurement fields to set (reference_notes, counters, …)
};

// Three repetitions around `seconds`, its median.
inline std::vector<double> around(double seconds) { return {0.99 * seconds, seconds, 1.02 * seconds}; }

inline std::string cell_name(const CraftedCell& cell) {
  return cell.tier + "/" + cell.integrand + "/n:" + std::to_string(cell.n) +
         "/threads:" + std::to_string(cell.threads);
}

// The cell's record as the harness makes it (common/cell_result.hpp), its status `status`.
inline CellResult crafted_record(const CraftedCell& cell, CellStatus status) {
  CellResult record;
  static_cast<CellKey&>(record) = {{cell.tier, cell.integrand, cell.n, cell.threads, 1}, 0, 1, false};
  record.name = cell_name(cell);
  record.rung = cell.rung;
  record.status = status;
  if (!cell.placement.is_null()) record.placement = read_placement(JsonReader(cell.placement));
  return record;
}

// A measured cell's record, as results.json's `cells` carries it: its repetitions, their aggregates, and
// the crafted figures; `extra` overrides measurement fields (a memory figure goes to its memory).
inline CellResult measured_record(const CraftedCell& cell) {
  CellResult record = crafted_record(cell, CellStatus::ok);
  Measurement measured;
  for (std::size_t index = 0; index < cell.seconds.size(); ++index)
    measured.repetitions.push_back(
        {static_cast<int>(index), 1, cell.seconds[index] * 1e9, cell.seconds[index] * cell.threads * 1e9});
  measured.aggregates = aggregate(measured.repetitions);
  measured.result = 0.7468;
  measured.exact = measured.midpoint = 0.7468;
  measured.rel_error = cell.rel_error;
  measured.rounding_error = cell.rel_error / 2;
  measured.rounding_bound = 1e-16;
  measured.memory.peak_heap_bytes = measured.memory.minor_faults = measured.memory.major_faults = 0;
  measured.memory.allocations = 0;
  measured.memory.peak_rss_bytes = 1 << 20;
  measured.instruction_set = "avx2";
  nlohmann::json written = measured;
  for (const auto& [key, value] : cell.extra.items()) {
    const bool memory = key == "peak_heap_bytes" || key == "peak_rss_bytes" || key == "allocations" ||
                        key == "minor_faults" || key == "major_faults";
    (memory ? written["memory"][key] : written[key]) = value;
  }
  record.measurement = read_measurement(JsonReader(written));  // checked as a reader checks it
  return record;
}

inline void add_cell(nlohmann::json& cells, const CraftedCell& cell) {
  cells.push_back(measured_record(cell));
}

// A cell that did not run: its status and why (a tier that cannot run an integrand is "unavailable", with
// the reason).
inline void add_cell_not_run(nlohmann::json& cells, const CraftedCell& cell, const std::string& status,
                             const std::string& reason) {
  CellResult record = crafted_record(cell, read_cell_status(JsonReader(nlohmann::json(status))));
  record.reason = reason;
  cells.push_back(record);
}

// A machine's shape as results.json carries it (context.topology): `packages` sockets of `numa` NUMA nodes
// of `l3` L3 groups of `cores` cores of `pus` hardware threads each. The PUs in hwloc's logical order,
// numbered as Linux numbers them: every core's first thread, then every core's second.
inline nlohmann::json crafted_topology(int packages, int numa, int l3, int cores, int pus) {
  const int all_cores = packages * numa * l3 * cores;
  nlohmann::json all = nlohmann::json::array();
  for (int core = 0; core < all_cores; ++core)
    for (int pu = 0; pu < pus; ++pu)
      all.push_back({{"os_index", core + pu * all_cores},
                     {"core", core},
                     {"l3", core / cores},
                     {"numa", core / (cores * l3)},
                     {"package", core / (cores * l3 * numa)}});
  return {{"summary", "crafted"},
          {"source", "this machine"},
          {"synthetic", false},
          {"packages", packages},
          {"numa_nodes", packages * numa},
          {"l3_groups", packages * numa * l3},
          {"cores", all_cores},
          {"hardware_threads", all_cores * pus},
          {"pus", all}};
}

// Where a cell's threads ran, as results.json carries it (the PUs: the first `threads` OS indices).
inline nlohmann::json crafted_placement(int threads, int cores, int l3_groups, int numa_nodes, int packages,
                                        bool smt) {
  std::vector<int> pus;
  for (int pu = 0; pu < threads; ++pu) pus.push_back(pu);
  return {
      {"pus", pus},           {"cores", cores}, {"l3_groups", l3_groups},        {"numa_nodes", numa_nodes},
      {"packages", packages}, {"smt", smt},     {"crosses_numa", numa_nodes > 1}};
}

// A whole results document of one machine, of the cells add_cell and add_cell_not_run made (and Google
// Benchmark's entries written from them); with a topology (crafted_topology), its hardware threads are
// the logical CPUs.
inline nlohmann::json crafted_results(const std::string& host, const nlohmann::json& cards,
                                      const nlohmann::json& cells, int repetitions = 3,
                                      const nlohmann::json& topology = nullptr) {
  ContextRecord context;  // the types' defaults, but for what the reports show
  context.host_name = host;
  context.cpu_model = "a test CPU";
  context.logical_cpus = topology.is_null() ? 2 : topology.at("hardware_threads").get<int>();
  context.simd.kernels_use = "avx2";
  context.matrix.tiers = {"naive"};
  context.matrix.integrands = {"gauss"};
  context.matrix.repetitions = repetitions;
  context.run.label = host;
  context.run.status = "complete";
  context.run.started = "2026-11-30T00:00:00Z";
  nlohmann::json document = {{"schema_version", results_schema_version},
                             {"context", context},
                             {"tiers", cards},
                             {"instructions", InstructionCounts::not_counted("not counted: crafted results")},
                             {"cells", cells},
                             {"benchmarks", benchmark_entries(cells.get<std::vector<CellResult>>())}};
  if (!topology.is_null()) document["context"]["topology"] = topology;
  return document;
}

// `document` as a version-1 file has it (schema_v1.hpp): its cells only as Google Benchmark's entries.
// What a test then takes out of its context is what an early version of Ladder did not record.
inline nlohmann::json as_schema_v1(nlohmann::json document) {
  document["benchmarks"] = benchmark_entries(document.at("cells").get<std::vector<CellResult>>());
  document.erase("cells");
  document["schema_version"] = 1;
  return document;
}

// DIR/results.json holding `document`; returns DIR.
// Google Benchmark's entries are written anew from the cells, which a test may have changed.
inline std::filesystem::path write_results(const std::filesystem::path& dir, nlohmann::json document) {
  std::filesystem::create_directories(dir);
  if (document.contains("cells"))
    document["benchmarks"] = benchmark_entries(document.at("cells").get<std::vector<CellResult>>());
  std::ofstream(dir / "results.json") << document.dump(1);
  return dir;
}

}  // namespace ladder::testing
