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

// 42 %, 3.14× (12× from ten on), 1.2e-07 (– when there is none).
inline std::string percent(double fraction) { return format_number("%.0f %%", 100 * fraction); }
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
};
struct Chart {
  std::string id, svg;
};
struct Block {
  enum class Kind { heading, paragraph, list, table, charts } kind;
  int level = 2;
  std::string text{};
  std::vector<std::string> items{};
  Table table{};
  std::vector<Chart> charts{};  // side by side: one a machine
};
using Document = std::vector<Block>;

inline Block heading(int level, std::string title) { return {Block::Kind::heading, level, std::move(title)}; }
inline Block paragraph(std::string body) { return {Block::Kind::paragraph, 0, std::move(body)}; }
inline Block list(std::vector<std::string> items) { return {Block::Kind::list, 0, {}, std::move(items)}; }
inline Block table(Table contents) { return {Block::Kind::table, 0, {}, {}, std::move(contents)}; }
inline Block charts(std::vector<Chart> all) { return {Block::Kind::charts, 0, {}, {}, {}, std::move(all)}; }

}  // namespace ladder::report
