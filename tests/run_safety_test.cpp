// Nothing a user has is lost to a run, a resume or a report (issue 37): a resume of a journal that would make
// results the readers refuse keeps the results it had, a run to a path that is not UTF-8 works, a run that
// stops before its first line leaves no directory, and a report never replaces a file Ladder did not write
// nor leaves half a set of files.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>

#include "atomic_file.hpp"
#include "cards.hpp"
#include "command.hpp"
#include "crafted_journal.hpp"
#include "crafted_results.hpp"
#include "errors.hpp"
#include "file_size_limit.hpp"
#include "output_directory.hpp"
#include "report.hpp"
#include "results.hpp"
#include "results_file.hpp"

namespace ladder::testing {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

Outcome ladder(const std::string& arguments) { return run_command(LADDER_BINARY, arguments); }

std::string quoted(const fs::path& path) { return "'" + path.string() + "'"; }

// The names under a directory, recursively, relative to it.
std::set<std::string> names_under(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    names.insert(fs::relative(entry.path(), dir).string());
  return names;
}

// DIR/journal.jsonl: `header`, then one measured naive cell; DIR/results.json: a stand-in for good results.
void crafted_run(const fs::path& dir, const JournalHeader& header) {
  fs::create_directories(dir);
  write_text(dir / "journal.jsonl", json(header).dump() + "\n" + json(measured_cell("naive")).dump() + "\n");
  write_text(dir / "results.json", "the good results\n");
}

// D3: `"tiers": []` in the journal's header made a resume replace good results with a file report and pick
// refuse. The resume is refused first, naming the tier, and nothing in the directory changes.
TEST(RunSafety, AResumeOfAJournalWithoutACardForAMatrixTierIsRefusedAndChangesNothing) {
  TempDir dir;
  crafted_run(dir / "run", crafted_header());  // its matrix is naive's; its header has no card
  const std::string journal = read_text(dir / "run" / "journal.jsonl");
  const Outcome resumed = ladder("run --no-limits --resume " + (dir / "run").string() + " --no-history");
  EXPECT_EQ(resumed.exit_code, 2) << resumed.output;
  EXPECT_NE(resumed.output.find("is damaged: its first line's tiers hold no card of tier \"naive\""),
            std::string::npos)
      << resumed.output;
  EXPECT_EQ(read_text(dir / "run" / "results.json"), "the good results\n");
  EXPECT_EQ(read_text(dir / "run" / "journal.jsonl"), journal);
}

TEST(RunSafety, AResumeOfAJournalWithATierCardedTwiceIsRefused) {
  TempDir dir;
  JournalHeader header = crafted_header();
  header.tiers = tier_cards({"naive", "naive"});
  crafted_run(dir / "run", header);
  const Outcome resumed = ladder("run --no-limits --resume " + (dir / "run").string() + " --no-history");
  EXPECT_EQ(resumed.exit_code, 2) << resumed.output;
  EXPECT_NE(resumed.output.find("hold two cards of tier \"naive\""), std::string::npos) << resumed.output;
  EXPECT_EQ(read_text(dir / "run" / "results.json"), "the good results\n");
}

// The last guard: results are read back by the readers' own reader before they replace the file.
TEST(RunSafety, ResultsThatDoNotReadBackNeverReplaceTheFile) {
  TempDir dir;
  const Paths paths = paths_in(dir.str());
  write_text(paths.json, "the good results\n");
  Journal journal;
  journal.header = crafted_header();  // no card for the naive cell
  journal.cells = {measured_cell("naive")};
  RunRecord run;
  run.status = "running";
  try {
    write_results_files(paths, journal, run, true);
    ADD_FAILURE() << "results without the naive card were written";
  } catch (const InputError& refused) {
    EXPECT_NE(std::string(refused.what()).find("which has no card"), std::string::npos) << refused.what();
    EXPECT_NE(std::string(refused.what()).find("the journal is damaged"), std::string::npos)
        << refused.what();
  }
  EXPECT_THROW(write_results_files(paths, journal, run, false), std::logic_error);  // a new run's: a bug
  EXPECT_EQ(read_text(paths.json), "the good results\n");
  EXPECT_EQ(names_under(dir / ""), std::set<std::string>{"results.json"});

  journal.header->tiers = tier_cards({"naive"});
  write_results_files(paths, journal, run, true);
  EXPECT_EQ(read_results_file(paths.json).cells.size(), 1u);
  EXPECT_EQ(names_under(dir / ""), (std::set<std::string>{"results.csv", "results.json"}));
}

// D4: a run that stops before its journal's first line takes away the directories it made.
TEST(RunSafety, TheDirectoriesARunMadeAreKnownAndRemovedWhenItStopsFirst) {
  TempDir dir;
  const std::string created = prepare_directory((dir / "a" / "b" / "c").string(), false, false);
  EXPECT_EQ(created, (dir / "a").string());
  EXPECT_TRUE(fs::is_directory(dir / "a" / "b" / "c"));
  remove_created_directory(created);
  EXPECT_FALSE(fs::exists(dir / "a"));
  fs::create_directories(dir / "there");
  EXPECT_EQ(prepare_directory((dir / "there").string(), false, false), "");  // made by someone else
}

// A run's results, crafted: what `ladder report` reads.
fs::path crafted_results_dir(const fs::path& dir) {
  json cells = json::array();
  add_cell(cells, {"naive", 0, 1000000, 1, around(1.0)});
  add_cell(cells, {"inlined", 2, 1000000, 1, around(0.5)});
  return write_results(dir,
                       crafted_results("crafted",
                                       json::array({crafted_card("naive", 0, {}, false, "minutes", 27),
                                                    crafted_card("inlined", 2, {}, false, "minutes", 27)}),
                                       cells));
}

// D15: a report never replaces a file Ladder did not write: a user's report.md is refused, named.
TEST(ReportDirectory, AUsersOwnReportMdIsRefusedNamedAndKept) {
  TempDir dir;
  const fs::path run = crafted_results_dir(dir / "run");
  fs::create_directories(dir / "mine");
  write_text(dir / "mine" / "report.md", "my notes\n");
  const Outcome report = ladder("report " + run.string() + " --out " + (dir / "mine").string());
  EXPECT_EQ(report.exit_code, 2) << report.output;
  EXPECT_NE(report.output.find("holds 'report.md', which Ladder did not write"), std::string::npos)
      << report.output;
  EXPECT_EQ(read_text(dir / "mine" / "report.md"), "my notes\n");
  EXPECT_EQ(names_under(dir / "mine"), std::set<std::string>{"report.md"});
}

// Issue 50, T5-11: a directory where Ladder reads a file whole (the report's list of its files, a resumed
// run's journal, an instruction baseline) is refused with exit 2, naming it, not an internal error (70).
TEST(ReportDirectory, ADirectoryWhereAFileIsReadWholeIsRefusedWithExit2) {
  TempDir dir;
  const fs::path run = crafted_results_dir(dir / "run");
  fs::create_directories(dir / "out" / report::report_marker);
  const Outcome report = ladder("report " + run.string() + " --out " + (dir / "out").string());
  EXPECT_EQ(report.exit_code, 2) << report.output;
  EXPECT_NE(report.output.find("holds '.ladder-report.json', which Ladder did not write"), std::string::npos)
      << report.output;
  EXPECT_TRUE(fs::is_directory(dir / "out" / report::report_marker)) << "left as it was";
  fs::create_directories(dir / "resume" / "journal.jsonl");
  const Outcome resume = ladder("run --resume " + (dir / "resume").string());
  EXPECT_EQ(resume.exit_code, 2) << resume.output;
  EXPECT_NE(resume.output.find("journal.jsonl' is a directory, not a file"), std::string::npos)
      << resume.output;
  const Outcome baseline = ladder("instructions --tiers inlined --baseline " + dir.str());
  EXPECT_EQ(baseline.exit_code, 2) << baseline.output;
  EXPECT_NE(baseline.output.find("--baseline '" + dir.str() + "' is a directory, not a file"),
            std::string::npos)
      << baseline.output;
}

// An earlier report (its marker lists its files) is replaced whole, its stale charts removed; a file a user
// added beside it is refused; in a run's directory the run's files and the user's are left as they are.
TEST(ReportDirectory, AnEarlierReportIsReplacedAndARunsDirectoryKeepsItsFiles) {
  TempDir dir;
  const auto run = report::load_run(crafted_results_dir(dir / "run").string());
  const auto written = report::write_report({run}, (dir / "out").string());
  ASSERT_TRUE(fs::exists(dir / "out" / report::report_marker));
  const json marker = read_json(dir / "out" / report::report_marker);
  EXPECT_EQ(marker.at("files").size(), written.size());
  json stale = marker;
  stale["files"].push_back("charts/stale.svg");
  write_text(dir / "out" / report::report_marker, stale.dump());
  write_text(dir / "out" / "charts" / "stale.svg", "<svg/>");
  report::write_report({run}, (dir / "out").string());
  EXPECT_FALSE(fs::exists(dir / "out" / "charts" / "stale.svg"));
  EXPECT_EQ(read_json(dir / "out" / report::report_marker), marker);

  write_text(dir / "out" / "notes.txt", "mine\n");
  EXPECT_THROW(report::write_report({run}, (dir / "out").string()), InputError);

  // A run's directory (journal.jsonl), with a report of an older Ladder (no marker) and a user's notes.
  write_text(dir / "run" / "journal.jsonl", "{}\n");
  write_text(dir / "run" / "report.md", "an older report\n");
  write_text(dir / "run" / "notes.txt", "mine\n");
  report::write_report({run}, (dir / "run").string());
  EXPECT_NE(read_text(dir / "run" / "report.md"), "an older report\n");
  EXPECT_EQ(read_text(dir / "run" / "notes.txt"), "mine\n");
  EXPECT_TRUE(fs::exists(dir / "run" / "results.json"));
}

// A report that cannot be written whole is not written at all: no new directory with part of its charts,
// and an earlier report left as it was.
TEST(ReportDirectory, AReportThatDoesNotFitLeavesNothingHalfWritten) {
  TempDir dir;
  const auto run = report::load_run(crafted_results_dir(dir / "run").string());
  report::write_report({run}, (dir / "earlier").string());
  std::uintmax_t largest = 0, smallest = UINTMAX_MAX;
  for (const auto& entry : fs::recursive_directory_iterator(dir / "earlier"))
    if (entry.is_regular_file())
      largest = std::max(largest, entry.file_size()), smallest = std::min(smallest, entry.file_size());
  ASSERT_LT(smallest, largest);
  const auto before = names_under(dir / "earlier");
  const std::string html = read_text(dir / "earlier" / "report.html");
  write_text(dir / "earlier" / "report.html", html + "<!-- earlier -->");
  {
    FileSizeLimit limit(largest - 1);  // every file but the largest fits
    ASSERT_TRUE(limit.set());
    EXPECT_THROW(report::write_report({run}, (dir / "new" / "report").string()), WriteError);
    EXPECT_THROW(report::write_report({run}, (dir / "earlier").string()), WriteError);
  }
  EXPECT_FALSE(fs::exists(dir / "new"));
  EXPECT_EQ(names_under(dir / "earlier"), before);
  EXPECT_EQ(read_text(dir / "earlier" / "report.html"), html + "<!-- earlier -->");
  for (const auto& entry : fs::directory_iterator(dir / ""))
    EXPECT_EQ(entry.path().filename().string().rfind(".ladder-report", 0), std::string::npos) << entry.path();
}

// A tiny real run, made once: one tier, one size, a path that is not UTF-8 (D4).
const fs::path& latin1_run() {
  static TempDir dir;
  static const fs::path out = dir / "run-r\xe9s";
  static const Outcome ran = ladder(
      "run --preset quick --tiers inlined --no-history --no-limits --no-instructions "
      "--out " +
      quoted(out));
  EXPECT_EQ(ran.exit_code, 0) << ran.output;
  return out;
}

// D4: a run to a directory named in Latin-1 worked nowhere past its first line (exit 70, the library's
// text) and left the empty directory; it runs, and what it wrote reads back and reports.
TEST(RunSafetyRun, ARunToALatin1DirectoryRunsAndItsResultsReadBack) {
  const fs::path& out = latin1_run();
  ASSERT_TRUE(fs::exists(out / "results.json"));
  EXPECT_FALSE(read_results_file(out.string()).cells.empty());
  EXPECT_TRUE(fs::exists(out / "report.html"));
  EXPECT_TRUE(fs::exists(out / report::report_marker));
  const Outcome pick = ladder("pick " + quoted(out));
  EXPECT_EQ(pick.exit_code, 0) << pick.output;
}

// D3, as found: a journal whose header says `"tiers": []` is refused, and results.json stays the one pick
// reads.
TEST(RunSafetyRun, AResumeOfAJournalWithNoTiersKeepsTheResultsPickReads) {
  TempDir dir;
  fs::copy(latin1_run(), dir / "run", fs::copy_options::recursive);
  const fs::path run = dir / "run";
  const std::string results = read_text(run / "results.json");
  auto lines = lines_of(read_text(run / "journal.jsonl"));
  json header = json::parse(lines.at(0));
  header["tiers"] = json::array();
  lines[0] = header.dump();
  std::string journal;
  for (const auto& line : lines) journal += line + "\n";
  write_text(run / "journal.jsonl", journal);
  const Outcome resumed = ladder("run --no-limits --resume " + quoted(run) + " --no-history");
  EXPECT_EQ(resumed.exit_code, 2) << resumed.output;
  EXPECT_NE(resumed.output.find("hold no card of tier \"inlined\""), std::string::npos) << resumed.output;
  EXPECT_EQ(read_text(run / "results.json"), results);
  EXPECT_EQ(ladder("pick " + quoted(run)).exit_code, 0);
}

// T5-21: a --history that is no SQLite database (or a damaged one) is refused before any cell, exit 2, and
// left as it was: the run measured everything before, then could neither report nor record (exit 4).
TEST(RunSafetyRun, AHistoryThatIsNotADatabaseIsRefusedBeforeAnyCellAndKept) {
  TempDir dir;
  const fs::path history = dir / "notes.sqlite";
  write_text(history, "my notes, not a database\n");
  const Outcome run = ladder(
      "run --tiers inlined --n 1e4 --threads 1 --reps 1 --min-time 0.005 --rounds 1 "
      "--no-limits --no-instructions --out " +
      quoted(dir / "run") + " --history " + quoted(history));
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("is not an SQLite database"), std::string::npos) << run.output;
  EXPECT_FALSE(fs::exists(dir / "run" / "results.json")) << "it measured before refusing";
  EXPECT_EQ(read_text(history), "my notes, not a database\n");
}

}  // namespace
}  // namespace ladder::testing
