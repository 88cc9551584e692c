// Issue 18, the history wired to the command line: `ladder history check` and `ladder history report`.
// End to end: three real quick runs recorded in a database, the third with one tier made four times slower
// by the test-only switch LADDER_TEST_SLOWDOWN; the check passes after two runs and fails on the third,
// naming the slowed tier; the report draws every series and opens in Chromium. On crafted runs: a 1 %
// instruction-count increase fails the check with flat timings; bad input gets a clear error and exit 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "crafted_results.hpp"
#include "history_store.hpp"

namespace ladder::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string ladder_binary = LADDER_BINARY;

std::string in_quotes(const fs::path& path) { return "'" + path.string() + "'"; }

Outcome ladder(const std::string& arguments) { return run_command(ladder_binary, arguments); }

// The end-to-end test's directory in the build tree: its database, runs, report and screenshot are kept
// there for a reader (and for the Chromium test, which opens the report it wrote).
const fs::path e2e_dir = LADDER_HISTORY_E2E_DIR;

// A quick real run of naive and xsimd at n = 1e6 on one thread, recorded in `database`. Seven repetitions:
// a steadier median, which is what the check compares between runs. The machine's limits are not what it is
// about: skipped, so no all-core probe runs between the cells it compares.
Outcome record_run(const fs::path& database, const fs::path& out, const std::string& environment = "") {
  return run_command(
      environment + ladder_binary,
      "run --tiers naive,xsimd --n 1e6 --threads 1 --reps 7 --min-time 0.05 --no-instructions --no-limits "
      "--history " +
          in_quotes(database) + " --out " + in_quotes(out));
}

Outcome check(const fs::path& database, const std::string& options = "") {
  return ladder("history check --history " + in_quotes(database) + " " + options);
}

// The lines of a check's output that give a reason (indented), each naming its tier.
std::vector<std::string> reasons_of(const std::string& output) {
  std::vector<std::string> reasons;
  for (const auto& line : lines_of(output))
    if (line.rfind("  ", 0) == 0) reasons.push_back(line);
  return reasons;
}

TEST(HistoryEndToEnd, ThreeRunsTheThirdSlowedAndCheckFailsOnIt) {
  fs::remove_all(e2e_dir);
  fs::create_directories(e2e_dir);
  const fs::path database = e2e_dir / "history.sqlite";

  for (const std::string run : {"run-1", "run-2"}) {
    const Outcome recorded = record_run(database, e2e_dir / run);
    ASSERT_EQ(recorded.exit_code, 0) << recorded.output;
    EXPECT_NE(recorded.output.find("history: recorded run"), std::string::npos) << recorded.output;
  }
  // Two ordinary runs: the second is not slower than the first beyond the noise by more than 100 %. (No
  // gate is asserted without --fail-above: two runs give no noise floor, and on a loaded 2-core VM one run's
  // median can be 50 % slower than the documented default allows.)
  const Outcome after_two = check(database, "--fail-above 100");
  EXPECT_EQ(after_two.exit_code, 0) << after_two.output;
  EXPECT_NE(after_two.output.find("2 series checked"), std::string::npos) << after_two.output;
  EXPECT_NE(after_two.output.find("ok: nothing slower beyond the threshold"), std::string::npos)
      << after_two.output;

  const Outcome slowed = record_run(database, e2e_dir / "run-3", "LADDER_TEST_SLOWDOWN=xsimd=4 ");
  ASSERT_EQ(slowed.exit_code, 0) << slowed.output;
  EXPECT_NE(slowed.output.find("(3 runs on this machine)"), std::string::npos) << slowed.output;
  // The slowed run says so in its results and report: it is never taken for a measurement.
  const json results = read_json(e2e_dir / "run-3" / "results.json");
  EXPECT_NE(results.at("context").at("warnings").dump().find("LADDER_TEST_SLOWDOWN"), std::string::npos);
  EXPECT_NE(read_text(e2e_dir / "run-3" / "report.md").find("LADDER_TEST_SLOWDOWN"), std::string::npos);

  for (const std::string fail_above : {"", "--fail-above 100"}) {
    SCOPED_TRACE("check " + fail_above);
    const Outcome failed = check(database, fail_above);
    EXPECT_EQ(failed.exit_code, 1) << failed.output;
    EXPECT_NE(failed.output.find("2 series checked"), std::string::npos) << failed.output;
    EXPECT_NE(failed.output.find("FAILED"), std::string::npos) << failed.output;
    const auto reasons = reasons_of(failed.output);
    ASSERT_FALSE(reasons.empty()) << failed.output;
    EXPECT_TRUE(std::any_of(reasons.begin(), reasons.end(), [](const std::string& reason) {
      return reason.find("tier 'xsimd'") != std::string::npos && reason.find("slower") != std::string::npos;
    })) << failed.output;
    if (!fail_above.empty()) {  // naive ran as before: 100 % is far above its noise, xsimd 300 % slower
      for (const auto& reason : reasons) EXPECT_EQ(reason.find("tier 'naive'"), std::string::npos) << reason;
    }
  }
  const Outcome naive_only = check(database, "--tier naive --fail-above 100");
  EXPECT_EQ(naive_only.exit_code, 0) << naive_only.output;
  EXPECT_NE(naive_only.output.find("1 series checked"), std::string::npos) << naive_only.output;

  const Outcome listed = ladder("history list --history " + in_quotes(database));
  EXPECT_NE(listed.output.find("3 runs in"), std::string::npos) << listed.output;

  const Outcome report =
      ladder("history report --history " + in_quotes(database) + " --out " + in_quotes(e2e_dir / "report"));
  ASSERT_EQ(report.exit_code, 0) << report.output;
  const std::string html = read_text(e2e_dir / "report" / "index.html");
  for (const std::string chart : {"history-1", "history-2"})
    EXPECT_NE(html.find("data-chart=\"" + chart + "\""), std::string::npos) << chart;
  EXPECT_EQ(html.find("data-chart=\"history-3\""), std::string::npos) << "two series, two charts";
  EXPECT_NE(html.find("tier &#39;xsimd&#39;"), std::string::npos);
  EXPECT_NE(html.find("tier &#39;naive&#39;"), std::string::npos);
  EXPECT_NE(html.find("Detected changes, newest first"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  // Writing it again replaces the page it wrote before.
  EXPECT_EQ(
      ladder("history report --history " + in_quotes(database) + " --out " + in_quotes(e2e_dir / "report"))
          .exit_code,
      0);
}

// The report the test above wrote, in headless Chromium: no console error, no request; the screenshot is
// kept beside it. ctest runs it after the test above (a fixture).
TEST(HistoryEndToEnd, TheReportOpensInChromium) {
  const fs::path page = e2e_dir / "report" / "index.html";
  ASSERT_TRUE(fs::exists(page)) << page
                                << " is written by HistoryEndToEnd.ThreeRunsTheThirdSlowedAndCheckFailsOnIt";
  const Outcome browser =
      run_command("python3", std::string(LADDER_SOURCE_DIR) + "/tests/browser_check.py " + in_quotes(page) +
                                 " --screenshot " + in_quotes(e2e_dir / "history-report.png") +
                                 " --expect-chart history-1 --expect-chart history-2"
                                 " --expect-text 'Detected changes, newest first'");
  if (browser.exit_code == 77) GTEST_SKIP() << browser.output;
  EXPECT_EQ(browser.exit_code, 0) << browser.output;
  EXPECT_TRUE(fs::exists(e2e_dir / "history-report.png"));
}

// A crafted run of naive at n = 1e6: flat timings (the same seven repetitions every run), and
// `instructions_per_node` counted by callgrind; no git commit known.
fs::path crafted_run(const fs::path& dir, const std::string& started, double instructions_per_node) {
  json benchmarks = json::array();
  add_cell(benchmarks, {"naive", 1, 1000000, 1, {0.0100, 0.0101, 0.0102, 0.0099, 0.0100, 0.0103, 0.0101}});
  json document = crafted_results("alpha", json::array({crafted_card("naive", 1, {}, false, "hours", 20)}),
                                  benchmarks, 7, crafted_topology(1, 1, 1, 2, 1));
  document["context"]["run"]["started"] = started;
  document["context"]["run"]["finished"] = started;
  InstructionCounts counts;
  counts.available = true;
  counts.tool = "callgrind";
  counts.target = "x86-64-v3";
  counts.integrand = "gauss";
  counts.n = {10000, 30000};
  counts.tiers = {{"naive", instructions_per_node, {}, ""}};
  counts.by_integrand = {counts};
  document["instructions"] = counts;
  return write_results(dir, document);
}

TEST(HistoryCheckCommand, AOnePercentInstructionIncreaseFailsWithFlatTimings) {
  TempDir scratch;
  const fs::path database = scratch / "history.sqlite";
  const auto import = [&](const std::string& name, const std::string& started, double count) {
    const Outcome imported = ladder("history import --history " + in_quotes(database) + " " +
                                    in_quotes(crafted_run(scratch / name, started, count)));
    ASSERT_EQ(imported.exit_code, 0) << imported.output;
  };
  import("one", "2026-11-30T10:00:00Z", 83.0);
  import("two", "2026-11-30T11:00:00Z", 83.0);
  const Outcome flat = check(database);
  EXPECT_EQ(flat.exit_code, 0) << flat.output;
  EXPECT_NE(flat.output.find("commit unknown"), std::string::npos) << flat.output;

  import("three", "2026-11-30T12:00:00Z", 83.0 * 1.01);
  const Outcome more = check(database);
  EXPECT_EQ(more.exit_code, 1) << more.output;
  const auto reasons = reasons_of(more.output);
  ASSERT_EQ(reasons.size(), 1u) << more.output;  // the timings are the same: only the count fails
  EXPECT_NE(reasons[0].find("tier 'naive'"), std::string::npos) << reasons[0];
  EXPECT_NE(reasons[0].find("1.00 % more instructions per node"), std::string::npos) << reasons[0];

  // The report marks it too, as a change in the table.
  const Outcome report =
      ladder("history report --history " + in_quotes(database) + " --out " + in_quotes(scratch / "page"));
  ASSERT_EQ(report.exit_code, 0) << report.output;
  EXPECT_NE(read_text(scratch / "page" / "index.html").find("more instructions"), std::string::npos);
}

TEST(HistoryCheckCommand, BadInputGetsAClearErrorAndExit2) {
  TempDir scratch;
  const fs::path database = scratch / "history.sqlite";
  const fs::path run = crafted_run(scratch / "one", "2026-11-30T10:00:00Z", 83.0);
  ASSERT_EQ(ladder("history import --history " + in_quotes(database) + " " + in_quotes(run)).exit_code, 0);

  const auto refused = [](const Outcome& outcome, const std::string& says) {
    EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
    EXPECT_NE(outcome.output.find(says), std::string::npos) << outcome.output;
  };
  refused(check(database, "--fail-above -5"), "--fail-above -5: give a change in per cent, 0 or more");
  refused(check(database, "--fail-above abc"), "abc");
  refused(check(database, "--min-change -1"), "--min-change -1: give a change in per cent");
  refused(check(scratch / "missing.sqlite"), "missing.sqlite");
  refused(ladder("history report --history " + in_quotes(scratch / "missing.sqlite") + " --out " +
                 in_quotes(scratch / "page")),
          "missing.sqlite");
  EXPECT_FALSE(fs::exists(scratch / "page"));
  refused(check(database, "--tier nosuchtier"), "holds no run with tier 'nosuchtier'");

  // --out onto a file, or onto a directory whose index.html is not a history page: nothing overwritten.
  const fs::path file = scratch / "notes.txt";
  write_text(file, "my notes");
  refused(ladder("history report --history " + in_quotes(database) + " --out " + in_quotes(file)),
          "is a file, not a directory");
  EXPECT_EQ(read_text(file), "my notes");
  fs::create_directories(scratch / "site");
  write_text(scratch / "site" / "index.html", "<html><title>my site</title></html>");
  refused(ladder("history report --history " + in_quotes(database) + " --out " + in_quotes(scratch / "site")),
          "is not a Ladder history page: not overwritten");
  EXPECT_EQ(read_text(scratch / "site" / "index.html"), "<html><title>my site</title></html>");
  refused(ladder("history report --history " + in_quotes(database) + " --out " + in_quotes(scratch / "x") +
                 " --since yesterday"),
          "--since 'yesterday' is not a date");

  // An empty database: nothing to check, said, exit 2.
  const fs::path empty = scratch / "empty.sqlite";
  { history::Store created(empty.string(), history::Store::Mode::write); }
  refused(check(empty), "holds no run: nothing to check");
  refused(ladder("history report --history " + in_quotes(empty) + " --out " + in_quotes(scratch / "y")),
          "holds no measured cell");
}

}  // namespace
}  // namespace ladder::testing
