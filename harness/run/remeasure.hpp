// Disturbed rounds measured again (`ladder run --remeasure N`, default 2). In a run of rounds (rounds.hpp),
// once every round of every cell has run, each ok cell with fewer clean rounds than the run's R gets another
// round (timing only) in place of a dropped one, up to N extra rounds a cell, stopping once it has R clean
// ones; each is judged by common/noise/disturbance.hpp's round rule as it is kept (keep_cell), and the record
// keeps every round, the dropped ones with why. Its `remeasured` says what the cell's first rounds gave and
// why they were dropped, as below.
//
// In a run of one round a cell (--rounds 1, the measurement of files written before rounds), each ok cell
// whose measurement was disturbed (common/noise/disturbance.hpp: the one rule) is run again in
// its worker, up to N times, stopping at the first measurement that is not disturbed; that one is kept. When
// every try was disturbed, the least slowed one is kept (the fastest median): other load, steal and the
// noise they make only ever add time to a kernel, so of several measurements of one cell the fastest is the
// one the disturbance touched least; the record says it is still disturbed, and the report keeps it out of
// the answer.
//
// Each try is journaled at once, as a cell line carrying `remeasured` (common/cell_result.hpp's Remeasured:
// the tries so far, the first median and why it was doubted, whether the kept one is still disturbed) that
// replaces the cell's earlier record when the journal is read (journal.hpp). A run interrupted while it
// measures again is resumed where it stopped: a cell goes on while its kept measurement is disturbed and it
// has had fewer than N tries.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cell_result.hpp"
#include "journal.hpp"
#include "output_directory.hpp"
#include "results_file.hpp"

namespace ladder {

// LADDER_TEST_DISTURB="CELL[=K][,CELL[=K]…]", a switch for tests only: the named cells' first K measurements
// (K from 1 to 99; 1 when not given) report one core more of other load than was measured, as a busy loop
// beside them would, so a test can make a cell disturbed when it chooses. A measurement it touched says so
// (extra "test_disturbance"), as does the re-measured record's first reasons, and the run warns of it.
// Parsed once, by parse_request (run_request.hpp): the cell names, each with its K.
using TestDisturbance = std::map<std::string, int>;
// Throws InputError naming the value and the form it takes; null or empty: none.
TestDisturbance parse_test_disturbance(const char* value);
// The reason the switch adds to a re-measured cell's first reasons.
inline constexpr const char* test_disturbance_reason = "reported by LADDER_TEST_DISTURB, a switch for tests";
// Applies the switch to an ok cell's `measurement`-th measurement (0 the first, 1 its first try again, …).
void disturb_for_test(CellResult& record, const TestDisturbance& disturbance, int measurement);
// In a run of rounds: to the record's round (its index-th measurement, counting from 1), added to it last.
// A round reports the machine's `cpus` cores more, so that the load competes with the cell whatever CPUs it
// leaves free (disturbance.hpp's round rule).
void disturb_round_for_test(CellResult& record, Round& round, const TestDisturbance& disturbance, int cpus);

// The run's files, as the runner keeps them: each record kept takes the place of the cell's earlier record in
// the journal's cells (or joins them), the rounds of every cell are judged again (rounds.hpp: the run's
// noise has one more round in it), the record is appended to the journal, the run record counts the cells
// done, and the results files are rewritten.
struct RunFiles {
  const Paths& paths;
  Journal& journal;
  RunRecord& run;
  bool resumed = false;
  // When the results files were last rewritten (rewrite_results), when the caller keeps track: keep_cell
  // then rewrites them only after 10 s or more, for who watches them mid-run. The journal keeps each cell
  // at once, and the runner rewrites them at each round's end and the run's: a file of megabytes rewritten
  // and read back after every cell was a tenth of a standard run's wall time on a 2-vCPU VM.
  std::chrono::steady_clock::time_point* written = nullptr;
};
// The results files rewritten now (results.hpp), and the time noted in files.written.
void rewrite_results(const RunFiles& files);
// Throws WriteError when a file cannot be written (the journal is whole as last written). With `results`
// false the results files are left for the caller to rewrite (a later round: the runner rewrites them once
// a round, as a file rewritten after each of three rounds a cell cost the run a fifth of its time here).
void keep_cell(const RunFiles& files, const CellResult& record, bool results = true);

// Runs one cell in its worker, as the run's first pass does; nullopt when the run was interrupted meanwhile.
using MeasureCell = std::function<std::optional<CellResult>(const CellKey& cell)>;

// The record to keep of a cell after one more try (`again`, its `tries`-th), given the record kept so far:
// the try when it is not disturbed, else the faster of the two ok measurements; its `remeasured` says so.
CellResult kept_after(const CellResult& kept, const CellResult& again, int tries);

// Measures each disturbed cell of the journal again, up to `times` tries a cell in all (0: none), keeping
// each try's outcome at once (keep_cell); none in a run whose context says it was emulated. Returns false
// when the run was interrupted before every disturbed cell was done (a resume finishes them), true otherwise.
bool remeasure_disturbed(const RunFiles& files, int times, const TestDisturbance& disturbance,
                         const MeasureCell& measure);

}  // namespace ladder
