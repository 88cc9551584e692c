// The machines the tests plan for and place threads on, as hwloc reads them: HWLOC_SYNTHETIC strings, and
// XML files under tests/fixtures/ for what a synthetic string cannot say. One place for all the tests
// (topology, thread ladder, placement, plan) so they describe the same machines.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "machine_topology.hpp"

namespace ladder::testing {

struct TopologyFixture {
  const char* name;       // for test output
  const char* synthetic;  // HWLOC_SYNTHETIC's value
};

// The six machines.
inline const TopologyFixture one_core{"1 core", "core:1 pu:1"};
inline const TopologyFixture two_cores{"2 cores (this VM)", "core:2 pu:1"};
inline const TopologyFixture twelve_cores{"12 cores", "core:12 pu:1"};
inline const TopologyFixture sixteen_cores{"16 cores without SMT", "core:16 pu:1"};
// 2 sockets × 32 cores × SMT2, a NUMA node a socket, 4 L3 groups of 8 cores a socket.
inline const TopologyFixture two_sockets{"2 sockets × 32 cores × SMT2, 2 NUMA nodes",
                                         "package:2 numa:1 l3:4 core:8 pu:2"};
// AMD-like: one socket of 4 NUMA nodes × 24 cores, the cores in groups of 8 sharing an L3, SMT2.
inline const TopologyFixture amd_like{"4 NUMA nodes × 24 cores, L3 groups of 8 (AMD-like)",
                                      "package:1 numa:4 l3:3 core:8 pu:2"};

inline const std::vector<TopologyFixture> all_fixtures{one_core,      two_cores,   twelve_cores,
                                                       sixteen_cores, two_sockets, amd_like};

// 2 sockets × 4 cores × SMT2, numbered as Linux numbers many two-socket servers: the sockets alternate
// (socket 0 has CPUs 0, 2, 4, 6, socket 1 has 1, 3, 5, 7) and a core's SMT sibling is k + 8. Made once
// with hwloc's API from the synthetic string
//   "package:2 numa:1 l3:1 core:4 pu:2(indexes=0,8,2,10,4,12,6,14,1,9,3,11,5,13,7,15)"
// and hwloc_topology_export_xml (the process-name line removed).
inline std::string interleaved_xml() {
  return std::string(LADDER_FIXTURES_DIR) + "/topology_2x4x2_interleaved.xml";
}

// Sets (or, with no value, removes) an environment variable for the life of the object and puts it back
// after, so a test that reads a synthetic machine leaves the next test on this one.
class ScopedVariable {
 public:
  ScopedVariable(const char* name, const std::optional<std::string>& value) : name_(name) {
    if (const char* before = std::getenv(name)) before_ = before;
    if (value)
      setenv(name, value->c_str(), 1);
    else
      unsetenv(name);
  }
  ~ScopedVariable() {
    if (before_)
      setenv(name_, before_->c_str(), 1);
    else
      unsetenv(name_);
  }
  ScopedVariable(const ScopedVariable&) = delete;
  ScopedVariable& operator=(const ScopedVariable&) = delete;

 private:
  const char* name_;
  std::optional<std::string> before_;
};

// The fixture's topology, read through hwloc as `ladder plan` reads it.
inline Topology read_fixture(const TopologyFixture& fixture) {
  const ScopedVariable synthetic("HWLOC_SYNTHETIC", fixture.synthetic);
  return read_topology();
}

}  // namespace ladder::testing
