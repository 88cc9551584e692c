// The machine's limits beside a run's cells (measure_limits.hpp measures them): a sample just before the
// first cell, kept in the journal's first line, and one after the last, when the run completes;
// results.json's context.limits is the two merged (each reading the best of every run). With --no-limits the
// journal says why there are none. A topology that is only described cannot be measured: the record says so,
// and the run goes on. A resumed session takes its sample after its last cell only (the journal's first line
// is written).
#pragma once

#include <cstddef>

#include "journal.hpp"
#include "measure_limits.hpp"
#include "run_request.hpp"
#include "topology.hpp"

namespace ladder {

// The runs a reading takes in a sample: five with the probes (about a second a sample), three before the
// cells and two after with likwid-bench (over a second a run).
int run_limit_runs(LimitsTool tool, bool before);

// The sample before the first cell, printing a line that says so and what it took; "not measured:
// --no-limits" with --no-limits. Under emulation (the context's `emulation`) none is taken, saying why: the
// emulator's FLOP rate and bandwidth are not the machine's, and its triad over gigabytes takes minutes.
MachineLimits limits_before_cells(const RunRequest& args, const Topology& topology,
                                  const std::optional<Emulation>& emulation);
// The sample after the last cell, merged into the journal's header in memory (results.json is written from
// it; the file's first line keeps the sample before), when all `cells` of the run are in the journal (not
// after a session that was interrupted), --no-limits was not given and the run is not emulated.
void sample_limits_after_cells(const RunRequest& args, const Topology& topology, Journal& journal,
                               std::size_t cells);

// The seconds both samples take, for the plan; 0 with --no-limits or on a described topology.
double run_limits_seconds(const RunRequest& args, const Topology& topology);

}  // namespace ladder
