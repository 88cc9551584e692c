// The history store's tables as the record types hold them (internal to history/): each table's columns,
// named once, with the member each one is written from and read back into. Written by store_record.cpp,
// read by store_read.cpp; the schema itself (the CREATE TABLE statements) is in store_schema.cpp.
#pragma once

#include <memory>
#include <string>

#include "history_store.hpp"
#include "sqlite.hpp"

namespace ladder::history {

struct Store::Impl {
  std::string path;
  std::unique_ptr<sqlite::Database> db;
  int version = schema_version;  // the database's schema: an older one is read as it is (never migrated)
};

// runs: one row a recorded run (besides these, `id`, and `libraries` as a JSON object of name -> version).
inline const sqlite::Fields<RecordedRun> run_fields = {
    {"run_id", &RecordedRun::run_id},
    {"results_path", &RecordedRun::results_path},
    {"recorded", &RecordedRun::recorded},
    {"started", &RecordedRun::started},
    {"finished", &RecordedRun::finished},
    {"label", &RecordedRun::label},
    {"status", &RecordedRun::status},
    {"git_commit", &RecordedRun::git_commit},
    {"git_branch", &RecordedRun::git_branch},
    {"git_dirty", &RecordedRun::git_dirty},
    {"machine", &RecordedRun::machine},
    {"host", &RecordedRun::host},
    {"cpu_model", &RecordedRun::cpu_model},
    {"logical_cpus", &RecordedRun::logical_cpus},
    {"physical_cores", &RecordedRun::physical_cores},
    {"memory_total_bytes", &RecordedRun::memory_total_bytes},
    {"topology", &RecordedRun::topology},
    {"build", &RecordedRun::build_fingerprint},
    {"compiler", &RecordedRun::compiler},
    {"build_type", &RecordedRun::build_type},
    {"common_flags", &RecordedRun::common_flags},
};

// cells: one row a cell of a run (besides these, `id`, `run` and `position`, its place in the results file).
inline const sqlite::Fields<StoredCell> cell_fields = {
    {"name", &StoredCell::name},
    {"tier", &StoredCell::tier},
    {"integrand", &StoredCell::integrand},
    {"n", &StoredCell::n},
    {"threads", &StoredCell::threads},
    {"ranks", &StoredCell::ranks},
    {"build_id", &StoredCell::build},
    {"status", &StoredCell::status},
    {"reason", &StoredCell::reason},
    {"median", &StoredCell::median},
    {"min", &StoredCell::min},
    {"max", &StoredCell::max},
    {"mean", &StoredCell::mean},
    {"stddev", &StoredCell::stddev},
    {"cv", &StoredCell::cv},
    {"ns_per_node", &StoredCell::ns_per_node},
    {"peak_heap_bytes", &StoredCell::peak_heap_bytes},
    {"peak_rss_bytes", &StoredCell::peak_rss_bytes},
    {"allocations", &StoredCell::allocations},
    {"rel_error", &StoredCell::rel_error},
    {"rounding_error", &StoredCell::rounding_error},
    {"rounding_bound", &StoredCell::rounding_bound},
    {"instructions_per_node", &StoredCell::instructions_per_node},
    {"flops_per_node", &StoredCell::flops_per_node},
    {"tier_source_sha256", &StoredCell::tier_source_sha256},
};

// A series point's run, from the runs table (its cell from cell_fields).
inline const sqlite::Fields<SeriesPoint> point_run_fields = {
    {"run_id", &SeriesPoint::run_id},
    {"started", &SeriesPoint::started},
    {"label", &SeriesPoint::label},
    {"git_commit", &SeriesPoint::git_commit},
    {"git_branch", &SeriesPoint::git_branch},
    {"git_dirty", &SeriesPoint::git_dirty},
    {"host", &SeriesPoint::host},
};

// A series key: a cell's coordinates and build (cells) on its run's machine and build (runs).
inline const sqlite::Fields<SeriesKey> key_cell_fields = {
    {"tier", &SeriesKey::tier},       {"integrand", &SeriesKey::integrand}, {"n", &SeriesKey::n},
    {"threads", &SeriesKey::threads}, {"ranks", &SeriesKey::ranks},         {"build_id", &SeriesKey::build},
};
inline const sqlite::Fields<SeriesKey> key_run_fields = {
    {"machine", &SeriesKey::machine},
    {"build", &SeriesKey::build_fingerprint},
};

// A select list of `fields` from the cells table (alias c) as a database of schema `version` holds them: one
// of version 2 has no build_id column, and its cells read as of no build (''); one of version 2 or 3 has no
// flops_per_node column, and its cells read with none (NULL).
template <typename Record>
std::string cells_select_list(int version, const sqlite::Fields<Record>& fields) {
  std::string list = sqlite::select_list("c", fields);
  auto absent = [&list](const std::string& column, const std::string& value) {
    const std::string selected = "c." + column + " AS " + column;
    if (const auto at = list.find(selected); at != std::string::npos)
      list.replace(at, selected.size(), value + " AS " + column);
  };
  if (version < 3) absent("build_id", "''");
  if (version < 4) absent("flops_per_node", "NULL");
  return list;
}
// The cells' build column in a WHERE clause: '' in a database of schema version 2.
inline std::string cells_build_column(int version) { return version >= 3 ? "c.build_id" : "''"; }

}  // namespace ladder::history
