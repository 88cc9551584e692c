// The history database's integrity: two writers at once both land; a writer SIGKILLed mid-record leaves the
// database whole with its run absent; corrupt, foreign and read-only files are refused with a clear error
// and never modified; `ladder run` records itself unless --no-history, and a record that fails leaves the
// run's results whole.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "history_store.hpp"
#include "history_store_support.hpp"

namespace ladder::testing {
namespace {

using history::Store;

TEST(HistoryIntegrity, TwoWritersAtOnceBothLand) {
  TempDir scratch;
  const fs::path file = scratch / "h.sqlite";
  const fs::path one = write_results(scratch / "one", crafted_run("alpha", "2026-11-30T10:00:00Z", 1.0));
  const fs::path two = write_results(scratch / "two", crafted_run("alpha", "2026-11-30T11:00:00Z", 2.0));
  // The first writer holds its transaction open for 3 s after its first cell; the second starts meanwhile,
  // waits for the lock (the busy timeout), then writes its own run.
  const pid_t first = start_ladder(
      "history import " + in_quotes(one) + " --history " + in_quotes(file),
      "LADDER_HISTORY_TEST_PAUSE_AFTER_CELLS=1 LADDER_HISTORY_TEST_PAUSE_SECONDS=3", scratch / "first.log");
  ASSERT_TRUE(wait_for_pause(first, scratch / "first.log")) << read_text(scratch / "first.log");
  const pid_t second = start_ladder("history import " + in_quotes(two) + " --history " + in_quotes(file), "",
                                    scratch / "second.log");
  EXPECT_EQ(exit_status(first), 0) << read_text(scratch / "first.log");
  EXPECT_EQ(exit_status(second), 0) << read_text(scratch / "second.log");
  EXPECT_EQ(query(file, "SELECT COUNT(*) FROM runs"), "2");
  EXPECT_EQ(query(file, "SELECT COUNT(*) FROM cells"), "8");
  EXPECT_EQ(query(file, "PRAGMA integrity_check"), "ok");
}

TEST(HistoryIntegrity, AWriterKilledMidRecordLeavesItsRunAbsentAndTheDatabaseWhole) {
  TempDir scratch;
  const fs::path file = scratch / "h.sqlite";
  const fs::path earlier = write_results(scratch / "earlier", crafted_run("alpha", "2026-11-29T10:00:00Z"));
  ASSERT_EQ(ladder("history import " + in_quotes(earlier) + " --history " + in_quotes(file)).exit_code, 0);
  const fs::path dir = write_results(scratch / "run", crafted_run("alpha", "2026-11-30T10:00:00Z", 2.0));
  const pid_t writer = start_ladder("history import " + in_quotes(dir) + " --history " + in_quotes(file),
                                    "LADDER_HISTORY_TEST_PAUSE_AFTER_CELLS=2", scratch / "writer.log");
  ASSERT_TRUE(wait_for_pause(writer, scratch / "writer.log")) << read_text(scratch / "writer.log");
  kill(writer, SIGKILL);
  EXPECT_EQ(exit_status(writer), -1);
  EXPECT_EQ(query(file, "PRAGMA integrity_check"), "ok");
  EXPECT_EQ(query(file, "SELECT COUNT(*) FROM runs"), "1");  // the earlier run only
  EXPECT_EQ(query(file, "SELECT COUNT(*) FROM cells"), "4");
  EXPECT_EQ(query(file, "SELECT COUNT(*) FROM repetitions"), "9");
  // Recording it again lands it whole.
  const Outcome again = ladder("history import " + in_quotes(dir) + " --history " + in_quotes(file));
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_EQ(query(file, "SELECT COUNT(*) FROM cells"), "8");
  EXPECT_EQ(query(file, "PRAGMA integrity_check"), "ok");
}

// Issue 50, T5-9: a FIFO as the history would block SQLite's first read forever; it, and a device, are
// refused at once (exit 2), by every command that opens the history.
TEST(HistoryIntegrity, AFifoOrADeviceAsTheHistoryIsRefusedAtOnce) {
  TempDir scratch;
  const fs::path fifo = scratch / "h.fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const fs::path dir = write_results(scratch / "run", crafted_run("alpha", "2026-11-30T10:00:00Z"));
  for (const std::string& command : {"history import " + in_quotes(dir), std::string("history list")}) {
    const Outcome refused = ladder(command + " --history " + in_quotes(fifo));
    EXPECT_EQ(refused.exit_code, exit_bad_input) << command << ": " << refused.output;
    EXPECT_NE(refused.output.find("is a FIFO, not a regular file"), std::string::npos) << refused.output;
  }
  const Outcome device = ladder("history list --history /dev/zero");
  EXPECT_EQ(device.exit_code, exit_bad_input) << device.output;
  EXPECT_NE(device.output.find("'/dev/zero' is a device, not a regular file"), std::string::npos)
      << device.output;
}

TEST(HistoryIntegrity, AFileThatIsNotSQLiteIsRefusedAndLeftAlone) {
  TempDir scratch;
  const fs::path file = scratch / "h.sqlite";
  std::string garbage;
  for (int i = 0; i < 4096; ++i) garbage.push_back(static_cast<char>((i * 7919 + 13) % 251));
  write_text(file, garbage);
  const fs::path dir = write_results(scratch / "run", crafted_run("alpha", "2026-11-30T10:00:00Z"));
  const Outcome refused = ladder("history import " + in_quotes(dir) + " --history " + in_quotes(file));
  EXPECT_EQ(refused.exit_code, exit_bad_input) << refused.output;
  EXPECT_NE(refused.output.find("'" + file.string() + "' is not an SQLite database"), std::string::npos)
      << refused.output;
  EXPECT_EQ(read_text(file), garbage);
  EXPECT_FALSE(fs::exists(file.string() + "-wal"));
  // A damaged database (SQLite's header, garbage after it) is refused the same way.
  std::string damaged = std::string("SQLite format 3") + '\0' + garbage;
  write_text(file, damaged);
  const Outcome damaged_refused =
      ladder("history import " + in_quotes(dir) + " --history " + in_quotes(file));
  EXPECT_NE(damaged_refused.exit_code, 0) << damaged_refused.output;
  EXPECT_NE(damaged_refused.output.find(file.string()), std::string::npos) << damaged_refused.output;
  EXPECT_EQ(read_text(file), damaged);
}

TEST(HistoryIntegrity, AnotherApplicationsSQLiteFileIsRefusedAndLeftAlone) {
  TempDir scratch;
  const fs::path dir = write_results(scratch / "run", crafted_run("alpha", "2026-11-30T10:00:00Z"));
  for (const std::string setup :
       {"CREATE TABLE notes (id INTEGER, text TEXT); INSERT INTO notes VALUES (1, 'x')",
        "PRAGMA application_id = 305419896"}) {
    const fs::path file = scratch / "foreign.sqlite";
    fs::remove(file);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, setup.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    const std::string before = read_text(file);
    ASSERT_FALSE(before.empty());
    const Outcome refused = ladder("history import " + in_quotes(dir) + " --history " + in_quotes(file));
    EXPECT_EQ(refused.exit_code, exit_bad_input) << refused.output;
    EXPECT_NE(refused.output.find("is an SQLite database of another application"), std::string::npos)
        << refused.output;
    EXPECT_NE(refused.output.find(file.string()), std::string::npos) << refused.output;
    EXPECT_EQ(read_text(file), before) << setup;
    const Outcome listed = ladder("history list --history " + in_quotes(file));
    EXPECT_EQ(listed.exit_code, exit_bad_input) << listed.output;
    EXPECT_EQ(read_text(file), before) << setup;
  }
}

// ---- `ladder run` records itself --------------------------------------------------------------------

const char* quick_run = "run --no-limits --tiers naive --n 1e4 --reps 3 --min-time 0.002 --no-instructions";

std::string git_head() {
  const Outcome head = run_command("git -C " + in_quotes(LADDER_SOURCE_DIR), "rev-parse HEAD");
  return head.exit_code == 0 ? head.output.substr(0, 40) : "unknown";
}

TEST(HistoryRun, ARunRecordsItselfWithItsSourceAndNoHistoryWritesNothing) {
  TempDir scratch;
  const fs::path file = scratch / "h.sqlite";
  const Outcome skipped =
      run_command("LADDER_HISTORY=" + in_quotes(file) + " " + ladder_binary,
                  std::string(quick_run) + " --no-history --out " + in_quotes(scratch / "a"));
  EXPECT_EQ(skipped.exit_code, 0) << skipped.output;
  EXPECT_TRUE(fs::exists(scratch / "a" / "results.json"));
  EXPECT_FALSE(fs::exists(file)) << "--no-history wrote the history";

  const Outcome recorded = run_command("LADDER_HISTORY=" + in_quotes(file) + " " + ladder_binary,
                                       std::string(quick_run) + " --out " + in_quotes(scratch / "b"));
  EXPECT_EQ(recorded.exit_code, 0) << recorded.output;
  EXPECT_NE(recorded.output.find("history: recorded run"), std::string::npos) << recorded.output;
  Store store(file.string(), Store::Mode::read);
  const auto runs = store.runs();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].git_commit, git_head());
  const auto naive = runs[0].tier_sources.find("variants/naive.cpp");
  ASSERT_NE(naive, runs[0].tier_sources.end());
  EXPECT_EQ(naive->second,
            history::sha256_hex(read_text(fs::path(LADDER_SOURCE_DIR) / "variants/naive.cpp")));
  EXPECT_EQ(store.cells(runs[0].run_id).at(0).tier_source_sha256, naive->second);
  EXPECT_EQ(runs[0].run_id, history::sha256_hex(read_text(scratch / "b" / "results.json")));
}

// The history is opened before any cell (T5-21): one that cannot be written stops the run at once, with
// nothing measured in vain and the file as it was.
TEST(HistoryRun, AReadOnlyDatabaseGetsAClearErrorBeforeAnyCell) {
  TempDir scratch;
  const fs::path place = scratch / "readonly";
  fs::create_directories(place);
  const bool root = geteuid() == 0;
  if (root && mount("tmpfs", place.c_str(), "tmpfs", 0, "size=4m") != 0)
    GTEST_SKIP()
        << "as root, only a read-only mount makes a file read-only, and tmpfs cannot be mounted here ("
        << std::strerror(errno) << ")";
  const fs::path file = place / "h.sqlite";
  const fs::path earlier = write_results(scratch / "earlier", crafted_run("alpha", "2026-11-29T10:00:00Z"));
  ASSERT_EQ(ladder("history import " + in_quotes(earlier) + " --history " + in_quotes(file)).exit_code, 0);
  if (root)
    ASSERT_EQ(mount(nullptr, place.c_str(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr), 0)
        << std::strerror(errno);
  else
    fs::permissions(place, fs::perms::owner_read | fs::perms::owner_exec),
        fs::permissions(file, fs::perms::owner_read);
  const std::string before = read_text(file);
  const Outcome run = ladder(std::string(quick_run) + " --out " + in_quotes(scratch / "out") + " --history " +
                             in_quotes(file));
  EXPECT_EQ(run.exit_code, exit_cannot_write) << run.output;
  EXPECT_NE(run.output.find("history database '" + file.string() + "'"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("written"), std::string::npos) << run.output;
  EXPECT_FALSE(fs::exists(scratch / "out" / "results.json")) << "it measured before refusing";
  EXPECT_EQ(read_text(file), before);
  if (root)
    umount(place.c_str());
  else
    fs::permissions(place, fs::perms::owner_all);
}

}  // namespace
}  // namespace ladder::testing
