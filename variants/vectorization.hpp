// Whether each tier's hot loop was vectorized, and at what width: read by the build from the disassembly
// of the tier's object file (tools/vectorization.cpp), for every build of the tiers it was given — the
// one linked into this binary and, where the build has it, the x86-64-v3 one.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ladder {

struct Vectorization {
  std::string source_file;  // the tier's file name, as in TierCard::source_file
  std::string build;        // the -march the objects were built for: "native", "x86-64-v3", …
  std::string status;       // vectorized, scalar, partly, or unknown (the evidence says why)
  int register_bits;        // 128, 256 or 512 when vectorized; 64 when scalar; 0 when unknown
  int lanes;                // doubles per register: 2, 4 or 8; 1 when scalar; 0 when unknown
  std::string evidence;     // one line: where the hot loop is and what it computes
  // The hot loop's work a node, counted from the same disassembly with the opcode table (flop_table.hpp):
  // FLOPs and FP-port instructions; null where the loop calls out, branches inside, or its nodes a pass
  // cannot be read. flops_evidence: what was counted, or why not.
  std::optional<double> flops_per_node{}, fp_instructions_per_node{};
  std::string flops_evidence{};
};

// Written by the build (generated/vectorization.cpp): every tier of every build analysed.
const std::vector<Vectorization>& tier_vectorization();
// The build label of the tiers linked into this binary (the -march of ladder_tiers).
const std::string& linked_tiers_build();

// The entry for one tier's file in one build, or null when the build did not analyse it.
inline const Vectorization* find_vectorization(std::string_view source_file, std::string_view build) {
  for (const auto& entry : tier_vectorization())
    if (entry.source_file == source_file && entry.build == build) return &entry;
  return nullptr;
}

}  // namespace ladder
