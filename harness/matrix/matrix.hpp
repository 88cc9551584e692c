// The benchmark matrix: what a run measures (tiers × integrands × sizes × threads on one interval), how
// hard it measures (repetitions, minimum time a repetition), and the cells it expands into.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cell_result.hpp"
#include "run_context.hpp"

namespace ladder {

// A cell (cell_result.hpp) by its Google Benchmark name: "tier/integrand/n:N/threads:T", with
// "/ranks:R" for a distributed tier and "/reproducible" when asked for.
std::string cell_name(const CellKey& cell);

// The matrix's settings are its record (common/run_context.hpp), which the journal and results.json carry.
struct Matrix : MatrixRecord {
  Matrix() = default;
  explicit Matrix(MatrixRecord record) : MatrixRecord(std::move(record)) {}

  // Every cell, shuffled by the seed: drift in the machine spreads over all tiers instead of landing on
  // whichever ran last. A peer's per-call sizes (PeerCard::per_call_sizes) add its cells at those n on one
  // thread, and its `beside` tier's, for every integrand, where n is not one of `sizes`: these are the only
  // cells whose n is not one of `sizes`.
  std::vector<CellKey> cells() const;

  // Checked: a damaged journal's matrix is a SchemaError naming the field.
  static Matrix from_json(const JsonReader& in) { return Matrix(MatrixRecord::from_json(in)); }

 private:
  void per_call_cells(std::vector<CellKey>& all) const;
};

// Why the tier (a C++ tier or a loaded peer) cannot run the integrand, as a phrase that follows "it"
// ("does not work on xsimd batches: …"), or empty when it can. Unknown names are an InputError.
std::string unsupported_reason(std::string_view tier, std::string_view integrand);

// The integrands --integrand names, comma-separated ("gauss,normal-cdf"): each checked (an unknown name is
// an InputError listing the known ones), in the order given, a name given twice kept once.
std::vector<std::string> parse_integrands(const std::string& list);

// Presets: quick (a first look: under 1 minute), standard (the default: under 15 minutes) and full (adds
// 1e9 and more repetitions). The promises hold by `ladder plan`'s estimate on any machine from 1 to 256
// hardware threads with the default thread ladder (tests/plan_test.cpp checks the issue's topologies).
struct Preset {
  std::string name;
  std::vector<std::int64_t> sizes;
  int repetitions;
  double min_time;
  double min_warmup_time;
  std::int64_t python_limit;
};
const Preset& find_preset(const std::string& name);  // throws InputError listing the presets
std::string preset_names();

}  // namespace ladder
