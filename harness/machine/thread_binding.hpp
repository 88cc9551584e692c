// Where a cell's threads run, and how each runtime is held to it (the full contract below).
#pragma once

#include <sched.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cell_result.hpp"
#include "tier.hpp"
#include "topology.hpp"

namespace ladder {

// Where a cell's threads run. Each cell's thread count is placed compactly (topology.hpp's placement():
// one a core, filling an L3 group, then its NUMA node, then its socket; SMT siblings only past the
// physical cores), and each runtime is held to it:
// - every worker (serial tiers on one PU, cuda's host thread, the Python peers' processes) starts with an
//   affinity mask of exactly the cell's PUs; a serial tier's data is therefore allocated and first touched
//   on that PU's NUMA node (the naive tier's node vector among them);
// - OpenMP tiers get OMP_PROC_BIND=close and an explicit OMP_PLACES="{a},{b},…" of those PUs, so thread i
//   runs on the i-th; where the user's environment sets either, the environment wins and the cell's entry
//   says so;
// - oneTBB tiers (tbb, tbb-tuned, stdpar) get the PUs in RunOptions::cpus and pin arena slot i to the
//   i-th (variants/tbb_pinning.hpp): oneTBB has no setting of its own;
// - the Python peers' own thread pools (numexpr, numba) float within the cell's PUs: Ladder does not pin
//   threads inside another language's runtime;
// - mpi: the MPI launcher binds each rank to its cores (distributed.cpp: --map-by slot:PE=threads
//   --bind-to core; past the physical cores, hardware threads), and OpenMP's OMP_PLACES=cores places the
//   rank's threads on them; the launcher itself starts with all the run's CPUs. Open MPI chooses the cores
//   from the whole machine, not from the run's mask, so the cell records no Placement: its
//   thread_placement (each thread's allowed CPUs, read in rank 0) is the record of where it ran.
// A cell with more threads than the machine's hardware threads (only with --hostfile) is not placed.
//
// Two traps are avoided here as well:
// - libgomp pins the thread that loads it as soon as OMP_PROC_BIND is set, so an orchestrator started
//   with OMP_PROC_BIND would hand every worker a one-CPU mask (fork inherits it): the run's CPUs are the
//   union of OpenMP's places, or the mask the run started with (run_cpus), and the topology is read
//   within them.
// - the same pinning of the main thread in a worker whose tier is not OpenMP's would confine oneTBB's
//   threads, which inherit the main thread's mask: OMP_PROC_BIND and OMP_PLACES are given only to the
//   tiers whose card asks for them, and removed for the others.
struct ThreadBinding {
  cpu_set_t cpus;            // the worker's affinity mask
  std::vector<int> pus;      // the cell's placement, in the order its threads take them; empty: none
  bool by_launcher = false;  // mpi: the launcher binds the ranks; the worker's mask is the run's
  int cores = 0;             // the machine's physical cores, for the launcher's binding
  std::vector<std::string> set, unset;

  // Every CPU the run may use: the union of OpenMP's places, or the mask the run started with.
  static cpu_set_t run_cpus();
  // One cell's binding on `topology` (this machine's, within run_cpus); `hostfile`: the ranks run on a
  // hostfile's nodes.
  static ThreadBinding for_cell(const TierCard& card, const CellKey& cell, const Topology& topology,
                                const cpu_set_t& run_cpus, bool hostfile);
  // What RunOptions::cpus gets in the worker: the PUs the harness pins to, one a thread.
  std::vector<int> worker_cpus() const { return by_launcher ? std::vector<int>{} : pus; }
  // In the worker, before exec.
  void apply() const;
  // The environment it gives, in words, for the cell's entry.
  nlohmann::json describe() const;
  // The cell's Placement for its record: the PUs and what they span; null when not placed.
  std::optional<Placement> placement(const Topology& topology) const;
};

// "0,1,2,3"
std::string cpu_list(const cpu_set_t& cpus);

}  // namespace ladder
