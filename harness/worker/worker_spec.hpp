// What `ladder run` tells a cell's worker, passed as `--spec JSON`: the cell, the matrix (its repetitions
// and minimum times), the references computed once per size, the rounding bound they make for the cell
// (the Python peer's worker, scripts/peers/worker.py, reads it; Ladder's own worker computes it again),
// and where the harness placed the cell's threads. Written by worker_command (worker_process.cpp) and read
// back by run_worker (worker.cpp); the keys are the peer's too: "cell", "matrix", "reference",
// "rounding_bound", "cpus", "iterations".
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cell_result.hpp"
#include "json_reader.hpp"
#include "matrix.hpp"
#include "reference.hpp"

namespace ladder {

struct WorkerSpec {
  CellKey cell;
  Matrix matrix;
  std::optional<Reference> reference;  // absent: the worker computes it
  double rounding_bound = 0;           // from the reference, for the cell's tier, n and threads
  std::vector<int> cpus;               // one PU a thread; empty: not pinned
  // A later round's (rounds.hpp): the first round's iterations a repetition, timing only; absent: the
  // first round, which sizes its iterations and measures memory and counters too. A Python peer sizes its
  // own each round.
  std::optional<std::int64_t> iterations{};
};

nlohmann::json to_json(const WorkerSpec& spec);
// Throws SchemaError naming the field that is missing or wrong.
WorkerSpec read_worker_spec(const JsonReader& in);

}  // namespace ladder
