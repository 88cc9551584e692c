// The history store's schema and how a database is opened: the migrations from one schema version to the
// next, the checks that refuse a file that is not a Ladder history (before anything is written to it), and
// Store's construction.
#include <sqlite3.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "errors.hpp"
#include "history_store.hpp"
#include "quote.hpp"
#include "sqlite.hpp"
#include "store_tables.hpp"

namespace ladder::history {
namespace {

namespace fs = std::filesystem;
using sqlite::Database;
using sqlite::pragma_integer;
using sqlite::Statement;
using sqlite::Transaction;

// ---- the schema and its migrations ------------------------------------------------------------------

// Version 1: runs, the source files they were built from, their cells, each cell's repetitions.
constexpr const char* first_schema = R"sql(
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  run_id TEXT NOT NULL UNIQUE,
  results_path TEXT NOT NULL,
  recorded TEXT NOT NULL,
  started TEXT NOT NULL,
  finished TEXT NOT NULL,
  label TEXT NOT NULL,
  status TEXT NOT NULL,
  git_commit TEXT NOT NULL,
  git_branch TEXT NOT NULL,
  git_dirty TEXT NOT NULL,
  machine TEXT NOT NULL,
  host TEXT NOT NULL,
  cpu_model TEXT NOT NULL,
  logical_cpus INTEGER NOT NULL,
  physical_cores INTEGER NOT NULL,
  memory_total_bytes REAL,
  topology TEXT NOT NULL,
  build TEXT NOT NULL,
  compiler TEXT NOT NULL,
  build_type TEXT NOT NULL,
  common_flags TEXT NOT NULL,
  libraries TEXT NOT NULL
);
CREATE TABLE tier_sources (
  run INTEGER NOT NULL REFERENCES runs(id),
  file TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  PRIMARY KEY (run, file)
);
CREATE TABLE cells (
  id INTEGER PRIMARY KEY,
  run INTEGER NOT NULL REFERENCES runs(id),
  position INTEGER NOT NULL,
  name TEXT NOT NULL,
  tier TEXT NOT NULL,
  integrand TEXT NOT NULL,
  n INTEGER NOT NULL,
  threads INTEGER NOT NULL,
  ranks INTEGER NOT NULL,
  status TEXT NOT NULL,
  reason TEXT NOT NULL,
  median REAL, min REAL, max REAL, mean REAL, stddev REAL, cv REAL, ns_per_node REAL,
  peak_heap_bytes REAL, peak_rss_bytes REAL, allocations REAL,
  rel_error REAL, rounding_error REAL, rounding_bound REAL,
  instructions_per_node REAL,
  tier_source_sha256 TEXT NOT NULL,
  UNIQUE (run, name)
);
CREATE TABLE repetitions (
  cell INTEGER NOT NULL REFERENCES cells(id),
  position INTEGER NOT NULL,
  real_ns REAL NOT NULL,
  cpu_ns REAL NOT NULL,
  PRIMARY KEY (cell, position)
);
)sql";

// Migration i (1-based) takes a database from version i - 1 to version i; version 0 is a new, empty file.
// A new migration is appended here, and schema_version raised: a database is never changed in place by
// editing an earlier step.
const std::vector<std::string>& migrations() {
  static const std::vector<std::string> steps = {
      first_schema,
      // 2: indices for the series (a cell's coordinates, on one machine and build, over runs).
      R"sql(
CREATE INDEX cells_by_series ON cells (tier, integrand, n, threads, ranks);
CREATE INDEX runs_by_machine ON runs (machine, build, started);
)sql",
      // 3: the build each cell ran in, in a run of several (`--compilers`, `--arch`): a series is of one
      // build; the cells recorded before have none ('').
      R"sql(
ALTER TABLE cells ADD COLUMN build_id TEXT NOT NULL DEFAULT '';
DROP INDEX cells_by_series;
CREATE INDEX cells_by_series ON cells (tier, integrand, n, threads, ranks, build_id);
)sql",
      // 4: each cell's FLOPs a node, counted with its instructions (callgrind × an opcode table); the cells
      // recorded before have none (NULL).
      R"sql(
ALTER TABLE cells ADD COLUMN flops_per_node REAL;
)sql",
      // 5: the machine's run-to-run noise a cell, one row a measurement (an A/A `ladder ab`): the newest
      // row of a cell on a machine is its noise floor (noise_store.hpp). The runs are left as they are.
      R"sql(
CREATE TABLE noise_floors (
  id INTEGER PRIMARY KEY,
  machine TEXT NOT NULL,
  tier TEXT NOT NULL,
  integrand TEXT NOT NULL,
  n INTEGER NOT NULL,
  threads INTEGER NOT NULL,
  ranks INTEGER NOT NULL,
  percent REAL NOT NULL,
  pairs INTEGER NOT NULL,
  source TEXT NOT NULL,
  measured TEXT NOT NULL,
  base TEXT NOT NULL,
  head TEXT NOT NULL
);
CREATE INDEX noise_by_cell ON noise_floors (machine, tier, integrand, n, threads, ranks, measured);
)sql",
      // 6: a run's identity (run_identity: its host, start time and matrix, the seed among it), so that one
      // run recorded from two files (a finished run resumed, which rewrites results.json; a re-indented
      // copy) is one row. The runs recorded before have none (NULL): they are matched by host, start time,
      // machine, build and label instead.
      R"sql(
ALTER TABLE runs ADD COLUMN identity TEXT;
CREATE UNIQUE INDEX runs_by_identity ON runs (identity);
)sql",
  };
  return steps;
}

// Takes the database from `from` to `to` (inside the caller's transaction).
void migrate(const Database& db, int from, int to) {
  for (int version = from + 1; version <= to; ++version)
    db.execute(migrations().at(version - 1), "migrating the schema to version " + std::to_string(version));
  db.execute("PRAGMA application_id = " + std::to_string(application_id), "setting the application id");
  db.execute("PRAGMA user_version = " + std::to_string(to), "setting the schema version");
}

// The header every SQLite 3 database file starts with.
constexpr char sqlite_header[] = "SQLite format 3";  // and its terminating NUL: 16 bytes

// Refuses, before SQLite touches it, a file that is not an SQLite database at all.
void check_is_sqlite(const std::string& file) {
  std::error_code error;
  // A FIFO would block SQLite's first read forever, and a directory or a device is no database either.
  const fs::file_status status = fs::status(file, error);
  if (!error && fs::exists(status) && !fs::is_regular_file(status)) {
    const fs::file_type type = status.type();
    const char* what = type == fs::file_type::directory ? "a directory"
                       : type == fs::file_type::fifo    ? "a FIFO"
                       : type == fs::file_type::socket  ? "a socket"
                                                        : "a device";
    throw InputError("history database '" + file + "' is " + what +
                     ", not a regular file: give a --history file (a new one is made where none exists)");
  }
  const auto size = fs::file_size(file, error);
  if (error || size == 0) return;  // SQLite treats an empty file as a new database
  std::ifstream in(file, std::ios::binary);
  char start[sizeof sqlite_header] = {};
  in.read(start, sizeof start);
  if (!in || std::memcmp(start, sqlite_header, sizeof sqlite_header) != 0)
    throw InputError("history database '" + file +
                     "' is not an SQLite database (it does not start with SQLite's header): Ladder will not "
                     "overwrite it; move it away, or give another --history file");
}

// Refuses an SQLite database of another application; returns its schema version (0: a new database).
int check_is_ours(const Database& db) {
  const std::int64_t id = pragma_integer(db, "application_id");
  const std::int64_t version = pragma_integer(db, "user_version");
  std::vector<std::string> tables;
  Statement listed(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
  while (listed.step()) tables.push_back(listed.text("name"));
  const bool new_file = id == 0 && version == 0 && tables.empty();
  if (id != application_id && !new_file) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%08llx",
                  static_cast<unsigned long long>(static_cast<std::uint32_t>(id)));
    std::string names;
    for (const auto& table : tables) names += (names.empty() ? "" : ", ") + table;
    throw InputError("history database '" + db.file() + "' is an SQLite database of another application " +
                     "(application_id " + hex + ", tables: " + (names.empty() ? "none" : names) +
                     "), not a Ladder history: Ladder will not write to it; give another --history file");
  }
  if (version > schema_version)
    throw InputError("history database '" + db.file() + "' has schema version " + std::to_string(version) +
                     "; this Ladder reads versions up to " + std::to_string(schema_version) +
                     " (it was written by a newer Ladder)");
  return static_cast<int>(version);
}

// ---- the integrity checks, the same for readers and writers ----------------------------------------------

// The columns of `table` in `db` (none when it has no such table).
std::vector<std::string> columns_of(const Database& db, const std::string& table) {
  std::vector<std::string> columns;
  Statement info(db, "SELECT name FROM pragma_table_info(:table)");
  info.bind(":table", table);
  while (info.step()) columns.push_back(info.text("name"));
  return columns;
}

// Refuses a database whose schema lacks a table or a column that the schema of `version` has (a damaged or
// hand-edited file), before a query runs into it: the schema of `version` is made in memory, by the same
// migrations, and every table and column of it must be in the file. Tables and columns of its own are left
// alone (check_is_ours has refused a file of another application).
void check_schema(const Database& db, int version) {
  Database expected(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  migrate(expected, 0, version);
  Statement tables(expected, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
  while (tables.step()) {
    const std::string table = tables.text("name");
    const std::vector<std::string> present = columns_of(db, table);
    const std::string schema = "a Ladder history of schema version " + std::to_string(version) + " has it";
    if (present.empty()) sqlite::refuse_damaged(db.file(), "it has no table '" + table + "'; " + schema);
    for (const auto& column : columns_of(expected, table))
      if (std::find(present.begin(), present.end(), column) == present.end())
        sqlite::refuse_damaged(db.file(),
                               "its table '" + table + "' has no column '" + column + "'; " + schema);
  }
}

// SQLite's own check of the file's structure (PRAGMA integrity_check: every page, cell and record in its
// place, and every index holding exactly its table's rows; quick_check skips the indexes, and a database
// whose index lost a row passed it, took a run, and could not be read back), then Ladder's check of the
// schema. A reader refuses what it finds with the same message as a writer, and a writer refuses it before it
// writes a byte: a run recorded into a damaged database could not be read back.
void check_intact(const Database& db, int version) {
  Statement check(db, "PRAGMA integrity_check(1)");
  if (check.step() && check.text("integrity_check") != "ok")
    sqlite::refuse_damaged(db.file(), "PRAGMA integrity_check: " + quote_text(check.text("integrity_check")));
  check_schema(db, version);
}

// How long a writer waits for another to finish before giving up.
constexpr int busy_timeout_ms = 60000;

}  // namespace

std::string database_path(const std::optional<std::string>& option) {
  std::string path;
  std::string from = "--history";
  if (option) {
    path = *option;
  } else if (const char* variable = std::getenv("LADDER_HISTORY")) {
    path = variable;
    from = "LADDER_HISTORY";
  } else {
    path = default_database;
  }
  if (path.empty())
    throw InputError(from + " is empty; give the history database's file, e.g. " +
                     std::string(default_database));
  std::error_code error;
  if (fs::is_directory(path, error))
    throw InputError(from + " '" + path + "' is a directory; give the history database's file, e.g. " + path +
                     "/history.sqlite");
  return path;
}

Store::Store(const std::string& path, Mode mode) : impl_(std::make_unique<Impl>()) {
  impl_->path = path;
  std::error_code error;
  if (fs::is_directory(path, error))
    throw InputError("history database '" + path + "' is a directory; give a file");
  const bool exists = fs::exists(path, error);
  if (mode == Mode::read && !exists)
    throw InputError("history database '" + path +
                     "' does not exist: no run has been recorded there (`ladder run` records each run; "
                     "`ladder history import DIR` records earlier ones)");
  check_is_sqlite(path);
  if (mode == Mode::write && !exists) {
    const fs::path parent = fs::path(path).parent_path();
    if (!parent.empty()) fs::create_directories(parent, error);
    if (error)
      throw WriteError("history database '" + path + "': cannot create its directory (" + error.message() +
                       ")");
  }
  if (mode == Mode::read)
    impl_->db = Database::open_for_reading(path);
  else
    impl_->db = std::make_unique<Database>(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  const Database& db = *impl_->db;
  sqlite3_busy_timeout(db.handle(), busy_timeout_ms);
  int version = check_is_ours(db);
  if (mode == Mode::read) {
    if (version == 0)
      throw InputError("history database '" + path + "' is empty: no run has been recorded there");
    if (version < oldest_readable_version)
      throw InputError("history database '" + path + "' has schema version " + std::to_string(version) +
                       "; record a run into it (or `ladder history import`) to migrate it to version " +
                       std::to_string(schema_version));
  }
  if (version > 0) check_intact(db, version);
  if (mode == Mode::read) {
    impl_->version = version;
    return;
  }
  if (sqlite3_db_readonly(db.handle(), "main") == 1)
    throw WriteError("history database '" + path + "' is read-only: the run cannot be recorded there");
  {
    Statement wal(db, "PRAGMA journal_mode = WAL");
    if (wal.step() && wal.text("journal_mode") != "wal")
      throw WriteError("history database '" + path + "': cannot use WAL mode here (journal mode stays " +
                       wal.text("journal_mode") + ")");
  }
  db.execute("PRAGMA synchronous = NORMAL", "setting synchronous");
  db.execute("PRAGMA foreign_keys = ON", "turning on foreign keys");
  if (version < schema_version) {
    Transaction transaction(db);
    version = check_is_ours(db);  // another writer may have created or migrated it meanwhile
    if (version < schema_version) migrate(db, version, schema_version);
    transaction.commit();
  }
  impl_->version = schema_version;
}

Store::~Store() = default;
Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;

const std::string& Store::path() const { return impl_->path; }

void Store::create_at_version(const std::string& path, int version) {
  if (version < 1 || version > schema_version)
    throw InputError("no history schema version " + std::to_string(version));
  Database db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  Transaction transaction(db);
  migrate(db, 0, version);
  transaction.commit();
}

}  // namespace ladder::history
