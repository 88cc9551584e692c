// The run's records as they stand before its first cell (runner.cpp): the journal's first line (the run's
// header: its matrix, the machine's context, the cards, the instruction counts and the limits before the
// cells) and results.json's run record.
#pragma once

#include <sched.h>

#include <cstddef>
#include <optional>
#include <string>

#include "errors.hpp"
#include "journal.hpp"
#include "matrix.hpp"
#include "output_directory.hpp"
#include "plan.hpp"
#include "run_request.hpp"
#include "topology.hpp"

namespace ladder {

// The journal's first line for a new run: counts the instructions a node under callgrind first, unless
// --no-instructions, and takes the limits' sample before the cells.
JournalHeader run_header(const RunRequest& args, const Matrix& matrix, const Topology& topology,
                         const std::optional<Budgeted>& budget, const std::string& executable);

// The run record (results.json's context.run) as it stands when the first cell starts.
RunRecord run_record(const RunRequest& args, const JournalHeader& header, std::size_t cells, std::size_t done,
                     double estimated_seconds, const cpu_set_t& run_cpus);

// A write failed (a full disk): says on stderr what is finished and safe, and how to go on (`--resume`), or,
// before the journal's first line, that nothing was measured.
void report_write_failure(const WriteError& failure, const Journal& journal, std::size_t cells,
                          const Paths& paths);

}  // namespace ladder
