// A bad value quoted in a message, one way everywhere, and never the whole of it: a value nested 100 000
// deep, or a 10 MB string, is named by its type and a short excerpt. Quoting walks at most a few hundred
// characters of the value without recursion, so it cannot overflow the stack or echo megabytes.
//   quote_value(json 5)                 -> 5
//   quote_value(json "a 2 MB string")   -> "aaaa…" (2097152 characters)
//   quote_value(json [[[[…]]]])         -> an array: [[[[…
//   quote_text("r\xe9s")                -> r\xe9s   (bytes that are not UTF-8 are shown as \xNN)
// JSON that Ladder prints or writes goes through dump_json, which replaces bytes that are not UTF-8 (a
// Latin-1 path, a damaged database) with U+FFFD instead of throwing.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace ladder {

inline constexpr std::size_t quote_limit = 120;  // characters of a value a message shows at most

std::string quote_text(std::string_view text, std::size_t limit = quote_limit);
std::string quote_value(const nlohmann::json& value, std::size_t limit = quote_limit);
std::string dump_json(const nlohmann::json& value, int indent = -1);
// Text for a file read as UTF-8 (a Markdown summary): each byte that is not UTF-8 replaced by U+FFFD.
std::string utf8_replaced(std::string_view text);

}  // namespace ladder
