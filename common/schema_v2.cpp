#include "schema_v2.hpp"

#include <initializer_list>

#include "cell_result.hpp"
#include "results_file.hpp"

namespace ladder {

using nlohmann::json;

namespace {

// Each of `keys` that `object` lacks, from `defaults`. What is not an object is left for its reader to
// reject, with its path.
void fill_absent(json& object, const json& defaults, std::initializer_list<const char*> keys) {
  if (!object.is_object()) return;
  for (const char* key : keys)
    if (!object.contains(key)) object[key] = defaults.at(key);
}

// A card, and its vectorization records (a record from before FLOPs were counted, or an entry made by hand
// with only some members).
void complete_card(json& card) {
  static const json defaults = CardRecord{};
  fill_absent(card, defaults,
              {"summation", "source_file", "kernel_header", "shares", "environment", "heap_bytes_per_node",
               "memory_bytes_per_node", "memory_bytes_counted", "distributed", "peer", "language",
               "size_limit", "note", "max_ulp_error", "vectorization"});
  if (!card.is_object() || !card.at("vectorization").is_array()) return;
  static const json record = VectorizationRecord{};
  for (auto& entry : card.at("vectorization"))
    fill_absent(entry, record,
                {"build", "status", "evidence", "register_bits", "lanes", "linked", "flops_per_node",
                 "fp_instructions_per_node", "flops_evidence"});
}

// A peer's place in a report (its card's staircase and baseline, written only where set): a file in which no
// card says it was written before the cards did, when the report knew the two by the peers' ids.
void complete_peer_places(json& cards) {
  for (const auto& card : cards)
    if (card.is_object() && (card.contains("staircase") || card.contains("baseline"))) return;
  for (auto& card : cards) {
    // Only a well-typed card is completed: json's value("peer", false) throws on a "peer" of another type,
    // which the reader refuses with its path once the migration is done.
    if (!card.is_object() || !card.contains("id") || !card.at("id").is_string() || !card.contains("peer") ||
        card.at("peer") != true)
      continue;
    const std::string id = card.at("id").get<std::string>();
    if (id == "py-list") card["baseline"] = true;
    if (id == "py-inlined" || id == "cython-untyped" || id == "cython" || id == "cython-parallel")
      card["staircase"] = "py-inlined compiled by Cython";
  }
}

void complete_cards(json& holder) {
  if (!holder.is_object() || !holder.contains("tiers") || !holder.at("tiers").is_array()) return;
  for (auto& card : holder.at("tiers")) complete_card(card);
  complete_peer_places(holder.at("tiers"));
}

// A cell: its key's ranks (a run from before distributed tiers had one), whether it was oversubscribed and
// when it finished; an ok cell's errors and memory figures, which early files left out where null.
void complete_cell(json& cell) {
  if (!cell.is_object()) return;
  static const json defaults = CellResult{};
  fill_absent(cell, defaults, {"oversubscribed", "finished"});
  if (cell.contains("cell")) fill_absent(cell.at("cell"), defaults.at("cell"), {"ranks"});
  if (!cell.contains("measurement")) return;
  static const json measured = Measurement{};
  json& measurement = cell.at("measurement");
  fill_absent(measurement, measured, {"exact", "midpoint", "rel_error", "rounding_error", "rounding_bound"});
  if (measurement.is_object() && measurement.contains("memory"))
    fill_absent(measurement.at("memory"), measured.at("memory"),
                {"peak_heap_bytes", "allocations", "peak_rss_bytes", "peak_rss_growth_bytes", "minor_faults",
                 "major_faults"});
}

}  // namespace

void complete_results_v2(json& document) {
  complete_cards(document);
  if (document.is_object() && document.contains("cells") && document.at("cells").is_array())
    for (auto& cell : document.at("cells")) complete_cell(cell);
}

void complete_journal_line_v2(json& line) {
  if (!line.is_object()) return;
  const std::string kind =
      line.contains("kind") && line.at("kind").is_string() ? line.at("kind").get<std::string>() : "";
  if (kind == "run") complete_cards(line);
  if (kind == "cell") complete_cell(line);
}

void migrate_to_v3(json& document) {
  if (!document.is_object()) return;
  json* matrix = nullptr;
  if (document.contains("matrix"))
    matrix = &document.at("matrix");
  else if (document.contains("context") && document.at("context").is_object() &&
           document.at("context").contains("matrix"))
    matrix = &document.at("context").at("matrix");
  if (matrix && matrix->is_object() && !matrix->contains("rounds")) (*matrix)["rounds"] = 1;
}

}  // namespace ladder
