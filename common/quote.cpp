#include "quote.hpp"

#include <vector>

namespace ladder {

namespace {

// The length of the UTF-8 sequence that starts at text[i], or 0 when the bytes there are not one.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  const std::size_t length = lead < 0x80           ? 1
                             : (lead >> 5) == 0x6  ? 2
                             : (lead >> 4) == 0xE  ? 3
                             : (lead >> 3) == 0x1E ? 4
                                                   : 0;
  if (length == 0 || i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  return length;
}

// Appends a shown form of text (at most limit characters of it) to out; true when all of it fit.
bool append_text(std::string& out, std::string_view text, std::size_t limit) {
  static const char* const hex = "0123456789abcdef";
  std::size_t shown = 0, i = 0;
  while (i < text.size() && shown < limit) {
    const std::size_t length = utf8_length(text, i);
    const auto c = static_cast<unsigned char>(text[i]);
    if (length == 0 || c < 0x20 || c == 0x7f) {
      const char* named = c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" : nullptr;
      out += named ? std::string(named) : std::string{'\\', 'x', hex[c >> 4], hex[c & 15]};
      i += 1;
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
    ++shown;
  }
  return i == text.size();
}

std::string characters(std::size_t count) { return std::to_string(count) + " characters"; }

}  // namespace

std::string utf8_replaced(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = utf8_length(text, i);
    if (length == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      i += 1;
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
  }
  return out;
}

std::string quote_text(std::string_view text, std::size_t limit) {
  std::string out;
  if (!append_text(out, text, limit)) out += "… (" + characters(text.size()) + ")";
  return out;
}

// Walks the value breadth-first with an explicit stack of iterators, printing until limit characters:
// the excerpt of a deep or long value ends in "…", whatever its depth.
std::string quote_value(const nlohmann::json& value, std::size_t limit) {
  if (value.is_string()) {
    std::string out = "\"";
    const auto& text = value.get_ref<const std::string&>();
    if (append_text(out, text, limit)) return out + "\"";
    return out + "…\" (" + characters(text.size()) + ")";
  }
  if (value.is_primitive()) return dump_json(value);
  std::string out = std::string(value.is_array() ? "an array" : "an object") + " of " +
                    std::to_string(value.size()) + (value.size() == 1 ? " element: " : " elements: ");
  const std::size_t stop = out.size() + limit;
  struct Open {
    const nlohmann::json* container;
    nlohmann::json::const_iterator next;
  };
  std::vector<Open> open;
  const auto enter = [&](const nlohmann::json& item) {
    if (item.is_structured()) {
      out += item.is_array() ? '[' : '{';
      open.push_back({&item, item.cbegin()});
    } else if (item.is_string()) {
      out += '"';
      append_text(out, item.get_ref<const std::string&>(), stop > out.size() ? stop - out.size() : 0);
      out += '"';
    } else {
      out += dump_json(item);
    }
  };
  enter(value);
  while (!open.empty() && out.size() < stop) {
    Open& top = open.back();
    if (top.next == top.container->cend()) {
      out += top.container->is_array() ? ']' : '}';
      open.pop_back();
      continue;
    }
    if (top.next != top.container->cbegin()) out += ", ";
    const auto item = top.next++;
    if (top.container->is_object()) {
      out += '"';
      append_text(out, item.key(), 40);
      out += "\": ";
    }
    enter(*item);
  }
  if (!open.empty()) out += "…";
  return out;
}

std::string dump_json(const nlohmann::json& value, int indent) {
  return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace ladder
