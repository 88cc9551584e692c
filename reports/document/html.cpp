// report.html: the document as one self-contained page, charts inline, no script, no request.
#include <string>

#include "renderers.hpp"
#include "svg.hpp"

namespace ladder::report {
namespace {

// Escaped, then **bold** marks become <strong>.
std::string html_text(const std::string& in) {
  std::string escaped = svg::escape(in), out;
  bool open = false;
  for (std::size_t i = 0; i < escaped.size(); ++i) {
    if (escaped.compare(i, 2, "**") == 0) {
      out += open ? "</strong>" : "<strong>";
      open = !open;
      ++i;
    } else {
      out += escaped[i];
    }
  }
  if (open) out += "</strong>";
  return out;
}

const char* style = R"(
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 1rem auto; max-width: 1200px;
       padding: 0 1rem; color: #222; line-height: 1.45; }
h1 { font-size: 1.6rem; margin: .4rem 0; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ddd; padding-bottom: .2rem; }
table { border-collapse: collapse; font-size: .85rem; margin: .8rem 0; }
th, td { border: 1px solid #ddd; padding: .25rem .5rem; text-align: right; vertical-align: top; white-space: nowrap; }
td.long { white-space: normal; min-width: 8rem; max-width: 32rem; } th { white-space: normal; }
.table { overflow-x: auto; }
th { background: #f4f4f4; } td:first-child, th:first-child, td:nth-child(2) { text-align: left; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); gap: 1rem; margin: 1rem 0; }
.charts svg { width: 100%; height: auto; }
#answer { background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 6px; padding: .2rem 1rem .4rem;
          font-size: .9rem; line-height: 1.35; }
#answer h2 { margin: .4rem 0; font-size: 1.2rem; border: none; }
#answer p, #answer ul { margin: .3rem 0; } #answer table { margin: .3rem 0; font-size: .8rem; }
#answer td, #answer th { text-align: left; }
details { margin: .3rem 0; } summary { cursor: pointer; }
details > :not(summary) { margin-left: 1.2rem; }
@media print { body { margin: 0; max-width: none; } .charts { break-inside: avoid; } h2 { break-after: avoid; } }
)";

void blocks_html(const Document& doc, std::string& html) {
  for (const auto& block : doc) {
    switch (block.kind) {
      case Block::Kind::heading:
        html += "<h" + std::to_string(block.level) + ">" + html_text(block.text) + "</h" +
                std::to_string(block.level) + ">\n";
        break;
      case Block::Kind::paragraph:
        html += "<p>" + html_text(block.text) + "</p>\n";
        break;
      case Block::Kind::list:
        html += "<ul>\n";
        for (const auto& item : block.items) html += "<li>" + html_text(item) + "</li>\n";
        html += "</ul>\n";
        break;
      case Block::Kind::table:
        if (block.table.details) {  // a tier's details a row: opened by the reader, no script
          for (const auto& row : block.table.rows) {
            html += "<details><summary>tier " + html_text(row.front()) + "</summary>\n<ul>\n";
            for (std::size_t i = 1; i < row.size() && i < block.table.header.size(); ++i)
              html += "<li>" + html_text(block.table.header[i] + ": " + row[i]) + "</li>\n";
            html += "</ul>\n</details>\n";
          }
          break;
        }
        html += "<div class=\"table\"><table" +
                (block.table.name.empty() ? std::string()
                                          : " data-table=\"" + svg::escape(block.table.name) + "\"") +
                ">\n<thead><tr>";
        for (const auto& cell : block.table.header) html += "<th>" + html_text(cell) + "</th>";
        html += "</tr></thead>\n<tbody>\n";
        for (const auto& row : block.table.rows) {
          html += "<tr>";
          for (const auto& cell : row)  // long text wraps; a figure ("10.6 ms", "1.2e-16") never breaks
            html += (cell.size() > 24 ? "<td class=\"long\">" : "<td>") + html_text(cell) + "</td>";
          html += "</tr>\n";
        }
        html += "</tbody>\n</table></div>\n";
        break;
      case Block::Kind::charts:
        html += "<div class=\"charts\">\n";
        for (const auto& chart : block.charts) html += "<figure>" + chart.svg + "</figure>\n";
        html += "</div>\n";
        break;
      case Block::Kind::section:
        html += "<section id=\"" + svg::escape(block.text) + "\">\n";
        blocks_html(block.blocks, html);
        html += "</section>\n";
        break;
      case Block::Kind::details:
        html += "<details><summary>" + html_text(block.text) + "</summary>\n";
        blocks_html(block.blocks, html);
        html += "</details>\n";
        break;
    }
  }
}

}  // namespace

std::string to_html(const Document& doc) {
  std::string title;
  for (const auto& block : doc)
    if (block.kind == Block::Kind::heading && block.level == 1) title = block.text;
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
      svg::escape(title) + "</title>\n<style>" + style + "</style>\n</head>\n<body>\n";
  blocks_html(doc, html);
  return html + "</body>\n</html>\n";
}

}  // namespace ladder::report
