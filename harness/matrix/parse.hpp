// The one parser for user-typed sizes and counts.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace ladder {

// A node count n: "100000000", "1e8", "2.5e6" or "2^27", between 1 and 2^62. Throws InputError that
// names the text and the accepted forms.
std::int64_t parse_size(std::string_view text);

// A thread count: a whole number from 1 to max_threads.
constexpr int max_threads = 1024;
int parse_threads(std::string_view text);
// The same for another count, named in the message ("ranks").
int parse_count(std::string_view name, std::string_view text);

// A duration: "90s", "15m", "2h", "1.5h" (a positive number with its unit: s, m or h). Returns seconds;
// throws InputError naming the text and the accepted forms.
double parse_duration(std::string_view text);

// A test switch's value, "NAME=COUNT,NAME=COUNT…" (LADDER_TEST_SLOWDOWN, LADDER_TEST_DISTURB): each name
// and its count, a whole number from 1 to max_count; `fallback` for a name without "=COUNT" (0: the count
// is required). Unset or empty: none. Throws InputError naming the variable, its value and `form`.
std::map<std::string, int> parse_name_counts(std::string_view variable, const char* value,
                                             std::string_view form, int max_count, int fallback = 0);

// A finite real number such as "0", "-1.5" or "1e-3".
double parse_real(std::string_view name, std::string_view text);

// Refuses an interval [a, b] (--a, --b; each finite already) whose width b − a is not a finite number, as
// 1e308 and -1e308 give: the step (b − a)/n and every node would be infinite or NaN. InputError naming a
// and b and what is accepted.
void check_interval(double a, double b);

}  // namespace ladder
