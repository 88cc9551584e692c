// Reading the reports' SVG markup in tests: an element's attributes and a group's markup, by plain text
// search (the charts are written one element a line, their groups not nested).
#pragma once

#include <map>
#include <regex>
#include <string>
#include <vector>

namespace ladder::testing {

// The attributes of each element that opens with `opening` (or whose tag holds it), in order: name -> value.
inline std::vector<std::map<std::string, std::string>> svg_elements(const std::string& svg,
                                                                    const std::string& opening) {
  static const std::regex attribute(R"re(([-a-zA-Z0-9]+)="([^"]*)")re");
  std::vector<std::map<std::string, std::string>> all;
  for (auto at = svg.find(opening); at != std::string::npos; at = svg.find(opening, at + 1)) {
    const std::string tag = svg.substr(at, svg.find('>', at) - at);
    std::map<std::string, std::string> values;
    for (std::sregex_iterator it(tag.begin(), tag.end(), attribute), end; it != end; ++it)
      values[(*it)[1]] = (*it)[2];
    all.push_back(values);
  }
  return all;
}

// The markup of the group that opens with `opening`, up to its </g>; empty when there is none.
inline std::string svg_group(const std::string& svg, const std::string& opening) {
  const auto start = svg.find(opening);
  if (start == std::string::npos) return {};
  return svg.substr(start, svg.find("</g>", start) + 4 - start);
}

}  // namespace ladder::testing
