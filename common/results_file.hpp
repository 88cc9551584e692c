// The results schema, part two: results.json as the harness writes it and the reports read it: its
// `context` (run_context.hpp), its `tiers`, which carry the cards (so a report made elsewhere needs no
// registry), its `instructions` (instruction_counts.hpp) and its `cells`. Part one, a cell as measured,
// journaled and read back (CellResult), is cell_result.hpp; Google Benchmark's view of the cells,
// results.json's `benchmarks`, is benchmark_entries.hpp.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cell_result.hpp"
#include "instruction_counts.hpp"
#include "run_context.hpp"

namespace ladder {

// Whether a tier's hot loop is vectorized in one build, read from its disassembly, and the work it does: the
// static count of that loop's FLOPs and FP-port instructions a node (the opcode table of flop_table.hpp).
struct VectorizationRecord {
  std::string build, status, evidence;
  int register_bits = 0, lanes = 0;
  bool linked = false;  // the build this run's tiers came from
  // Null where the loop calls out (libm, std::function), branches inside, or its nodes a pass cannot be
  // read; flops_evidence says what was counted ("loop 0x20f0–0x2348: 40 vfmadd…pd zmm, … for 32 nodes")
  // or why not. Absent (null, empty) in a file written before they were counted.
  std::optional<double> flops_per_node{}, fp_instructions_per_node{};
  std::string flops_evidence{};
};
void to_json(nlohmann::json& out, const VectorizationRecord& entry);

// A Cython peer's kernel as `cython -a` scores it (scripts/peers/cython_yellow.py): of its kernel_lines, the
// lines that call into the Python C-API (painted yellow), and the sum of Cython's own score over them (5 a
// C-API function call, 2 a Cython helper call, 1 a macro; docs/python-peers.md).
struct YellowLines {
  int lines = 0, score = 0, kernel_lines = 0;
};
YellowLines read_yellow_lines(const JsonReader& in);

// A tier's card (or a peer's) as results.json and `ladder list --json` carry it.
struct CardRecord {
  std::string id{}, summary{}, learning_time{}, reproducible{}, summation{}, source_file{};
  std::string kernel_header{};  // "variants/kernels/xsimd.hpp"; empty for a peer, or in an older file
  int rung = 0, source_lines = 0, shared_lines = 0;
  std::vector<std::string> libraries{}, concepts{}, flags{}, shares{}, environment{};
  bool parallel = false, distributed = false;
  double heap_bytes_per_node = 0;
  // Bytes a node the kernel moves to and from memory once n outgrows the caches, and how they were counted
  // ("none: streaming, the nodes never leave registers"); empty in a file written before they were.
  double memory_bytes_per_node = 0;
  std::string memory_bytes_counted{};
  bool peer = false;
  std::string language = "C++";
  std::optional<std::int64_t> size_limit{};  // a peer's largest n
  // Where a peer's call costs more than its loop (cpp-extension): the sizes it is also measured at, on one
  // thread, beside the C++ tier it wraps (cpp-extension: xsimd); both empty for every other card.
  std::vector<std::int64_t> per_call_sizes{};
  std::string beside{};
  // A peer's place in a report, from its card: the staircase of peers it is drawn on apart, by its title
  // (empty for most), and whether it is the baseline every row is also measured against.
  std::string staircase{};
  bool baseline = false;
  std::string note{};
  std::optional<double> max_ulp_error{};  // of an elementary function the tier implements itself
  std::vector<VectorizationRecord> vectorization{};
  std::optional<bool> available{};  // on the machine that ran it
  std::string unavailable_reason{};
  std::optional<YellowLines> yellow{};  // a Cython peer's; absent for every other card
};
void to_json(nlohmann::json& out, const CardRecord& card);
void from_json(const nlohmann::json& in, CardRecord& card);
CardRecord read_card_record(const JsonReader& in);

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
ResultsFile read_results_file(const std::string& where);

}  // namespace ladder
