// Instructions a node under callgrind for each tier, or why they were not counted: what `ladder
// instructions --json` prints, what a run's results.json carries (`instructions`) and what a baseline file
// holds. Written by to_json, read back by read_instruction_counts, the same type both ways. Beside each
// tier's instructions, its FLOPs and FP-port instructions a node, from the same callgrind runs weighted by
// the opcode table (flop_table.hpp); a file written before they were counted reads them as null.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "json_reader.hpp"

namespace ladder {

struct InstructionCounts {
  bool available = false;
  std::string reason;  // when not available: "unavailable: …" or "not counted: --no-instructions"
  // When available: how and where they were counted.
  std::string tool, target, compiler, glibc, integrand, method;
  // How the FLOPs were counted, in words; empty when they were not (an older file).
  std::string flops_method;
  double a = 0, b = 1;
  std::vector<std::int64_t> n;  // the two sizes the slope is taken between
  int threads = 1;
  struct Tier {
    std::string id;
    std::optional<double> per_node;    // the slope; null when not counted
    std::vector<double> instructions;  // at each of the sizes, when counted
    std::string unavailable;           // why not, when not counted
    // FLOPs a node (FMA = 2 × lanes) and FP-port instructions a node (any width, FLOP or not: the
    // instruction-mix ceiling's denominator), the same slope over the same two runs; null when not counted.
    std::optional<double> flops_per_node{}, fp_instructions_per_node{};
  };
  std::vector<Tier> tiers;
  // Each integrand's counts, when a run counted more than one (the first is also the fields above).
  std::vector<InstructionCounts> by_integrand;

  // Counts that could not be made, and why.
  static InstructionCounts not_counted(std::string why) {
    InstructionCounts counts;
    counts.reason = std::move(why);
    return counts;
  }

  // Instructions a node of `tier` on `integrand`; null when not counted.
  std::optional<double> per_node(const std::string& tier, const std::string& integrand) const;
  // FLOPs a node of `tier` on `integrand`; null when not counted.
  std::optional<double> flops_per_node(const std::string& tier, const std::string& integrand) const;
  // The entry of `tier` counted on `integrand` (in by_integrand, or this one's); null when there is none.
  const Tier* find(const std::string& tier, const std::string& integrand) const;
  // The entry of `tier` in `tiers`; null when it has none.
  const Tier* find(const std::string& tier) const;
};
void to_json(nlohmann::json& out, const InstructionCounts& counts);
// Checked: a missing or mistyped field is a SchemaError naming it ("instructions.tiers.naive.per_node: …").
InstructionCounts read_instruction_counts(const JsonReader& in);

}  // namespace ladder
