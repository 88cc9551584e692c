// The machine's limits, measured (common/machine_limits.hpp holds the record): the peak vector FMA rate and
// the memory bandwidth (a triad far out of cache) of one core and of all the CPUs a run's workers may use,
// each the best of several short runs, every run's figure kept. The peak swings widely on a shared VM
// (57 to 118 GFLOP/s within minutes was seen), so a run takes its samples right beside its cells: before
// the first and after the last (run_limits.hpp), and the record holds the best of them all.
//
// Two tools: likwid-bench (likwid_bench.hpp) where it is installed, else Ladder's own probes
// (limit_probes.hpp); a likwid-bench that fails is reported, with its output, in the reading's note and
// the probe measures instead. Each likwid-bench start spends about a second calibrating its clock, so a
// run, where the limits must cost seconds, uses the probes unless told otherwise; `ladder machine` uses
// likwid-bench where it is installed.
#pragma once

#include <string>
#include <vector>

#include "machine_limits.hpp"
#include "topology.hpp"

namespace ladder {

enum class LimitsTool {
  automatic,  // likwid-bench where it is installed, else the probes
  likwid,     // likwid-bench (the probes, with a note, where it is missing or fails)
  probe,      // Ladder's probes
};
// "auto", "likwid-bench", "probe"; InputError naming the value and the accepted ones otherwise.
LimitsTool parse_limits_tool(const std::string& text);
std::string limits_tool_name(LimitsTool tool);
const std::vector<std::string>& limits_tool_names();

// The four readings on this machine, `runs` runs each, on one thread pinned to the first of the
// topology's PUs and on one pinned to each of them. Not measured, saying why, on a topology that is only
// described (HWLOC_SYNTHETIC, HWLOC_XMLFILE): there is no such machine here to measure.
MachineLimits measure_machine_limits(const Topology& topology, LimitsTool tool, int runs);

// Samples of one run (before its first cell, after its last, a resumed session's) as one record: each
// reading's runs in the order taken, its best the best of all, its time the first's. A reading measured by
// another tool or method than the first sample's is left out, and the note says so. Not measured when no
// sample was (the last sample's reason).
MachineLimits merge_limits(const std::vector<MachineLimits>& samples);

// The wall seconds a sample of `runs` runs a reading takes with `tool` here (for `ladder plan`).
double estimated_limits_seconds(LimitsTool tool, int runs);

}  // namespace ladder
