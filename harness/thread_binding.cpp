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

ThreadBinding ThreadBinding::for_tier(const TierCard& card, const cpu_set_t& cpus) {
  ThreadBinding binding{cpus, {}, {}};
  for (const auto& variable : card.environment) {
    const auto name = variable.substr(0, variable.find('='));
    if (!std::getenv(name.c_str())) binding.set.push_back(variable);
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
  for (const auto& variable : set) {
    const auto equals = variable.find('=');
    environment[variable.substr(0, equals)] = variable.substr(equals + 1) + " (set by ladder)";
  }
  for (const char* name : {"OMP_PROC_BIND", "OMP_PLACES", "OMP_NUM_THREADS", "OMP_WAIT_POLICY"})
    if (const char* value = std::getenv(name); value && !environment.contains(name))
      environment[name] = std::find(unset.begin(), unset.end(), name) != unset.end()
                              ? std::string(value) + " (removed: this tier does not use OpenMP)"
                              : std::string(value) + " (from the environment)";
  return environment;
}

std::string cpu_list(const cpu_set_t& cpus) {
  std::vector<std::string> ids;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &cpus)) ids.push_back(std::to_string(cpu));
  return join(ids, ",");
}

}  // namespace ladder
