// The document's one rewrite: a column that says the same in every row becomes a sentence (one empty in
// every row goes).
#include "document.hpp"

#include <cstddef>

namespace ladder::report {

std::string fold_constant_columns(Table& table) {
  if (table.rows.size() < 2 || !table.fold) return "";
  std::vector<std::string> said;
  for (std::size_t column = table.header.size(); column-- > 1;) {
    bool same = true;
    for (const auto& row : table.rows)
      same = same && column < row.size() && row[column] == table.rows.front()[column];
    if (!same) continue;
    // A column empty in every row goes without a word.
    if (const std::string& value = table.rows.front()[column]; !value.empty())
      said.insert(said.begin(), table.header[column] + ": " + value);
    table.header.erase(table.header.begin() + static_cast<std::ptrdiff_t>(column));
    for (auto& row : table.rows) row.erase(row.begin() + static_cast<std::ptrdiff_t>(column));
  }
  return join(said, "; ");
}

void fold_constant_columns(Document& doc) {
  for (std::size_t i = 0; i < doc.size(); ++i) {
    fold_constant_columns(doc[i].blocks);
    if (doc[i].kind != Block::Kind::table) continue;
    if (std::string sentence = fold_constant_columns(doc[i].table); !sentence.empty())
      doc.insert(doc.begin() + static_cast<std::ptrdiff_t>(i++),
                 paragraph("Same in every row below — " + sentence + "."));
  }
}

}  // namespace ladder::report
