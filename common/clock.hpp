// The time now, as results files and the history write it.
#pragma once

#include <string>

namespace ladder {

// UTC, ISO 8601 to the second: "2026-12-03T21:40:00Z".
std::string now_utc();

}  // namespace ladder
