// Issue 35 in the history: the machine's noise floors kept in the store (schema 5, history/noise_store.hpp),
// the floor of the history's runs of one clean commit, and `ladder history check` on the noise model. A
// check over ten runs of one clean commit raises nothing, on simulated series with a realistic run-to-run
// noise (lognormal, σ 3 %), a drift and an outlier run, over 20 seeds; a 30 % slowdown after them still
// fails. The draws come from mt19937 with fixed seeds; nothing is timed.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <functional>
#include <string>

#include "command.hpp"
#include "crafted_results.hpp"
#include "errors.hpp"
#include "history_series.hpp"
#include "history_series_support.hpp"
#include "history_store.hpp"
#include "identity.hpp"
#include "noise_store.hpp"
#include "results_file.hpp"
#include "sqlite_query.hpp"

namespace ladder::history {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using report::test::commit_of;
using report::test::Noise;
using testing::TempDir;

std::string hour(int i) {
  return "2026-12-0" + std::to_string(1 + i / 24) + "T" + format_number("%02.0f", i % 24) + ":00:00Z";
}

// A run of naive at n = 1e6 (gauss, one thread) whose median is `seconds`, of `commit` (`dirty`: "yes",
// "no").
fs::path crafted_run(const TempDir& dir, int at, double seconds, const std::string& commit,
                     const std::string& dirty = "no") {
  json cells = json::array();
  testing::add_cell(cells, {"naive", 0, 1000000, 1, testing::around(seconds)});
  json document = testing::crafted_results(
      "vm", json::array({testing::crafted_card("naive", 0, {}, false, "minutes", 9)}), cells);
  document["context"]["run"]["started"] = hour(at);
  document["context"]["source"] = {
      {"git_commit", commit}, {"git_branch", "main"}, {"git_dirty", dirty}, {"tier_sources", json::object()}};
  return testing::write_results(dir / ("run-" + std::to_string(at)), document);
}

// Records runs of `medians` (seconds) of `commit` into the store, one an hour from hour `first`.
void record_runs(Store& store, const TempDir& dir, int first, const std::vector<double>& medians,
                 const std::string& commit, const std::string& dirty = "no") {
  for (std::size_t i = 0; i < medians.size(); ++i)
    store.record(crafted_run(dir, first + static_cast<int>(i), medians[i], commit, dirty).string());
}

NoiseKey naive_key(const Store& store) {
  return {{"naive", "gauss", 1000000, 1, 1}, store.runs().at(0).machine};
}

std::vector<double> log_ratios(const std::vector<double>& medians) {
  std::vector<double> logs;
  for (std::size_t i = 1; i < medians.size(); ++i) logs.push_back(std::log(medians[i] / medians[i - 1]));
  return logs;
}

// The recorded A/A figure alone: `ladder ab`'s figure where it is the A/A's.
std::optional<NoiseFigure> recorded(const Store& store, const NoiseKey& key) {
  auto figure = noise_of(store, key, Compared::adjacent_processes);
  if (figure && !figure->adjacent) return std::nullopt;
  return figure;
}

const std::vector<double> seven = {1e-3, 1.01e-3, 0.99e-3, 1.02e-3, 0.98e-3, 1e-3, 1.01e-3};

TEST(NoiseStore, AVersion4DatabaseReadsWithNoNoiseFiguresAndMigratesKeepingEveryRun) {
  TempDir dir;
  const fs::path file = dir / "v4.sqlite";
  {  // Runs recorded as version 4 recorded them: version 5 only adds the noise table and version 6 the runs'
     // identity, so dropping both is 4.
    Store store(file.string(), Store::Mode::write);
    record_runs(store, dir, 0, seven, std::string(40, 'a'));
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db,
                         "DROP TABLE noise_floors; DROP INDEX runs_by_identity; ALTER TABLE runs DROP COLUMN "
                         "identity; PRAGMA user_version = 4;",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  const fs::path fresh = dir / "fresh-v4.sqlite";
  Store::create_at_version(fresh.string(), 4);
  const std::string tables = "SELECT group_concat(name) FROM (SELECT name FROM sqlite_master ORDER BY name)";
  ASSERT_EQ(testing::query(file, tables), testing::query(fresh, tables)) << "the schema of version 4";
  const fs::path five = dir / "fresh-v5.sqlite";
  Store::create_at_version(five.string(), 5);
  EXPECT_EQ(testing::query(five, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'noise_floors'"), "1");
  EXPECT_EQ(testing::query(fresh, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'noise_floors'"), "0");

  std::vector<std::string> run_ids;
  {
    Store old(file.string(), Store::Mode::read);
    for (const auto& run : old.runs()) run_ids.push_back(run.run_id);
    ASSERT_EQ(run_ids.size(), 7u);
    const auto history = noise_of(old, naive_key(old), Compared::adjacent_processes);
    ASSERT_TRUE(history) << "the history's figure needs no table";
    EXPECT_FALSE(history->adjacent) << "no table, no recorded figure";
    EXPECT_EQ(history->source, "history: 7 runs of clean commit aaaaaaaaaa");
    EXPECT_THROW(record_noise(old, naive_key(old), {4, 12, "A/A", "2026-12-03T00:00:00Z"}), InputError);
  }
  EXPECT_EQ(testing::query(file, "PRAGMA user_version"), "4") << "reading migrated the database";

  Store store(file.string(), Store::Mode::write);
  EXPECT_EQ(testing::query(file, "PRAGMA user_version"), std::to_string(history::schema_version));
  std::vector<std::string> kept;
  for (const auto& run : store.runs()) kept.push_back(run.run_id);
  EXPECT_EQ(kept, run_ids);
  for (const auto& id : run_ids) {
    const auto cells = store.cells(id);
    ASSERT_EQ(cells.size(), 1u);
    EXPECT_EQ(cells[0].repetitions.size(), 3u);
  }
  EXPECT_EQ(testing::query(file, "SELECT COUNT(*) FROM noise_floors"), "0");
  record_noise(store, naive_key(store), {4, 12, "A/A", "2026-12-03T00:00:00Z"});
  EXPECT_EQ(noise_of(store, naive_key(store), Compared::adjacent_processes)->percent, 4);
}

TEST(NoiseStore, RecordedFiguresRoundTripAndTheNewestFiveGiveTheirMedian) {
  TempDir dir;
  Store store((dir / "h.sqlite").string(), Store::Mode::write);
  const NoiseKey key{{"xsimd", "gauss", 10000000, 2, 1}, "f00d"};
  EXPECT_FALSE(recorded(store, key));
  record_noise(store, key,
               {6.5, 12, "A/A `ladder ab` of 3f2a1b0c9d, 12 pairs, 2026-12-03", "2026-12-03T10:00:00Z",
                "3f2a1b0c9d", "3f2a1b0c9d"});
  auto figure = recorded(store, key);
  ASSERT_TRUE(figure);
  EXPECT_EQ(figure->percent, 6.5);
  EXPECT_EQ(figure->pairs, 12);
  EXPECT_EQ(figure->source, "A/A `ladder ab` of 3f2a1b0c9d, 12 pairs, 2026-12-03")
      << "one figure: as recorded";
  record_noise(store, key,
               {9.0, 8, "A/A, older", "2026-12-01T10:00:00Z"});  // recorded later, measured earlier
  figure = recorded(store, key);
  ASSERT_TRUE(figure);
  EXPECT_EQ(figure->percent, (6.5 + 9.0) / 2) << "the median of the two";
  EXPECT_EQ(figure->pairs, 20);
  EXPECT_EQ(
      figure->source,
      "the median of the newest 2 A/A runs, the newest A/A `ladder ab` of 3f2a1b0c9d, 12 pairs, 2026-12-03");
  EXPECT_EQ(figure->measured, "2026-12-03T10:00:00Z") << "the newest's";
  EXPECT_EQ(figure->base, "3f2a1b0c9d");
  EXPECT_EQ(figure->head, "3f2a1b0c9d");
  record_noise(store, key, {3.0, 12, "A/A, again", "2026-12-03T10:00:00Z"});
  EXPECT_EQ(recorded(store, key)->percent, 6.5) << "3.0, 6.5 and 9.0";
  for (const double later : {1.0, 1.0, 1.0})
    record_noise(store, key, {later, 12, "A/A, later", "2026-12-04T10:00:00Z"});
  EXPECT_EQ(recorded(store, key)->percent, 1.0) << "1, 1, 1, 3 and 6.5: 9.0 is no longer among the newest 5";
  EXPECT_EQ(recorded(store, key)->pairs, 5 * 12);
  const auto changed = [&key](const std::function<void(NoiseKey&)>& change) {
    NoiseKey other = key;
    change(other);
    return other;
  };
  for (const NoiseKey& other :
       {changed([](NoiseKey& k) { k.machine = "beef"; }), changed([](NoiseKey& k) { k.threads = 1; }),
        changed([](NoiseKey& k) { k.integrand = "runge"; }), changed([](NoiseKey& k) { k.ranks = 2; })})
    EXPECT_FALSE(recorded(store, other)) << "another cell or machine: " << other.machine << " "
                                         << other.integrand << " " << other.threads << " " << other.ranks;
  EXPECT_THROW(record_noise(store, key, {-1, 12, "A/A", "2026-12-04T00:00:00Z"}), InputError);
  EXPECT_THROW(record_noise(store, key, {NAN, 12, "A/A", "2026-12-04T00:00:00Z"}), InputError);
  EXPECT_EQ(recorded(store, key)->percent, 1.0) << "a refused figure is not recorded";
}

TEST(NoiseStore, TheHistorysFigureIsOfTheCleanCommitWithTheMostRunsAndAbPrefersTheAAs) {
  TempDir dir;
  Store store((dir / "h.sqlite").string(), Store::Mode::write);
  const std::string a(40, 'a'), b(40, 'b');
  record_runs(store, dir, 0, {1e-3, 1.5e-3, 0.7e-3}, a, "yes");  // dirty: not the same code
  record_runs(store, dir, 3, {2e-3, 2.1e-3, 1.9e-3, 2e-3, 2.2e-3}, b);
  const NoiseKey key = naive_key(store);
  for (const Compared compared :
       {Compared::runs_apart, Compared::cells_of_one_run, Compared::adjacent_processes})
    EXPECT_FALSE(noise_of(store, key, compared)) << "5 runs of one commit: 4 pairs are too few";
  record_runs(store, dir, 8, seven, a);
  const auto figure = noise_of(store, key, Compared::runs_apart);
  ASSERT_TRUE(figure);
  EXPECT_NEAR(figure->percent, *apart_noise_floor_percent(log_ratios(seven)), 1e-9)
      << "the 7 clean runs of a";
  EXPECT_EQ(figure->pairs, 6);
  EXPECT_EQ(figure->source, "history: 7 runs of clean commit aaaaaaaaaa");
  EXPECT_EQ(figure->measured, hour(14)) << "its newest run";
  EXPECT_FALSE(figure->adjacent);
  EXPECT_EQ(noise_of(store, key, Compared::adjacent_processes)->source, figure->source) << "no A/A yet";

  record_noise(store, key, {4.2, 12, "A/A `ladder ab` of aaaaaaaaaa, 12 pairs", hour(20)});
  const auto adjacent = noise_of(store, key, Compared::adjacent_processes);
  EXPECT_EQ(adjacent->percent, 4.2) << "ab's pairs are adjacent, as an A/A's";
  EXPECT_TRUE(adjacent->adjacent);
  EXPECT_EQ(noise_of(store, key, Compared::runs_apart)->source, figure->source)
      << "runs apart take the history's alone, unchanged by an A/A";
  EXPECT_EQ(noise_of(store, key, Compared::cells_of_one_run)->source, figure->source)
      << "a run's cells take the history's first";
  NoiseKey other = key;
  other.n = 10000000;
  for (const Compared compared :
       {Compared::runs_apart, Compared::cells_of_one_run, Compared::adjacent_processes})
    EXPECT_FALSE(noise_of(store, other, compared)) << "unknown for another cell";
  record_noise(store, other, {0.8, 12, "A/A `ladder ab` of aaaaaaaaaa, 12 pairs", hour(21)});
  EXPECT_FALSE(noise_of(store, other, Compared::runs_apart)) << "an A/A's adjacent processes: no floor apart";
  for (const Compared compared : {Compared::cells_of_one_run, Compared::adjacent_processes}) {
    const auto aa = noise_of(store, other, compared);
    ASSERT_TRUE(aa) << "without the history's figure, the A/A's";
    EXPECT_EQ(aa->percent, 0.8);
    EXPECT_TRUE(aa->adjacent) << "the caller says that it understates runs apart";
  }

  const ResultsFile file = read_results_file(crafted_run(dir, 30, 1e-3, a).string());
  EXPECT_EQ(machine_fingerprint(file.context), key.machine) << "the store keys runs by it";
}

// Ten runs of one clean commit: each run's median drifts up 0.2 % a run and carries lognormal noise of σ 3 %,
// and run `outlier` is 1.3× slower.
HistorySeries one_commit(std::uint32_t seed, int outlier) {
  Noise noise(seed);
  HistorySeries series{"simd", 100000000, 2, "vm"};
  for (int i = 0; i < 10; ++i) {
    CellRun run{std::to_string(i + 1), hour(i), commit_of(0)};
    run.median = 1e-3 * (1 + 0.002 * i) * std::exp(0.03 * noise.normal()) * (i == outlier ? 1.3 : 1);
    run.min = run.max = run.median;
    run.repetitions = {run.median};
    series.runs.push_back(run);
  }
  return series;
}

TEST(HistoryCheckOnNoise, TenRunsOfOneCleanCommitRaiseNothing) {
  for (std::uint32_t seed = 1; seed <= 20; ++seed) {
    const int outlier = static_cast<int>(seed % 9);  // any run but the newest
    const HistorySeries series = one_commit(seed, outlier);
    const NewestCheck check = check_newest_run(series);
    std::string reasons;
    for (const auto& reason : check.reasons) reasons += reason + "\n";
    EXPECT_TRUE(check.reasons.empty()) << "seed " << seed << ", outlier run " << outlier << ":\n" << reasons;
    ASSERT_TRUE(check.row);
    EXPECT_NE(check.row->verdict, Verdict::slower) << "seed " << seed;
    EXPECT_TRUE(check.row->threshold.measured) << check.row->threshold.source;
    EXPECT_NE(check.row->threshold.source.find("(history: 10 runs of clean commit c100aaaaaa)"),
              std::string::npos)
        << check.row->threshold.source;
  }
}

// A newest run of another commit slower (× the 2 % drift, and its own noise) after the ten. The series
// measures its own floor from 9 pairs of runs apart, the larger of their robust spread and the 95th
// percentile of their jumps, and the change must clear it twice (the interval ± the floor, above + the
// floor). Without an outlier run among the ten, the floors are a few per cent and a 30 % slowdown fails in
// 19 of 20 draws or more; with one run 1.3× slower among them, the floor is that jump's size, a 30 %
// slowdown is within this series' own noise (undecided, never no change or faster), and a 2× slowdown
// still fails.
TEST(HistoryCheckOnNoise, ASlowdownBeyondTheSeriesOwnJumpsStillFails) {
  for (const bool outlier : {true, false}) {
    int failed = 0;
    for (std::uint32_t seed = 1; seed <= 20; ++seed) {
      HistorySeries series = one_commit(seed, outlier ? static_cast<int>(seed % 9) : -1);
      Noise noise(seed + 1000);
      CellRun slowed{"11", hour(10), commit_of(1)};
      slowed.median = (outlier ? 2.0 : 1.3) * 1e-3 * 1.02 * std::exp(0.03 * noise.normal());
      series.runs.push_back(slowed);
      const NewestCheck check = check_newest_run(series);
      ASSERT_TRUE(check.row);
      failed += !check.reasons.empty();
      EXPECT_EQ(check.row->verdict, check.reasons.empty() ? Verdict::undecided : Verdict::slower)
          << "seed " << seed << ", floor " << noise_floor_of(series).percent << " %";
      for (const auto& reason : check.reasons)
        EXPECT_NE(reason.find("this machine's noise floor"), std::string::npos) << reason;
    }
    EXPECT_GE(failed, 19) << (outlier ? "2× slower, with" : "30 % slower, without")
                          << " an outlier run among the ten";
  }
}

// Seven runs of commit c100… (`seven`), then the newest of commit c101… at 1.5 ms.
HistorySeries seven_then(double newest) {
  HistorySeries series{"simd", 100000000, 2, "vm"};
  for (std::size_t i = 0; i < seven.size(); ++i) {
    series.runs.push_back({std::to_string(i + 1), hour(static_cast<int>(i)), commit_of(0)});
    series.runs.back().median = seven[i];
  }
  series.runs.push_back({"8", hour(7), commit_of(1)});
  series.runs.back().median = newest;
  return series;
}

TEST(HistoryCheckOnNoise, TheReasonNamesTheFiguresTheIntervalTheThresholdAndWhereItCameFrom) {
  const HistorySeries series = seven_then(1.5e-3);
  const double floor = *apart_noise_floor_percent(log_ratios(seven));
  const std::string floor_text = format_number("%.3g %%", floor);
  const std::string source =
      "this machine's noise floor, " + floor_text + " (history: 7 runs of clean commit c100aaaaaa)";
  const RatioInterval previous = apart_interval(1.5 / 1.01, floor);
  const NewestCheck check = check_newest_run(series);
  ASSERT_EQ(check.reasons.size(), 2u) << "the previous run and the baseline";
  const std::string expected =
      "tier 'simd' at n = 1e8, 2 threads on 'vm': the newest run 8 (commit c101aaaaaa) is 48.5 % slower than "
      "the previous run 7 (commit c100aaaaaa): median " +
      format_seconds(1.5e-3) + " against " + format_seconds(1.01e-3) + "; new/old 1.485, 95 % interval " +
      format_number("%.3f", previous.low) + "–" + format_number("%.3f", previous.high) +
      " (± the noise floor either side), wholly above the threshold +" + floor_text + ": " + source;
  EXPECT_EQ(check.reasons[0], expected);
  EXPECT_NE(check.reasons[1].find("is 50.0 % slower than the 5 runs from run 3 (commit c100aaaaaa) to run 7 "
                                  "(commit c100aaaaaa): median " +
                                  format_seconds(1.5e-3) + " against their median " + format_seconds(1e-3) +
                                  "; new/old 1.500"),
            std::string::npos)
      << check.reasons[1];

  ASSERT_TRUE(check.row);
  EXPECT_EQ(check.row->cell, "simd/n:1e8/threads:2");
  EXPECT_EQ(check.row->verdict, Verdict::slower);
  EXPECT_DOUBLE_EQ(check.row->interval.ratio, 1.5);
  EXPECT_DOUBLE_EQ(*check.row->base_seconds, 1e-3);
  EXPECT_DOUBLE_EQ(*check.row->head_seconds, 1.5e-3);
  EXPECT_EQ(check.row->threshold.source, source);
  EXPECT_NE(check.row->note.find("the median of its baseline's 5 runs"), std::string::npos)
      << check.row->note;

  const auto given = check_newest_run(series, {.min_change_percent = 3});
  ASSERT_EQ(given.reasons.size(), 2u);
  EXPECT_NE(given.reasons[0].find("(± the noise floor either side: " + source +
                                  "), wholly above the threshold +3 % (--min-change)"),
            std::string::npos)
      << given.reasons[0];
  EXPECT_EQ(given.row->threshold.source, "--min-change");
  EXPECT_FALSE(given.row->threshold.measured);

  const auto under = check_newest_run(series, {.fail_above_percent = 60});
  EXPECT_TRUE(under.reasons.empty()) << "slower, by less than --fail-above";
  EXPECT_EQ(under.row->verdict, Verdict::slower);
  const auto over = check_newest_run(series, {.fail_above_percent = 40});
  ASSERT_EQ(over.reasons.size(), 2u);
  EXPECT_NE(over.reasons[0].find(", more than --fail-above 40 %"), std::string::npos) << over.reasons[0];

  EXPECT_TRUE(check_newest_run(seven_then(1.04e-3)).reasons.empty()) << "within the noise";
}

TEST(HistoryCheckOnNoise, TheFloorIsTheHistorysElseTheDocumentedDefault) {
  HistorySeries series = seven_then(1.5e-3);
  EXPECT_NE(noise_floor_of(series).source.find("history: 7 runs"), std::string::npos)
      << "the history's first";
  EXPECT_NEAR(*same_commit_noise_percent(series), *apart_noise_floor_percent(log_ratios(seven)), 1e-12);

  series.runs[3].dirty = true;  // six clean runs of c100…, not consecutive: still 5 pairs
  EXPECT_EQ(same_commit_noise(series)->runs, 6);
  series.runs[4].commit = "unknown";
  EXPECT_FALSE(same_commit_noise_percent(series)) << "five runs of one clean commit";
  const Threshold unknown = noise_floor_of(series);
  EXPECT_EQ(unknown.percent, default_noise_percent);
  EXPECT_FALSE(unknown.measured);
  EXPECT_EQ(unknown.source.rfind("the documented default 5 %, not this machine's noise floor", 0), 0u)
      << unknown.source;
  const auto reasons = check_newest(series);
  ASSERT_FALSE(reasons.empty());
  EXPECT_NE(
      reasons[0].find("wholly above the threshold +5 %: the documented default 5 %, not this machine's"),
      std::string::npos)
      << reasons[0];
}

// A check reads its floor from the store: the history's runs of one clean commit, never an A/A `ladder ab`
// figure (adjacent processes understate how far runs measured apart move).
TEST(HistoryCheckOnNoise, ACheckOfTheStoresRunsOfOneCleanCommitRaisesNothingAndAnAAFigureIsNotItsFloor) {
  TempDir dir;
  Store store((dir / "h.sqlite").string(), Store::Mode::write);
  const HistorySeries simulated = one_commit(3, 4);
  std::vector<double> medians;
  for (const auto& run : simulated.runs) medians.push_back(run.median);
  record_runs(store, dir, 0, medians, std::string(40, 'a'));
  const HistoryCheck clean = check_history(store, "", {});
  EXPECT_EQ(clean.series, 1u);
  EXPECT_TRUE(clean.reasons.empty()) << check_text(clean, "h.sqlite");
  ASSERT_EQ(clean.rows.size(), 1u);
  EXPECT_EQ(clean.rows[0].cell, "naive/gauss/n:1e6/threads:1");
  EXPECT_NE(check_text(clean, "h.sqlite").find("thresholds: this machine's noise floor for 1 series"),
            std::string::npos)
      << check_text(clean, "h.sqlite");

  // Dirty runs, the newest 1.19× slower than the two before it: slower beyond the default 5 % either side,
  // and still so with an A/A figure of 12 % recorded (it would have made the cell undecided).
  TempDir other;
  Store few((other / "h.sqlite").string(), Store::Mode::write);
  record_runs(few, other, 0, {1e-3, 1.01e-3, 1.2e-3}, std::string(40, 'b'), "yes");
  const HistoryCheck with_default = check_history(few, "", {});
  EXPECT_EQ(with_default.reasons.size(), 2u) << check_text(with_default, "h.sqlite");
  EXPECT_NE(with_default.rows.at(0).threshold.source.find("documented default"), std::string::npos);
  record_noise(few, naive_key(few), {12.0, 12, "A/A `ladder ab` of bbbbbbbbbb, 12 pairs", hour(9)});
  const HistoryCheck with_aa = check_history(few, "", {});
  EXPECT_EQ(with_aa.reasons, with_default.reasons) << check_text(with_aa, "h.sqlite");
  EXPECT_EQ(with_aa.rows.at(0).threshold.percent, default_noise_percent);
  EXPECT_EQ(with_aa.rows.at(0).verdict, Verdict::slower);
}

// `ladder history check` hands its rows to the verdict outputs: the Markdown summary, Bencher's format and
// GitHub's annotations, an error only where the cell fails the gate.
TEST(HistoryCheckOutputs, TheSummaryTheBmfAndTheAnnotationsCarryTheCheckedSeries) {
  TempDir dir;
  const fs::path database = dir / "h.sqlite";
  {
    Store store(database.string(), Store::Mode::write);
    record_runs(store, dir, 0, {1e-3, 1.01e-3, 2e-3}, std::string(40, 'c'));
  }
  const auto check = [&](const std::string& options) {
    return testing::run_command(LADDER_BINARY, "history check --history '" + database.string() +
                                                   "' --summary '" + (dir / "summary.md").string() +
                                                   "' --bmf '" + (dir / "bmf.json").string() +
                                                   "' --annotations " + options);
  };
  const std::string cell = "naive/gauss/n:1e6/threads:1";
  const testing::Outcome failed = check("");
  EXPECT_EQ(failed.exit_code, 1) << failed.output;
  EXPECT_NE(failed.output.find("thresholds: the documented default 5 %"), std::string::npos) << failed.output;
  EXPECT_NE(failed.output.find("::error"), std::string::npos) << failed.output;
  const std::string summary = testing::read_text(dir / "summary.md");
  EXPECT_NE(summary.find(cell), std::string::npos) << summary;
  EXPECT_NE(summary.find("slower"), std::string::npos) << summary;
  const json bmf = testing::read_json(dir / "bmf.json");
  EXPECT_TRUE(bmf.contains(cell)) << bmf.dump();

  const testing::Outcome gated = check("--fail-above 150");
  EXPECT_EQ(gated.exit_code, 0) << "98 % slower, under --fail-above 150 %: " << gated.output;
  EXPECT_NE(gated.output.find("::warning"), std::string::npos) << gated.output;
  EXPECT_EQ(gated.output.find("::error"), std::string::npos) << gated.output;
}

}  // namespace
}  // namespace ladder::history
