#include "text.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace ladder {

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string joined;
  for (const auto& item : items) joined += (joined.empty() ? "" : std::string(separator)) + item;
  return joined;
}

std::string join_numbers(const std::vector<int>& numbers, std::string_view separator) {
  std::vector<std::string> texts;
  for (const int number : numbers) texts.push_back(std::to_string(number));
  return join(texts, separator);
}

std::string counted(int count, std::string_view one, std::string_view many) {
  return std::to_string(count) + " " + std::string(count == 1 ? one : many);
}

std::string format_number(const char* pattern, double value) {
  char text[96];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

std::string percent(double fraction, int decimals) {
  char text[96];
  std::snprintf(text, sizeof text, "%.*f %%", decimals, 100 * fraction);
  return text;
}

std::string format_seconds(double seconds, Rounding rounding) {
  // 59.96 s would print as "60 s": a clock from there on.
  if (seconds >= 59.95) {
    const long whole = std::lround(rounding == Rounding::up ? std::ceil(seconds) : std::round(seconds));
    char text[48];
    if (whole >= 3600)
      std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", whole / 3600, whole / 60 % 60, whole % 60);
    else
      std::snprintf(text, sizeof text, "%ld:%02ld", whole / 60, whole % 60);
    return text;
  }
  // Each unit from where three digits of the one below would round to 1000 ("1 s", not "1e+03 ms").
  if (seconds >= 0.9995) return format_number("%.3g s", seconds);
  if (seconds >= 0.9995e-3) return format_number("%.3g ms", seconds * 1e3);
  if (seconds >= 0.9995e-6) return format_number("%.3g µs", seconds * 1e6);
  return format_number("%.3g ns", seconds * 1e9);
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int unit = 0;
  while (std::fabs(bytes) >= 1024 && unit < 5) bytes /= 1024, ++unit;
  return unit ? format_number("%.1f ", bytes) + units[unit] : format_number("%.0f B", bytes);
}

std::string format_count(double value) {
  if (value >= 1e4 && std::fabs(std::log10(value) - std::round(std::log10(value))) < 1e-9)
    return format_number("1e%.0f", std::log10(value));
  return value >= 1e6 ? format_number("%.3g", value) : format_number("%.0f", value);
}

std::string format_amount(double value, int decimals) {
  if (!(std::fabs(value) < 1e15)) return format_number("%.3g", value);
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string format_vectorization(const std::string& status, int lanes) {
  if (status.empty() || status == "unknown") return "";
  if (status == "scalar") return "scalar";
  const std::string width = lanes > 0 ? std::to_string(lanes) + " × f64" : "";
  return status == "vectorized" ? width : status + " " + width;
}

std::vector<int> parse_cpu_list(std::string_view text) {
  const auto bad = [&] {
    return std::invalid_argument("'" + std::string(text) + "' is not a CPU list (0-3,8)");
  };
  const auto number = [&](std::string_view digits) {
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) throw bad();
    return std::stoi(std::string(digits));
  };
  std::string_view list = text;
  while (!list.empty() && std::isspace(static_cast<unsigned char>(list.front()))) list.remove_prefix(1);
  while (!list.empty() && std::isspace(static_cast<unsigned char>(list.back()))) list.remove_suffix(1);
  std::vector<int> cpus;
  while (!list.empty()) {
    const std::string_view range = list.substr(0, list.find(','));
    list.remove_prefix(std::min(list.size(), range.size() + 1));
    const auto dash = range.find('-');
    const int first = number(range.substr(0, dash));
    const int last = dash == std::string_view::npos ? first : number(range.substr(dash + 1));
    if (last < first) throw bad();
    for (int cpu = first; cpu <= last; ++cpu) cpus.push_back(cpu);
  }
  return cpus;
}

}  // namespace ladder
