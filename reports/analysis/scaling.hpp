// Thread scaling as the report reads it: each parallel tier's speedup and parallel efficiency at every
// measured thread count, where it stops gaining, and where the machine's L3 groups, NUMA nodes, sockets and
// SMT siblings begin (from the topology the results file recorded).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "report.hpp"

namespace ladder::report {

// A step gains when it raises the speedup by at least this fraction of what ideal scaling would add from
// the count before: from 32 to 64 threads at 28× on 32, ideal adds 28×, so the step must add at least 7×.
constexpr double gain_fraction = 0.25;

// One measured count of a tier's scaling line, against its 1-thread (or 1-rank) cell.
struct ScalingStep {
  const CellResult* cell = nullptr;
  int count = 1;  // threads, or ranks for a distributed tier's rank line
  double speedup = 1, efficiency = 1;
  // From the count before (absent on the first): the rise in speedup as a fraction of the ideal rise, and
  // the verdict. `unclear`: the medians rose by gain_fraction or more, but the repetitions' ranges overlap.
  std::optional<double> gain_of_ideal{};
  enum class Step { first, gained, flat, unclear } step = Step::first;
};

struct TierScaling {
  std::string series;  // the chart's series name: the tier, or "mpi threads" / "mpi ranks"
  std::string tier;
  bool ranks = false;
  std::vector<ScalingStep> steps{};  // ascending count, the first at 1
  // The last count whose step gained, claimed only when at least two measured counts lie past it and
  // none of them gained or was unclear: one slow measurement makes no knee.
  std::optional<int> stops_gaining{};
  // "stops gaining at 32 threads", "still gaining at 128 threads (the most measured)", …
  std::string verdict{};
};

// The rule above in words, for the chart's notes and the report.
std::string stop_rule();

// Each parallel tier's lines at n (threads; ranks too for a distributed tier), in card order; a line needs
// its 1-thread cell and one more count.
std::vector<TierScaling> thread_scaling(const Run& run, std::int64_t n);

// A count the machine's shape makes special: the last count that fits in one L3 group, NUMA node or
// socket, all physical cores (SMT siblings past it), all hardware threads. Counts that coincide are one
// boundary with the labels joined ("NUMA node · socket").
struct Boundary {
  int threads = 1;
  std::string label;
};
std::vector<Boundary> boundaries(const Topology& topology);

// What a cell's placement spans, in words: "crosses NUMA: 2 nodes, 2 sockets, 64 cores, SMT shared",
// "1 NUMA node: 8 cores, 1 socket"; "not recorded" without one.
std::string placement_text(const std::optional<Placement>& placement);

}  // namespace ladder::report
