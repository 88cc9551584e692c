// The two renderers of one document: a new kind of block is written in both.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "document.hpp"

namespace ladder::report {

// report.md; each chart is linked, and its file (path under the report's folder, contents) added to `files`.
std::string to_markdown(const Document& doc, std::vector<std::pair<std::string, std::string>>& files);
// report.html, with the CSS and every chart inline.
std::string to_html(const Document& doc);

}  // namespace ladder::report
