// What the kernel tells a process about itself and the machine: peak resident memory, page faults, CPU
// time, and how busy the whole machine was. Linux only (/proc).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cell_result.hpp"

namespace ladder::process {

// Resets this process's peak resident set (VmHWM) to its current size: `echo 5 > /proc/self/clear_refs`
// (Linux ≥ 4.0). False when the kernel refuses, and then VmHWM is the process's lifetime peak.
bool reset_peak_rss();

// A field of /proc/self/status, in bytes (VmHWM, VmRSS, …).
std::optional<std::int64_t> status_bytes(const std::string& field);

struct Usage {
  double user_seconds;
  double system_seconds;
  std::int64_t minor_faults;
  std::int64_t major_faults;
};
Usage self_usage();

// The machine's CPU time since boot, from /proc/stat, in seconds summed over all CPUs.
struct MachineTime {
  double busy;   // user, nice, system, irq, softirq
  double steal;  // taken by the hypervisor for other guests
  double total;
};
std::optional<MachineTime> machine_time();

// The ids of this process's threads now (/proc/self/task).
std::vector<int> thread_ids();

// The CPUs each of this process's threads may run on (Cpus_allowed_list of /proc/self/task/*/status), and
// their union: a parallel runtime whose threads all inherited a one-CPU mask shows here, whatever the load.
ThreadPlacement thread_placement();

// Bytes the kernel estimates are available for new allocations (MemAvailable in /proc/meminfo).
std::optional<std::int64_t> available_memory();
std::optional<std::int64_t> total_memory();

}  // namespace ladder::process
