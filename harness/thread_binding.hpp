#pragma once

#include <sched.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tier.hpp"

namespace ladder {

// How a worker's threads are placed. Two traps are avoided here:
// - libgomp pins the thread that loads it as soon as OMP_PROC_BIND is set, so an orchestrator started
//   with OMP_PROC_BIND would hand every worker a one-CPU mask (fork inherits it), and every tier would
//   quietly run on one core: each worker starts from every CPU the run may use (the union of OpenMP's
//   places, or the mask the run started with).
// - the same pinning of the main thread in a worker whose tier is not OpenMP's would confine oneTBB's
//   threads, which inherit the main thread's mask: OMP_PROC_BIND and OMP_PLACES are given only to the
//   tiers whose card asks for them, and removed for the others.
struct ThreadBinding {
  cpu_set_t cpus;
  std::vector<std::string> set, unset;

  // Every CPU the run may use: the union of OpenMP's places, or the mask the run started with.
  static cpu_set_t run_cpus();
  static ThreadBinding for_tier(const TierCard& card, const cpu_set_t& cpus);
  // In the worker, before exec.
  void apply() const;
  // The environment it gives, in words, for the cell's entry.
  nlohmann::json describe() const;
};

// "0,1,2,3"
std::string cpu_list(const cpu_set_t& cpus);

}  // namespace ladder
