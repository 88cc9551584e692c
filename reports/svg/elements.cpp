#include "elements.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <utility>

namespace ladder::svg {
using namespace detail;
namespace {

// A character's width at 12px by its kind; UTF-8 continuation bytes add nothing.
double char_width(unsigned char c) {
  if ((c & 0xC0) == 0x80) return 0;
  if (c >= 0x80) return 10.5;  // ×, ÷, ≤, ±, …, ², letters with accents
  if (std::string_view("il.,:;'|!j ").find(static_cast<char>(c)) != std::string_view::npos) return 4.4;
  if (std::string_view("frt()[]{}-/\\\"`I").find(static_cast<char>(c)) != std::string_view::npos) return 5.6;
  if (c == 'm' || c == 'w' || c == 'M' || c == 'W' || c == '%' || c == '@') return 12.5;
  if (std::isupper(c) != 0) return 9.8;
  if (std::isdigit(c) != 0) return 8.4;
  return 8;  // the other lowercase letters, + = < > _ ~ #
}

}  // namespace

namespace detail {

std::string chars(double value, std::chars_format format, int precision) {
  std::array<char, 64> buffer{};
  char* const first = buffer.data();
  char* const last = first + buffer.size();
  return {first, precision < 0 ? std::to_chars(first, last, value, format).ptr
                               : std::to_chars(first, last, value, format, precision).ptr};
}

std::string px(double value) {
  if (!std::isfinite(value)) return "0";  // never reached for what is drawn; the file must not say NaN
  std::string text = chars(value, std::chars_format::fixed, 1);
  if (text.ends_with(".0")) text.resize(text.size() - 2);
  return text == "-0" ? "0" : text;
}

std::string compact(double value, int significant) {
  if (!std::isfinite(value)) return "?";
  // Rounded first, so that 999.96 becomes "1k" rather than "1e+03".
  const std::string rounded_text = chars(value, std::chars_format::scientific, significant - 1);
  double rounded = 0;
  std::from_chars(rounded_text.data(), rounded_text.data() + rounded_text.size(), rounded);
  const double magnitude = std::fabs(rounded);
  if (magnitude == 0) return "0";
  if (magnitude < 1e-3 || magnitude >= 1e15) {
    const std::string text = chars(rounded, std::chars_format::scientific);  // "2.5e-06", "1e+18"
    const auto e = text.find('e');
    return text.substr(0, e + 1) + std::to_string(std::stoi(text.substr(e + 1)));
  }
  constexpr std::pair<double, const char*> suffixes[] = {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
  for (const auto& [scale, suffix] : suffixes)
    if (magnitude >= scale) return chars(rounded / scale, std::chars_format::general, significant) + suffix;
  return chars(rounded, std::chars_format::general, significant);
}

std::string attribute(std::string_view name, std::string_view value) {
  return " " + std::string(name) + "=\"" + escape(value) + "\"";
}

std::string text(double x, double y, std::string_view content, std::string_view attributes) {
  return "<text x=\"" + px(x) + "\" y=\"" + px(y) + "\"" + std::string(attributes) + ">" + escape(content) +
         "</text>\n";
}

std::string line(double x1, double y1, double x2, double y2, std::string_view stroke) {
  return "<line x1=\"" + px(x1) + "\" y1=\"" + px(y1) + "\" x2=\"" + px(x2) + "\" y2=\"" + px(y2) +
         "\" stroke=\"" + std::string(stroke) + "\"/>\n";
}

Box text_box(double x, double y, std::string_view content, Anchor anchor, double size, bool bold) {
  const double width = text_width(content, size, bold);
  const double left = anchor == Anchor::start ? x : anchor == Anchor::middle ? x - width / 2 : x - width;
  return {left, y - 0.96 * size, left + width, y + 0.28 * size};
}
bool overlap(const Box& a, const Box& b, double gap) {
  return a.left < b.right + gap && b.left < a.right + gap && a.top < b.bottom + gap && b.top < a.bottom + gap;
}
bool overlaps_any(const Box& box, const std::vector<Box>& others, double gap) {
  return std::any_of(others.begin(), others.end(),
                     [&](const Box& other) { return overlap(box, other, gap); });
}

std::string open_svg(std::string_view id, std::string_view title, double width, double height) {
  std::string out =
      "<svg xmlns=\"http://www.w3.org/2000/svg\"" + attribute("id", id) + attribute("data-chart", id) +
      " viewBox=\"0 0 " + px(width) + " " + px(height) + "\" width=\"" + px(width) + "\" height=\"" +
      px(height) + "\" role=\"img\" style=\"max-width:100%;height:auto\"" +
      attribute("font-family", font_stack) + " font-size=\"12\">\n<title>" + escape(title) + "</title>\n";
  out += "<rect width=\"" + px(width) + "\" height=\"" + px(height) + "\" fill=\"#fff\"/>\n";
  return out + text(width / 2, 22, title, " text-anchor=\"middle\" font-size=\"15\" font-weight=\"600\"");
}

std::string notes_below(const std::vector<std::string>& notes, double left, double top) {
  std::string out = "<g class=\"notes\" fill=\"#555\">\n";
  for (std::size_t index = 0; index < notes.size(); ++index)
    out += text(left, top + 16 * static_cast<double>(index + 1), notes[index]);
  return out + "</g>\n";
}

std::string no_data(const Frame& frame) {
  return text((frame.left + frame.right) / 2, (frame.top + frame.bottom) / 2 + 4, "no data",
              " class=\"no-data\" text-anchor=\"middle\" fill=\"#777\" font-size=\"14\"");
}

}  // namespace detail

double text_width(std::string_view content, double size, bool bold) {
  double width = 0;
  for (const char c : content) width += char_width(static_cast<unsigned char>(c));
  return width * size / font_size * (bold ? 1.1 : 1.0);
}

std::string escape(std::string_view text) {
  constexpr std::pair<char, std::string_view> entities[] = {
      {'&', "&amp;"}, {'<', "&lt;"}, {'>', "&gt;"}, {'"', "&quot;"}, {'\'', "&#39;"}};
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto entity = std::find_if(std::begin(entities), std::end(entities),
                                     [c](const auto& candidate) { return candidate.first == c; });
    // Control characters other than tab and line breaks are not allowed in XML at all, even escaped.
    const bool forbidden = static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r';
    if (entity != std::end(entities))
      out += entity->second;
    else
      out += forbidden ? std::string_view("\xEF\xBF\xBD") : std::string_view(&c, 1);
  }
  return out;
}

}  // namespace ladder::svg
