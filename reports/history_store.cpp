#include "history_store.hpp"

#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

#include "errors.hpp"
#include "results_file.hpp"

namespace ladder::history {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// ---- SHA-256 (FIPS 180-4) ------------------------------------------------------------------------------

constexpr std::array<std::uint32_t, 64> round_constants = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

std::uint32_t rotate(std::uint32_t x, int bits) { return (x >> bits) | (x << (32 - bits)); }

}  // namespace

std::string sha256_hex(const std::string& text) {
  std::array<std::uint32_t, 8> h = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::string message = text;
  const std::uint64_t bits = static_cast<std::uint64_t>(text.size()) * 8;
  message.push_back(static_cast<char>(0x80));
  while (message.size() % 64 != 56) message.push_back('\0');
  for (int shift = 56; shift >= 0; shift -= 8) message.push_back(static_cast<char>((bits >> shift) & 0xff));
  for (std::size_t block = 0; block < message.size(); block += 64) {
    std::array<std::uint32_t, 64> w{};
    for (int i = 0; i < 16; ++i)
      for (int byte = 0; byte < 4; ++byte)
        w[i] = (w[i] << 8) | static_cast<unsigned char>(message[block + 4 * i + byte]);
    for (int i = 16; i < 64; ++i) {
      const std::uint32_t s0 = rotate(w[i - 15], 7) ^ rotate(w[i - 15], 18) ^ (w[i - 15] >> 3);
      const std::uint32_t s1 = rotate(w[i - 2], 17) ^ rotate(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    auto [a, b, c, d, e, f, g, hh] = h;
    for (int i = 0; i < 64; ++i) {
      const std::uint32_t t1 = hh + (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) + ((e & f) ^ (~e & g)) +
                               round_constants[i] + w[i];
      const std::uint32_t t2 = (rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    const std::array<std::uint32_t, 8> add = {a, b, c, d, e, f, g, hh};
    for (int i = 0; i < 8; ++i) h[i] += add[i];
  }
  std::string hex;
  for (const auto word : h) {
    char part[9];
    std::snprintf(part, sizeof part, "%08x", word);
    hex += part;
  }
  return hex;
}

namespace {

// ---- a thin RAII wrapper of SQLite --------------------------------------------------------------------

// A failure of SQLite on the database `file`: InputError for a file that is damaged or not a database
// (the user's to fix), WriteError for one that cannot be written.
[[noreturn]] void fail(sqlite3* db, const std::string& file, const std::string& doing) {
  const int code = db ? sqlite3_extended_errcode(db) : SQLITE_CANTOPEN;
  const std::string why = db ? sqlite3_errmsg(db) : "cannot open";
  const std::string where = "history database '" + file + "': ";
  switch (code & 0xff) {
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      throw InputError(where + "is damaged (" + why + " while " + doing +
                       "); Ladder will not write to it: move it away, or give another --history file");
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_PERM:
      throw WriteError(where + "cannot be written (" + why + " while " + doing + ")");
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      throw WriteError(where + "stayed locked by another writer (" + why + " while " + doing + ")");
    default:
      throw WriteError(where + why + " while " + doing);
  }
}

class Database {
 public:
  Database(const std::string& file, int flags) : file_(file) {
    if (sqlite3_open_v2(file.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
      const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
      sqlite3_close(db_);
      db_ = nullptr;
      throw WriteError("history database '" + file + "': cannot be opened (" + why + ")");
    }
    sqlite3_extended_result_codes(db_, 1);
  }
  ~Database() { sqlite3_close(db_); }
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  sqlite3* handle() const { return db_; }
  const std::string& file() const { return file_; }
  void execute(const std::string& sql, const std::string& doing) const {
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) fail(db_, file_, doing);
  }

 private:
  std::string file_;
  sqlite3* db_ = nullptr;
};

class Statement {
 public:
  Statement(const Database& db, const std::string& sql) : db_(db) {
    if (sqlite3_prepare_v2(db.handle(), sql.c_str(), -1, &statement_, nullptr) != SQLITE_OK)
      fail(db.handle(), db.file(), "preparing: " + sql.substr(0, 60));
  }
  ~Statement() { sqlite3_finalize(statement_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Binds the parameters in order: text, whole numbers, doubles, optional doubles (null when empty).
  template <typename... Values>
  Statement& bind(const Values&... values) {
    sqlite3_reset(statement_);
    sqlite3_clear_bindings(statement_);
    int index = 0;
    (bind_one(++index, values), ...);
    return *this;
  }
  // The next row: true while there is one.
  bool step() {
    const int code = sqlite3_step(statement_);
    if (code == SQLITE_ROW) return true;
    if (code == SQLITE_DONE) return false;
    fail(db_.handle(), db_.file(), "running: " + std::string(sqlite3_sql(statement_)).substr(0, 60));
  }
  void run() {
    while (step()) {
    }
  }
  std::string text(int column) const {
    const auto* value = sqlite3_column_text(statement_, column);
    return value ? reinterpret_cast<const char*>(value) : "";
  }
  std::int64_t integer(int column) const { return sqlite3_column_int64(statement_, column); }
  std::optional<double> number(int column) const {
    if (sqlite3_column_type(statement_, column) == SQLITE_NULL) return std::nullopt;
    return sqlite3_column_double(statement_, column);
  }

 private:
  void bind_one(int index, const std::string& value) {
    sqlite3_bind_text(statement_, index, value.c_str(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
  }
  void bind_one(int index, const char* value) { bind_one(index, std::string(value)); }
  void bind_one(int index, std::int64_t value) { sqlite3_bind_int64(statement_, index, value); }
  void bind_one(int index, int value) { sqlite3_bind_int64(statement_, index, value); }
  void bind_one(int index, double value) { sqlite3_bind_double(statement_, index, value); }
  void bind_one(int index, const std::optional<double>& value) {
    if (value)
      sqlite3_bind_double(statement_, index, *value);
    else
      sqlite3_bind_null(statement_, index);
  }
  const Database& db_;
  sqlite3_stmt* statement_ = nullptr;
};

// BEGIN IMMEDIATE … COMMIT; rolled back when left by an exception. IMMEDIATE takes the write lock at once,
// so two writers queue on the busy timeout instead of failing on a lock upgrade.
class Transaction {
 public:
  explicit Transaction(const Database& db) : db_(db) {
    db.execute("BEGIN IMMEDIATE", "starting a transaction");
  }
  ~Transaction() {
    if (!done_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit() {
    db_.execute("COMMIT", "committing");
    done_ = true;
  }

 private:
  const Database& db_;
  bool done_ = false;
};

std::int64_t pragma_integer(const Database& db, const std::string& name) {
  Statement statement(db, "PRAGMA " + name);
  return statement.step() ? statement.integer(0) : 0;
}

// ---- the schema and its migrations ------------------------------------------------------------------

// Migration i (1-based) takes a database from version i - 1 to version i; version 0 is a new, empty file.
// A new migration is appended here, and schema_version raised: a database is never changed in place by
// editing an earlier step.
const std::vector<std::string>& migrations() {
  static const std::vector<std::string> steps = {
      // 1: runs, the source files they were built from, their cells, each cell's repetitions.
      R"sql(
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
)sql",
      // 2: indices for the series (a cell's coordinates, on one machine and build, over runs).
      R"sql(
CREATE INDEX cells_by_series ON cells (tier, integrand, n, threads, ranks);
CREATE INDEX runs_by_machine ON runs (machine, build, started);
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

std::string now_utc() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string read_text(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The header every SQLite 3 database file starts with.
constexpr char sqlite_header[] = "SQLite format 3";  // and its terminating NUL: 16 bytes

// Refuses, before SQLite touches it, a file that is not an SQLite database at all.
void check_is_sqlite(const std::string& file) {
  std::error_code error;
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
  while (listed.step()) tables.push_back(listed.text(0));
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

bool SeriesKey::operator<(const SeriesKey& other) const {
  return std::tie(tier, integrand, n, threads, ranks, machine, build) <
         std::tie(other.tier, other.integrand, other.n, other.threads, other.ranks, other.machine,
                  other.build);
}

struct Store::Impl {
  std::string path;
  std::unique_ptr<Database> db;
};

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
  // A reader opens read-write too (SQLite falls back to read-only on a read-only file) but writes nothing:
  // the last connection to close then folds the WAL back into the file and removes it.
  const int flags = mode == Mode::read ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  impl_->db = std::make_unique<Database>(path, flags);
  const Database& db = *impl_->db;
  sqlite3_busy_timeout(db.handle(), busy_timeout_ms);
  int version = check_is_ours(db);
  if (mode == Mode::read) {
    if (version == 0)
      throw InputError("history database '" + path + "' is empty: no run has been recorded there");
    if (version < schema_version)
      throw InputError("history database '" + path + "' has schema version " + std::to_string(version) +
                       "; record a run into it (or `ladder history import`) to migrate it to version " +
                       std::to_string(schema_version));
    return;
  }
  if (sqlite3_db_readonly(db.handle(), "main") == 1)
    throw WriteError("history database '" + path + "' is read-only: the run cannot be recorded there");
  {
    Statement wal(db, "PRAGMA journal_mode = WAL");
    if (wal.step() && wal.text(0) != "wal")
      throw WriteError("history database '" + path + "': cannot use WAL mode here (journal mode stays " +
                       wal.text(0) + ")");
  }
  db.execute("PRAGMA synchronous = NORMAL", "setting synchronous");
  db.execute("PRAGMA foreign_keys = ON", "turning on foreign keys");
  if (version < schema_version) {
    Transaction transaction(db);
    version = check_is_ours(db);  // another writer may have created or migrated it meanwhile
    if (version < schema_version) migrate(db, version, schema_version);
    transaction.commit();
  }
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

namespace {

// The machine's fingerprint: what makes its timings comparable with another run's.
std::string machine_fingerprint(const ContextRecord& context) {
  std::string text = "cpu=" + context.cpu_model + "\nlogical_cpus=" + std::to_string(context.logical_cpus) +
                     "\nphysical_cores=" + std::to_string(context.physical_cores);
  if (context.topology)
    text += "\ntopology=" + std::to_string(context.topology->packages) + "/" +
            std::to_string(context.topology->numa_nodes) + "/" + std::to_string(context.topology->l3_groups) +
            "/" + std::to_string(context.topology->cores) + "/" +
            std::to_string(context.topology->hardware_threads());
  if (context.memory_total_bytes)  // to the GiB: MemTotal moves by a few pages between kernels
    text +=
        "\nmemory_gib=" + std::to_string(std::llround(*context.memory_total_bytes / (1024.0 * 1024 * 1024)));
  return sha256_hex(text);
}

std::string build_fingerprint(const ContextRecord& context) {
  return sha256_hex("compiler=" + context.compiler + "\nbuild_type=" + context.build_type +
                    "\nflags=" + context.common_flags);
}

// The file's cells, in order, as the store keeps them.
std::vector<StoredCell> cells_of(const ResultsFile& file) {
  std::map<std::string, std::string> source_of_tier;
  for (const auto& card : file.tiers)  // a card names its file ("naive.cpp"), the sources by their path
    for (const auto& [source, digest] : file.context.tier_sources)
      if (!card.source_file.empty() && fs::path(source).filename() == fs::path(card.source_file).filename())
        source_of_tier[card.id] = digest;
  std::vector<StoredCell> cells;
  for (const CellResult& result : file.cells) {
    StoredCell cell;
    cell.name = result.name;
    cell.tier = result.tier;
    cell.integrand = result.integrand;
    cell.n = result.n;
    cell.threads = result.threads;
    cell.ranks = result.ranks;
    cell.status = std::string(to_string(result.status));
    cell.reason = result.reason;
    cell.instructions_per_node = file.instructions.per_node(cell.tier, cell.integrand);
    if (const auto source = source_of_tier.find(cell.tier); source != source_of_tier.end())
      cell.tier_source_sha256 = source->second;
    if (result.ok()) {
      const Measurement& measured = *result.measurement;
      for (const auto& repetition : measured.repetitions) {
        cell.repetitions.push_back(repetition.real_time);
        cell.cpu_repetitions.push_back(repetition.cpu_time);
      }
      const Aggregates& times = measured.aggregates;
      cell.median = times.median.real_time, cell.mean = times.mean.real_time, cell.min = times.min.real_time;
      cell.max = times.max.real_time, cell.stddev = times.stddev.real_time, cell.cv = times.cv.real_time;
      cell.ns_per_node = result.ns_per_node();
      cell.rel_error = measured.rel_error;
      cell.rounding_error = measured.rounding_error;
      cell.rounding_bound = measured.rounding_bound;
      cell.peak_heap_bytes = measured.memory.peak_heap_bytes;
      cell.peak_rss_bytes = measured.memory.peak_rss_bytes;
      cell.allocations = measured.memory.allocations;
    }
    cells.push_back(std::move(cell));
  }
  return cells;
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

std::string libraries_text(const std::map<std::string, std::string>& libraries) {
  return json(libraries).dump();
}

}  // namespace

Recorded Store::record(const std::string& results) {
  const ResultsFile file = read_results_file(results);  // InputError naming the file and the problem
  if (file.context.status == "interrupted" || file.context.status == "running")
    throw InputError("results file '" + file.path + "' holds a run that did not finish (status " +
                     file.context.status + "): finish it with `ladder run --resume` first");
  const std::string run_id = sha256_hex(read_text(file.path));
  const ContextRecord& context = file.context;
  const Database& db = *impl_->db;
  const std::vector<StoredCell> cells = cells_of(file);

  Transaction transaction(db);
  {
    Statement exists(db, "SELECT 1 FROM runs WHERE run_id = ?");
    if (exists.bind(run_id).step()) return {false, run_id, cells.size()};
  }
  std::error_code error;
  const fs::path absolute = fs::absolute(file.path, error);
  Statement insert_run(
      db,
      "INSERT INTO runs (run_id, results_path, recorded, started, finished, label, status, "
      "git_commit, git_branch, git_dirty, machine, host, cpu_model, logical_cpus, "
      "physical_cores, memory_total_bytes, topology, build, compiler, build_type, common_flags, "
      "libraries) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  insert_run
      .bind(run_id, error ? file.path : absolute.lexically_normal().string(), now_utc(), context.started,
            context.finished, context.label,
            context.status.empty() ? std::string("complete") : context.status, context.git_commit,
            context.git_branch, context.git_dirty, machine_fingerprint(context), context.host_name,
            context.cpu_model, context.logical_cpus, context.physical_cores, context.memory_total_bytes,
            context.topology ? context.topology->describe() : std::string("unknown"),
            build_fingerprint(context), context.compiler, context.build_type, context.common_flags,
            libraries_text(context.libraries))
      .run();
  const std::int64_t run = sqlite3_last_insert_rowid(db.handle());
  Statement insert_source(db, "INSERT INTO tier_sources (run, file, sha256) VALUES (?,?,?)");
  for (const auto& [source, digest] : context.tier_sources) insert_source.bind(run, source, digest).run();
  Statement insert_cell(
      db,
      "INSERT INTO cells (run, position, name, tier, integrand, n, threads, ranks, status, reason, median, "
      "min, "
      "max, mean, stddev, cv, ns_per_node, peak_heap_bytes, peak_rss_bytes, allocations, rel_error, "
      "rounding_error, rounding_bound, instructions_per_node, tier_source_sha256) "
      "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  Statement insert_repetition(db,
                              "INSERT INTO repetitions (cell, position, real_ns, cpu_ns) VALUES (?,?,?,?)");
  std::size_t written = 0;
  for (const auto& cell : cells) {
    insert_cell
        .bind(run, static_cast<std::int64_t>(written), cell.name, cell.tier, cell.integrand, cell.n,
              cell.threads, cell.ranks, cell.status, cell.reason, cell.median, cell.min, cell.max, cell.mean,
              cell.stddev, cell.cv, cell.ns_per_node, cell.peak_heap_bytes, cell.peak_rss_bytes,
              cell.allocations, cell.rel_error, cell.rounding_error, cell.rounding_bound,
              cell.instructions_per_node, cell.tier_source_sha256)
        .run();
    const std::int64_t cell_row = sqlite3_last_insert_rowid(db.handle());
    for (std::size_t i = 0; i < cell.repetitions.size(); ++i)
      insert_repetition
          .bind(cell_row, static_cast<std::int64_t>(i), cell.repetitions[i], cell.cpu_repetitions[i])
          .run();
    test_pause(++written);
  }
  transaction.commit();
  return {true, run_id, cells.size()};
}

namespace {

// The columns run_of and cell_of read: the id, then the text columns in the order of their members, then
// the others.
constexpr const char* run_columns =
    "r.id, r.run_id, r.results_path, r.recorded, r.started, r.finished, r.label, r.status, r.git_commit, "
    "r.git_branch, r.git_dirty, r.machine, r.host, r.cpu_model, r.topology, r.build, r.compiler, "
    "r.build_type, "
    "r.common_flags, r.libraries, r.logical_cpus, r.physical_cores, r.memory_total_bytes";
constexpr std::string HistoryRun::*run_texts[] = {
    &HistoryRun::run_id,     &HistoryRun::results_path, &HistoryRun::recorded, &HistoryRun::started,
    &HistoryRun::finished,   &HistoryRun::label,        &HistoryRun::status,   &HistoryRun::git_commit,
    &HistoryRun::git_branch, &HistoryRun::git_dirty,    &HistoryRun::machine,  &HistoryRun::host,
    &HistoryRun::cpu_model,  &HistoryRun::topology,     &HistoryRun::build,    &HistoryRun::compiler,
    &HistoryRun::build_type, &HistoryRun::common_flags};
constexpr int run_text_count = static_cast<int>(std::size(run_texts));

HistoryRun run_of(const Database& db, Statement& row) {
  HistoryRun run;
  const std::int64_t id = row.integer(0);
  for (int i = 0; i < run_text_count; ++i) run.*run_texts[i] = row.text(1 + i);
  const json libraries = json::parse(row.text(run_text_count + 1), nullptr, false);
  if (libraries.is_object())
    for (const auto& [name, version] : libraries.items())
      if (version.is_string()) run.libraries[name] = version.get<std::string>();
  run.logical_cpus = static_cast<int>(row.integer(run_text_count + 2));
  run.physical_cores = static_cast<int>(row.integer(run_text_count + 3));
  run.memory_total_bytes = row.number(run_text_count + 4);
  Statement sources(db, "SELECT file, sha256 FROM tier_sources WHERE run = ? ORDER BY file");
  sources.bind(id);
  while (sources.step()) run.tier_sources[sources.text(0)] = sources.text(1);
  Statement tiers(db,
                  "SELECT DISTINCT tier, (SELECT COUNT(*) FROM cells WHERE run = ?1) FROM cells "
                  "WHERE run = ?1 ORDER BY tier");
  tiers.bind(id);
  while (tiers.step()) {
    run.tiers.push_back(tiers.text(0));
    run.cells = static_cast<int>(tiers.integer(1));
  }
  return run;
}

constexpr const char* cell_columns =
    "c.id, c.name, c.tier, c.integrand, c.status, c.reason, c.tier_source_sha256, c.n, c.threads, c.ranks, "
    "c.median, c.min, c.max, c.mean, c.stddev, c.cv, c.ns_per_node, c.peak_heap_bytes, c.peak_rss_bytes, "
    "c.allocations, c.rel_error, c.rounding_error, c.rounding_bound, c.instructions_per_node";
constexpr int cell_column_count = 24;
constexpr std::string StoredCell::*cell_texts[] = {&StoredCell::name,      &StoredCell::tier,
                                                   &StoredCell::integrand, &StoredCell::status,
                                                   &StoredCell::reason,    &StoredCell::tier_source_sha256};
constexpr std::optional<double> StoredCell::*cell_numbers[] = {&StoredCell::median,
                                                               &StoredCell::min,
                                                               &StoredCell::max,
                                                               &StoredCell::mean,
                                                               &StoredCell::stddev,
                                                               &StoredCell::cv,
                                                               &StoredCell::ns_per_node,
                                                               &StoredCell::peak_heap_bytes,
                                                               &StoredCell::peak_rss_bytes,
                                                               &StoredCell::allocations,
                                                               &StoredCell::rel_error,
                                                               &StoredCell::rounding_error,
                                                               &StoredCell::rounding_bound,
                                                               &StoredCell::instructions_per_node};

StoredCell cell_of(const Database& db, Statement& row) {
  StoredCell cell;
  const std::int64_t id = row.integer(0);
  for (std::size_t i = 0; i < std::size(cell_texts); ++i)
    cell.*cell_texts[i] = row.text(1 + static_cast<int>(i));
  cell.n = row.integer(7);
  cell.threads = static_cast<int>(row.integer(8));
  cell.ranks = static_cast<int>(row.integer(9));
  for (std::size_t i = 0; i < std::size(cell_numbers); ++i)
    cell.*cell_numbers[i] = row.number(10 + static_cast<int>(i));
  Statement repetitions(db, "SELECT real_ns, cpu_ns FROM repetitions WHERE cell = ? ORDER BY position");
  repetitions.bind(id);
  while (repetitions.step()) {
    cell.repetitions.push_back(*repetitions.number(0));
    cell.cpu_repetitions.push_back(*repetitions.number(1));
  }
  return cell;
}

}  // namespace

std::vector<HistoryRun> Store::runs(const RunFilter& filter) const {
  const Database& db = *impl_->db;
  Statement query(db,
                  std::string("SELECT ") + run_columns +
                      " FROM runs r WHERE (?1 = '' OR r.machine LIKE ?1 || '%' OR r.host = ?1) "
                      "AND (?2 = '' OR EXISTS (SELECT 1 FROM cells c WHERE c.run = r.id AND c.tier = ?2)) "
                      "AND (?3 = '' OR r.started >= ?3) ORDER BY r.started, r.id");
  query.bind(filter.machine, filter.tier, filter.since);
  std::vector<HistoryRun> all;
  while (query.step()) all.push_back(run_of(db, query));
  return all;
}

std::vector<StoredCell> Store::cells(const std::string& run_id) const {
  const Database& db = *impl_->db;
  Statement query(db, std::string("SELECT ") + cell_columns +
                          " FROM cells c JOIN runs r ON c.run = r.id WHERE r.run_id = ? ORDER BY c.position");
  query.bind(run_id);
  std::vector<StoredCell> all;
  while (query.step()) all.push_back(cell_of(db, query));
  return all;
}

std::vector<SeriesKey> Store::series_keys(const std::string& tier) const {
  const Database& db = *impl_->db;
  Statement query(
      db,
      "SELECT DISTINCT c.tier, c.integrand, c.n, c.threads, c.ranks, r.machine, r.build FROM cells c "
      "JOIN runs r ON c.run = r.id WHERE c.status = 'ok' AND (?1 = '' OR c.tier = ?1)");
  query.bind(tier);
  std::vector<SeriesKey> keys;
  while (query.step())
    keys.push_back({query.text(0), query.text(1), query.integer(2), static_cast<int>(query.integer(3)),
                    static_cast<int>(query.integer(4)), query.text(5), query.text(6)});
  std::sort(keys.begin(), keys.end());
  return keys;
}

std::vector<SeriesPoint> Store::series(const SeriesKey& key) const {
  const Database& db = *impl_->db;
  Statement query(db,
                  std::string("SELECT ") + cell_columns +
                      ", r.run_id, r.started, r.label, r.git_commit, r.git_branch, r.git_dirty FROM cells c "
                      "JOIN runs r ON c.run = r.id WHERE c.tier = ? AND c.integrand = ? AND c.n = ? AND "
                      "c.threads = ? AND c.ranks = ? AND r.machine = ? AND r.build = ? AND c.status = 'ok' "
                      "ORDER BY r.started, r.id");
  query.bind(key.tier, key.integrand, key.n, key.threads, key.ranks, key.machine, key.build);
  std::vector<SeriesPoint> points;
  while (query.step()) {
    SeriesPoint point;
    point.cell = cell_of(db, query);
    constexpr std::string SeriesPoint::*texts[] = {&SeriesPoint::run_id,     &SeriesPoint::started,
                                                   &SeriesPoint::label,      &SeriesPoint::git_commit,
                                                   &SeriesPoint::git_branch, &SeriesPoint::git_dirty};
    for (std::size_t i = 0; i < std::size(texts); ++i)
      point.*texts[i] = query.text(cell_column_count + static_cast<int>(i));
    points.push_back(std::move(point));
  }
  return points;
}

}  // namespace ladder::history
