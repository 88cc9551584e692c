#include "json_reader.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "quote.hpp"

namespace ladder {

using nlohmann::json;

JsonReader::JsonReader(const json& value, std::string path) : value_(&value), path_(std::move(path)) {}

void JsonReader::fail(const std::string& problem) const {
  throw SchemaError((path_.empty() ? std::string("the document") : path_) + ": " + problem);
}

void JsonReader::expected(const char* what) const {
  std::string found = value_->type_name();
  if (value_->is_string()) {
    found += " " + quote_value(*value_, 40);
  } else if (value_->is_number() || value_->is_boolean()) {
    found += " " + quote_value(*value_);
  }
  fail(std::string("expected ") + what + ", found " + found);
}

JsonReader JsonReader::at(const char* key) const {
  if (!value_->is_object()) expected("an object");
  const auto found = value_->find(key);
  if (found == value_->end())
    throw SchemaError((path_.empty() ? std::string("the document") : path_) + " has no '" + key + "'");
  return JsonReader(*found, path_.empty() ? key : path_ + "." + key);
}

std::optional<JsonReader> JsonReader::find(const char* key) const {
  if (!value_->is_object()) expected("an object");
  const auto found = value_->find(key);
  if (found == value_->end()) return std::nullopt;
  return JsonReader(*found, path_.empty() ? key : path_ + "." + key);
}

std::vector<JsonReader> JsonReader::elements() const {
  if (!value_->is_array()) expected("an array");
  std::vector<JsonReader> all;
  for (std::size_t i = 0; i < value_->size(); ++i)
    all.emplace_back((*value_)[i], path_ + "[" + std::to_string(i) + "]");
  return all;
}

std::vector<std::pair<std::string, JsonReader>> JsonReader::members() const {
  if (!value_->is_object()) expected("an object");
  std::vector<std::pair<std::string, JsonReader>> all;
  for (const auto& [key, value] : value_->items())
    all.emplace_back(key, JsonReader(value, path_.empty() ? key : path_ + "." + key));
  return all;
}

double JsonReader::number() const {
  if (!value_->is_number()) expected("a number");
  const double value = value_->get<double>();
  if (!std::isfinite(value)) expected("a finite number");
  return value;
}

std::int64_t JsonReader::integer() const {
  if (value_->is_number_integer()) {
    if (value_->is_number_unsigned() &&
        value_->get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      expected("a whole number below 2^63");
    return value_->get<std::int64_t>();
  }
  // 1e+08 written as a float is a whole number too.
  if (value_->is_number_float()) {
    const double value = value_->get<double>();
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9.2e18)
      return static_cast<std::int64_t>(value);
  }
  expected("a whole number");
}

int JsonReader::small_integer() const {
  const std::int64_t value = integer();
  if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max())
    expected("a whole number that fits 32 bits");
  return static_cast<int>(value);
}

bool JsonReader::boolean() const {
  if (!value_->is_boolean()) expected("a boolean");
  return value_->get<bool>();
}

std::string JsonReader::string() const {
  if (!value_->is_string()) expected("a string");
  return value_->get<std::string>();
}

std::vector<std::string> JsonReader::strings() const {
  std::vector<std::string> all;
  for (const auto& element : elements()) all.push_back(element.string());
  return all;
}

std::vector<double> JsonReader::numbers() const {
  std::vector<double> all;
  for (const auto& element : elements()) all.push_back(element.number());
  return all;
}

const json& JsonReader::object() const {
  if (!value_->is_object()) expected("an object");
  return *value_;
}

double JsonReader::number_or(const char* key, double fallback) const {
  const auto member = find(key);
  return member ? member->number() : fallback;
}
std::int64_t JsonReader::integer_or(const char* key, std::int64_t fallback) const {
  const auto member = find(key);
  return member ? member->integer() : fallback;
}
int JsonReader::small_integer_or(const char* key, int fallback) const {
  const auto member = find(key);
  return member ? member->small_integer() : fallback;
}
bool JsonReader::boolean_or(const char* key, bool fallback) const {
  const auto member = find(key);
  return member ? member->boolean() : fallback;
}
std::string JsonReader::string_or(const char* key, const std::string& fallback) const {
  const auto member = find(key);
  return member ? member->string() : fallback;
}
std::optional<double> JsonReader::optional_number(const char* key) const {
  const auto member = find(key);
  if (!member || member->is_null()) return std::nullopt;
  return member->number();
}
std::optional<bool> JsonReader::optional_boolean(const char* key) const {
  const auto member = find(key);
  if (!member || member->is_null()) return std::nullopt;
  return member->boolean();
}
std::optional<std::string> JsonReader::optional_string(const char* key) const {
  const auto member = find(key);
  if (!member || member->is_null()) return std::nullopt;
  return member->string();
}

namespace {

// Where the scan is, by the key (or [] for an array) of each of the first few open levels:
// "context.matrix.seed", "cells[].measurement"; deeper levels are not named.
constexpr std::size_t named_levels = 6;

std::string path_of(const std::vector<std::string>& levels) {
  std::string path, arrays;  // arrays: the [] since the last key, shown only before another key
  for (const auto& level : levels) {
    if (level == "[]") {
      arrays += level;
    } else if (!level.empty()) {
      path += arrays + (path.empty() ? "" : ".") + level;
      arrays.clear();
    }
  }
  return path.empty() ? path : " (under " + path + ")";
}

}  // namespace

void check_json_depth(std::string_view text, const std::string& what) {
  std::vector<std::string> levels;  // the first named_levels open levels
  std::size_t depth = 0, string_start = 0;
  std::string_view last_string;
  bool in_string = false;
  for (std::size_t at = 0; at < text.size(); ++at) {
    const char c = text[at];
    if (in_string) {
      if (c == '\\') {
        ++at;  // the escaped character, a quote included
      } else if (c == '"') {
        in_string = false;
        last_string = text.substr(string_start, at - string_start);
      }
    } else if (c == '"') {
      in_string = true;
      string_start = at + 1;
    } else if (c == ':' && depth > 0 && depth <= named_levels && depth <= levels.size()) {
      levels[depth - 1] = quote_text(last_string, 40);
    } else if (c == '[' || c == '{') {
      if (++depth > static_cast<std::size_t>(max_json_depth))
        throw SchemaError(what + " is nested more than " + std::to_string(max_json_depth) +
                          " levels deep at byte " + std::to_string(at + 1) + path_of(levels) +
                          "; no Ladder file is");
      if (depth <= named_levels) levels.resize(depth), levels.back() = c == '[' ? "[]" : "";
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
      if (depth < levels.size()) levels.resize(depth);
    }
  }
}

json parse_json_document(std::string_view text, const std::string& what) {
  check_json_depth(text, what);
  return json::parse(text, nullptr, false);
}

json parse_json(const std::string& text, const std::string& what) {
  json parsed = parse_json_document(text, what);
  if (parsed.is_discarded()) throw SchemaError(what + " is not valid JSON (cut short, or not JSON at all)");
  return parsed;
}

}  // namespace ladder
