#include "parse.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

#include "errors.hpp"
#include "quote.hpp"
#include "registry.hpp"

namespace ladder {
namespace {

[[noreturn]] void reject_size(std::string_view text, std::string_view why) {
  throw InputError("n = '" + quote_text(text) + "' " + std::string(why) +
                   "; n is a whole number from 1 to 2^62, written as 100000000, 1e8 or 2^27");
}

template <class Number>
bool parse_whole(std::string_view text, Number& value) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::int64_t parse_size(std::string_view text) {
  if (text.empty()) reject_size(text, "is empty");
  if (const auto caret = text.find('^'); caret != std::string_view::npos) {
    int base = 0, exponent = 0;
    if (!parse_whole(text.substr(0, caret), base) || !parse_whole(text.substr(caret + 1), exponent))
      reject_size(text, "is not a number");
    if (base < 1 || exponent < 0) reject_size(text, "is out of range");
    long double value = std::pow(static_cast<long double>(base), exponent);
    if (value > static_cast<long double>(max_nodes)) reject_size(text, "is larger than 2^62");
    return static_cast<std::int64_t>(value);
  }
  std::int64_t whole = 0;
  if (parse_whole(text, whole)) {
    if (whole < 1) reject_size(text, "is less than 1");
    if (whole > max_nodes) reject_size(text, "is larger than 2^62");
    return whole;
  }
  long double value = 0;  // "1e8", "2.5e6": accepted when the value is a whole number
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc::result_out_of_range) reject_size(text, "is larger than 2^62");
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
    reject_size(text, "is not a number");
  if (value != std::floor(value)) reject_size(text, "is not a whole number");
  if (value < 1) reject_size(text, "is less than 1");
  if (value > static_cast<long double>(max_nodes)) reject_size(text, "is larger than 2^62");
  return static_cast<std::int64_t>(value);
}

int parse_threads(std::string_view text) { return parse_count("threads", text); }

int parse_count(std::string_view name, std::string_view text) {
  int count = 0;
  if (!parse_whole(text, count) || count < 1 || count > max_threads)
    throw InputError(std::string(name) + " = '" + quote_text(text) + "' is invalid; " + std::string(name) +
                     " is a whole number from 1 to " + std::to_string(max_threads));
  return count;
}

double parse_duration(std::string_view text) {
  const auto reject = [&](std::string_view why) {
    throw InputError("--budget '" + quote_text(text) + "' " + std::string(why) +
                     "; a budget is a positive number with its unit: 90s, 15m, 2h or 1.5h");
  };
  if (text.empty()) reject("is empty");
  double unit = 0;
  switch (text.back()) {
    case 's':
      unit = 1;
      break;
    case 'm':
      unit = 60;
      break;
    case 'h':
      unit = 3600;
      break;
    default:
      reject("has no unit (s, m or h)");
  }
  const std::string_view number = text.substr(0, text.size() - 1);
  double value = 0;
  const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (number.empty() || error != std::errc() || end != number.data() + number.size() || !std::isfinite(value))
    reject("is not a number of seconds, minutes or hours");
  if (!(value > 0)) reject("is not above zero");
  if (value * unit > 366.0 * 24 * 3600) reject("is more than a year");
  return value * unit;
}

double parse_real(std::string_view name, std::string_view text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
    throw InputError(std::string(name) + " = '" + quote_text(text) +
                     "' is not a finite number; give a real number such as 0, -1.5 or 1e-3");
  return value;
}

void check_interval(double a, double b) {
  if (std::isfinite(b - a)) return;
  const auto shortest = [](double value) {  // the shortest text that reads back as the value: 1e+308
    char text[32];
    return std::string(text, std::to_chars(text, text + sizeof text, value).ptr);
  };
  throw InputError("the interval a = " + shortest(a) + ", b = " + shortest(b) +
                   " is too wide: b - a is not a finite number; give an a and a b less than about 1.8e308 "
                   "apart");
}

std::map<std::string, int> parse_name_counts(std::string_view variable, const char* value,
                                             std::string_view form, int max_count, int fallback) {
  const std::string text = value ? value : "";
  const std::size_t max_digits = std::to_string(max_count).size();
  std::map<std::string, int> counts;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    const std::size_t equals = item.rfind('=');
    const std::string count = equals != std::string::npos ? item.substr(equals + 1)
                              : fallback > 0              ? std::to_string(fallback)
                                                          : "";
    const bool digits = !count.empty() && count.size() <= max_digits &&
                        count.find_first_not_of("0123456789") == std::string::npos;
    if (item.empty() || equals == 0 || !digits || std::stoi(count) < 1 || std::stoi(count) > max_count)
      throw InputError(std::string(variable) + " '" + quote_text(text) + "' is not " + std::string(form) +
                       ", comma-separated");
    counts[item.substr(0, equals)] = std::stoi(count);
    start = comma + 1;
  }
  return counts;
}

}  // namespace ladder
