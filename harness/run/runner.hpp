// `ladder run`: expands the matrix into cells, runs each in a worker process (the same binary, the hidden
// `worker` subcommand) with a time limit and a memory limit, journals each finished cell at once, and
// keeps results.json and results.csv current. Ctrl-C leaves every finished cell on disk; `--resume DIR`
// runs the rest. The report is not the runner's business: the command line makes it from results.json.
//
// The parts: run_request (arguments → matrix), output_directory (admission), thread_binding,
// worker_process (start, watch, classify), progress, summary, results (journal → results files).
#pragma once

#include <cstddef>

#include "output_directory.hpp"
#include "run_request.hpp"

namespace ladder {

struct RunOutcome {
  // 0 every cell measured (or skipped or unavailable, with the reason), 1 some cell failed, 4 a results
  // file could not be written (the finished cells are safe: resume once there is space), 130 interrupted.
  int exit_code = 0;
  Paths paths;
  bool complete = false;  // every cell of the matrix is in the journal
  std::size_t cells_done = 0, cells_total = 0;
};

// Throws InputError (nothing written) on bad arguments or an output directory that cannot be used.
RunOutcome run_matrix(const RunRequest& arguments);

}  // namespace ladder
