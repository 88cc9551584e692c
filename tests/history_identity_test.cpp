// Issue 50: which runs the history holds as one run and which it pools. A run is what makes it that run (its
// host, start time and matrix), not its file's bytes: a finished run resumed (which rewrites results.json) or
// a re-indented copy is recorded once (T5-8), also in a database recorded before identities were kept. A
// series is of a kind of machine, which a fleet of identical hosts shares, but the runs pooled into a cell's
// interval as "runs of this build here" are this host's alone (T5-17).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "errors.hpp"
#include "history_store.hpp"
#include "history_store_support.hpp"
#include "identity.hpp"
#include "noise_store.hpp"
#include "results_file.hpp"

namespace ladder::testing {
namespace {

using history::Store;

std::string runs_in(const fs::path& file) { return query(file, "SELECT COUNT(*) FROM runs"); }

// T5-8 through the binary: a real run, then `--resume` of it finished, then a re-indented copy imported.
TEST(HistoryIdentity, AResumedRunAndARewrittenCopyOfItAreOneRun) {
  TempDir scratch;
  const fs::path file = scratch / "h.sqlite";
  const fs::path out = scratch / "r";
  const std::string history = " --history " + in_quotes(file);
  const Outcome run = ladder("run --tiers inlined --n 1e5 --threads 1 --no-limits --no-instructions --out " +
                             in_quotes(out) + history);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  ASSERT_EQ(runs_in(file), "1");
  const std::string first = read_text(out / "results.json");

  const Outcome resumed = ladder("run --resume " + in_quotes(out) + history);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  ASSERT_NE(read_text(out / "results.json"), first) << "the resume rewrote the file: the case under test";
  EXPECT_EQ(runs_in(file), "1") << resumed.output;
  EXPECT_NE(resumed.output.find("already holds run"), std::string::npos) << resumed.output;
  EXPECT_NE(resumed.output.find("(1 run on this machine)"), std::string::npos) << resumed.output;

  const fs::path copy = scratch / "copy";
  fs::create_directories(copy);
  write_text(copy / "results.json", read_json(out / "results.json").dump(4));
  const Outcome imported = ladder("history import " + in_quotes(copy) + history);
  EXPECT_EQ(imported.exit_code, 0) << imported.output;
  EXPECT_NE(imported.output.find("already recorded, nothing added: " + copy.string()), std::string::npos)
      << imported.output;
  EXPECT_NE(imported.output.find("(the same host, start time and matrix)"), std::string::npos)
      << imported.output;
  EXPECT_EQ(runs_in(file), "1");
}

// Another run is still another run: another start time, or the same second with another seed.
TEST(HistoryIdentity, RunsOfAnotherStartOrSeedAreStillRecorded) {
  TempDir scratch;
  const fs::path file = scratch / "h.sqlite";
  json one = crafted_run("alpha", "2026-11-30T10:00:00Z");
  json same_second = one;
  same_second["context"]["matrix"]["seed"] = 12345;
  const json later = crafted_run("alpha", "2026-11-30T10:00:01Z");
  Store store(file.string(), Store::Mode::write);
  EXPECT_TRUE(store.record(write_results(scratch / "one", one).string()).added);
  EXPECT_TRUE(store.record(write_results(scratch / "seed", same_second).string()).added);
  EXPECT_TRUE(store.record(write_results(scratch / "later", later).string()).added);
  EXPECT_FALSE(store.record(write_results(scratch / "again", later).string()).added);
  EXPECT_EQ(store.runs().size(), 3u);
}

// A database of schema 5 (no identities): its runs are matched by host, start time, machine, build and label.
TEST(HistoryIdentity, ARunRecordedBeforeIdentitiesIsStillMatched) {
  TempDir scratch;
  const fs::path file = scratch / "h.sqlite";
  const json document = crafted_run("alpha", "2026-11-30T10:00:00Z");
  {
    Store store(file.string(), Store::Mode::write);
    ASSERT_TRUE(store.record(write_results(scratch / "one", document).string()).added);
  }
  // As schema 5 left it: no identity column, user_version 5.
  ASSERT_EQ(execute(file,
                    "DROP INDEX runs_by_identity; ALTER TABLE runs DROP COLUMN identity; "
                    "PRAGMA user_version = 5"),
            "");
  const fs::path copy = scratch / "copy";
  fs::create_directories(copy);
  write_text(copy / "results.json", read_json(scratch / "one" / "results.json").dump(2));
  const Outcome imported = ladder("history import " + in_quotes(copy) + " --history " + in_quotes(file));
  EXPECT_EQ(imported.exit_code, 0) << imported.output;
  EXPECT_EQ(query(file, "PRAGMA user_version"), std::to_string(history::schema_version));
  EXPECT_EQ(runs_in(file), "1") << imported.output;
  EXPECT_EQ(query(file, "SELECT COUNT(*) FROM runs WHERE identity IS NULL"), "1");
  // A run of another start is recorded, with its identity.
  const fs::path later = write_results(scratch / "later", crafted_run("alpha", "2026-11-30T11:00:00Z"));
  EXPECT_EQ(ladder("history import " + in_quotes(later) + " --history " + in_quotes(file)).exit_code, 0);
  EXPECT_EQ(runs_in(file), "2");
  EXPECT_EQ(query(file, "SELECT COUNT(*) FROM runs WHERE identity IS NOT NULL"), "1");
}

// T5-17: six runs of one clean commit and build on other hosts of the same kind (the same fingerprint), each
// 100 times slower, are one series with this host's, but are no replicates of this host's cells: pooling
// takes this host's runs only.
TEST(HistoryIdentity, PoolingTakesThisHostsRunsAloneThoughTheSeriesHoldsTheFleet) {
  TempDir scratch;
  Store store((scratch / "h.sqlite").string(), Store::Mode::write);
  const auto record = [&](const std::string& host, int hour, double scale) {
    const std::string started =
        "2026-11-30T" + std::string(hour < 10 ? "0" : "") + std::to_string(hour) + ":00:00Z";
    const fs::path dir = scratch / (host + std::to_string(hour));
    return store.record(write_results(dir, crafted_run(host, started, scale)).string());
  };
  for (int i = 1; i <= 6; ++i) record("runner-" + std::to_string(i), i, 100.0);
  record("alpha", 8, 1.0);
  record("alpha", 9, 1.0);
  const fs::path asking = write_results(scratch / "asking", crafted_run("alpha", "2026-11-30T10:00:00Z"));
  const ContextRecord context = read_results_file(asking.string()).context;
  const history::NoiseKey key{{"naive", "gauss", 1000000, 1, 1}, history::machine_fingerprint(context)};
  const std::string build = history::build_fingerprint(context);
  const std::string commit = context.source.git_commit;
  const auto mine = history::same_build_medians(store, key, "", build, commit, context.run.started, "alpha");
  ASSERT_EQ(mine.size(), 2u);
  for (const double seconds : mine) EXPECT_NEAR(seconds, 0.011, 1e-9);
  const auto runner =
      history::same_build_medians(store, key, "", build, commit, context.run.started, "runner-1");
  ASSERT_EQ(runner.size(), 1u);
  EXPECT_NEAR(runner.front(), 1.1, 1e-9);
  // The series is still the kind of machine's: all eight runs.
  std::size_t points = 0;
  for (const auto& series_key : store.series_keys("naive"))
    if (series_key.n == 1000000) points += store.series(series_key).size();
  EXPECT_EQ(points, 8u);
}

// Issue 53: a measurement with no results file (`ladder ab --repo`: one side's medians of a repository's
// benchmarks) is a run of its own, under its commit, read back as recorded; its identity, given, makes it
// that run. An unfinished or emulated one, or one whose real and CPU times differ in number, is refused and
// leaves nothing.
TEST(HistoryIdentity, AMeasuredRunIsRecordedOnceUnderItsCommitAndABadOneLeavesNothing) {
  TempDir scratch;
  const fs::path file = scratch / "h.sqlite";
  Store store(file.string(), Store::Mode::write);
  ContextRecord context;
  context.host_name = "alpha";
  context.cpu_model = "a CPU";
  context.compiler = "the repository's own build:";
  context.common_flags = "--target bench";
  context.source.git_commit = std::string(40, 'c');
  context.source.git_dirty = "no";
  context.run.started = "2026-12-07T06:00:00Z";
  context.run.status = "complete";
  history::StoredCell cell;
  static_cast<CellCoordinates&>(cell) = {"repository 0123456789", "BM_kernel/real_time", 0, 1, 1};
  cell.name = "BM_kernel/real_time";
  cell.status = "ok";
  cell.repetitions = {430e3, 440e3, 435e3};
  cell.cpu_repetitions = {429e3, 439e3, 434e3};
  cell.median = 435e3;
  const auto recorded = store.record_measured(context, {cell}, "side=head", "ladder ab --repo /r");
  ASSERT_TRUE(recorded.added);
  EXPECT_FALSE(store.record_measured(context, {cell}, "side=head", "ladder ab --repo /r").added);
  const auto run = store.run(recorded.run_id);
  ASSERT_TRUE(run);
  EXPECT_EQ(run->git_commit, std::string(40, 'c'));
  EXPECT_EQ(run->results_path, "ladder ab --repo /r");
  EXPECT_EQ(run->build_fingerprint, history::build_fingerprint(context));
  const auto cells = store.cells(recorded.run_id);
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_TRUE(is_repository_benchmark(cells[0]));
  EXPECT_EQ(cells[0].repetitions, cell.repetitions);
  EXPECT_EQ(cells[0].cpu_repetitions, cell.cpu_repetitions);
  ASSERT_EQ(store.series_keys("repository 0123456789").size(), 1u);
  // Another side of the same ab (another identity) is another run of the series.
  EXPECT_TRUE(store.record_measured(context, {cell}, "side=base", "ladder ab --repo /r").added);
  EXPECT_EQ(store.series(store.series_keys("repository 0123456789")[0]).size(), 2u);

  ContextRecord running = context;
  running.run.status = "running";
  EXPECT_THROW(store.record_measured(running, {cell}, "running", "r"), InputError);
  ContextRecord emulated = context;
  emulated.emulation = Emulation{};
  emulated.emulation->emulated = "qemu-user";
  EXPECT_THROW(store.record_measured(emulated, {cell}, "emulated", "r"), InputError);
  history::StoredCell uneven = cell;
  uneven.cpu_repetitions.pop_back();
  EXPECT_THROW(store.record_measured(context, {uneven}, "uneven", "r"), InputError);
  EXPECT_EQ(runs_in(file), "2");
}

}  // namespace
}  // namespace ladder::testing
