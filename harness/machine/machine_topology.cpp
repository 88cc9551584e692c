#include "machine_topology.hpp"

#include <hwloc.h>

#include <cstdlib>
#include <map>
#include <memory>

#include "errors.hpp"
#include "thread_binding.hpp"

namespace ladder {
namespace {

using TopologyHandle = std::unique_ptr<hwloc_topology, decltype(&hwloc_topology_destroy)>;

// Dense numbers for hwloc objects, in the order their first usable PU meets them.
class Numbering {
 public:
  int operator()(hwloc_obj_t object) {
    if (!object) return 0;
    return numbers_.try_emplace(object, static_cast<int>(numbers_.size())).first->second;
  }
  int count() const { return static_cast<int>(numbers_.size()); }

 private:
  std::map<hwloc_obj_t, int> numbers_;
};

TopologyHandle load(Topology& topology) {
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0) throw Unavailable("hwloc could not start");
  TopologyHandle handle(raw, &hwloc_topology_destroy);
  // Set here rather than left to hwloc, which falls back to this system without a word when it cannot
  // read the variable's value.
  if (const char* synthetic = std::getenv("HWLOC_SYNTHETIC"); synthetic && *synthetic) {
    if (hwloc_topology_set_synthetic(raw, synthetic) != 0)
      throw InputError("HWLOC_SYNTHETIC='" + std::string(synthetic) +
                       "' is not a topology hwloc can read; it is a list of levels and their widths, e.g. "
                       "\"package:2 numa:1 l3:4 core:8 pu:2\"");
    topology.source = "HWLOC_SYNTHETIC=" + std::string(synthetic);
  } else if (const char* xml = std::getenv("HWLOC_XMLFILE"); xml && *xml) {
    if (hwloc_topology_set_xml(raw, xml) != 0)
      throw InputError("HWLOC_XMLFILE='" + std::string(xml) +
                       "' is not a topology hwloc can read; it is an XML file written by `lstopo --of xml`");
    topology.source = "HWLOC_XMLFILE=" + std::string(xml);
  }
  if (hwloc_topology_load(raw) != 0) throw Unavailable("hwloc could not read this machine's topology");
  topology.synthetic = !hwloc_topology_is_thissystem(raw);
  return handle;
}

}  // namespace

Topology read_topology() {
  Topology topology;
  const TopologyHandle handle = load(topology);
  hwloc_topology_t raw = handle.get();

  // The PUs this process may use: hwloc's allowed set (cgroups), and on this system the run's own mask.
  std::unique_ptr<hwloc_bitmap_s, decltype(&hwloc_bitmap_free)> usable(
      hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(raw)), &hwloc_bitmap_free);
  if (!topology.synthetic) {
    const cpu_set_t mask = ThreadBinding::run_cpus();
    std::unique_ptr<hwloc_bitmap_s, decltype(&hwloc_bitmap_free)> own(hwloc_bitmap_alloc(),
                                                                      &hwloc_bitmap_free);
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
      if (CPU_ISSET(cpu, &mask)) hwloc_bitmap_set(own.get(), static_cast<unsigned>(cpu));
    hwloc_bitmap_and(usable.get(), usable.get(), own.get());
  }

  std::vector<hwloc_obj_t> numa_nodes;
  for (hwloc_obj_t node = nullptr; (node = hwloc_get_next_obj_by_type(raw, HWLOC_OBJ_NUMANODE, node));)
    numa_nodes.push_back(node);
  Numbering cores, l3_groups, numas, packages;
  for (hwloc_obj_t pu = nullptr; (pu = hwloc_get_next_obj_by_type(raw, HWLOC_OBJ_PU, pu));) {
    if (!hwloc_bitmap_isset(usable.get(), pu->os_index)) continue;
    Topology::Pu entry;
    entry.os_index = static_cast<int>(pu->os_index);
    const hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(raw, HWLOC_OBJ_CORE, pu);
    entry.core = cores(core ? core : pu);
    const hwloc_obj_t l3 = hwloc_get_ancestor_obj_by_type(raw, HWLOC_OBJ_L3CACHE, pu);
    entry.l3 = l3 ? l3_groups(l3) : -1;
    hwloc_obj_t numa = nullptr;
    for (const auto node : numa_nodes)
      if (node->cpuset && hwloc_bitmap_isset(node->cpuset, pu->os_index)) {
        numa = node;
        break;
      }
    entry.numa = numas(numa);
    entry.package = packages(hwloc_get_ancestor_obj_by_type(raw, HWLOC_OBJ_PACKAGE, pu));
    topology.pus.push_back(entry);
  }
  if (topology.pus.empty()) throw Unavailable("hwloc found no hardware thread this process may use");
  topology.cores = cores.count();
  topology.l3_groups = l3_groups.count();
  topology.numa_nodes = std::max(1, numas.count());
  topology.packages = std::max(1, packages.count());
  return topology;
}

void require_this_system(const Topology& topology, const std::string& what) {
  if (topology.synthetic)
    throw InputError(
        what + " measures this machine, and the topology is " + topology.source +
        ": threads cannot be bound to a machine that is only described. Use `ladder plan` to plan "
        "for it, or unset the variable to run here");
}

}  // namespace ladder
