// The worker: one cell, measured inside its own process. `ladder run` starts the same binary with the
// hidden `worker` subcommand for every cell, so a crash, abort, hang or runaway allocation costs that
// cell only, and memory figures belong to the cell alone.
//
// Inside, the worker warms the kernel up (its runtime started, then calls for the minimum warm-up time,
// at a smaller n where a call would outlast it). A cell's first round then makes one call with the heap
// counted and the peak resident set reset, one under the hardware counters, and sizes the repetitions from
// its warm calls as Google Benchmark would (1.4 × the minimum time). Google Benchmark times the
// repetitions (a reporter copies every run out), and the result is compared with the references.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cell_result.hpp"
#include "errors.hpp"
#include "matrix.hpp"
#include "reference.hpp"

namespace ladder {

// Measures one cell with the matrix's repetitions and minimum times: the timing runs, the statistics, the
// errors and the memory figures. Throws what the kernel throws.
// The references may come computed (`ladder run` computes them once per size); else they are computed here.
// cpus: where the harness placed the cell's threads, one a thread (RunOptions::cpus); empty: not pinned.
// iterations: a later round's (harness/run/rounds.hpp), the first round's iterations a repetition: the
// warm-up and the timed repetitions only, no memory or counter pass (its memory is empty and its counters
// absent: the first round's are the cell's). Absent: the first round, which sizes a repetition from its warm
// calls.
Measurement measure_cell(const CellKey& cell, const Matrix& matrix,
                         const std::optional<Reference>& computed = std::nullopt,
                         const std::vector<int>& cpus = {},
                         const std::optional<std::int64_t>& iterations = std::nullopt);

// The result's errors against the references and its bound, and the references' methods and notes, into
// the measurement: an error against a reference that is absent or not finite is null, never a number.
void record_reference(Measurement& measurement, double result, const Reference& ref, double bound);

// The hidden subcommand: reads its WorkerSpec (worker_spec.hpp) as JSON, writes the measurement (or the
// reason it failed) to result_file, atomically. Returns the process's exit code.
int run_worker(const std::string& cell_json, const std::string& result_file);

// Exit codes a worker uses for failures it catches itself. Out of memory has a code no command of the CLI
// uses (common/errors.hpp: 3 is "unavailable" there), so a worker's exit status never reads as another's.
constexpr int worker_failed = 1;
constexpr int worker_out_of_memory = 6;
static_assert(worker_out_of_memory > exit_tool_failed && worker_out_of_memory < exit_internal_error);

}  // namespace ladder
