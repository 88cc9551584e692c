// Issue 37 in the history database: nothing lost, nothing crashes. A writer refuses a damaged database as
// the readers do, before it writes a byte (D8); readers open it read-only, never change or create a file,
// read a WAL database in a read-only place, and name a missing table or column with exit 2 (D10); the JSON
// of `history list` and `show` holds bytes that are not UTF-8 (D4).
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>
#include <string>

#include "history_store.hpp"
#include "history_store_support.hpp"

namespace ladder::testing {
namespace {

using history::Store;

// A database of `runs` crafted runs of host alpha, one a day, recorded in-process.
fs::path database_of(const TempDir& scratch, int runs) {
  const fs::path file = scratch / "h.sqlite";
  Store store(file.string(), Store::Mode::write);
  for (int day = 1; day <= runs; ++day) {
    const std::string started =
        "2026-11-" + std::string(day < 10 ? "0" : "") + std::to_string(day) + "T10:00:00Z";
    const fs::path dir =
        write_results(scratch / ("run-" + std::to_string(day)), crafted_run("alpha", started));
    store.record(dir.string());
  }
  return file;
}

std::string database_option(const fs::path& file) { return " --history " + in_quotes(file); }

// Damages the first leaf page of the cells table (where the oldest runs' cells are) by flipping bytes of its
// header and cell pointers, drawn from a fixed seed, until PRAGMA quick_check fails. A later run's cells
// are appended to the rightmost leaf, so a writer that does not check would record "successfully".
void damage_oldest_cells(const fs::path& file) {
  const long page_size = std::stol(query(file, "PRAGMA page_size"));
  const long root = std::stol(query(file, "SELECT rootpage FROM sqlite_master WHERE name = 'cells'"));
  std::string bytes = read_text(file);
  const auto byte_at = [&](long offset) { return static_cast<unsigned char>(bytes.at(offset)); };
  const long root_at = (root - 1) * page_size;
  ASSERT_EQ(byte_at(root_at), 0x05) << "the cells table's root should be an interior page: record more runs";
  const long first_cell = root_at + (byte_at(root_at + 12) << 8 | byte_at(root_at + 13));
  const long leaf = (byte_at(first_cell) << 24 | byte_at(first_cell + 1) << 16 |
                     byte_at(first_cell + 2) << 8 | byte_at(first_cell + 3));
  const long leaf_at = (leaf - 1) * page_size;
  ASSERT_EQ(byte_at(leaf_at), 0x0d) << "the leftmost child should be a leaf page of the table";
  std::mt19937 draw(37);
  for (int flips = 1; flips <= 64; ++flips) {
    const long at = leaf_at + static_cast<long>(draw() % 24);
    bytes[at] = static_cast<char>(byte_at(at) ^ (1 + draw() % 255));
    write_text(file, bytes);
    if (query(file, "PRAGMA quick_check") != "ok") return;
  }
  FAIL() << "64 flips left quick_check ok";
}

TEST(HistorySafety, AnImportIntoADamagedDatabaseIsRefusedLikeAReadAndWritesNothing) {
  TempDir scratch;
  const fs::path file = database_of(scratch, 24);
  ASSERT_NO_FATAL_FAILURE(damage_oldest_cells(file));
  for (const char* beside : {"-wal", "-shm"}) fs::remove(file.string() + beside);
  const std::string before = read_text(file);
  const fs::path later = write_results(scratch / "later", crafted_run("alpha", "2026-12-01T10:00:00Z"));

  const Outcome listed = ladder("history list" + database_option(file));
  EXPECT_EQ(listed.exit_code, exit_bad_input) << listed.output;
  const std::string damaged =
      "history database '" + file.string() + "': is damaged (PRAGMA integrity_check: ";
  EXPECT_NE(listed.output.find(damaged), std::string::npos) << listed.output;

  const Outcome imported = ladder("history import " + in_quotes(later) + database_option(file));
  EXPECT_EQ(imported.exit_code, exit_bad_input) << imported.output;
  EXPECT_NE(imported.output.find(damaged), std::string::npos) << imported.output;
  EXPECT_NE(imported.output.find("Ladder will not write to it"), std::string::npos) << imported.output;
  EXPECT_EQ(imported.output.find("runs added"), std::string::npos) << imported.output;
  EXPECT_TRUE(read_text(file) == before) << "the refused import changed the database";
  EXPECT_FALSE(fs::exists(file.string() + "-wal")) << "the refused import opened a write-ahead log";
}

TEST(HistorySafety, AMissingTableOrColumnIsNamedWithExit2AndNeverWritten) {
  TempDir scratch;
  const fs::path whole = database_of(scratch, 1);
  const fs::path later = write_results(scratch / "later", crafted_run("alpha", "2026-12-01T10:00:00Z"));
  const struct {
    const char* sql;
    const char* named;
  } edits[] = {{"ALTER TABLE cells DROP COLUMN median", "its table 'cells' has no column 'median'"},
               {"DROP TABLE repetitions", "it has no table 'repetitions'"}};
  for (const auto& edit : edits) {
    const fs::path file = scratch / "edited.sqlite";
    fs::copy_file(whole, file, fs::copy_options::overwrite_existing);
    ASSERT_EQ(execute(file, edit.sql), "");
    const std::string before = read_text(file);
    for (const std::string& command : std::vector<std::string>{
             "history show naive", "history list", "history check", "history import " + in_quotes(later)}) {
      const Outcome refused = ladder(command + database_option(file));
      EXPECT_EQ(refused.exit_code, exit_bad_input) << command << ": " << refused.output;
      EXPECT_NE(refused.output.find("history database '" + file.string() + "': is damaged (" + edit.named +
                                    "; a Ladder history of schema version " +
                                    std::to_string(history::schema_version) + " has it)"),
                std::string::npos)
          << command << ": " << refused.output;
      EXPECT_TRUE(read_text(file) == before) << command;
    }
  }
}

// The file's bytes and modification time.
std::pair<std::string, std::int64_t> state_of(const fs::path& file) {
  struct stat info {};
  stat(file.c_str(), &info);
  return {read_text(file),
          static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1000000000 + info.st_mtim.tv_nsec};
}

TEST(HistorySafety, AReadChangesNoByteAndCreatesNoDatabase) {
  TempDir scratch;
  const fs::path file = database_of(scratch, 3);
  const auto before = state_of(file);
  for (const std::string& command : std::vector<std::string>{
           "history list", "history list --json", "history show naive", "history show naive --json",
           "history check", "history report --out " + in_quotes(scratch / "page")}) {
    const Outcome read = ladder(command + database_option(file));
    EXPECT_LE(read.exit_code, 1) << command << ": " << read.output;
    EXPECT_TRUE(state_of(file) == before) << command << " changed the database";
    EXPECT_FALSE(fs::exists(file.string() + "-wal")) << command << " left a -wal file behind";
    EXPECT_FALSE(fs::exists(file.string() + "-shm")) << command << " left a -shm file behind";
  }
  const Outcome missing = ladder("history list" + database_option(scratch / "none.sqlite"));
  EXPECT_EQ(missing.exit_code, exit_bad_input) << missing.output;
  EXPECT_FALSE(fs::exists(scratch / "none.sqlite"));
}

// A place where no file can be created: a read-only tmpfs as root (for whom permissions do not stop a
// write), a directory without write permission otherwise. Empty when neither can be made here.
struct ReadOnlyPlace {
  fs::path dir;
  bool mounted = false;
  std::string why_not;
  explicit ReadOnlyPlace(const fs::path& at) : dir(at) {
    fs::create_directories(dir);
    if (geteuid() == 0 && mount("tmpfs", dir.c_str(), "tmpfs", 0, "size=8m") != 0)
      why_not =
          std::string("as root only a read-only mount stops a write, and tmpfs cannot be mounted here (") +
          std::strerror(errno) + ")";
    mounted = geteuid() == 0 && why_not.empty();
  }
  // Makes it read-only (after the files are in it).
  bool seal() {
    if (!mounted) return chmod(dir.c_str(), 0555) == 0;
    return mount(nullptr, dir.c_str(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr) == 0;
  }
  ~ReadOnlyPlace() {
    if (mounted) umount(dir.c_str());
    chmod(dir.c_str(), 0755);
  }
};

TEST(HistorySafety, AWalDatabaseInAReadOnlyPlaceIsReadAndOneWithAWalToReadIsRefusedByName) {
  TempDir scratch;
  const fs::path source = database_of(scratch, 2);
  ASSERT_EQ(query(source, "PRAGMA journal_mode"), "wal");
  ReadOnlyPlace place(scratch / "readonly");
  if (!place.why_not.empty()) GTEST_SKIP() << place.why_not;
  const fs::path file = place.dir / "h.sqlite";
  fs::copy_file(source, file);
  // The same database with a committed change still in its write-ahead log: a connection that holds the
  // log open (no checkpoint) while the file and the log are copied.
  const fs::path pending = place.dir / "pending.sqlite";
  sqlite3* writer = nullptr;
  ASSERT_EQ(sqlite3_open(source.c_str(), &writer), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(writer, "PRAGMA wal_autocheckpoint = 0; UPDATE runs SET label = 'changed'", nullptr,
                         nullptr, nullptr),
            SQLITE_OK);
  fs::copy_file(source, pending);
  fs::copy_file(source.string() + "-wal", pending.string() + "-wal");
  sqlite3_close(writer);
  ASSERT_GT(fs::file_size(pending.string() + "-wal"), 0u);
  ASSERT_TRUE(place.seal()) << std::strerror(errno);

  const auto before = state_of(file);
  const Outcome listed = ladder("history list" + database_option(file));
  EXPECT_EQ(listed.exit_code, 0) << listed.output;
  EXPECT_NE(listed.output.find("2026-11-02T10:00:00Z"), std::string::npos) << listed.output;
  const Outcome shown = ladder("history show naive --json" + database_option(file));
  EXPECT_EQ(shown.exit_code, 0) << shown.output;
  const Outcome checked = ladder("history check" + database_option(file));
  EXPECT_LE(checked.exit_code, 1) << checked.output;
  EXPECT_NE(checked.output.find("history check: the newest run"), std::string::npos) << checked.output;
  EXPECT_TRUE(state_of(file) == before);
  EXPECT_FALSE(fs::exists(file.string() + "-shm"));

  const Outcome refused = ladder("history list" + database_option(pending));
  EXPECT_EQ(refused.exit_code, exit_bad_input) << refused.output;
  EXPECT_NE(refused.output.find("history database '" + pending.string() + "': cannot be read here: '" +
                                pending.string() + "-wal' beside it holds changes"),
            std::string::npos)
      << refused.output;
}

TEST(HistorySafety, TextThatIsNotUtf8ListsAndShowsAsJson) {
  TempDir scratch;
  const fs::path file = scratch / "h.sqlite";
  const fs::path latin1 =
      write_results(scratch / "r\xe9sultats", crafted_run("alpha", "2026-11-30T10:00:00Z"));
  const Outcome imported = ladder("history import " + in_quotes(latin1) + database_option(file));
  ASSERT_EQ(imported.exit_code, 0) << imported.output;
  ASSERT_EQ(
      execute(file, "UPDATE runs SET label = CAST(X'6C6162E96C' AS TEXT), git_branch = CAST(X'FF' AS TEXT)"),
      "");
  const Outcome listed = ladder("history list --json" + database_option(file));
  ASSERT_EQ(listed.exit_code, 0) << listed.output;
  const json runs = json::parse(listed.output, nullptr, false);
  ASSERT_FALSE(runs.is_discarded()) << listed.output;
  const json& run = runs.at("runs").at(0);
  EXPECT_NE(run.at("results_path").get<std::string>().find("r\xef\xbf\xbdsultats"), std::string::npos)
      << listed.output;  // the byte replaced by U+FFFD
  EXPECT_EQ(run.at("label"), "lab\xef\xbf\xbdl");
  EXPECT_EQ(run.at("git").at("branch"), "\xef\xbf\xbd");
  const Outcome shown = ladder("history show naive --json" + database_option(file));
  ASSERT_EQ(shown.exit_code, 0) << shown.output;
  const json series = json::parse(shown.output, nullptr, false);
  ASSERT_FALSE(series.is_discarded()) << shown.output;
  EXPECT_EQ(series.at("series").at(0).at("points").at(0).at("git_branch"), "\xef\xbf\xbd");
}

}  // namespace
}  // namespace ladder::testing
