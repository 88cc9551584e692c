// The run's progress on the terminal: a bar while a cell runs (only on a terminal), a line when it ends,
// each with the time left: the plan's estimate of the cells still to run (plan.hpp), scaled by how the
// finished cells' real time compared with their estimate.
#pragma once

#include <chrono>
#include <cstddef>

#include "cell_result.hpp"

namespace ladder {

class Progress {
 public:
  // `estimated_seconds`: the plan's estimate of the cells still to run.
  Progress(std::size_t total, std::size_t done, double estimated_seconds);
  void starting(const CellKey& cell);
  // `estimated_seconds`: what the plan estimated for this cell.
  void finished(const CellResult& record, double estimated_seconds);
  void clear();

 private:
  double elapsed() const;
  std::string remaining() const;
  std::size_t total_, done_;
  double estimated_left_, estimated_done_ = 0;
  std::chrono::steady_clock::time_point start_;
  bool terminal_;
};

}  // namespace ladder
