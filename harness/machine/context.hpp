// The machine and the build a run measured: what a reader needs to judge the numbers, gathered by Ladder
// itself. Google Benchmark 1.7.1's own context is not relayed: its "library_build_type" describes the
// Debian library, and its "cpu_scaling_enabled" reads false on any machine without cpufreq (every VM).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "results_file.hpp"
#include "run_context.hpp"
#include "tier.hpp"
#include "topology.hpp"

namespace ladder {

// CPU, caches, memory, kernel, hypervisor, frequency scaling, compiler and flags (per tier), library
// versions, OpenMP/TBB environment, hardware counters, and the topology the run was planned on. Readings that
// are not available say so and why.
MachineContext machine_context(const Topology& topology);

// The integrands of a run, for its context: each one's name, formula, source and whether it gives an
// antiderivative, and why each of `tiers` (C++ tiers or loaded peers) that cannot run it cannot.
std::vector<IntegrandRecord> integrand_records(const std::vector<std::string>& integrands,
                                               const std::vector<std::string>& tiers);

// The 1-, 5- and 15-minute load averages.
std::optional<std::vector<double>> load_average();

// The widest instruction set xsimd finds on this CPU, and whether it covers what this build's kernels use
// (a binary built with -march=native on one machine may not run on another).
std::string best_instruction_set();
bool cpu_runs_this_build();

int logical_cpus();
int physical_cores();

}  // namespace ladder
