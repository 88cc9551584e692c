// Hardware counters (cycles, instructions, cache and branch misses) over one kernel call, through
// perf_event_open, on every thread of the process. Where the kernel gives none (a VM, a locked-down
// perf_event_paranoid), the result says so with the kernel's reason: never a zero.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ladder::counters {

struct Event {
  std::string name;  // e.g. "cycles"
  std::uint32_t type;
  std::uint64_t config;
};

// cycles, instructions, cache_references, cache_misses, branches, branch_misses.
const std::vector<Event>& hardware_events();

// Counts `events` on every thread alive when the call starts (a parallel runtime's pool, created by the
// calls before) while `call` runs. {"available": true, "threads_counted", "method", "<event>": value or
// "unavailable: …", …} or {"available": false, "reason": "unavailable: …"} when no event can be opened.
nlohmann::json count(const std::function<void()>& call, const std::vector<Event>& events);

// count() with the hardware events, plus "ipc" and "instructions_per_node" where both are known.
nlohmann::json hardware(const std::function<void()>& call, std::int64_t n);

}  // namespace ladder::counters
