// What the SVG chart tests share: a hostile text, picking elements and text boxes out of the markup, and the
// checks every chart must pass (well-formed, no NaN, markers inside the plot).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "svg.hpp"
#include "svg_markup.hpp"

namespace ladder::svg::test {

inline const std::string hostile = "<script>alert(\"1\" & '2')</script>";

inline int count(const std::string& haystack, const std::string& needle) {
  int found = 0;
  for (auto at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++found;
  return found;
}

// The markup of the group that opens with `opening`, up to its </g> (the charts' groups do not nest).
inline std::string group(const std::string& svg, const std::string& opening) {
  const auto start = svg.find(opening);
  if (start == std::string::npos) return {};
  return svg.substr(start, svg.find("</g>", start) + 4 - start);
}

inline std::vector<std::string> texts(const std::string& markup) {
  static const std::regex text_element("<text[^>]*>([^<]*)</text>");
  std::vector<std::string> contents;
  for (std::sregex_iterator it(markup.begin(), markup.end(), text_element), end; it != end; ++it)
    contents.push_back((*it)[1]);
  return contents;
}

// The y coordinates of the y axis' tick labels, top to bottom of the list as written.
inline std::vector<double> tick_label_ys(const std::string& svg) {
  static const std::regex tick_label("<text x=\"[^\"]*\" y=\"([^\"]*)\" text-anchor=\"end\">");
  const std::string axis = group(svg, "<g class=\"axis y\"");
  std::vector<double> ys;
  for (std::sregex_iterator it(axis.begin(), axis.end(), tick_label), end; it != end; ++it)
    ys.push_back(std::stod((*it)[1]));
  return ys;
}

// Well-formed XML, checked by hand: every tag closed in order, attribute values quoted, no bare < or & in
// text or attributes. Returns the first problem, or "" when there is none.
inline std::string xml_problem(const std::string& xml) {
  static const std::regex entity("^&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9A-Fa-f]+);");
  for (auto at = xml.find('&'); at != std::string::npos; at = xml.find('&', at + 1))
    if (!std::regex_search(xml.substr(at, 12), entity)) return "bare & at " + std::to_string(at);
  static const std::regex attribute_list(R"(^(\s+[A-Za-z_:][-A-Za-z0-9_:.]*="[^"<]*")*\s*/?$)");
  std::vector<std::string> open;
  for (auto at = xml.find('<'); at != std::string::npos; at = xml.find('<', at + 1)) {
    const auto end = xml.find('>', at);
    if (end == std::string::npos) return "unterminated tag at " + std::to_string(at);
    const std::string tag = xml.substr(at + 1, end - at - 1);
    const bool closing = tag.starts_with("/");
    const std::string body = closing ? tag.substr(1) : tag;
    const std::string name = body.substr(0, std::min(body.find_first_of(" \t\n/"), body.size()));
    if (name.empty() || !std::isalpha(static_cast<unsigned char>(name[0]))) return "bad tag <" + tag + ">";
    if (closing) {
      if (body != name || open.empty() || open.back() != name) return "</" + body + "> closes nothing open";
      open.pop_back();
    } else {
      if (!std::regex_match(body.substr(name.size()), attribute_list))
        return "bad attributes in <" + tag + ">";
      if (!tag.ends_with("/")) open.push_back(name);
    }
    if (xml.find('<', at + 1) < end) return "< inside a tag at " + std::to_string(at);
  }
  return open.empty() ? "" : "<" + open.back() + "> never closed";
}

// What must hold of every chart, whatever went in.
inline void expect_sound(const std::string& svg) {
  EXPECT_TRUE(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\"")) << svg.substr(0, 80);
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_NE(svg.find(" viewBox=\"0 0 "), std::string::npos);
  EXPECT_NE(svg.find(" role=\"img\""), std::string::npos);
  EXPECT_EQ(count(svg, "<script"), 0);
  EXPECT_EQ(count(svg, "http"), 1) << "only the namespace may name a URL";
  EXPECT_EQ(count(svg, "href"), 0);
  EXPECT_EQ(count(svg, "url("), 0);
  EXPECT_EQ(count(svg, "@import"), 0);
  // Every coordinate is a plain number (a path: numbers after M and L, closed by Z).
  static const std::regex coordinate(R"(\b(x|y|x1|y1|x2|y2|cx|cy|r|width|height|d|viewBox)="([^"]*)\")");
  static const std::regex plain(R"(^[-0-9. MLZ]*$)");
  for (std::sregex_iterator it(svg.begin(), svg.end(), coordinate), end; it != end; ++it)
    EXPECT_TRUE(std::regex_match((*it)[2].str(), plain)) << (*it)[0];
}

// No NaN or infinity anywhere in the output (for inputs whose own text has none).
inline void expect_no_nan_or_inf(const std::string& svg) {
  std::string lower = svg;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  EXPECT_EQ(count(lower, "nan"), 0) << svg;
  EXPECT_EQ(count(lower, "inf"), 0) << svg;
}

// Every point inside the plot area of a chart of the default size (720 × 420: x 64…704, y 40…376).
inline void expect_markers_inside_the_plot(const std::string& svg) {
  static const std::regex circle("data-cx=\"([^\"]*)\" data-cy=\"([^\"]*)\"");
  for (std::sregex_iterator it(svg.begin(), svg.end(), circle), end; it != end; ++it) {
    EXPECT_TRUE(std::stod((*it)[1]) >= 64 && std::stod((*it)[1]) <= 704) << (*it)[0];
    EXPECT_TRUE(std::stod((*it)[2]) >= 40 && std::stod((*it)[2]) <= 376) << (*it)[0];
  }
}

inline Series series_of(std::string name, const std::vector<std::pair<double, double>>& xy) {
  Series series{.name = std::move(name)};
  for (const auto& [x, y] : xy) series.points.push_back({.x = x, .y = y});
  return series;
}

using ladder::testing::svg_elements;

// The series' groups, each with its markup.
inline std::vector<std::pair<std::map<std::string, std::string>, std::string>> series_groups(
    const std::string& svg) {
  std::vector<std::pair<std::map<std::string, std::string>, std::string>> all;
  const std::string opening = "<g class=\"series\"";
  for (auto at = svg.find(opening); at != std::string::npos; at = svg.find(opening, at + 1)) {
    const std::string markup = group(svg.substr(at), opening);
    all.push_back({svg_elements(markup, opening).front(), markup});
  }
  return all;
}

// A text's box by the layout's own estimate (svg::text_width), from its baseline y and its anchor: the texts
// of class `cls`, or (cls empty) every text that is not turned.
struct TextBox {
  double left, top, right, bottom;
  std::string text;
};
inline std::vector<TextBox> text_boxes(const std::string& markup, const std::string& cls) {
  static const std::regex text_element("<text x=\"([^\"]*)\" y=\"([^\"]*)\"([^>]*)>([^<]*)</text>");
  std::vector<TextBox> boxes;
  for (std::sregex_iterator it(markup.begin(), markup.end(), text_element), end; it != end; ++it) {
    const std::string attributes = (*it)[3];
    if (cls.empty() ? attributes.find("transform") != std::string::npos
                    : attributes.find("class=\"" + cls + "\"") == std::string::npos)
      continue;
    const bool bold = attributes.find("font-weight=\"bold\"") != std::string::npos;
    const double size = attributes.find("font-size=\"15\"") != std::string::npos   ? 15
                        : attributes.find("font-size=\"14\"") != std::string::npos ? 14
                                                                                   : 12;
    // Entities count as the one character they stand for.
    const std::string shown = std::regex_replace((*it)[4].str(), std::regex("&[a-z0-9#]+;"), "&");
    const double x = std::stod((*it)[1]), y = std::stod((*it)[2]), width = text_width(shown, size, bold);
    const double left = attributes.find("text-anchor=\"middle\"") != std::string::npos ? x - width / 2
                        : attributes.find("text-anchor=\"end\"") != std::string::npos  ? x - width
                                                                                       : x;
    boxes.push_back({left, y - 0.96 * size, left + width, y + 0.28 * size, (*it)[4]});
  }
  return boxes;
}
inline bool overlap(const TextBox& a, double left, double top, double right, double bottom) {
  return a.left < right && left < a.right && a.top < bottom && top < a.bottom;
}
inline bool overlap(const TextBox& a, const TextBox& b) {
  return overlap(a, b.left, b.top, b.right, b.bottom);
}

inline std::string look_key(const std::map<std::string, std::string>& g) {
  return g.at("data-color") + " " + g.at("data-marker") + " " + g.at("data-dash");
}

}  // namespace ladder::svg::test
