#include "python_profile.hpp"

#include <algorithm>

#include "optional_json.hpp"

namespace ladder {
namespace {

// A whole number that may be missing or null (JsonReader's optional_number, for counts).
std::optional<std::int64_t> optional_integer(const JsonReader& in, const char* key) {
  const auto field = in.find(key);
  if (!field || field->is_null()) return std::nullopt;
  return field->integer();
}

PythonLine read_line(const JsonReader& in) {
  PythonLine line;
  line.line = in.at("line").small_integer();
  line.source = in.at("source").string();
  line.seconds = in.optional_number("seconds");
  line.hits = optional_integer(in, "hits");
  line.increment_bytes = in.optional_number("increment_bytes");
  return line;
}

PythonFunction read_function(const JsonReader& in) {
  PythonFunction function;
  function.name = in.at("name").string();
  function.file = in.at("file").string();
  function.resident_at_call_bytes = in.optional_number("resident_at_call_bytes");
  for (const auto& line : in.at("lines").elements()) function.lines.push_back(read_line(line));
  return function;
}

// Every line of every function, for the questions asked across them.
std::vector<const PythonLine*> all_lines(const PythonProfile& profile) {
  std::vector<const PythonLine*> lines;
  for (const auto& function : profile.functions)
    for (const auto& line : function.lines) lines.push_back(&line);
  return lines;
}

}  // namespace

std::string PythonLine::code() const {
  const auto start = source.find_first_not_of(" \t");
  return start == std::string::npos ? "" : source.substr(start);
}

double PythonProfile::seconds() const {
  double total = 0;
  for (const auto* line : all_lines(*this)) total += line->seconds.value_or(0);
  return total;
}

std::vector<const PythonLine*> PythonProfile::hottest(int count) const {
  std::vector<const PythonLine*> timed;
  for (const auto* line : all_lines(*this))
    if (line->seconds) timed.push_back(line);
  std::stable_sort(timed.begin(), timed.end(),
                   [](const PythonLine* x, const PythonLine* y) { return *x->seconds > *y->seconds; });
  if (static_cast<int>(timed.size()) > count) timed.resize(static_cast<std::size_t>(std::max(count, 0)));
  return timed;
}

const PythonLine* PythonProfile::largest_increment() const {
  const PythonLine* largest = nullptr;
  for (const auto* line : all_lines(*this))
    if (line->increment_bytes && *line->increment_bytes > 0 &&
        (!largest || *line->increment_bytes > *largest->increment_bytes))
      largest = line;
  return largest;
}

PythonProfile read_python_profile(const JsonReader& in) {
  PythonProfile profile;
  profile.peer = in.at("peer").string();
  profile.integrand = in.at("integrand").string();
  profile.a = in.at("a").number();
  profile.b = in.at("b").number();
  profile.n = in.at("n").integer();
  if (profile.n < 1) in.at("n").fail("expected at least 1 node, found " + std::to_string(profile.n));
  profile.python = in.at("python").string();
  profile.line_profiler = in.at("line_profiler").string();
  profile.memory_profiler = in.at("memory_profiler").string();
  for (const auto& function : in.at("functions").elements())
    profile.functions.push_back(read_function(function));
  return profile;
}

void to_json(nlohmann::json& out, const PythonProfile& profile) {
  out = {{"peer", profile.peer},
         {"integrand", profile.integrand},
         {"a", profile.a},
         {"b", profile.b},
         {"n", profile.n},
         {"python", profile.python},
         {"line_profiler", profile.line_profiler},
         {"memory_profiler", profile.memory_profiler},
         {"functions", nlohmann::json::array()}};
  for (const auto& function : profile.functions) {
    nlohmann::json lines = nlohmann::json::array();
    for (const auto& line : function.lines)
      lines.push_back({{"line", line.line},
                       {"source", line.source},
                       {"seconds", optional_json(line.seconds)},
                       {"hits", optional_json(line.hits)},
                       {"increment_bytes", optional_json(line.increment_bytes)}});
    out["functions"].push_back({{"name", function.name},
                                {"file", function.file},
                                {"resident_at_call_bytes", optional_json(function.resident_at_call_bytes)},
                                {"lines", std::move(lines)}});
  }
}

std::string python_profile_file_name(const std::string& peer) {
  return python_profile_prefix + peer + ".json";
}

}  // namespace ladder
