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
};

// Three repetitions around `seconds`, its median.
inline std::vector<double> around(double seconds) { return {0.99 * seconds, seconds, 1.02 * seconds}; }

inline double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t half = values.size() / 2;
  return values.size() % 2 ? values[half] : (values[half - 1] + values[half]) / 2;
}

inline std::string cell_name(const CraftedCell& cell) {
  return cell.tier + "/gauss/n:" + std::to_string(cell.n) + "/threads:" + std::to_string(cell.threads);
}

// The cell's entries as the harness writes them: one a repetition, then the aggregates.
inline void add_cell(nlohmann::json& benchmarks, const CraftedCell& cell) {
  const std::string name = cell_name(cell);
  const nlohmann::json common = {{"cell", name},
                                 {"tier", cell.tier},
                                 {"rung", cell.rung},
                                 {"integrand", "gauss"},
                                 {"n", cell.n},
                                 {"threads", cell.threads},
                                 {"ranks", 1},
                                 {"status", "ok"},
                                 {"name", name},
                                 {"rel_error", cell.rel_error},
                                 {"rounding_error", cell.rel_error / 2},
                                 {"exact", 0.7468},
                                 {"midpoint", 0.7468},
                                 {"rounding_bound", 1e-16},
                                 {"peak_heap_bytes", 0},
                                 {"peak_rss_bytes", 1 << 20},
                                 {"minor_faults", 0},
                                 {"major_faults", 0},
                                 {"allocations", 0}};
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

// A whole results document of one machine.
inline nlohmann::json crafted_results(const std::string& host, const nlohmann::json& cards,
                                      const nlohmann::json& benchmarks, int repetitions = 3) {
  return {{"schema_version", 1},
          {"context",
           {{"host_name", host},
            {"cpu_model", "a test CPU"},
            {"logical_cpus", 2},
            {"simd", {{"kernels_use", "avx2"}}},
            {"matrix", {{"repetitions", repetitions}}},
            {"warnings", nlohmann::json::array()},
            {"run", {{"label", host}, {"status", "complete"}, {"started", "2026-11-30T00:00:00Z"}}}}},
          {"tiers", cards},
          {"benchmarks", benchmarks}};
}

// DIR/results.json holding `document`; returns DIR.
inline std::filesystem::path write_results(const std::filesystem::path& dir, const nlohmann::json& document) {
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "results.json") << document.dump(1);
  return dir;
}

}  // namespace ladder::testing
