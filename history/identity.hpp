// What makes two runs' timings comparable, as the history store keys its runs and series by (and a noise
// floor, which belongs to a machine): the machine's fingerprint and the build's. Two results files of one
// machine and one build give the same two, whichever host or day measured them.
#pragma once

#include <cmath>
#include <string>

#include "run_context.hpp"
#include "sha256.hpp"

namespace ladder::history {

// The machine's fingerprint of a results file's context: its CPU model, logical CPUs, physical cores,
// topology and memory to the GiB (SHA-256, hex).
inline std::string machine_fingerprint(const MachineContext& context) {
  std::string text = "cpu=" + context.cpu_model + "\nlogical_cpus=" + std::to_string(context.logical_cpus) +
                     "\nphysical_cores=" + std::to_string(context.physical_cores);
  if (context.topology)
    text += "\ntopology=" + std::to_string(context.topology->packages) + "/" +
            std::to_string(context.topology->numa_nodes) + "/" + std::to_string(context.topology->l3_groups) +
            "/" + std::to_string(context.topology->cores) + "/" +
            std::to_string(context.topology->hardware_threads());
  if (context.memory_total_bytes)  // to the GiB: MemTotal moves by a few pages between kernels
    text +=
        "\nmemory_gib=" + std::to_string(std::llround(*context.memory_total_bytes / (1024.0 * 1024 * 1024)));
  return sha256_hex(text);
}

// The build's fingerprint: SHA-256 (hex) of the compiler, build type and flags.
inline std::string build_fingerprint(const ContextRecord& context) {
  return sha256_hex("compiler=" + context.compiler + "\nbuild_type=" + context.build_type +
                    "\nflags=" + context.common_flags);
}

}  // namespace ladder::history
