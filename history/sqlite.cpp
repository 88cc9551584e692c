#include "sqlite.hpp"

#include <cctype>
#include <filesystem>
#include <stdexcept>

#include "errors.hpp"

namespace ladder::history::sqlite {

void refuse_damaged(const std::string& file, const std::string& why) {
  throw InputError("history database '" + file + "': is damaged (" + why +
                   "); Ladder will not write to it: move it away, or give another --history file");
}

void fail(sqlite3* db, const std::string& file, const std::string& doing, bool reading) {
  const int code = db ? sqlite3_extended_errcode(db) : SQLITE_CANTOPEN;
  const std::string why = db ? sqlite3_errmsg(db) : "cannot open";
  const std::string where = "history database '" + file + "': ";
  switch (code & 0xff) {
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      refuse_damaged(file, why + " while " + doing);
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_PERM:
      if (reading) throw InputError(where + "cannot be read (" + why + " while " + doing + ")");
      throw WriteError(where + "cannot be written (" + why + " while " + doing + ")");
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      throw WriteError(where + "stayed locked by another writer (" + why + " while " + doing + ")");
    default:
      if (reading) throw InputError(where + why + " while " + doing);
      throw WriteError(where + why + " while " + doing);
  }
}

namespace {

// `path` as the path of a file: URI: every byte but an unreserved character or '/' percent-encoded.
std::string uri_path(const std::string& path) {
  static const char* const hex = "0123456789ABCDEF";
  std::string out;
  for (const char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~')
      out += c;
    else
      out += {'%', hex[byte >> 4], hex[byte & 15]};
  }
  return out;
}

// The size of `file` (0 when it does not exist).
std::uintmax_t size_of(const std::string& file) {
  std::error_code error;
  const auto size = std::filesystem::file_size(file, error);
  return error ? 0 : size;
}

// The first read of a database: for one in WAL mode it opens (or creates) the -shm file beside it.
int first_read(const Database& db) {
  return sqlite3_exec(db.handle(), "SELECT COUNT(*) FROM sqlite_master", nullptr, nullptr, nullptr);
}

}  // namespace

Database::Database(const std::string& file, int flags) : Database(file, file, flags) {}

Database::Database(const std::string& file, const std::string& name, int flags)
    : file_(file), reading_((flags & SQLITE_OPEN_READONLY) != 0) {
  if (sqlite3_open_v2(name.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    const std::string message = "history database '" + file + "': cannot be opened (" + why + ")";
    if (reading_) throw InputError(message);
    throw WriteError(message);
  }
  sqlite3_extended_result_codes(db_, 1);
}

std::unique_ptr<Database> Database::open_for_reading(const std::string& file) {
  std::error_code error;
  const bool tidy =
      !std::filesystem::exists(file + "-wal", error) && !std::filesystem::exists(file + "-shm", error);
  std::unique_ptr<Database> db(new Database(file, file, SQLITE_OPEN_READONLY));
  db->tidy_ = tidy;
  if (first_read(*db) == SQLITE_OK) return db;
  db->tidy_ = false;
  const int code = sqlite3_extended_errcode(db->handle());
  if ((code & 0xff) != SQLITE_CANTOPEN && code != SQLITE_READONLY_CANTINIT &&
      code != SQLITE_READONLY_CANTLOCK)
    fail(db->handle(), file, "reading its schema", true);
  // A WAL database (the mode Ladder writes) where SQLite cannot create its -shm file: a read-only mount or
  // directory. Nobody can write there either, so when no write-ahead log or rollback journal with content
  // lies beside it, the file is the whole database, and `immutable=1` reads it as it is, with no -shm and
  // no locks. A -wal with content holds committed runs the file lacks (and a -journal an unfinished
  // write): reading the file without them would show another history than the one recorded, so that is
  // refused instead.
  for (const char* beside : {"-wal", "-journal"})
    if (size_of(file + beside) > 0)
      throw InputError(
          "history database '" + file + "': cannot be read here: '" + file + beside +
          "' beside it holds changes that SQLite can only read with a '" + file +
          "-shm' file, which it cannot create in this read-only place; copy the three files to a "
          "writable directory and read them there");
  db.reset();
  const std::string absolute = std::filesystem::absolute(file, error).string();
  db.reset(new Database(file, "file:" + uri_path(error ? file : absolute) + "?immutable=1",
                        SQLITE_OPEN_READONLY | SQLITE_OPEN_URI));
  if (first_read(*db) != SQLITE_OK) fail(db->handle(), file, "reading its schema (immutable)", true);
  return db;
}

// A read-only connection to a WAL database creates its -wal and -shm files when they are missing, but
// cannot remove them when it closes (that is a checkpoint, a write). So a reader that found neither leaves
// them as it found them: when the -wal holds nothing, a read-write connection that reads the schema and
// closes at once lets SQLite itself remove both, under its own locks, only if no other connection is using
// them (and with an empty log there is nothing to fold into the file: not a byte of it changes).
Database::~Database() {
  sqlite3_close(db_);
  std::error_code error;
  if (!tidy_ || !std::filesystem::exists(file_ + "-wal", error) || size_of(file_ + "-wal") > 0) return;
  sqlite3* tidy = nullptr;
  if (sqlite3_open_v2(file_.c_str(), &tidy, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK)
    sqlite3_exec(tidy, "SELECT COUNT(*) FROM sqlite_master", nullptr, nullptr, nullptr);
  sqlite3_close(tidy);
}

void Database::execute(const std::string& sql, const std::string& doing) const {
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK)
    fail(db_, file_, doing, reading_);
}

Statement::Statement(const Database& db, const std::string& sql) : db_(db) {
  if (sqlite3_prepare_v2(db.handle(), sql.c_str(), -1, &statement_, nullptr) != SQLITE_OK)
    fail(db.handle(), db.file(), "preparing: " + sql.substr(0, 60), db.reading());
  for (int i = 0; i < sqlite3_column_count(statement_); ++i) columns_[sqlite3_column_name(statement_, i)] = i;
}

Statement::~Statement() { sqlite3_finalize(statement_); }

std::string Statement::sql() const { return std::string(sqlite3_sql(statement_)).substr(0, 60); }

// A column or parameter the statement does not have is a mistake in the store's own SQL, never the user's.
int Statement::column(const std::string& name) const {
  const auto found = columns_.find(name);
  if (found == columns_.end())
    throw std::logic_error("history store: no column '" + name + "' in the result of: " + sql());
  return found->second;
}

int Statement::parameter(const std::string& name) const {
  const int index = sqlite3_bind_parameter_index(statement_, name.c_str());
  if (index == 0) throw std::logic_error("history store: no parameter '" + name + "' in: " + sql());
  return index;
}

Statement& Statement::reset() {
  sqlite3_reset(statement_);
  sqlite3_clear_bindings(statement_);
  return *this;
}

Statement& Statement::bind(const std::string& name, const std::string& value) {
  sqlite3_bind_text(statement_, parameter(name), value.c_str(), static_cast<int>(value.size()),
                    SQLITE_TRANSIENT);
  return *this;
}

Statement& Statement::bind(const std::string& name, std::int64_t value) {
  sqlite3_bind_int64(statement_, parameter(name), value);
  return *this;
}

Statement& Statement::bind(const std::string& name, double value) {
  sqlite3_bind_double(statement_, parameter(name), value);
  return *this;
}

Statement& Statement::bind(const std::string& name, const std::optional<double>& value) {
  if (value)
    sqlite3_bind_double(statement_, parameter(name), *value);
  else
    sqlite3_bind_null(statement_, parameter(name));
  return *this;
}

bool Statement::step() {
  const int code = sqlite3_step(statement_);
  if (code == SQLITE_ROW) return true;
  if (code == SQLITE_DONE) return false;
  fail(db_.handle(), db_.file(), "running: " + sql(), db_.reading());
}

std::string Statement::text(const std::string& name) const {
  const auto* value = sqlite3_column_text(statement_, column(name));
  return value ? reinterpret_cast<const char*>(value) : "";
}

std::int64_t Statement::integer(const std::string& name) const {
  return sqlite3_column_int64(statement_, column(name));
}

std::optional<double> Statement::number(const std::string& name) const {
  const int index = column(name);
  if (sqlite3_column_type(statement_, index) == SQLITE_NULL) return std::nullopt;
  return sqlite3_column_double(statement_, index);
}

Transaction::Transaction(const Database& db) : db_(db) {
  db.execute("BEGIN IMMEDIATE", "starting a transaction");
}

Transaction::~Transaction() {
  if (!done_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  db_.execute("COMMIT", "committing");
  done_ = true;
}

std::int64_t pragma_integer(const Database& db, const std::string& name) {
  Statement statement(db, "PRAGMA " + name);
  return statement.step() ? statement.integer(name) : 0;
}

std::string insert_sql(const std::string& table, const std::vector<std::string>& columns) {
  std::string names, parameters;
  for (const auto& column : columns) {
    names += (names.empty() ? "" : ", ") + column;
    parameters += (parameters.empty() ? ":" : ", :") + column;
  }
  return "INSERT INTO " + table + " (" + names + ") VALUES (" + parameters + ")";
}

}  // namespace ladder::history::sqlite
