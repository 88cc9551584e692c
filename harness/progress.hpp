// The run's progress on the terminal: a bar while a cell runs (only on a terminal), a line when it ends.
#pragma once

#include <chrono>
#include <cstddef>

#include "measurement.hpp"

namespace ladder {

class Progress {
 public:
  Progress(std::size_t total, std::size_t done);
  void starting(const Cell& cell);
  void finished(const CellRecord& record);
  void clear();

 private:
  double elapsed() const;
  std::string remaining() const;
  std::size_t total_, done_, measured_ = 0;
  std::chrono::steady_clock::time_point start_;
  bool terminal_;
};

}  // namespace ladder
