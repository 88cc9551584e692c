// The machine's limits in the results schema: written by to_json, read back checked (machine_limits.hpp).
#include "machine_limits.hpp"

#include <algorithm>

#include "text.hpp"

namespace ladder {

using nlohmann::json;

namespace {

// The four readings, in the order they are written and printed.
struct Slot {
  const char* key;
  const char* words;
  std::optional<LimitReading> MachineLimits::*reading;
};
constexpr Slot slots[] = {
    {"fma_one_core", "FMA peak, one core", &MachineLimits::fma_one_core},
    {"fma_all_cores", "FMA peak, all cores", &MachineLimits::fma_all_cores},
    {"bandwidth_one_core", "memory bandwidth, one core", &MachineLimits::bandwidth_one_core},
    {"bandwidth_all_cores", "memory bandwidth, all cores", &MachineLimits::bandwidth_all_cores}};

std::string figure(double value) { return format_number(value >= 100 ? "%.0f" : "%.3g", value); }

}  // namespace

void to_json(json& out, const LimitReading& reading) {
  out = {{"threads", reading.threads}, {"unit", reading.unit},
         {"best", reading.best},       {"runs", reading.runs},
         {"lanes", reading.lanes},     {"tool", reading.tool},
         {"method", reading.method},   {"measured_at", reading.measured_at},
         {"note", reading.note}};
}

LimitReading read_limit_reading(const JsonReader& in) {
  LimitReading reading;
  reading.threads = in.at("threads").small_integer();
  if (reading.threads < 1)
    in.at("threads").fail("expected 1 or more threads, found " + std::to_string(reading.threads));
  reading.unit = in.at("unit").string();
  if (reading.unit != "GFLOP/s" && reading.unit != "GB/s")
    in.at("unit").fail("expected \"GFLOP/s\" or \"GB/s\", found \"" + reading.unit + "\"");
  reading.best = in.at("best").number();
  reading.runs = in.at("runs").numbers();
  reading.lanes = in.at("lanes").small_integer();
  reading.tool = in.at("tool").string();
  reading.method = in.at("method").string();
  reading.measured_at = in.at("measured_at").string();
  reading.note = in.at("note").string();
  return reading;
}

void to_json(json& out, const MachineLimits& limits) {
  out = {{"measured", limits.measured}, {"reason", limits.reason}};
  for (const auto& slot : slots) {
    const auto& reading = limits.*slot.reading;
    out[slot.key] = reading ? json(*reading) : json(nullptr);
  }
}

MachineLimits read_machine_limits(const JsonReader& in) {
  MachineLimits limits;
  limits.measured = in.at("measured").boolean();
  limits.reason = in.at("reason").string();
  for (const auto& slot : slots)
    if (const auto reading = in.at(slot.key); !reading.is_null())
      limits.*slot.reading = read_limit_reading(reading);
  return limits;
}

MachineLimits limits_of_older_file() {
  MachineLimits limits;
  limits.reason = "not measured: this results file is older than Ladder's limits";
  return limits;
}

std::string describe_reading(const std::string& what, const LimitReading& reading) {
  std::string text = what + ", " + std::to_string(reading.threads) +
                     (reading.threads == 1 ? " thread" : " threads") + ": " + figure(reading.best) + " " +
                     reading.unit;
  if (!reading.runs.empty()) {
    const auto [low, high] = std::minmax_element(reading.runs.begin(), reading.runs.end());
    text +=
        " (best of " + std::to_string(reading.runs.size()) + " runs: " + figure(*low) + " … " + figure(*high);
    text += reading.lanes > 0 ? ", " + std::to_string(reading.lanes) + " doubles an FMA" : std::string();
    text += ")";
  }
  return text;
}

std::vector<std::string> describe_limits(const MachineLimits& limits) {
  if (!limits.measured) return {limits.reason};
  std::vector<std::string> lines;
  for (const auto& slot : slots) {
    const auto& reading = limits.*slot.reading;
    if (!reading) {
      lines.push_back(std::string(slot.words) + ": not measured");
      continue;
    }
    lines.push_back(describe_reading(slot.words, *reading));
    lines.push_back("  " + reading->tool + ", from " + reading->measured_at + ": " + reading->method);
    if (!reading->note.empty()) lines.push_back("  note: " + reading->note);
  }
  return lines;
}

}  // namespace ladder
