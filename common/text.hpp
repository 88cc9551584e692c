// Numbers as people read them, one way everywhere: the command line, the run's progress and summary,
// the warnings and the report.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ladder {

std::string join(const std::vector<std::string>& items, std::string_view separator = ", ");
std::string join_numbers(const std::vector<int>& numbers, std::string_view separator = ", ");
// A CPU list as Linux writes it ("0-3,8,10-11", spaces around it ignored), ascending as written; throws
// std::invalid_argument naming the text when it is not one.
std::vector<int> parse_cpu_list(std::string_view text);
// "1 core", "3 cores": the count and the word that goes with it.
std::string counted(int count, std::string_view one, std::string_view many);

std::string format_number(const char* pattern, double value);  // printf's way, one number
// How a duration of a minute or more comes to whole seconds. An estimate (a plan's, --budget's, the time
// left) rounds up, so that it never promises less time than it will take; a time measured rounds to nearest.
enum class Rounding { nearest, up };
// A duration, the one way Ladder prints one: under a minute three significant digits in its unit
// ("12 ns", "789 µs", "45.6 ms", "4.2 s"); from a minute on a clock of whole seconds ("1:52", "1:02:03").
std::string format_seconds(double seconds, Rounding rounding = Rounding::nearest);
std::string format_bytes(double bytes);  // 512 B, 7.6 MiB, … up to PiB
std::string format_count(double value);  // 1e8 for powers of ten, else plain
// A money or people figure (dollars, days): that many decimals ("12345", "0.56") below 1e15, and three
// significant digits from there on ("5.49e+302"), so that a price of 1e308 prints as a number, not 300
// digits.
std::string format_amount(double value, int decimals = 0);
// A fraction in per cent with that many decimals: percent(0.4213, 0) is "42 %", percent(0.4213, 1) "42.1 %".
std::string percent(double fraction, int decimals);
// A hot loop's vectorization verdict: "8 × f64", "scalar", "partly 4 × f64"; empty when not known.
std::string format_vectorization(const std::string& status, int lanes);

}  // namespace ladder
