// Store::record: a finished run's results file written into the store, in one transaction, keyed by its
// machine's and build's fingerprints (identity.hpp).
#include <sqlite3.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <thread>

#include "cells_from_results.hpp"
#include "clock.hpp"
#include "errors.hpp"
#include "history_store.hpp"
#include "identity.hpp"
#include "quote.hpp"
#include "results_file.hpp"
#include "sqlite.hpp"
#include "store_tables.hpp"

namespace ladder::history {
namespace {

namespace fs = std::filesystem;
using sqlite::Statement;

std::string read_text(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The run's row, as `runs` holds it: where and when it was recorded (`origin`: its results file, or what
// measured it), and what it was built from and ran on.
RecordedRun run_of(const ContextRecord& context, const std::string& origin, const std::string& run_id) {
  RecordedRun run;
  run.run_id = run_id;
  run.results_path = origin;
  run.recorded = now_utc();
  run.started = context.run.started;
  run.finished = context.run.finished.value_or("");
  run.label = context.run.label;
  run.status = context.run.status;
  run.git_commit = context.source.git_commit;
  run.git_branch = context.source.git_branch;
  run.git_dirty = context.source.git_dirty;
  run.tier_sources = context.source.tier_sources;
  run.machine = machine_fingerprint(context);
  run.host = context.host_name;
  run.cpu_model = context.cpu_model;
  run.logical_cpus = context.logical_cpus;
  run.physical_cores = context.physical_cores;
  run.memory_total_bytes = context.memory_total_bytes;
  run.topology = context.topology ? context.topology->describe() : std::string("unknown");
  run.build_fingerprint = build_fingerprint(context);
  run.compiler = context.compiler;
  run.build_type = context.build_type;
  run.common_flags = context.common_flags;
  run.libraries = context.libraries;
  return run;
}

// A pause inside the record's transaction, for the tests of a writer killed mid-record and of two writers
// at once (LADDER_HISTORY_TEST_PAUSE_AFTER_CELLS=N: after the N-th cell, say so on stderr and sleep
// LADDER_HISTORY_TEST_PAUSE_SECONDS, default 60). Test-only: never set it otherwise.
void test_pause(std::size_t cells_written) {
  const char* after = std::getenv("LADDER_HISTORY_TEST_PAUSE_AFTER_CELLS");
  if (!after || std::to_string(cells_written) != after) return;
  const char* seconds = std::getenv("LADDER_HISTORY_TEST_PAUSE_SECONDS");
  std::fprintf(stderr, "history: test pause after %zu cells\n", cells_written);
  std::fflush(stderr);
  std::this_thread::sleep_for(std::chrono::seconds(seconds ? std::atoi(seconds) : 60));
}

// What makes a run that run, whichever file it is read from: its host, its start time and its matrix (the
// seed of its cells' order among it), as SHA-256 (hex). A resume keeps all three; two runs started in the
// same second on one host differ in their seed or their matrix. A file with no start time is identified by
// its text alone.
std::string run_identity(const ContextRecord& context, const std::string& text) {
  if (context.run.started.empty()) return "file " + sha256_hex(text);
  return sha256_hex("host=" + context.host_name + "\nstarted=" + context.run.started +
                    "\nmatrix=" + dump_json(context.matrix.to_json()));
}

// The run id of the run already recorded that `run` is (nullopt: none): the same identity, or, among the
// runs recorded before identities were kept (schema 6), the same host, start time, machine, build and label.
std::optional<std::string> recorded_as(const sqlite::Database& db, const RecordedRun& run,
                                       const std::string& identity) {
  Statement same(
      db,
      "SELECT run_id FROM runs WHERE run_id = :run_id OR identity = :identity OR (identity IS NULL "
      "AND host = :host AND started = :started AND machine = :machine AND build = :build AND "
      "label = :label) ORDER BY id LIMIT 1");
  same.bind(":run_id", run.run_id)
      .bind(":identity", identity)
      .bind(":host", run.host)
      .bind(":started", run.started)
      .bind(":machine", run.machine)
      .bind(":build", run.build_fingerprint)
      .bind(":label", run.label);
  if (!same.step()) return std::nullopt;
  return same.text("run_id");
}

// Writes the run's row and its tier sources; returns the row's id.
std::int64_t write_run(const sqlite::Database& db, const RecordedRun& run, const std::string& identity) {
  Statement insert_run(
      db, sqlite::insert_sql("runs", sqlite::column_names(run_fields, {"libraries", "identity"})));
  sqlite::bind_fields(insert_run, run_fields, run);
  insert_run.bind(":libraries", dump_json(nlohmann::json(run.libraries))).bind(":identity", identity).run();
  const std::int64_t id = sqlite3_last_insert_rowid(db.handle());
  Statement insert_source(db, sqlite::insert_sql("tier_sources", {"run", "file", "sha256"}));
  for (const auto& [source, digest] : run.tier_sources)
    insert_source.reset().bind(":run", id).bind(":file", source).bind(":sha256", digest).run();
  return id;
}

// Writes the run's cells, in order, each with its repetitions.
void write_cells(const sqlite::Database& db, std::int64_t run, const std::vector<StoredCell>& cells) {
  Statement insert_cell(db,
                        sqlite::insert_sql("cells", sqlite::column_names(cell_fields, {"run", "position"})));
  Statement insert_repetition(db,
                              sqlite::insert_sql("repetitions", {"cell", "position", "real_ns", "cpu_ns"}));
  std::size_t written = 0;
  for (const auto& cell : cells) {
    insert_cell.reset().bind(":run", run).bind(":position", static_cast<std::int64_t>(written));
    sqlite::bind_fields(insert_cell, cell_fields, cell);
    insert_cell.run();
    const std::int64_t cell_row = sqlite3_last_insert_rowid(db.handle());
    for (std::size_t i = 0; i < cell.repetitions.size(); ++i)
      insert_repetition.reset()
          .bind(":cell", cell_row)
          .bind(":position", static_cast<std::int64_t>(i))
          .bind(":real_ns", cell.repetitions[i])
          .bind(":cpu_ns", cell.cpu_repetitions[i])
          .run();
    test_pause(++written);
  }
}

// Reads the run just written back, inside its transaction, through the readers' own queries: the run and
// each cell (its name and repetitions) as written, else InputError, and the transaction is rolled back.
void check_read_back(const Store& store, const std::string& run_id, const std::vector<StoredCell>& written) {
  const auto run = store.run(run_id);
  const auto cells = store.cells(run_id);
  bool same = run && cells.size() == written.size();
  for (std::size_t i = 0; same && i < cells.size(); ++i)
    same = cells[i].name == written[i].name && cells[i].repetitions == written[i].repetitions;
  if (!same)
    sqlite::refuse_damaged(store.path(), "run " + run_id.substr(0, 12) +
                                             " did not read back as it was written; nothing of it was kept");
}

}  // namespace

Recorded Store::record(const std::string& results) {
  const ResultsFile file = read_results_file(results);  // InputError naming the file and the problem
  if (file.context.run.status == "interrupted" || file.context.run.status == "running")
    throw InputError("results file '" + file.path + "' holds a run that did not finish (status " +
                     file.context.run.status + "): finish it with `ladder run --resume` first");
  if (file.context.emulation && file.context.emulation->is_emulated())  // common/emulation.hpp
    throw InputError("results file '" + file.path + "' holds an emulated run (" +
                     file.context.emulation->text() +
                     "): the history keeps this machine's times and noise, and an emulator's are neither");
  const std::string text = read_text(file.path);
  const std::string run_id = sha256_hex(text);
  const std::string identity = run_identity(file.context, text);
  const std::vector<StoredCell> cells = cells_of(file);
  std::error_code error;
  const fs::path absolute = fs::absolute(file.path, error);
  return write_recorded(
      run_of(file.context, error ? file.path : absolute.lexically_normal().string(), run_id), cells,
      identity);
}

Recorded Store::record_measured(const ContextRecord& context, const std::vector<StoredCell>& cells,
                                const std::string& identity, const std::string& origin) {
  if (context.run.status != "complete")
    throw InputError("a measurement of status " + context.run.status +
                     " is not recorded: only a finished one");
  if (context.emulation && context.emulation->is_emulated())
    throw InputError("an emulated measurement (" + context.emulation->text() +
                     ") is not recorded: the history keeps this machine's times and noise");
  for (const auto& cell : cells)
    if (cell.repetitions.size() != cell.cpu_repetitions.size())
      throw InputError("the cell " + quote_text(cell.name) + " has " +
                       std::to_string(cell.repetitions.size()) + " real times and " +
                       std::to_string(cell.cpu_repetitions.size()) + " CPU times");
  return write_recorded(run_of(context, origin, sha256_hex("measured\n" + identity)), cells, identity);
}

Recorded Store::write_recorded(const RecordedRun& run, const std::vector<StoredCell>& cells,
                               const std::string& identity) {
  const sqlite::Database& db = *impl_->db;
  sqlite::Transaction transaction(db);
  if (const auto earlier = recorded_as(db, run, identity)) return {false, *earlier, cells.size()};
  write_cells(db, write_run(db, run, identity), cells);
  check_read_back(*this, run.run_id, cells);
  transaction.commit();
  return {true, run.run_id, cells.size()};
}

}  // namespace ladder::history
