// report.md: the document as Markdown, its charts written beside it as charts/*.svg.
#include <string>
#include <utility>
#include <vector>

#include "renderers.hpp"

namespace ladder::report {
namespace {

std::string markdown_text(const std::string& in, bool in_table) {
  std::string out;
  for (char c : in) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (c == '|' && in_table)
      out += "\\|";
    else if (c == '\n')
      out += in_table ? " " : "\n";
    else
      out += c;
  }
  return out;
}

void blocks_markdown(const Document& doc, std::vector<std::pair<std::string, std::string>>& files,
                     std::string& md) {
  for (const auto& block : doc) {
    switch (block.kind) {
      case Block::Kind::heading:
        md += std::string(block.level, '#') + " " + markdown_text(block.text, false) + "\n\n";
        break;
      case Block::Kind::paragraph:
        md += markdown_text(block.text, false) + "\n\n";
        break;
      case Block::Kind::list:
        for (const auto& item : block.items) md += "- " + markdown_text(item, false) + "\n";
        md += "\n";
        break;
      case Block::Kind::table: {
        auto row = [](const std::vector<std::string>& cells) {
          std::string line = "|";
          for (const auto& cell : cells) line += " " + markdown_text(cell, true) + " |";
          return line + "\n";
        };
        md += row(block.table.header);
        md += "|" + std::string();
        for (std::size_t i = 0; i < block.table.header.size(); ++i) md += "---|";
        md += "\n";
        for (const auto& cells : block.table.rows) md += row(cells);
        md += "\n";
        break;
      }
      case Block::Kind::charts:
        for (const auto& chart : block.charts) {
          const std::string file = "charts/" + chart.id + ".svg";
          files.push_back({file, chart.svg});
          md += "![" + chart.id + "](" + file + ")\n";
        }
        md += "\n";
        break;
      case Block::Kind::section:  // its blocks, where they stand
        blocks_markdown(block.blocks, files, md);
        break;
      case Block::Kind::details:  // open on a review page: its summary a heading, its blocks under it
        md += std::string(block.level, '#') + " " + markdown_text(block.text, false) + "\n\n";
        blocks_markdown(block.blocks, files, md);
        break;
    }
  }
}

}  // namespace

std::string to_markdown(const Document& doc, std::vector<std::pair<std::string, std::string>>& files) {
  std::string md;
  blocks_markdown(doc, files, md);
  return md;
}

}  // namespace ladder::report
