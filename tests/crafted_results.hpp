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
  nlohmann::json extra = nlohmann::json::object();  // more fields on every entry (reference_notes, …)
};

// Three repetitions around `seconds`, its median.
inline std::vector<double> around(double seconds) { return {0.99 * seconds, seconds, 1.02 * seconds}; }

inline double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t half = values.size() / 2;
  return values.size() % 2 ? values[half] : (values[half - 1] + values[half]) / 2;
}

inline std::string cell_name(const CraftedCell& cell) {
  return cell.tier + "/" + cell.integrand + "/n:" + std::to_string(cell.n) +
         "/threads:" + std::to_string(cell.threads);
}

// What every entry of a cell carries: its name, coordinates and status.
inline nlohmann::json cell_fields(const CraftedCell& cell, const std::string& status) {
  const std::string name = cell_name(cell);
  return {{"cell", name},
          {"name", name},
          {"tier", cell.tier},
          {"rung", cell.rung},
          {"integrand", cell.integrand},
          {"n", cell.n},
          {"threads", cell.threads},
          {"ranks", 1},
          {"status", status}};
}

// The cell's entries as the harness writes them: one a repetition, then the aggregates.
inline void add_cell(nlohmann::json& benchmarks, const CraftedCell& cell) {
  nlohmann::json common = cell_fields(cell, "ok");
  common.update({{"rel_error", cell.rel_error},
                 {"rounding_error", cell.rel_error / 2},
                 {"exact", 0.7468},
                 {"midpoint", 0.7468},
                 {"rounding_bound", 1e-16},
                 {"peak_heap_bytes", 0},
                 {"peak_rss_bytes", 1 << 20},
                 {"minor_faults", 0},
                 {"major_faults", 0},
                 {"allocations", 0}});
  if (!cell.placement.is_null()) common["placement"] = cell.placement;
  common.update(cell.extra);
  for (const double seconds : cell.seconds) {
    nlohmann::json entry = common;
    entry.update({{"run_type", "iteration"},
                  {"real_time", seconds * 1e9},
                  {"cpu_time", seconds * cell.threads * 1e9}});
    benchmarks.push_back(entry);
  }
  const double median = median_of(cell.seconds);
  for (const std::string aggregate : {"median", "mean", "min", "max", "stddev", "cv"}) {
    nlohmann::json entry = common;
    const bool cv = aggregate == "cv";
    entry.update({{"run_type", "aggregate"},
                  {"aggregate_name", aggregate},
                  {"real_time", cv ? 0.01 : median * 1e9},
                  {"cpu_time", median * cell.threads * 1e9}});
    benchmarks.push_back(entry);
  }
}

// A cell that did not run, as the harness writes it: one entry with its status and why (a tier that cannot
// run an integrand is "unavailable", with the reason).
inline void add_cell_not_run(nlohmann::json& benchmarks, const CraftedCell& cell, const std::string& status,
                             const std::string& reason) {
  nlohmann::json entry = cell_fields(cell, status);
  entry.update({{"run_type", "iteration"},
                {"reason", reason},
                {"error_occurred", true},
                {"error_message", reason},
                {"real_time", 0},
                {"cpu_time", 0}});
  benchmarks.push_back(entry);
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

// A whole results document of one machine; with a topology (crafted_topology), its hardware threads are
// the logical CPUs.
inline nlohmann::json crafted_results(const std::string& host, const nlohmann::json& cards,
                                      const nlohmann::json& benchmarks, int repetitions = 3,
                                      const nlohmann::json& topology = nullptr) {
  nlohmann::json document = {
      {"schema_version", 1},
      {"context",
       {{"host_name", host},
        {"cpu_model", "a test CPU"},
        {"logical_cpus", topology.is_null() ? 2 : topology.at("hardware_threads").get<int>()},
        {"simd", {{"kernels_use", "avx2"}}},
        {"matrix", {{"repetitions", repetitions}}},
        {"warnings", nlohmann::json::array()},
        {"run", {{"label", host}, {"status", "complete"}, {"started", "2026-11-30T00:00:00Z"}}}}},
      {"tiers", cards},
      {"benchmarks", benchmarks}};
  if (!topology.is_null()) document["context"]["topology"] = topology;
  return document;
}

// DIR/results.json holding `document`; returns DIR.
inline std::filesystem::path write_results(const std::filesystem::path& dir, const nlohmann::json& document) {
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "results.json") << document.dump(1);
  return dir;
}

}  // namespace ladder::testing
