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
// Where a run goes when --out is not given: a folder of its own, PARENT/run-YYYYMMDD-HHMMSS (local time, as
// scripts/main names its runs), with -2, -3, … when a run of the same second holds that name already.
// So two runs in a row both work, and neither touches the other's files.
inline const char* const runs_folder = "ladder-out";
std::string new_run_directory(const std::string& parent = runs_folder);
// Removes `created` (prepare_directory's answer) and what is in it; nothing when empty.
void remove_created_directory(const std::string& created);

}  // namespace ladder
