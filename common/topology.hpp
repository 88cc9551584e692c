// A machine's shape as the thread ladder and the report need it: the hardware threads (PUs) a run may
// use, and the core, L3 group, NUMA node and socket each belongs to. harness/machine/machine_topology.hpp
// reads it from hwloc; a results file carries it in its context; the report and `ladder plan` read it back.
// Pure data and pure functions here: no hwloc, so a report made on another machine sees the same shape.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "json_reader.hpp"

namespace ladder {

struct Topology {
  struct Pu {
    int os_index = 0;  // the CPU number the kernel and sched_setaffinity use
    // Dense indices, 0 … count − 1, over the groups that hold a usable PU; l3 is −1 where hwloc reports no
    // L3 cache.
    int core = 0, l3 = -1, numa = 0, package = 0;
  };
  std::vector<Pu> pus;  // the PUs this process may use, in hwloc's logical order (siblings of a core,
                        // then the cores of an L3 group, a NUMA node, a socket, side by side)
  int cores = 1, l3_groups = 0, numa_nodes = 1, packages = 1;  // groups holding at least one usable PU
  std::string source = "this machine";  // or "HWLOC_SYNTHETIC=…", "HWLOC_XMLFILE=…"
  bool synthetic = false;               // not this machine: plan with it, never bind to it

  int hardware_threads() const { return static_cast<int>(pus.size()); }
  int most_threads_per_core() const;
  // The physical cores of the first L3 group, NUMA node and socket (0 for L3 when none is reported).
  int cores_per_l3() const;
  int cores_per_numa() const;
  int cores_per_package() const;

  // One line: "2 sockets × 32 cores × 2 threads, 8 NUMA nodes, 16 L3 groups".
  std::string describe() const;
  nlohmann::json to_json() const;
  // Checked: a damaged topology is a SchemaError naming the field.
  static Topology from_json(const JsonReader& in);
};

// A thread count of the default ladder, and why it is there ("a power of two", "the cores of one L3
// group", …).
struct ThreadStep {
  int threads = 1;
  std::vector<std::string> reasons;
};

// The default thread counts of the parallel tiers: 1, the powers of two below the physical core count, the
// cores of one L3 group, one NUMA node, one socket, all physical cores and, with SMT, all hardware threads.
// Ascending, each count once with all its reasons.
std::vector<ThreadStep> thread_ladder(const Topology& topology);

// The PUs (OS indices, in the order threads take them) that `threads` threads are placed on: compactly,
// one a core, filling the cores of one L3 group, then its NUMA node, then its socket, before the next;
// SMT siblings only past the physical cores. threads must be 1 … hardware_threads().
std::vector<int> placement(const Topology& topology, int threads);

// What a placement spans: its distinct cores, L3 groups, NUMA nodes and sockets.
struct Span {
  int cores = 0, l3_groups = 0, numa_nodes = 0, packages = 0;
  bool shares_cores = false;  // two of its PUs are SMT siblings
};
Span span(const Topology& topology, const std::vector<int>& pus);

}  // namespace ladder
