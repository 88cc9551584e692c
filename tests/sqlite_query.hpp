// One value read from a SQLite database, for the history tests: what the store wrote, seen without the store.
#pragma once

#include <sqlite3.h>

#include <filesystem>
#include <string>

namespace ladder::testing {

// `sql` run on the database at `path` (read-only), its first column of the first row as text.
inline std::string query(const std::filesystem::path& path, const std::string& sql) {
  sqlite3* db = nullptr;
  std::string value = "(error)";
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK) {
      if (sqlite3_step(statement) == SQLITE_ROW) {
        const auto* text = sqlite3_column_text(statement, 0);
        value = text ? reinterpret_cast<const char*>(text) : "";
      }
      sqlite3_finalize(statement);
    }
  }
  sqlite3_close(db);
  return value;
}

}  // namespace ladder::testing
