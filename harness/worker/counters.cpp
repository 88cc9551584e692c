#include "counters.hpp"

#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>

#include "process_stats.hpp"

namespace ladder::counters {
namespace {

using nlohmann::json;

int open_event(const Event& event, pid_t thread) {
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = event.type;
  attr.config = event.config;
  attr.disabled = 1;
  attr.exclude_kernel = 1;  // the kernel's own work is not the tier's (and paranoid ≥ 2 forbids it)
  attr.exclude_hv = 1;
  attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
  return static_cast<int>(syscall(SYS_perf_event_open, &attr, thread, -1, -1, 0));
}

std::string explain(int error) {
  std::string reason = std::string("perf_event_open: ") + std::strerror(error);
  if (error == ENOENT || error == EOPNOTSUPP || error == ENODEV)
    reason += " (no hardware counters: usual in a VM)";
  else if (error == EACCES || error == EPERM)
    reason += " (not permitted: see /proc/sys/kernel/perf_event_paranoid)";
  return "unavailable: " + reason;
}

}  // namespace

const std::vector<Event>& hardware_events() {
  static const std::vector<Event> events = {
      {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
      {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
      {"cache_references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
      {"cache_misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
      {"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
      {"branch_misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
  };
  return events;
}

json count(const std::function<void()>& call, const std::vector<Event>& events) {
  const auto ids = process::thread_ids();
  std::map<std::string, std::vector<int>> open;  // event → one descriptor a thread
  std::map<std::string, std::string> refused;
  for (const auto& event : events)
    for (const int id : ids) {
      const int descriptor = open_event(event, id);
      if (descriptor >= 0) {
        open[event.name].push_back(descriptor);
      } else if (errno != ESRCH) {  // ESRCH: the thread ended meanwhile
        refused[event.name] = explain(errno);
        break;
      }
    }
  for (auto& [name, descriptors] : open)
    if (refused.count(name)) {  // counted on some threads only: no figure
      for (const int descriptor : descriptors) close(descriptor);
      descriptors.clear();
    }
  std::erase_if(open, [](const auto& entry) { return entry.second.empty(); });
  if (open.empty()) {
    const std::string reason = refused.empty() ? "unavailable: no events asked for" : refused.begin()->second;
    return {{"available", false}, {"reason", reason}};
  }

  for (const auto& [name, descriptors] : open)
    for (const int descriptor : descriptors) ioctl(descriptor, PERF_EVENT_IOC_RESET, 0);
  for (const auto& [name, descriptors] : open)
    for (const int descriptor : descriptors) ioctl(descriptor, PERF_EVENT_IOC_ENABLE, 0);
  call();
  for (const auto& [name, descriptors] : open)
    for (const int descriptor : descriptors) ioctl(descriptor, PERF_EVENT_IOC_DISABLE, 0);

  json result = {
      {"available", true},
      {"threads_counted", ids.size()},
      {"method",
       "perf_event_open, user space only, on every thread alive when one call started (after the warm-up, "
       "before the timed runs); scaled by time enabled / time running where the PMU multiplexed"}};
  bool multiplexed = false;
  for (const auto& event : events) {
    if (refused.count(event.name)) {
      result[event.name] = refused.at(event.name);
      continue;
    }
    double total = 0;
    for (const int descriptor : open.at(event.name)) {
      std::uint64_t values[3] = {};  // value, time enabled, time running
      if (read(descriptor, values, sizeof values) == static_cast<ssize_t>(sizeof values) && values[2] > 0) {
        total +=
            static_cast<double>(values[0]) * static_cast<double>(values[1]) / static_cast<double>(values[2]);
        multiplexed = multiplexed || values[1] != values[2];
      }
      close(descriptor);
    }
    result[event.name] = total;
  }
  result["multiplexed"] = multiplexed;
  return result;
}

json hardware(const std::function<void()>& call, std::int64_t n) {
  json result = count(call, hardware_events());
  if (!result.at("available").get<bool>()) return result;
  const auto& cycles = result.at("cycles");
  const auto& instructions = result.at("instructions");
  if (cycles.is_number() && instructions.is_number() && cycles.get<double>() > 0)
    result["ipc"] = instructions.get<double>() / cycles.get<double>();
  if (instructions.is_number())
    result["instructions_per_node"] = instructions.get<double>() / static_cast<double>(n);
  return result;
}

}  // namespace ladder::counters
