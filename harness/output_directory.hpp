// The run's output directory, admitted before any cell runs: it can be made and written, and it holds
// nothing the run would lose (a non-empty one is refused unless resumed or forced).
#pragma once

#include <string>

namespace ladder {

struct Paths {
  std::string dir, journal, json, csv, work;
};

Paths paths_in(const std::string& dir);

// Throws InputError naming the directory and the problem.
void prepare_directory(const std::string& dir, bool resuming, bool force);

}  // namespace ladder
