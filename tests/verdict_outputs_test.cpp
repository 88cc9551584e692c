// The verdicts where people and CI read them (reports/outputs/verdict_outputs.hpp): the table, the Markdown
// summary, GitHub's annotations and Bencher's metric format of a crafted set of rows, against fixtures
// written by hand from the spec (tests/fixtures/verdicts/); the escaping GitHub asks for; and `ladder
// compare` of two crafted runs, without a history (no verdict) and with a noise figure recorded in one.
#include "verdict_outputs.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "choose.hpp"
#include "command.hpp"
#include "crafted_results.hpp"
#include "errors.hpp"
#include "history_store.hpp"
#include "noise_floor_support.hpp"
#include "noise_store.hpp"
#include "results_file.hpp"

namespace ladder::report {
namespace {

using nlohmann::json;
using testing::TempDir;
namespace fs = std::filesystem;

const fs::path fixtures = fs::path(LADDER_FIXTURES_DIR) / "verdicts";

const Threshold aa_floor{
    2, "this machine's noise floor (A/A `ladder ab` of 3f2a1b0c9d, 12 pairs, 2026-12-03)", true};

VerdictRow row(const std::string& cell, RatioInterval interval, Verdict verdict,
               std::optional<double> head_seconds, const std::string& note = "") {
  VerdictRow row;
  row.cell = cell;
  row.interval = interval;
  row.verdict = verdict;
  row.threshold = aa_floor;
  row.head_seconds = head_seconds;
  row.note = note;
  return row;
}

// The fixtures' rows, not in worst-first order: every output sorts them. One of each verdict; a second
// slower one whose name holds a pipe, a comma and colons and that has no time; an undecided one without an
// interval (4 pairs).
std::vector<VerdictRow> crafted_rows() {
  return {
      row("tuned-exp/gauss/n:1e6/threads:1", {1.004, 0.995, 1.013, 10}, Verdict::no_change, 0.002008),
      row("inlined/gauss/n:1e7/threads:1", {1.052, 1.046, 1.058, 12}, Verdict::slower, 0.01052),
      row("xsimd/gauss/n:1e7/threads:2", {0.8, 0.78, 0.82, 8}, Verdict::faster, 0.0008),
      row("openmp/gauss/n:1e6/threads:2", {1.03, 0, 0, 4}, Verdict::undecided, 0.001,
          "2 more pairs would likely settle it"),
      row("user|tier/a,b/n:1000/threads:1", {1.3, 1.2, 1.4, 7}, Verdict::slower, std::nullopt),
  };
}

TEST(VerdictOutputs, TableMatchesItsFixture) {
  EXPECT_EQ(verdict_table(crafted_rows(), "base", "head"), testing::read_text(fixtures / "table.txt"));
}

TEST(VerdictOutputs, MarkdownSummaryMatchesItsFixture) {
  EXPECT_EQ(verdict_markdown(crafted_rows(), "ladder ab: head against base"),
            testing::read_text(fixtures / "summary.md"));
}

TEST(VerdictOutputs, AnnotationsMatchTheirFixture) {
  // 30 % over --fail-above 10: an error; 5.2 %, slower but under it: a warning; the others: nothing.
  EXPECT_EQ(verdict_annotations(crafted_rows(), 10), testing::read_text(fixtures / "annotations.txt"));
  // Without --fail-above every slower cell fails the gate.
  const std::string every = verdict_annotations(crafted_rows(), std::nullopt);
  EXPECT_EQ(every.rfind("::error title=slower%3A user", 0), 0u) << every;
  EXPECT_NE(every.find("\n::error title=slower%3A inlined"), std::string::npos) << every;
  EXPECT_EQ(every.find("::warning"), std::string::npos) << every;
  EXPECT_EQ(every.find("fail-above"), std::string::npos) << every;
}

// Every number of two JSON documents within a relative 1e-12, everything else equal.
void expect_same_json(const json& actual, const json& expected, const std::string& where) {
  if (expected.is_number()) {
    ASSERT_TRUE(actual.is_number()) << where << ": " << actual;
    EXPECT_NEAR(actual.get<double>(), expected.get<double>(), 1e-12 * std::fabs(expected.get<double>()))
        << where;
    return;
  }
  if (!expected.is_object()) {
    EXPECT_EQ(actual, expected) << where;
    return;
  }
  ASSERT_TRUE(actual.is_object()) << where << ": " << actual;
  std::vector<std::string> actual_keys, expected_keys;
  for (const auto& [key, value] : actual.items()) actual_keys.push_back(key);
  for (const auto& [key, value] : expected.items()) expected_keys.push_back(key);
  ASSERT_EQ(actual_keys, expected_keys) << where;
  for (const auto& [key, value] : expected.items())
    expect_same_json(actual.at(key), value, where + "." + key);
}

TEST(VerdictOutputs, BencherMetricFormatMatchesItsFixture) {
  expect_same_json(verdict_bmf(crafted_rows()), json::parse(testing::read_text(fixtures / "bmf.json")),
                   "bmf");
}

TEST(VerdictOutputs, AnnotationsEscapeByGitHubsRules) {
  std::vector<VerdictRow> rows = {row("a%b,c:d\ne", {1.5, 1.4, 1.6, 9}, Verdict::slower, 1.0)};
  rows[0].threshold.source = "50% of: x,y";
  const std::string line = verdict_annotations(rows, std::nullopt);
  // The title, a property: % then : and , escaped, and the newline.
  EXPECT_EQ(line.rfind("::error title=slower%3A a%25b%2Cc%3Ad%0Ae::", 0), 0u) << line;
  // The message: %, \r and \n only; colons and commas stay.
  const std::string message = line.substr(line.find("::", 2) + 2);
  EXPECT_EQ(message.rfind("a%25b,c:d%0Ae is 50.0 %25 slower", 0), 0u) << message;
  EXPECT_NE(message.find("±2 %25, 50%25 of: x,y\n"), std::string::npos) << message;
  EXPECT_EQ(std::count(line.begin(), line.end(), '\n'), 1) << "one line a cell: " << line;
}

TEST(VerdictOutputs, RowsWithoutAThresholdHaveNoVerdictAndSayWhyOnce) {
  std::vector<VerdictRow> rows = crafted_rows();
  rows[1].threshold = {5, "--min-change", false};  // inlined: its own threshold
  for (int i : {2, 3}) {                           // xsimd and openmp: no floor, measured apart
    rows[static_cast<std::size_t>(i)].threshold = {0, "", false};
    rows[static_cast<std::size_t>(i)].verdict = Verdict::undecided;
    rows[static_cast<std::size_t>(i)].note = "measured apart; noise unknown";
  }
  const std::string table = verdict_table(rows, "old", "new");
  EXPECT_NE(table.find("new/old"), std::string::npos) << table;
  EXPECT_NE(table.find("threshold  verdict\n"), std::string::npos) << "a threshold column:\n" << table;
  EXPECT_NE(table.find("±5 %"), std::string::npos) << table;
  EXPECT_NE(table.find("thresholds: each cell's own, ±2 % to ±5 %: this machine's noise floor"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("\nno verdict for 2 cells: measured apart; noise unknown\n"), std::string::npos)
      << table;
  EXPECT_EQ(table.find("measured apart"), table.rfind("measured apart")) << "said once:\n" << table;
  EXPECT_EQ(table.find("undecided"), std::string::npos) << "no verdict is not undecided:\n" << table;
  const std::string summary = verdict_markdown(rows, "t");
  EXPECT_NE(summary.find("2 slower, 0 faster, 1 no change, 0 undecided, 2 without a verdict."),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("| — | no verdict | 4 |"), std::string::npos) << summary;
  EXPECT_NE(summary.find("| Threshold |"), std::string::npos) << summary;
  EXPECT_FALSE(fails_gate(rows[2], std::nullopt));
}

// Issue 50, T5-2: a head that crashed has no ratio and no verdict, but it is not "undecided +0.0 %": every
// output says "failed", Bencher gets no ratio of 1.0 for it, and it fails the gate, --fail-above or not.
TEST(VerdictOutputs, AFailedCellSaysFailedEverywhereGivesBencherNoRatioAndFailsTheGate) {
  std::vector<VerdictRow> rows = crafted_rows();
  VerdictRow crashed;
  crashed.cell = "inlined/gauss/n:100003/threads:1";
  crashed.threshold = aa_floor;  // as ab gives it: the run's threshold, but nothing measured
  crashed.failed = true;
  crashed.note = "failed: head: crashed: SIGILL";
  rows.push_back(crashed);
  const std::string table = verdict_table(rows, "base", "head");
  const auto line = table.substr(table.find(crashed.cell),
                                 table.find('\n', table.find(crashed.cell)) - table.find(crashed.cell));
  EXPECT_NE(line.find("failed"), std::string::npos) << table;
  EXPECT_EQ(line.find("1.000"), std::string::npos) << "no ratio for a cell measured nothing:\n" << table;
  EXPECT_EQ(line.find("undecided"), std::string::npos) << table;
  EXPECT_NE(table.find("1 cell measured nothing: failed: head: crashed: SIGILL"), std::string::npos) << table;
  const std::string summary = verdict_markdown(rows, "t");
  EXPECT_NE(summary.find("2 slower, 1 faster, 1 no change, 1 undecided, 1 failed."), std::string::npos)
      << summary;
  EXPECT_NE(summary.find("| " + crashed.cell + " | — | — | failed |"), std::string::npos) << summary;
  const std::string annotations = verdict_annotations(rows, 50.0);
  EXPECT_NE(annotations.find("::error title=failed%3A inlined/gauss/n%3A100003/threads%3A1::"),
            std::string::npos)
      << annotations;
  const json bmf = verdict_bmf(rows);
  EXPECT_FALSE(bmf.contains(crashed.cell)) << bmf.dump(1);
  EXPECT_EQ(bmf.size(), rows.size() - 1);
  EXPECT_TRUE(fails_gate(crashed, std::nullopt));
  EXPECT_TRUE(fails_gate(crashed, 1000.0)) << "--fail-above never lets a crash pass";
  EXPECT_FALSE(has_verdict(crashed));
}

TEST(VerdictOutputs, WritesTheFilesAskedForAndNamesOneItCannotWrite) {
  TempDir dir;
  VerdictOutputs outputs;
  outputs.summary = (dir / "summary.md").string();
  outputs.bmf = (dir / "bmf.json").string();
  outputs.annotations = true;
  outputs.fail_above_percent = 10;
  ::testing::internal::CaptureStdout();
  write_verdict_outputs(crafted_rows(), outputs, "ladder ab: head against base");
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), testing::read_text(fixtures / "annotations.txt"));
  EXPECT_EQ(testing::read_text(dir / "summary.md"), testing::read_text(fixtures / "summary.md"));
  expect_same_json(testing::read_json(dir / "bmf.json"), testing::read_json(fixtures / "bmf.json"), "bmf");

  VerdictOutputs nowhere;
  nowhere.bmf = (dir / "missing" / "bmf.json").string();
  try {
    write_verdict_outputs(crafted_rows(), nowhere, "t");
    ADD_FAILURE() << "wrote into a directory that does not exist";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("--bmf '" + nowhere.bmf + "'"), std::string::npos)
        << error.what();
    EXPECT_NE(std::string(error.what()).find("does not exist"), std::string::npos) << error.what();
  }
}

// What check_verdict_outputs refuses (before a command measures anything), and the file it leaves as it was.
std::string refusal(const VerdictOutputs& outputs) {
  try {
    check_verdict_outputs(outputs);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

// The summary is appended to, as GitHub's step summary expects: what the file held stays, before it.
TEST(VerdictOutputs, TheSummaryIsAppendedToAndWhatTheFileHeldStays) {
  TempDir dir;
  const fs::path notes = dir / "notes.md";
  testing::write_text(notes, "my notes\n");
  VerdictOutputs outputs;
  outputs.summary = notes.string();
  EXPECT_EQ(refusal(outputs), "");
  write_verdict_outputs(crafted_rows(), outputs, "ladder ab: head against base");
  write_verdict_outputs(crafted_rows(), outputs, "ladder ab: head against base");
  const std::string table = testing::read_text(fixtures / "summary.md");
  EXPECT_EQ(testing::read_text(notes), "my notes\n\n" + table + "\n" + table);
}

// A file the summary may not go into, or --bmf may not replace, is refused by name and left as it was.
TEST(VerdictOutputs, AFileLadderDidNotWriteIsRefusedBeforeAnythingAndKept) {
  TempDir dir;
  const fs::path database = dir / "history.sqlite", notes = dir / "notes.json", bmf = dir / "bmf.json";
  testing::write_text(database, std::string("SQLite format 3\0\x10\0", 20));
  testing::write_text(notes, "{\"mine\": [1, 2, 3]}\n");
  const auto expect_refused = [](const VerdictOutputs& outputs, const std::string& words) {
    const std::string message = refusal(outputs);
    EXPECT_NE(message.find(words), std::string::npos) << "'" << message << "' lacks '" << words << "'";
    try {
      write_verdict_outputs(crafted_rows(), outputs, "t");
      ADD_FAILURE() << "wrote " << outputs.summary << outputs.bmf;
    } catch (const InputError&) {
    }
  };
  VerdictOutputs outputs;
  outputs.summary = database.string();
  expect_refused(outputs, "is not a text file");
  outputs.summary = dir.str();
  expect_refused(outputs, "is a directory");
  outputs.summary = "";
  outputs.bmf = notes.string();
  expect_refused(outputs, "not Bencher metric format Ladder wrote");
  outputs.bmf = (dir / "notes.json" / "under-a-file.json").string();
  expect_refused(outputs, "does not exist");
  outputs.summary = bmf.string();
  outputs.bmf = bmf.string();
  expect_refused(outputs, "name one file");
  EXPECT_EQ(testing::read_text(database), std::string("SQLite format 3\0\x10\0", 20));
  EXPECT_EQ(testing::read_text(notes), "{\"mine\": [1, 2, 3]}\n");
  EXPECT_FALSE(fs::exists(bmf));

  // Its own BMF file, or an empty one, --bmf replaces.
  outputs.summary = "";
  testing::write_text(bmf, "");
  write_verdict_outputs(crafted_rows(), outputs, "t");
  write_verdict_outputs(crafted_rows(), outputs, "t");
  expect_same_json(testing::read_json(bmf), testing::read_json(fixtures / "bmf.json"), "bmf");
}

// `ladder compare` of two crafted runs of one machine: naive `naive` times slower, xsimd `xsimd` times.
fs::path crafted_run(const fs::path& dir, double naive, double xsimd) {
  std::vector<double> ten;
  for (int i = 0; i < 10; ++i) ten.push_back(1.0 + 0.01 * i);
  const auto scaled = [&](double factor) {
    std::vector<double> values = ten;
    for (auto& value : values) value *= factor;
    return values;
  };
  json cells = json::array();
  testing::add_cell(cells, {"naive", 0, 1000000, 1, scaled(naive)});
  testing::add_cell(cells, {"xsimd", 6, 1000000, 1, scaled(xsimd)});
  const json cards = json::array({testing::crafted_card("naive", 0, {}, false, "minutes", 27),
                                  testing::crafted_card("xsimd", 6, {"xsimd"}, false, "days", 60)});
  return testing::write_results(dir, testing::crafted_results("crafted", cards, cells, 10));
}

struct Compared {
  int exit_code = 0;
  std::string output;
};
Compared compared(const fs::path& old_run, const fs::path& new_run, const CompareOptions& options) {
  ::testing::internal::CaptureStdout();
  const int code = compare(old_run.string(), new_run.string(), options);
  return {code, ::testing::internal::GetCapturedStdout()};
}

// The output's line that starts with `start`.
std::string line_of(const std::string& output, const std::string& start) {
  const auto at = output.find("\n" + start);
  return at == std::string::npos ? "" : output.substr(at + 1, output.find('\n', at + 1) - at - 1);
}

const std::string unknown_noise =
    "measured apart, and the history holds under 6 runs of one clean commit on this machine, so its "
    "run-to-run noise is unknown: `ladder ab` answers this";

// DIR/history.sqlite whose seven runs of one clean commit give both cells a noise floor of `percent`
// (record_one_commit), and an A/A figure of 0.5 % that compare must not take.
std::string history_of_one_commit(const TempDir& dir, double percent) {
  const std::string database = (dir / "history.sqlite").string();
  history::Store store(database, history::Store::Mode::write);
  const std::string machine = testing::record_one_commit(
      store, dir.str(), percent,
      [](const fs::path& run, double factor) { return crafted_run(run, factor, factor); });
  for (const std::string tier : {"naive", "xsimd"}) testing::record_aa(store, machine, tier, 1, 0.5);
  return database;
}

TEST(CompareOnNoise, WithoutAHistoryGivesNoVerdictAndSaysWhyOnce) {
  TempDir dir;
  const fs::path before = crafted_run(dir / "old", 1, 1), after = crafted_run(dir / "new", 1.3, 1.01);
  CompareOptions options;
  options.history = (dir / "history.sqlite").string();  // no such database: nothing known, not an error
  const auto outcome = compared(before, after, options);
  EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
  const std::string naive = line_of(outcome.output, "naive/gauss/n:1000000/threads:1 ");
  EXPECT_NE(naive.find("  1.300  —"), std::string::npos) << "the ratio, no interval:\n" << outcome.output;
  EXPECT_EQ(naive.substr(naive.size() - 3), "—") << "no verdict: " << naive;
  EXPECT_EQ(line_of(outcome.output, "xsimd/gauss/n:1000000/threads:1 ").find("slower"), std::string::npos);
  EXPECT_NE(outcome.output.find("no verdict for 2 cells: " + unknown_noise + "\n"), std::string::npos)
      << outcome.output;
  EXPECT_EQ(outcome.output.find(unknown_noise), outcome.output.rfind(unknown_noise)) << "said once";
  EXPECT_NE(
      outcome.output.find("\n2 cells in both: 0 slower, 0 faster, 0 no change, 0 undecided, 2 without a "
                          "verdict; geometric mean of new/old: 1.146\n"),
      std::string::npos)
      << outcome.output;
  EXPECT_FALSE(fs::exists(dir / "history.sqlite")) << "reading never creates the database";

  // --min-change makes no verdict either: without the floor there is no interval to hold against it.
  options.min_change_percent = 5;
  options.outputs.fail_above_percent = 10;
  const auto with_threshold = compared(before, after, options);
  EXPECT_EQ(with_threshold.exit_code, 0) << with_threshold.output;
  EXPECT_NE(with_threshold.output.find("--min-change 5 % is not applied to 2 cells"), std::string::npos)
      << with_threshold.output;
  EXPECT_NE(with_threshold.output.find("2 without a verdict"), std::string::npos) << with_threshold.output;
}

TEST(CompareOnNoise, JudgesEachCellAgainstTheNoiseFloorOfTheHistorysRunsOfOneCommit) {
  TempDir dir;
  const fs::path before = crafted_run(dir / "old", 1, 1), after = crafted_run(dir / "new", 1.3, 1.01);
  const std::string database = history_of_one_commit(dir, 2);
  CompareOptions options;
  options.history = database;
  // At the floor's own ±2 %: 30 % slower is [1.275, 1.326], wholly above; 1 % is [0.990, 1.030], which
  // straddles +2 %: one pair measured apart cannot tell 1 % from nothing.
  const auto floor = compared(before, after, options);
  EXPECT_EQ(floor.exit_code, 1) << "slower, and no --fail-above: the gate fails\n" << floor.output;
  const std::string naive = line_of(floor.output, "naive/gauss/n:1000000/threads:1 ");
  EXPECT_NE(naive.find("1.300  1.275–1.326        1  slower"), std::string::npos) << floor.output;
  EXPECT_NE(line_of(floor.output, "xsimd/gauss/n:1000000/threads:1 ").find("undecided"), std::string::npos)
      << floor.output;
  EXPECT_NE(floor.output.find("threshold: ±2 %, this machine's noise floor (history: 7 runs of clean commit "
                              "3f2a1b0c9d)"),
            std::string::npos)
      << floor.output;
  EXPECT_EQ(floor.output.find(unknown_noise), std::string::npos) << floor.output;
  EXPECT_NE(floor.output.find("2 cells in both: 1 slower, 0 faster, 0 no change, 1 undecided; "),
            std::string::npos)
      << floor.output;

  // Against --min-change 5: the 1 % cell's interval lies within ±5 %: no change.
  options.min_change_percent = 5;
  const auto wider = compared(before, after, options);
  EXPECT_NE(line_of(wider.output, "naive/gauss/n:1000000/threads:1 ").find("slower"), std::string::npos)
      << wider.output;
  EXPECT_NE(line_of(wider.output, "xsimd/gauss/n:1000000/threads:1 ").find("no change"), std::string::npos)
      << wider.output;
  EXPECT_NE(wider.output.find("threshold: ±5 %, --min-change\n"), std::string::npos) << wider.output;

  // --fail-above: the gate fails only on a slower cell slower by more than it.
  options.outputs.fail_above_percent = 20;
  EXPECT_EQ(compared(before, after, options).exit_code, 1) << "30 % > 20 %";
  options.outputs.fail_above_percent = 50;
  EXPECT_EQ(compared(before, after, options).exit_code, 0) << "30 % < 50 %";
}

}  // namespace
}  // namespace ladder::report
