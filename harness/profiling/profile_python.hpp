// Where the time goes in a pure-Python peer, the way its notebook shows it: line_profiler times each line
// and memory_profiler reads the resident set's growth over each line (scripts/peers/profile.py, under the
// peers' Python). The C++ tiers are profiled by callgrind instead (profiling.hpp); both print one text form.
#pragma once

#include <cstdint>
#include <string>

#include "python_profile.hpp"

namespace ladder::profiling {

// Profiles one call of a pure-Python peer at n nodes. InputError when the peer is unknown or not pure
// Python (naming the ones that are), or when it does not take the integrand or that many nodes;
// Unavailable when a profiler cannot be imported (naming its Debian package) or Python cannot be started;
// ToolFailed when the profile itself fails.
PythonProfile profile_python(const std::string& peer, const std::string& integrand, double a, double b,
                             std::int64_t n);

// The text `ladder profile --peer ID` prints: each function's lines with their time, share and memory
// increment, the hottest lines marked as in the C++ profile, then the largest memory increment.
std::string render(const PythonProfile& profile, int hot_lines = 3);

}  // namespace ladder::profiling
