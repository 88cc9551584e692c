// The machine's topology, read through hwloc (topology.hpp holds the shape itself). hwloc's own variables
// choose another machine to plan for: HWLOC_SYNTHETIC="package:2 numa:1 l3:4 core:8 pu:2" or
// HWLOC_XMLFILE=saved.xml (from `lstopo --of xml`). Such a topology is not this system: it is marked
// synthetic, and nothing binds threads to it.
#pragma once

#include "topology.hpp"

namespace ladder {

// This process's topology: on this system, the PUs it may use (its affinity mask, within the cgroup or
// Slurm allocation hwloc reports); under HWLOC_SYNTHETIC or HWLOC_XMLFILE, every PU of that machine.
// Throws InputError when the variable's value cannot be read as a topology, naming it.
Topology read_topology();

// Throws InputError when the topology is not this system's: threads cannot be pinned to a machine that is
// only described. `what` names the command that needs binding ("ladder run").
void require_this_system(const Topology& topology, const std::string& what);

}  // namespace ladder
