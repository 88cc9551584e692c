// An optional value as the results schema writes it: the value, or null when there is none (what
// JsonReader's optional_number, optional_string and optional_boolean read back).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

namespace ladder {

template <class T>
nlohmann::json optional_json(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

}  // namespace ladder
