// `ladder list`: the ladder, every tier's card.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "build_info.hpp"
#include "cards.hpp"
#include "commands.hpp"
#include "registry.hpp"
#include "text.hpp"
#include "vectorization.hpp"

namespace ladder::app {
namespace {

// `ladder list`'s vector column for a tier of this binary: "8 × f64", "scalar", "partly 4 × f64", or "-"
// (not known), from the disassembly of the tier as this binary was built.
std::string list_vector_text(const TierCard& card) {
  const auto* entry = find_vectorization(card.source_file, linked_tiers_build());
  const std::string text = !entry ? "" : format_vectorization(entry->status, entry->lanes);
  return text.empty() ? "-" : text;
}

void print_list(bool as_json, bool ids_only) {
  if (ids_only) {
    for (const auto& tier : tiers()) std::printf("%s\n", tier.card.id.c_str());
    return;
  }
  if (as_json) {
    std::vector<std::string> ids;
    for (const auto& tier : tiers()) ids.push_back(tier.card.id);
    std::cout << nlohmann::json(tier_cards(ids)).dump(2) << "\n";
    return;
  }
  // A plain-text table whose columns fit their widest cell.
  std::vector<std::vector<std::string>> rows = {
      {"rung", "id", "learning", "lines", "reproducible", "vector", "libraries", "summary"}};
  for (const auto& tier : tiers()) {
    const auto& card = tier.card;
    rows.push_back(
        {std::to_string(card.rung), card.id, std::string(to_string(card.learning_time)),
         std::to_string(card.source_lines) +
             (card.shared_lines ? "+" + std::to_string(card.shared_lines) : ""),
         std::string(to_string(card.reproducible)), list_vector_text(card),
         card.libraries.empty() ? "-" : join(card.libraries),
         card.summary + (card.parallel ? " [parallel]" : "") +
             (unavailable_reason(tier).empty() ? "" : " [unavailable: " + unavailable_reason(tier) + "]")});
  }
  auto width = [](const std::string& text) {  // characters on a terminal: UTF-8 continuation bytes add none
    return static_cast<std::size_t>(std::count_if(
        text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
  };
  std::vector<std::size_t> widths(rows[0].size(), 0);
  for (const auto& row : rows)
    for (std::size_t column = 0; column < row.size(); ++column)
      widths[column] = std::max(widths[column], width(row[column]));
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t column = 0; column < row.size(); ++column)
      line += column + 1 < row.size()
                  ? row[column] + std::string(widths[column] - width(row[column]) + 2, ' ')
                  : row[column];
    std::printf("%s\n", line.c_str());
  }
  const auto& build = build_info();
  std::printf(
      "\nlines: the tier's own non-blank, non-comment lines (+ those of the shared kernel it builds on)\n"
      "reproducible: whether the result has the same bits at every thread count\n"
      "vector: the hot loop as built, read from its disassembly: doubles per register, or scalar\n"
      "built: %s, %s, flags %s; SIMD: %s, %d doubles per batch\n",
      build.compiler.c_str(), build.build_type.c_str(), build.common_flags.c_str(),
      build.instruction_set.c_str(), build.simd_width);
}

}  // namespace

Command add_list(CLI::App& app) {
  struct Options {
    bool json = false, ids = false;
  };
  auto options = std::make_shared<Options>();
  auto* list = app.add_subcommand("list", "the ladder: every tier's card");
  list->add_flag("--json", options->json, "the cards as a JSON array");
  list->add_flag("--ids", options->ids, "the tier ids only, one a line (for scripts)");
  return {list, [options] {
            print_list(options->json, options->ids);
            return 0;
          }};
}

}  // namespace ladder::app
