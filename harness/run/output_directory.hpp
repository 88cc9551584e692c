// The run's output directory, admitted before any cell runs: it can be made and written, and it holds
// nothing the run would lose (a non-empty one is refused unless resumed or forced).
#pragma once

#include <string>

namespace ladder {

struct Paths {
  std::string dir, journal, json, csv, work;
};

Paths paths_in(const std::string& dir);

// Throws InputError naming the directory and the problem. Returns the topmost directory it created (dir, or
// the first of its parents that was missing), for the run to remove when it stops before its journal's first
// line (nothing half-made is left behind); empty when it created none.
std::string prepare_directory(const std::string& dir, bool resuming, bool force);
// Removes `created` (prepare_directory's answer) and what is in it; nothing when empty.
void remove_created_directory(const std::string& created);

}  // namespace ladder
