// How far each tier is from the machine's limit: its counted work a node (FLOPs, bytes from memory; the
// cards and the run's instruction counts) over its measured time, against the limits the run measured
// beside its cells (context.limits: the peak FMA rate and the memory bandwidth, one core and all cores).
// Computed from the results file alone, as everything in the report is.
//
// A tier's share of the peak is its GFLOP/s over the peak for its thread count. An exp-bound kernel cannot
// reach that peak: the peak counts every FP instruction as an FMA of the widest lanes, while a kernel's
// range reduction, table and scaling issue adds, multiplies, min/max and permutes on the same ports. Its
// instruction-mix ceiling is therefore its FLOPs a node over (2 × lanes × its FP instructions a node), from
// the same count, and the headroom is how far it is from that ceiling, not from the peak.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "document.hpp"
#include "report.hpp"

namespace ladder::report {

// One tier's point: its best cell at the analysis' n, and what it reaches of the limits for its threads.
struct RooflinePoint {
  const Row* row = nullptr;
  int threads = 1;
  std::optional<double> gflops, gbytes;  // null: its FLOPs (bytes) a node were not counted
  std::optional<double> intensity;       // FLOPs a byte from memory; null: no memory traffic, or not counted
  double peak_gflops = 0, bandwidth_gbs = 0;  // the limits for its thread count (0: not measured)
  std::optional<double> share_of_peak, mix_ceiling, share_of_bandwidth;
  bool memory_bound = false;  // its intensity is below the ridge, where bandwidth caps it first
};

struct Roofline {
  // Empty when the limits were measured; else why not ("not measured: --no-limits").
  std::string unavailable;
  int peak_lanes = 0;                 // the lanes of the peak kernel's FMAs (8 for AVX-512)
  std::vector<RooflinePoint> points;  // the analysis' rows that are C++ tiers, in rung order
};
Roofline roofline(const Analysis& analysis);

// The limit for `threads` threads: one core's × threads, at most all cores' (null: not measured).
std::optional<double> limit_for(const std::optional<LimitReading>& one,
                                const std::optional<LimitReading>& all, int threads);

// The answer's headroom line for the fastest tier of the analysis: its share of the limit that binds it and,
// for a compute-bound one, its instruction-mix ceiling and what is left; or why it could not be said.
std::string headroom_line(const Analysis& analysis);

// "How far each tier is from the limits": the limits with their method and spread, how the work was counted,
// each tier's GFLOP/s, GB/s and shares, and the roofline chart a machine (roofline_chart.cpp).
void roofline_section(Document& doc, const std::vector<Analysis>& analyses);
std::vector<Chart> roofline_charts(const std::vector<Analysis>& analyses);

}  // namespace ladder::report
