// The benchmark matrix: what a run measures (tiers × integrands × sizes × threads on one interval), how
// hard it measures (repetitions, minimum time a repetition), and the cells it expands into.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "cell_result.hpp"

namespace ladder {

// A cell (cell_result.hpp) by its Google Benchmark name: "tier/integrand/n:N/threads:T", with
// "/ranks:R" for a distributed tier and "/reproducible" when asked for.
std::string cell_name(const CellKey& cell);

struct Matrix {
  std::vector<std::string> tiers;
  std::vector<std::string> integrands;  // in the order given; a run before issue 16 had one ("integrand")
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
  double min_time = 0.1;          // seconds a repetition runs at least (Google Benchmark's min_time)
  double min_warmup_time = 0.05;  // seconds of warm-up before the first repetition
  std::uint64_t seed = 0;         // the order the cells run in
  std::string peers{};            // "python": the Python peers run too (scripts/peers/)
  // Pure-Python peers are not attempted above this n: at a microsecond a node they would take minutes.
  std::int64_t python_limit = 10'000'000;

  // Every cell, shuffled by the seed: drift in the machine spreads over all tiers instead of landing on
  // whichever ran last.
  std::vector<CellKey> cells() const;

  nlohmann::json to_json() const;
  // Checked: a damaged journal's matrix is a SchemaError naming the field. A matrix written before
  // integrands were a dimension has one `integrand`: it reads as a list of one.
  static Matrix from_json(const JsonReader& in);
  // The first setting in which two matrices differ, in words; empty when they are the same matrix.
  static std::string difference(const Matrix& x, const Matrix& y);
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
