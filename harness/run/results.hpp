// The results a run leaves behind, all made from its journal (the types are common/cell_result.hpp and
// common/results_file.hpp, the one schema):
// - journal.jsonl: one JSON object a line, appended and flushed to disk as each cell finishes (the first
//   line describes the run); what `--resume` reads (journal.hpp);
// - results.json: schema-versioned; `context` (machine, build, run, warnings), `cells` (the CellResult
//   records, what Ladder reads back) and `benchmarks`, their projection in Google Benchmark's own form (so
//   its compare.py reads them, common/benchmark_entries.hpp);
// - results.csv: one row a cell.
// results.json and results.csv are rewritten atomically (the runner: every 10 s at most, each round's end
// and the run's; remeasure.hpp's RunFiles).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "build_info.hpp"
#include "cell_result.hpp"
#include "journal.hpp"
#include "output_directory.hpp"
#include "results_file.hpp"

namespace ladder {

// The run's cells as results.json carries them: the journal's, each with whether its group was reproducible.
std::vector<CellResult> results_cells(const Journal& journal);
// The documents, from the journal and the run's summary (status, times, load).
nlohmann::json results_document(const Journal& journal, const RunRecord& run);
std::string results_csv(const Journal& journal);
// Writes results.json and results.csv, each replaced in one step. results.json is first written beside
// itself and read back by the reader `report` and `pick` use (read_results_file, and a card for each cell's
// tier): a document that does not read is never renamed over the file, which stays as it was. Throws
// WriteError when a file cannot be written; when the document does not read back, InputError naming the
// journal where it was resumed (a damaged journal), else std::logic_error (a bug in Ladder: exit 70).
void write_results_files(const Paths& paths, const Journal& journal, const RunRecord& run, bool resumed);

// The warnings a reader must see beside the numbers: noisy or short measurements, load, oversubscribed
// threads, an unoptimized build, failed cells, results outside the rounding bound, a parallel tier that
// used one core. `build` is the build the unoptimized-build warning judges: this binary's, or one a test
// makes up.
std::vector<WarningRecord> warnings(const Journal& journal, const RunRecord& run,
                                    const BuildInfo& build = build_info());

}  // namespace ladder
