#include "sqlite.hpp"

#include <stdexcept>

#include "errors.hpp"

namespace ladder::history::sqlite {

void fail(sqlite3* db, const std::string& file, const std::string& doing) {
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

Database::Database(const std::string& file, int flags) : file_(file) {
  if (sqlite3_open_v2(file.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw WriteError("history database '" + file + "': cannot be opened (" + why + ")");
  }
  sqlite3_extended_result_codes(db_, 1);
}

Database::~Database() { sqlite3_close(db_); }

void Database::execute(const std::string& sql, const std::string& doing) const {
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) fail(db_, file_, doing);
}

Statement::Statement(const Database& db, const std::string& sql) : db_(db) {
  if (sqlite3_prepare_v2(db.handle(), sql.c_str(), -1, &statement_, nullptr) != SQLITE_OK)
    fail(db.handle(), db.file(), "preparing: " + sql.substr(0, 60));
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
  fail(db_.handle(), db_.file(), "running: " + sql());
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
