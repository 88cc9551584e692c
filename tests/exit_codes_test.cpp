// Every failure ends in "ladder: " and what failed, and in the exit code README.md's "Exit codes" gives it,
// never in an abort: one failure of each kind, made for real on the binaries users run.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>

#include "command.hpp"

namespace ladder::testing {
namespace {

namespace fs = std::filesystem;

// The codes as the README documents them, restated here: a change in common/errors.hpp must show here.
constexpr int some_cell_failed = 1, bad_input = 2, unavailable = 3, cannot_write = 4, tool_failed = 5,
              internal_error = 70;

// $PATH less every directory that holds `program`.
std::string path_without(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::stringstream directories(path ? path : "/usr/bin:/bin");
  std::string kept;
  for (std::string directory; std::getline(directories, directory, ':');)
    if (!directory.empty() && !fs::exists(fs::path(directory) / program))
      kept += (kept.empty() ? "" : ":") + directory;
  return kept;
}

// `ladder run` of one small cell, written to `out` (its arguments).
std::string one_cell_run(const std::string& out) {
  return "run --no-limits --tiers naive --n 1000 --reps 1 --min-time 0.001 --threads 1 --no-instructions "
         "--no-history --out " +
         out;
}

bool says(const Outcome& outcome, const std::string& words) {
  return outcome.output.find(words) != std::string::npos;
}

// A tool missing: valgrind is not on PATH.
TEST(CliErrors, ProfileWithValgrindAbsentFromPathSaysSoAndExits3) {
  const std::string path = path_without("valgrind");
  const Outcome outcome =
      run_command("env PATH='" + path + "' " + std::string(LADDER_BINARY), "profile naive --n 1000");
  EXPECT_EQ(outcome.exit_code, unavailable) << outcome.output;
  EXPECT_TRUE(says(outcome, "ladder: cannot profile: valgrind is not installed")) << outcome.output;
}

// A tool that fails: a valgrind that exits 1 (the failure that ended in SIGABRT when it was a plain
// std::runtime_error). Its words reach the message. The profiling build is any executable here: callgrind
// fails before it would run it.
TEST(CliErrors, ProfileWhoseCallgrindFailsQuotesItAndExits5) {
  TempDir dir;
  write_text(dir / "valgrind", "#!/bin/sh\necho 'valgrind: this one fails on purpose' >&2\nexit 1\n");
  fs::permissions(dir / "valgrind", fs::perms::owner_all);
  const Outcome outcome = run_command("env PATH='" + dir.str() + ":" + path_without("valgrind") +
                                          "' LADDER_PROFILING_BINARY=/bin/true " + std::string(LADDER_BINARY),
                                      "profile naive --n 1000");
  EXPECT_EQ(outcome.exit_code, tool_failed) << outcome.output;
  EXPECT_TRUE(says(outcome, "ladder: callgrind on naive at n = 1000 failed (exit code 1")) << outcome.output;
  EXPECT_TRUE(says(outcome, "this one fails on purpose")) << outcome.output;
}

// A file that cannot be read: the results file a report is asked for does not exist.
TEST(CliErrors, ReportOfAMissingResultsFileNamesItAndExits2) {
  TempDir dir;
  const std::string missing = (dir / "no-run/results.json").string();
  const Outcome outcome = run_command(LADDER_BINARY, "report " + missing);
  EXPECT_EQ(outcome.exit_code, bad_input) << outcome.output;
  EXPECT_TRUE(says(outcome, "ladder: ")) << outcome.output;
  EXPECT_TRUE(says(outcome, missing)) << outcome.output;
  EXPECT_TRUE(says(outcome, "cannot be read")) << outcome.output;
}

// Files that cannot be written. The tests run as root, whom no mode bit stops, so the directories are
// ones no one can write in: under a regular file, and in /proc.
TEST(CliErrors, RunIntoAnOutUnderARegularFileIsRefusedBeforeAnythingRunsWithExit2) {
  TempDir dir;
  write_text(dir / "a-file", "not a directory\n");
  const std::string out = (dir / "a-file/run").string();
  const Outcome outcome = run_command(LADDER_BINARY, one_cell_run(out));
  EXPECT_EQ(outcome.exit_code, bad_input) << outcome.output;
  EXPECT_TRUE(says(outcome, "ladder: cannot create --out '" + out + "'")) << outcome.output;
}

TEST(CliErrors, ReportIntoAnUnwritableDirectoryNamesTheFileAndExits4) {
  TempDir dir;
  ASSERT_EQ(std::system(("mkdir -p " + (dir / "run").string() +
                         " && gzip -dc " LADDER_FIXTURES_DIR "/default_run_results.json.gz > " +
                         (dir / "run/results.json").string())
                            .c_str()),
            0);
  const Outcome outcome =
      run_command(LADDER_BINARY, "report " + (dir / "run").string() + " --out /proc/ladder-report");
  EXPECT_EQ(outcome.exit_code, cannot_write) << outcome.output;
  EXPECT_TRUE(says(outcome, "ladder: ")) << outcome.output;
  EXPECT_TRUE(says(outcome, "/proc/ladder-report")) << outcome.output;
}

// A worker that cannot start. `ladder run` starts each cell's worker from its own file, as /proc/self/exe
// names it; here that file is gone (as after a rebuild during a run): a copy is opened, deleted and then
// run through its descriptor, so /proc/self/exe reads "… (deleted)" and exec finds nothing there. Each
// cell fails, saying why, and the run ends with the code of failed cells.
TEST(CliErrors, AWorkerThatCannotStartFailsItsCellSayingWhyAndExits1) {
  TempDir dir;
  fs::copy_file(LADDER_BINARY, dir / "ladder");
  const std::string command =
      "sh -c 'exec 3<\"$0\" && rm \"$0\" && exec /proc/self/fd/3 \"$@\"' " + (dir / "ladder").string();
  const std::string out = (dir / "out").string();
  const Outcome outcome = run_command(command, one_cell_run(out));
  EXPECT_EQ(outcome.exit_code, some_cell_failed) << outcome.output;
  EXPECT_TRUE(says(outcome, "the worker could not be started: cannot execute '" + (dir / "ladder").string() +
                                " (deleted)': No such file or directory"))
      << outcome.output;
  EXPECT_TRUE(says(outcome, "deleted or replaced after the run started")) << outcome.output;
  const std::string results = read_text(dir / "out/results.json");
  EXPECT_NE(results.find("the worker could not be started"), std::string::npos) << results;
}

// An error of no Ladder type is a bug, said as one: a test tier whose kernel throws std::runtime_error,
// evaluated in-process by `ladder eval`, ends in "internal error" and 70, not in SIGABRT.
TEST(CliErrors, AnExceptionOfNoLadderTypeIsAnInternalErrorWithExit70) {
  const Outcome outcome = run_command(LADDER_FAULT_BINARY, "eval --tier throws --n 10");
  EXPECT_EQ(outcome.exit_code, internal_error) << outcome.output;
  EXPECT_TRUE(says(outcome, "ladder: internal error in `ladder eval`: a test tier that always throws"))
      << outcome.output;
}

}  // namespace
}  // namespace ladder::testing
