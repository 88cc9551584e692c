// A report's document as text, for the tests that look for what it says: every heading, paragraph, list
// item and table row (cells joined by " | "), one a line, inside sections and details too.
#pragma once

#include <string>

#include "document.hpp"

namespace ladder::testing {

inline std::string document_text(const report::Document& doc) {
  std::string text;
  report::visit_blocks(doc, [&](const report::Block& block) {
    text += block.text + "\n";
    for (const auto& item : block.items) text += item + "\n";
    for (const auto& row : block.table.rows) text += join(row, " | ") + "\n";
  });
  return text;
}

}  // namespace ladder::testing
