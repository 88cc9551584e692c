// The cards as the results carry them (cards.hpp): a tier's card with its build's disassembly records and its
// bytes a node from memory, or a peer's.
#include "cards.hpp"

#include "peers.hpp"
#include "registry.hpp"
#include "text.hpp"
#include "vectorization.hpp"

namespace ladder {

CardRecord card_record(const TierCard& card) {
  CardRecord record;
  record.id = card.id;
  record.rung = card.rung;
  record.summary = card.summary;
  record.libraries = card.libraries;
  record.concepts = card.concepts;
  record.learning_time = std::string(to_string(card.learning_time));
  record.parallel = card.parallel;
  record.reproducible = std::string(to_string(card.reproducible));
  record.summation = card.summation;
  record.source_file = card.source_file;
  record.kernel_header = card.kernel_header;
  record.source_lines = card.source_lines;
  record.shares = card.shares;
  record.shared_lines = card.shared_lines;
  record.flags = card.flags;
  record.heap_bytes_per_node = card.heap_bytes_per_node;
  // The bytes a node from memory: typed on the card where the kernel keeps nodes in memory; a kernel that
  // holds nothing a node on the heap streams them through registers.
  record.memory_bytes_per_node = card.memory_bytes_per_node;
  record.memory_bytes_counted = card.memory_bytes_counted;
  if (record.memory_bytes_counted.empty() && card.heap_bytes_per_node == 0)
    record.memory_bytes_counted = "none: streaming, the nodes never leave registers";
  record.distributed = card.distributed;
  record.environment = card.environment;
  record.note = card.note;
  if (card.max_ulp_error > 0) record.max_ulp_error = card.max_ulp_error;
  // What the build read from the disassembly of the tier's hot loop, in every build it analysed.
  for (const auto& entry : tier_vectorization())
    if (entry.source_file == card.source_file)
      record.vectorization.push_back({entry.build, entry.status, entry.evidence, entry.register_bits,
                                      entry.lanes, entry.build == linked_tiers_build(), entry.flops_per_node,
                                      entry.fp_instructions_per_node, entry.flops_evidence});
  return record;
}

std::vector<CardRecord> tier_cards(const std::vector<std::string>& ids) {
  std::vector<CardRecord> cards;
  for (const auto& id : ids) {
    CardRecord record;
    if (const PeerCard* peer = find_peer(id)) {
      record = card_record(peer->card);
      record.vectorization.clear();  // a peer's source is not in the build
      // A peer is not read from code: whether its nodes stay out of memory depends on its interpreter.
      if (peer->card.memory_bytes_counted.empty())
        record.memory_bytes_counted =
            record.heap_bytes_per_node > 0
                ? "not counted: its arrays (" + format_number("%g", record.heap_bytes_per_node) +
                      " B a node on the heap) pass through memory as often as its library makes them"
                : "none: streaming, it keeps no array of the nodes";
      record.peer = true;
      record.language = peer->language;
      if (peer->size_limit) record.size_limit = peer->size_limit;
      record.per_call_sizes = peer->per_call_sizes;
      record.beside = peer->beside;
      record.staircase = peer->staircase;
      record.baseline = peer->baseline;
      record.yellow = peer->yellow;
    } else {
      record = card_record(find_tier(id).card);
    }
    const auto reason = unavailable_reason(id);
    record.available = reason.empty();
    record.unavailable_reason = reason;
    cards.push_back(std::move(record));
  }
  return cards;
}

}  // namespace ladder
