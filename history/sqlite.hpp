// A thin RAII wrapper of SQLite's C API for the history store (internal to history/). Columns are read by
// name and parameters bound by name (":run"), never by position: a statement looks its result columns up
// once, when it is prepared, and a column or parameter it does not have is a programming error that names
// it. A record type's columns are listed once, as a table of Fields (column name and member), from which
// the SELECT list, the INSERT statement, the binding and the reading are all made.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace ladder::history::sqlite {

// A failure of SQLite on the database `file`: InputError for a file that is damaged or not a database
// (the user's to fix), and for any failure of a connection opened for reading (`reading`: a read never
// writes, so "cannot be written" would be wrong); WriteError for one that cannot be written.
[[noreturn]] void fail(sqlite3* db, const std::string& file, const std::string& doing, bool reading = false);

// The refusal of a damaged database, one message for readers and writers: InputError naming the file and
// `why` (SQLite's words, or what Ladder's own checks found missing).
[[noreturn]] void refuse_damaged(const std::string& file, const std::string& why);

class Database {
 public:
  Database(const std::string& file,
           int flags);  // WriteError (InputError when reading) if it cannot be opened
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // `file` opened with SQLITE_OPEN_READONLY: nothing a reader does can change it, and a read never creates a
  // database. InputError when it cannot be read (see sqlite.cpp for a WAL database in a read-only place).
  static std::unique_ptr<Database> open_for_reading(const std::string& file);

  sqlite3* handle() const { return db_; }
  const std::string& file() const { return file_; }
  bool reading() const { return reading_; }  // opened read-only
  void execute(const std::string& sql, const std::string& doing) const;

 private:
  Database(const std::string& file, const std::string& name, int flags);  // name: a path or a file: URI

  std::string file_;
  sqlite3* db_ = nullptr;
  bool reading_ = false;
  bool tidy_ = false;  // a reader that found no -wal and -shm beside the file: leave none behind (sqlite.cpp)
};

class Statement {
 public:
  Statement(const Database& db, const std::string& sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Forgets the last row and every binding: the statement runs again with new values.
  Statement& reset();
  // Binds the parameter `name` (":run"): text, whole numbers, doubles, optional doubles (null when empty).
  Statement& bind(const std::string& name, const std::string& value);
  Statement& bind(const std::string& name, const char* value) { return bind(name, std::string(value)); }
  Statement& bind(const std::string& name, std::int64_t value);
  Statement& bind(const std::string& name, int value) { return bind(name, std::int64_t{value}); }
  Statement& bind(const std::string& name, double value);
  Statement& bind(const std::string& name, const std::optional<double>& value);
  // The next row: true while there is one.
  bool step();
  void run() {
    while (step()) {
    }
  }

  // The current row's column `column` (as the SELECT names it, `AS` included). Text reads "" for null.
  std::string text(const std::string& column) const;
  std::int64_t integer(const std::string& column) const;
  std::optional<double> number(const std::string& column) const;
  void read(const std::string& column, std::string& into) const { into = text(column); }
  void read(const std::string& column, std::int64_t& into) const { into = integer(column); }
  void read(const std::string& column, int& into) const { into = static_cast<int>(integer(column)); }
  void read(const std::string& column, std::optional<double>& into) const { into = number(column); }

 private:
  int column(const std::string& name) const;
  int parameter(const std::string& name) const;
  std::string sql() const;

  const Database& db_;
  sqlite3_stmt* statement_ = nullptr;
  std::map<std::string, int> columns_;  // result column name -> its index, read once when prepared
};

// BEGIN IMMEDIATE … COMMIT; rolled back when left by an exception. IMMEDIATE takes the write lock at once,
// so two writers queue on the busy timeout instead of failing on a lock upgrade.
class Transaction {
 public:
  explicit Transaction(const Database& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  const Database& db_;
  bool done_ = false;
};

// PRAGMA `name`'s value (0 when it returns no row).
std::int64_t pragma_integer(const Database& db, const std::string& name);

// One column of a record's table: its name, and the member of Record it holds.
template <typename Record>
struct Field {
  const char* column;
  std::variant<std::string Record::*, std::int64_t Record::*, int Record::*, std::optional<double> Record::*>
      member;
};
template <typename Record>
using Fields = std::vector<Field<Record>>;

// "alias.a AS a, alias.b AS b": the fields' columns as a SELECT lists them, each named for reading back.
template <typename Record>
std::string select_list(const std::string& alias, const Fields<Record>& fields) {
  std::string list;
  for (const auto& field : fields)
    list += (list.empty() ? "" : ", ") + alias + "." + field.column + " AS " + field.column;
  return list;
}

// The column names of `fields`, after `first` (columns of the table that are not the record's members).
template <typename Record>
std::vector<std::string> column_names(const Fields<Record>& fields, std::vector<std::string> first = {}) {
  for (const auto& field : fields) first.push_back(field.column);
  return first;
}

// "INSERT INTO table (a, b) VALUES (:a, :b)".
std::string insert_sql(const std::string& table, const std::vector<std::string>& columns);

// Binds each field of `record` to the parameter of its column's name.
template <typename Record>
void bind_fields(Statement& statement, const Fields<Record>& fields, const Record& record) {
  for (const auto& field : fields)
    std::visit([&](auto member) { statement.bind(std::string(":") + field.column, record.*member); },
               field.member);
}

// Reads each field of `record` from the current row's column of its name.
template <typename Record>
void read_fields(const Statement& row, const Fields<Record>& fields, Record& record) {
  for (const auto& field : fields)
    std::visit([&](auto member) { row.read(field.column, record.*member); }, field.member);
}

}  // namespace ladder::history::sqlite
