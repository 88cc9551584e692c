// Reading JSON that a user may have damaged (a results file edited by hand, a journal cut short, a disk
// that filled up): every field is checked where it is read, and a problem is named by its path in the
// document — "benchmarks[12].reproducible: expected a boolean, found null" — never by an abort.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "errors.hpp"

namespace ladder {

// A field that is missing or of the wrong type; the message starts with the field's path.
struct SchemaError : InputError {
  using InputError::InputError;
};

// A view of one value in a document, with the path that leads to it.
class JsonReader {
 public:
  explicit JsonReader(const nlohmann::json& value, std::string path = "");

  // A member that must be there (SchemaError when it is not, or when this is not an object).
  JsonReader at(const char* key) const;
  // A member that may be missing: nullopt when it is (a null member is there, and null).
  std::optional<JsonReader> find(const char* key) const;
  bool has(const char* key) const { return find(key).has_value(); }
  // The elements of an array, and the members of an object.
  std::vector<JsonReader> elements() const;
  std::vector<std::pair<std::string, JsonReader>> members() const;

  bool is_null() const { return value_->is_null(); }
  double number() const;  // finite
  std::int64_t integer() const;
  int small_integer() const;  // fits an int
  bool boolean() const;
  std::string string() const;
  std::vector<std::string> strings() const;
  std::vector<double> numbers() const;
  const nlohmann::json& object() const;  // checked to be an object
  const nlohmann::json& raw() const { return *value_; }
  const std::string& path() const { return path_; }

  // Optional members: the fallback when missing; SchemaError when there but of another type.
  double number_or(const char* key, double fallback) const;
  std::int64_t integer_or(const char* key, std::int64_t fallback) const;
  int small_integer_or(const char* key, int fallback) const;
  bool boolean_or(const char* key, bool fallback) const;
  std::string string_or(const char* key, const std::string& fallback) const;
  // nullopt when missing or null.
  std::optional<double> optional_number(const char* key) const;
  std::optional<bool> optional_boolean(const char* key) const;
  std::optional<std::string> optional_string(const char* key) const;

  [[noreturn]] void fail(const std::string& problem) const;

 private:
  [[noreturn]] void expected(const char* what) const;
  const nlohmann::json* value_;
  std::string path_;
};

// The deepest a document Ladder reads may nest arrays and objects; no Ladder file nests more than ~10.
// nlohmann parses any depth, but copies, compares and quotes a value recursively: a value nested 100 000
// deep overflows the stack wherever it is read, so it is refused right after the parse instead.
inline constexpr int max_json_depth = 512;

// Refuses TEXT whose arrays and objects nest deeper than max_json_depth: SchemaError "WHAT is nested more
// than 512 levels deep at byte N; no Ladder file is". Counts [ and { outside strings in one pass, without
// recursion, so it also bounds text that is not valid JSON.
void check_json_depth(std::string_view text, const std::string& what);

// check_json_depth, then nlohmann's parse without exceptions: a discarded value when TEXT is not JSON, for
// the caller to refuse in its own words. Every document a user can give or damage is parsed through this.
nlohmann::json parse_json_document(std::string_view text, const std::string& what);

// Parses text as JSON; SchemaError ("not valid JSON …" or nested too deep) when it is not.
nlohmann::json parse_json(const std::string& text, const std::string& what);

}  // namespace ladder
