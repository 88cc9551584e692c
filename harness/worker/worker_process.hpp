// One cell's worker process: started, watched (its output, a time limit, Ctrl-C), and classified when it
// ends: ok with its measurement, or crashed, killed, out of memory, timed out, failed, each with the reason.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "cell_result.hpp"
#include "matrix.hpp"
#include "reference.hpp"
#include "thread_binding.hpp"

namespace ladder {

// Ctrl-C and SIGTERM set a flag instead of killing the run: the cell in progress is stopped, every
// finished cell is kept.
void catch_interrupts();
bool interrupted();

struct WorkerOutcome {
  bool interrupted = false;  // stopped by Ctrl-C: not a result, the cell runs again on --resume
  CellStatus status = CellStatus::failed;
  std::string reason;
  std::optional<Measurement> measurement;
  WorkerReport worker;  // wall and CPU seconds, how it ended, the machine's other load
  long pid = 0;         // the worker process (its launcher's, for a distributed tier)
};

WorkerOutcome run_worker_process(const std::string& executable, const CellKey& cell, const Matrix& matrix,
                                 const Reference& ref, const ThreadBinding& binding,
                                 const std::string& hostfile, const std::string& result_file, double timeout,
                                 std::int64_t memory_limit,
                                 const std::optional<std::int64_t>& iterations = std::nullopt);

}  // namespace ladder
