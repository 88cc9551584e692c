// Where each cell's noise figure comes from: the machine's run-to-run noise that widens a cell's interval
// (intervals.hpp), read from the history store of the machine the run was measured on. `ladder report`, the
// report `ladder run` writes and `ladder pick` fill a run's noise with it before they decide, so all three
// widen the same cells by the same figures (docs/reading-the-report.md, "Where the noise figure comes from").
#pragma once

#include <optional>
#include <string>

#include "report.hpp"

namespace ladder::report {

// Fills run.noise.by_cell for every cell of the run (its cells, per-call cells and other builds' cells),
// keyed by the machine fingerprint of the run's context, from the history database at `history_path`:
// history::noise_of(…, Compared::cells_of_one_run):
// - the history's runs of one clean commit on that machine: runs measured apart, exactly what two runs of
//   the same code here differ by;
// - else the recorded A/A `ladder ab` figure, its source saying that adjacent processes understate how far
//   runs measured apart move;
// - else nothing: the cell keeps run.noise.fallback, the documented default.
// Each figure becomes a Threshold through floor_threshold. The database is opened read-only: never created,
// never written. One that does not exist knows nothing and is no error; one that cannot be read is the
// store's InputError, naming it.
void fill_noise(Run& run, const std::string& history_path);

// load_run, its noise filled from the database `history_option` names (--history; unset: $LADDER_HISTORY,
// else the default, as history::database_path resolves it): how `ladder report`, `ladder run`'s report and
// `ladder pick` read a run, so that all three decide with the same figures.
Run load_run_with_noise(const std::string& where, const std::optional<std::string>& history_option);

}  // namespace ladder::report
