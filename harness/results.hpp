// The results a run leaves behind, all made from its journal:
// - journal.jsonl: one JSON object a line, appended and flushed to disk as each cell finishes (the first
//   line describes the run); what `--resume` reads;
// - results.json: schema-versioned; `context` (machine, build, run, warnings) and `benchmarks`, whose
//   entries keep Google Benchmark's field names (so its compare.py reads them) with Ladder's beside them;
// - results.csv: one row a cell.
// results.json and results.csv are rewritten atomically after every cell.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ladder {

constexpr int results_schema_version = 1;

struct Journal {
  nlohmann::json header;               // {"kind":"run", "schema_version", "matrix", "context", …}
  std::vector<nlohmann::json> events;  // {"kind":"cell", …} and {"kind":"resume", …}, in order
};

// Reads a journal; a last line cut short by a kill is dropped (and cut from the file when `repair`).
// Throws InputError when the file is missing, is not a Ladder journal, or has another schema version.
Journal read_journal(const std::string& path, bool repair);
// Appends one line and flushes it to disk before returning.
void append_journal(const std::string& path, const nlohmann::json& line);

// The documents, from the journal and the run's summary (status, times, load).
nlohmann::json results_document(const Journal& journal, const nlohmann::json& run);
std::string results_csv(const nlohmann::json& document);

// The warnings a reader must see beside the numbers: noisy or short measurements, load, oversubscribed
// threads, an unoptimized build, failed cells, results outside the rounding bound, a parallel tier that
// used one core.
nlohmann::json warnings(const Journal& journal, const nlohmann::json& run);

}  // namespace ladder
