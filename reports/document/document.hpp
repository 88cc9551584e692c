// The report's document model: what both renderers (markdown.cpp, html.cpp) read and the sections
// (sections.hpp) write, so a new section is added once. Beside it, the number formats several files share.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "text.hpp"

namespace ladder::report {

// 3.14× (12× from ten on), 1.2e-07 (– when there is none); a per cent is percent() of text.hpp.
inline std::string times(double ratio) {
  return ratio >= 10 ? format_number("%.0f×", ratio) : format_number("%.2f×", ratio);
}
inline std::string scientific(const std::optional<double>& value) {
  return value ? format_number("%.1e", std::fabs(*value)) : std::string("–");
}

// Text may carry **bold**; everything else in it is literal (escaped for each output).
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::string name{};  // HTML's data-table, for a table readers and checks find by name ("ladder")
  bool fold = true;    // fold_constant_columns may take its columns out (not the answer's: read row by row)
  // Each row is a tier's details: in HTML a <details> (its summary "tier " + the first cell, the others a
  // list "header: cell"), needing no script; in Markdown the table as it is.
  bool details = false;
};
struct Chart {
  std::string id, svg;
};
// A section (an id, for a reader's link and the browser check: "answer") and details (a summary, opened by
// the reader: HTML's <details>, Markdown's heading) hold blocks of their own.
struct Block {
  enum class Kind { heading, paragraph, list, table, charts, section, details } kind;
  int level = 2;
  std::string text{};  // a heading's, a paragraph's; a section's id; details' summary
  std::vector<std::string> items{};
  Table table{};
  std::vector<Chart> charts{};  // side by side: one a machine
  std::vector<Block> blocks{};  // a section's, details'
};
using Document = std::vector<Block>;

// Every block, depth first, those inside sections and details after the block that holds them.
template <class Visit>
void visit_blocks(const Document& doc, const Visit& visit) {
  for (const auto& block : doc) {
    visit(block);
    visit_blocks(block.blocks, visit);
  }
}

inline Block heading(int level, std::string title) { return {Block::Kind::heading, level, std::move(title)}; }
inline Block paragraph(std::string body) { return {Block::Kind::paragraph, 0, std::move(body)}; }
inline Block list(std::vector<std::string> items) { return {Block::Kind::list, 0, {}, std::move(items)}; }
inline Block table(Table contents) { return {Block::Kind::table, 0, {}, {}, std::move(contents)}; }
inline Block charts(std::vector<Chart> all) { return {Block::Kind::charts, 0, {}, {}, {}, std::move(all)}; }
inline Block section(std::string id, Document blocks) {
  return {Block::Kind::section, 0, std::move(id), {}, {}, {}, std::move(blocks)};
}
// level: the heading Markdown gives the summary.
inline Block details(int level, std::string summary, Document blocks) {
  return {Block::Kind::details, level, std::move(summary), {}, {}, {}, std::move(blocks)};
}

// A column with the same text in every row of a table of two rows or more, past the first (which names
// the row), leaves the table for one sentence before it: "Same in every row: counters: unavailable …"; one
// empty in every row leaves it without a word.
// Applied to every table of the document, inside sections and details too.
void fold_constant_columns(Document& doc);
// The same for one table: removes those columns and returns what they said, "counters: unavailable …;
// reproducible: yes" ("" when none went).
std::string fold_constant_columns(Table& table);

}  // namespace ladder::report
