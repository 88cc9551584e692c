#include "topology.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "errors.hpp"
#include "text.hpp"

namespace ladder {

using nlohmann::json;

namespace {

// The distinct cores of the PUs for which `in_group` holds.
template <class InGroup>
int cores_where(const Topology& topology, InGroup in_group) {
  std::set<int> cores;
  for (const auto& pu : topology.pus)
    if (in_group(pu)) cores.insert(pu.core);
  return static_cast<int>(cores.size());
}

}  // namespace

int Topology::most_threads_per_core() const {
  std::map<int, int> per_core;
  int most = pus.empty() ? 0 : 1;
  for (const auto& pu : pus) most = std::max(most, ++per_core[pu.core]);
  return most;
}

int Topology::cores_per_l3() const {
  if (l3_groups == 0 || pus.empty()) return 0;
  return cores_where(*this, [&](const Pu& pu) { return pu.l3 == pus.front().l3; });
}

int Topology::cores_per_numa() const {
  if (pus.empty()) return 0;
  return cores_where(*this, [&](const Pu& pu) { return pu.numa == pus.front().numa; });
}

int Topology::cores_per_package() const {
  if (pus.empty()) return 0;
  return cores_where(*this, [&](const Pu& pu) { return pu.package == pus.front().package; });
}

std::string Topology::describe() const {
  const int smt = most_threads_per_core();
  std::string text =
      packages > 1 && cores % packages == 0
          ? std::to_string(packages) + " sockets × " + counted(cores / packages, "core", "cores")
          : counted(packages, "socket", "sockets") + ", " + counted(cores, "core", "cores");
  if (smt > 1) text += " × " + std::to_string(smt) + " threads";
  if (hardware_threads() != cores * std::max(smt, 1))
    text += " (" + counted(hardware_threads(), "hardware thread", "hardware threads") + ")";
  text += ", " + counted(numa_nodes, "NUMA node", "NUMA nodes");
  text += l3_groups > 0 ? ", " + counted(l3_groups, "L3 group", "L3 groups") : ", no L3 reported";
  return text;
}

json Topology::to_json() const {
  json all = json::array();
  for (const auto& pu : pus)
    all.push_back({{"os_index", pu.os_index},
                   {"core", pu.core},
                   {"l3", pu.l3},
                   {"numa", pu.numa},
                   {"package", pu.package}});
  return {{"summary", describe()},
          {"source", source},
          {"synthetic", synthetic},
          {"packages", packages},
          {"numa_nodes", numa_nodes},
          {"l3_groups", l3_groups},
          {"cores", cores},
          {"hardware_threads", hardware_threads()},
          {"pus", all}};
}

Topology Topology::from_json(const JsonReader& in) {
  Topology topology;
  topology.source = in.at("source").string();
  topology.synthetic = in.at("synthetic").boolean();
  topology.packages = in.at("packages").small_integer();
  topology.numa_nodes = in.at("numa_nodes").small_integer();
  topology.l3_groups = in.at("l3_groups").small_integer();
  topology.cores = in.at("cores").small_integer();
  for (const auto& pu : in.at("pus").elements())
    topology.pus.push_back({pu.at("os_index").small_integer(), pu.at("core").small_integer(),
                            pu.at("l3").small_integer(), pu.at("numa").small_integer(),
                            pu.at("package").small_integer()});
  if (topology.pus.empty()) in.at("pus").fail("expected at least one hardware thread, found none");
  return topology;
}

std::vector<ThreadStep> thread_ladder(const Topology& topology) {
  std::map<int, std::vector<std::string>> steps;
  const int cores = topology.cores;
  steps[1].push_back("one thread");
  for (int power = 2; power < cores; power *= 2) steps[power].push_back("a power of two");
  if (topology.l3_groups > 1) steps[topology.cores_per_l3()].push_back("the cores of one L3 group");
  if (topology.numa_nodes > 1) steps[topology.cores_per_numa()].push_back("the cores of one NUMA node");
  if (topology.packages > 1) steps[topology.cores_per_package()].push_back("the cores of one socket");
  if (cores > 1) steps[cores].push_back("all physical cores");
  if (topology.hardware_threads() > cores)
    steps[topology.hardware_threads()].push_back("all hardware threads (SMT siblings too)");
  std::vector<ThreadStep> ladder;
  for (auto& [threads, reasons] : steps) ladder.push_back({threads, std::move(reasons)});
  return ladder;
}

std::vector<int> placement(const Topology& topology, int threads) {
  if (threads < 1 || threads > topology.hardware_threads())
    throw InputError(std::to_string(threads) + " threads cannot be placed on " +
                     counted(topology.hardware_threads(), "hardware thread", "hardware threads"));
  // Each core's PUs in logical order, the cores in the order of their first PU: round r takes the r-th
  // sibling of every core, so SMT siblings come only after every core has one thread.
  std::vector<int> core_order;
  std::map<int, std::vector<int>> siblings;
  for (const auto& pu : topology.pus) {
    if (!siblings.count(pu.core)) core_order.push_back(pu.core);
    siblings[pu.core].push_back(pu.os_index);
  }
  std::vector<int> pus;
  for (std::size_t round = 0; static_cast<int>(pus.size()) < threads; ++round)
    for (const int core : core_order)
      if (round < siblings[core].size() && static_cast<int>(pus.size()) < threads)
        pus.push_back(siblings[core][round]);
  return pus;
}

Span span(const Topology& topology, const std::vector<int>& pus) {
  std::set<int> cores, l3, numa, packages;
  Span result;
  for (const int os_index : pus)
    for (const auto& pu : topology.pus)
      if (pu.os_index == os_index) {
        result.shares_cores = !cores.insert(pu.core).second || result.shares_cores;
        if (pu.l3 >= 0) l3.insert(pu.l3);
        numa.insert(pu.numa);
        packages.insert(pu.package);
      }
  result.cores = static_cast<int>(cores.size());
  result.l3_groups = static_cast<int>(l3.size());
  result.numa_nodes = static_cast<int>(numa.size());
  result.packages = static_cast<int>(packages.size());
  return result;
}

}  // namespace ladder
