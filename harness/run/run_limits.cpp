// The machine's limits beside a run's cells (run_limits.hpp).
#include "run_limits.hpp"

#include <chrono>
#include <cstdio>

#include "text.hpp"

namespace ladder {
namespace {

MachineLimits sample(const RunRequest& args, const Topology& topology, bool before) {
  const LimitsTool tool = args.limits_tool;
  std::printf("measuring the machine's limits %s the cells (%s; --no-limits skips this) …",
              before ? "before" : "after", tool == LimitsTool::probe ? "Ladder's probe" : "likwid-bench");
  std::fflush(stdout);
  const auto started = std::chrono::steady_clock::now();
  MachineLimits limits = measure_machine_limits(topology, tool, run_limit_runs(tool, before));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf(" %s\n", limits.measured ? format_seconds(seconds).c_str() : limits.reason.c_str());
  std::fflush(stdout);
  return limits;
}

}  // namespace

int run_limit_runs(LimitsTool tool, bool before) { return tool == LimitsTool::probe ? 5 : before ? 3 : 2; }

MachineLimits limits_before_cells(const RunRequest& args, const Topology& topology,
                                  const std::optional<Emulation>& emulation) {
  MachineLimits skipped;
  if (emulation && emulation->is_emulated()) {
    skipped.reason = "not measured: " + emulation->text();
    std::printf("the machine's limits: %s\n", skipped.reason.c_str());
  } else if (!args.limits) {
    skipped.reason = "not measured: --no-limits";
  } else {
    return sample(args, topology, true);
  }
  return skipped;
}

void sample_limits_after_cells(const RunRequest& args, const Topology& topology, Journal& journal,
                               std::size_t cells) {
  if (!journal.header) return;
  const auto& emulation = journal.header->context.emulation;
  if (emulation && emulation->is_emulated()) return;
  if (args.limits && journal.cells.size() == cells)
    journal.header->limits = merge_limits({journal.header->limits, sample(args, topology, false)});
}

double run_limits_seconds(const RunRequest& args, const Topology& topology) {
  if (!args.limits || topology.synthetic) return 0;
  const LimitsTool tool = args.limits_tool;
  return estimated_limits_seconds(tool, run_limit_runs(tool, true)) +
         estimated_limits_seconds(tool, run_limit_runs(tool, false));
}

}  // namespace ladder
