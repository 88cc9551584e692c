// journal.jsonl: what a run has done, one JSON object a line, appended and flushed to disk as each cell
// finishes; what `--resume` reads and every results file is made from. Its first line, the header,
// describes the run (JournalHeader); then come the cells (common/cell_result.hpp's CellResult) and the
// resumptions, as they happened. Each line is written by its type's to_json and read back, checked, as
// that type. A disturbed cell measured again at the end of the run (remeasure.hpp) is a cell line of its
// own, carrying `remeasured`, appended like any other: read, it replaces the cell's earlier record, so the
// file stays append-only and the journal read holds each cell once.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cell_result.hpp"
#include "instruction_counts.hpp"
#include "matrix.hpp"
#include "results_file.hpp"
#include "run_context.hpp"

namespace ladder {

// The run's first line: what was asked for (the matrix, the command line), on what (the machine), with
// which tiers (their cards), and the instructions a node counted before the first cell.
struct JournalHeader {
  int schema_version = results_schema_version;
  std::string started, label, preset, command_line;
  std::optional<std::vector<double>> load_average_before;  // 1, 5 and 15 minutes; null where unreadable
  Matrix matrix;
  MachineContext context;
  std::vector<CardRecord> tiers;
  std::optional<BudgetRecord> budget;  // how the matrix was fitted to --budget
  InstructionCounts instructions;
  // The machine's limits, sampled before the first cell (run_limits.hpp); in memory, the sample after the
  // last cell merged in (not journaled: a run that has it is complete). A journal written before Ladder
  // measured them has none.
  MachineLimits limits = limits_of_older_file();
};
void to_json(nlohmann::json& out, const JournalHeader& header);
// Checked: a missing or mistyped field is a SchemaError naming it ("line 1.context.simd: …").
JournalHeader read_journal_header(const JsonReader& in);

// A journal line saying the run was resumed.
struct ResumeRecord {
  std::string at, host_name, command_line;
};
void to_json(nlohmann::json& out, const ResumeRecord& record);

struct Journal {
  std::optional<JournalHeader> header;  // null only before the run's first line is written or read
  std::vector<CellResult> cells;
  std::vector<ResumeRecord> resumptions;
};

// Reads a journal; a last line cut short by a kill is dropped (and cut from the file when `repair`). A cell
// line with `remeasured` replaces the cell's record before it when that one has fewer tries; otherwise it is
// added, like any other cell line, for the runner to refuse a cell that comes twice.
// Throws InputError when the file is missing, is not a Ladder journal, has another schema version, or a
// line is damaged (naming the line and the field). A journal of schema 1 is read through its migration.
Journal read_journal(const std::string& path, bool repair);
// What a resume needs of a journal beyond its schema: the header carries one card a tier, for every tier of
// its matrix (a results file made from it without one is refused by `report` and `pick`), and no tier twice;
// and this process runs as the run began, natively or emulated (check_resume_emulation). Throws InputError
// naming the journal and the tier, or the run's directory `dir`.
void check_resumable(const JournalHeader& header, const std::string& path, const std::string& dir);
// Appends one line and flushes it to disk before returning; WriteError when it cannot. User text in it (a
// path in the command line) that is not UTF-8 is written replaced (dump_json), never refused.
void append_journal(const std::string& path, const nlohmann::json& line);

}  // namespace ladder
