#include "thread_binding.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdlib>

#include "text.hpp"

namespace ladder {

using nlohmann::json;

cpu_set_t ThreadBinding::run_cpus() {
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  const int places = omp_get_num_places();
  for (int place = 0; place < places; ++place) {
    std::vector<int> ids(static_cast<std::size_t>(omp_get_place_num_procs(place)));
    omp_get_place_proc_ids(place, ids.data());
    for (const int id : ids) CPU_SET(id, &cpus);
  }
  if (CPU_COUNT(&cpus) == 0) sched_getaffinity(0, sizeof cpus, &cpus);
  return cpus;
}

ThreadBinding ThreadBinding::for_cell(const TierCard& card, const CellKey& cell, const Topology& topology,
                                      const cpu_set_t& run_cpus, bool hostfile) {
  ThreadBinding binding{run_cpus, {}, card.distributed, topology.cores, {}, {}};
  // Not placed: the ranks on a hostfile's nodes (the launcher places them there), or more threads than
  // this machine's hardware threads (oversubscribed: nothing is bound).
  const int threads = cell.threads * (card.distributed ? cell.ranks : 1);
  if (!(card.distributed && hostfile) && threads <= topology.hardware_threads())
    binding.pus = ladder::placement(topology, threads);
  if (!binding.pus.empty() && !binding.by_launcher) {
    CPU_ZERO(&binding.cpus);
    for (const int pu : binding.pus) CPU_SET(pu, &binding.cpus);
  }
  const bool explicit_places = !binding.pus.empty() && !binding.by_launcher;
  for (const auto& variable : card.environment) {
    const auto name = variable.substr(0, variable.find('='));
    if (std::getenv(name.c_str())) continue;  // the user's environment wins
    if (name == "OMP_PLACES" && explicit_places) {
      std::vector<std::string> places;
      for (const int pu : binding.pus) places.push_back("{" + std::to_string(pu) + "}");
      binding.set.push_back("OMP_PLACES=" + join(places, ","));
    } else {
      binding.set.push_back(variable);
    }
  }
  const bool openmp = std::any_of(card.environment.begin(), card.environment.end(),
                                  [](const std::string& variable) { return variable.rfind("OMP_", 0) == 0; });
  if (!openmp)
    for (const char* name : {"OMP_PROC_BIND", "OMP_PLACES"})
      if (std::getenv(name)) binding.unset.push_back(name);
  return binding;
}

void ThreadBinding::apply() const {
  sched_setaffinity(0, sizeof cpus, &cpus);
  for (const auto& variable : set) putenv(const_cast<char*>(variable.c_str()));
  for (const auto& name : unset) unsetenv(name.c_str());
}

json ThreadBinding::describe() const {
  json environment = json::object();
  const bool placed = !by_launcher && !pus.empty();
  for (const auto& variable : set) {
    const auto equals = variable.find('=');
    const auto name = variable.substr(0, equals);
    environment[name] =
        variable.substr(equals + 1) +
        (name == "OMP_PLACES" && placed ? " (set by ladder: the cell's placement)" : " (set by ladder)");
  }
  for (const char* name : {"OMP_PROC_BIND", "OMP_PLACES", "OMP_NUM_THREADS", "OMP_WAIT_POLICY"})
    if (const char* value = std::getenv(name); value && !environment.contains(name))
      environment[name] =
          std::find(unset.begin(), unset.end(), name) != unset.end()
              ? std::string(value) + " (removed: this tier does not use OpenMP)"
              : std::string(value) + (placed && std::string(name).rfind("OMP_P", 0) == 0
                                          ? " (from the environment, which wins over the cell's placement)"
                                          : " (from the environment)");
  return environment;
}

std::optional<Placement> ThreadBinding::placement(const Topology& topology) const {
  if (pus.empty() || by_launcher) return std::nullopt;  // the launcher's binding is not Ladder's to record
  return Placement{span(topology, pus), pus};
}

std::string cpu_list(const cpu_set_t& cpus) {
  std::vector<std::string> ids;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &cpus)) ids.push_back(std::to_string(cpu));
  return join(ids, ",");
}

}  // namespace ladder
