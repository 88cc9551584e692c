// The costs file (--costs, TOML or JSON) read into the money model's figures, and the figures checked
// (economics.hpp): a bad figure is an InputError naming it and what is accepted.
#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>

#include "economics.hpp"
#include "errors.hpp"
#include "json_reader.hpp"
#include "quote.hpp"
#include "text.hpp"

namespace ladder::report {
namespace {

// A TOML value as the JSON the costs file's checks read: numbers, strings, booleans, arrays and tables
// keep their kind (a date or time becomes a text saying so, which no figure accepts).
nlohmann::json json_of(const toml::node& node) {
  if (const auto* table = node.as_table()) {
    nlohmann::json object = nlohmann::json::object();
    for (const auto& [key, value] : *table) object[std::string(key.str())] = json_of(value);
    return object;
  }
  if (const auto* array = node.as_array()) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& value : *array) list.push_back(json_of(value));
    return list;
  }
  if (const auto integer = node.value_exact<std::int64_t>()) return *integer;
  if (const auto real = node.value_exact<double>()) return *real;
  if (const auto text = node.value_exact<std::string>()) return *text;
  if (const auto flag = node.value_exact<bool>()) return *flag;
  return "a TOML date or time";
}

// Every figure by its name, for the costs file: doubles and the one integer.
std::map<std::string, double CostFigures::*> double_figures() {
  return {{"learning_minutes", &CostFigures::learning_minutes},
          {"learning_hours", &CostFigures::learning_hours},
          {"learning_days", &CostFigures::learning_days},
          {"adopt_per_concept", &CostFigures::adopt_per_concept},
          {"adopt_per_library", &CostFigures::adopt_per_library},
          {"adopt_per_flag", &CostFigures::adopt_per_flag},
          {"adopt_per_100_lines", &CostFigures::adopt_per_100_lines},
          {"upkeep_per_library", &CostFigures::upkeep_per_library},
          {"upkeep_per_flag", &CostFigures::upkeep_per_flag},
          {"upkeep_per_100_lines", &CostFigures::upkeep_per_100_lines},
          {"core_hour", &CostFigures::core_hour},
          {"engineer_day", &CostFigures::engineer_day},
          {"horizon_years", &CostFigures::horizon_years}};
}

}  // namespace

void check_cost_figures(const CostFigures& figures) {
  for (const auto& [name, member] : double_figures()) {
    const double value = figures.*member;
    if (name == "horizon_years" ? !(value > 0 && std::isfinite(value))
                                : !(value >= 0 && std::isfinite(value)))
      throw InputError(name + " = " + format_number("%g", value) + " is out of range; " + name + " must be " +
                       (name == "horizon_years" ? "a number of years above 0" : "a number of 0 or more"));
  }
  if (figures.bus_factor < 1 || figures.bus_factor > max_bus_factor)
    throw InputError(
        "bus_factor = " + std::to_string(figures.bus_factor) +
        " is out of range; bus_factor must be a whole number of people, at least 1 and at most " +
        std::to_string(max_bus_factor));
}

CostFigures read_cost_figures(const std::string& path, CostFigures figures) {
  const std::string shown = "'" + quote_text(path, 1000) + "'";
  if (path.empty()) throw InputError("--costs: an empty path; give a TOML or JSON file");
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    throw InputError("costs file " + shown + " is a directory; --costs takes a TOML or JSON file");
  std::ifstream in(path);
  if (!in)
    throw InputError(
        "costs file " + shown + " cannot be read (" +
        (std::filesystem::exists(path, error) ? "no permission to read it?" : "it does not exist") +
        "); --costs takes a TOML or JSON file");
  std::string text;
  try {
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::ios_base::failure&) {  // not a regular file: libstdc++ throws from underflow
    throw InputError("costs file " + shown + " cannot be read as a file; --costs takes a TOML or JSON file");
  }
  if (in.bad())
    throw InputError("costs file " + shown + " cannot be read as a file; --costs takes a TOML or JSON file");
  const auto reject = [&](const std::string& problem) {
    return InputError("costs file " + shown + ": " + problem);
  };
  const bool toml = path.size() > 5 && path.compare(path.size() - 5, 5, ".toml") == 0;
  nlohmann::json document;
  if (toml) {
    try {
      document = json_of(toml::parse(text, path));
    } catch (const toml::parse_error& error) {
      throw reject("is not TOML: " + std::string(error.description()) + " (line " +
                   std::to_string(error.source().begin.line) + ", column " +
                   std::to_string(error.source().begin.column) + ")");
    }
  } else {
    document = parse_json_document(text, "costs file " + shown);
    if (document.is_discarded() || !document.is_object())
      throw reject(
          "is not a JSON object of cost figures (e.g. {\"core_hour\": 0.0425}; a file named "
          "*.toml is read as TOML: core_hour = 0.0425)");
  }
  const auto doubles = double_figures();
  std::vector<std::string> accepted;
  for (const auto& [name, member] : doubles) accepted.push_back(name);
  accepted.insert(accepted.end(), {"bus_factor", "team_knows"});
  std::sort(accepted.begin(), accepted.end());
  for (const auto& [key, value] : document.items()) {
    if (const auto found = doubles.find(key); found != doubles.end()) {
      if (!value.is_number()) throw reject(key + " is " + quote_value(value) + "; it must be a number");
      figures.*(found->second) = value.get<double>();
    } else if (key == "bus_factor") {
      // Checked as the 64-bit integer it was read as, before narrowing: 4294967298 is not 2.
      const bool in_range =
          value.is_number_unsigned()
              ? value.get<std::uint64_t>() >= 1 && value.get<std::uint64_t>() <= std::uint64_t{max_bus_factor}
              : value.is_number_integer() && value.get<std::int64_t>() >= 1 &&
                    value.get<std::int64_t>() <= max_bus_factor;
      if (!in_range)
        throw reject("bus_factor is " + quote_value(value) +
                     "; it must be a whole number of people, at least 1 and at most " +
                     std::to_string(max_bus_factor));
      figures.bus_factor = static_cast<int>(value.get<std::int64_t>());
    } else if (key == "team_knows") {
      if (!value.is_array() ||
          !std::all_of(value.begin(), value.end(), [](const auto& v) { return v.is_string(); }))
        throw reject("team_knows is " + quote_value(value) + "; it must be a list of names");
      figures.team_knows = value.get<std::vector<std::string>>();
    } else {
      throw reject("'" + quote_text(key) + "' is not a cost figure; accepted: " + join(accepted));
    }
  }
  try {
    check_cost_figures(figures);
  } catch (const InputError& problem) {
    throw reject(problem.what());
  }
  return figures;
}

}  // namespace ladder::report
