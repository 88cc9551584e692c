// Issue 17, the report as a reader sees it: real reports — a default run's, the quick preset's with the
// Python peers, and two machines' in one — opened in headless Chromium at 1280 × 800 and put through every
// readability check of tests/browser_check.py (--readable: the answer on the first screen, no overlapping
// chart texts, series told apart, ladder tables that fit, titled points). The screenshots of each case's
// first screen and charts are kept under the build tree, in tests/readable-screenshots/CASE/.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "command.hpp"
#include "crafted_results.hpp"

namespace ladder::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

Outcome ladder(const std::string& arguments) { return run_command(LADDER_BINARY, arguments); }

// A default `ladder run` on a 2-core VM (15 tiers, gauss, n 1e5 to 1e8, threads 1 and 2), its results.json
// kept whole and compressed (3.2 MB as written): DIR/results.json; returns DIR.
fs::path default_run(const fs::path& dir) {
  fs::create_directories(dir);
  const Outcome unpacked = run_command("gzip", "-dc " + std::string(LADDER_SOURCE_DIR) +
                                                   "/tests/fixtures/default_run_results.json.gz > " +
                                                   (dir / "results.json").string());
  EXPECT_EQ(unpacked.exit_code, 0) << unpacked.output;
  return dir;
}

// browser_check.py --readable on REPORT, its screenshots in readable-screenshots/CASE (emptied first).
Outcome check_readable(const fs::path& report, const std::string& name, const std::string& expectations) {
  const fs::path shots = fs::path(LADDER_SCREENSHOTS_DIR) / name;
  fs::remove_all(shots);
  fs::create_directories(shots);
  return run_command("python3", std::string(LADDER_SOURCE_DIR) + "/tests/browser_check.py " +
                                    report.string() + " --readable --timeout 180 --screenshot " +
                                    (shots / "page.png").string() + " --screenshots " + shots.string() +
                                    expectations);
}

TEST(ReadableReport, ADefaultRunsReportPassesEveryCheck) {
  TempDir dir;
  const fs::path run = default_run(dir / "default");
  const Outcome report = ladder("report " + run.string());
  ASSERT_EQ(report.exit_code, 0) << report.output;
  const Outcome browser =
      check_readable(run / "report.html", "default-run",
                     " --expect-chart speedup-1 --expect-chart scaling-1 --expect-chart pareto-1"
                     " --expect-chart memory-1 --expect-chart error-1");
  if (browser.exit_code == 77) GTEST_SKIP() << browser.output;
  EXPECT_EQ(browser.exit_code, 0) << browser.output;
}

// The Python the run's peers use (harness/peers.cpp): LADDER_PYTHON, else /usr/bin/python3, else python3.
std::string peers_python() {
  if (const char* chosen = std::getenv("LADDER_PYTHON")) return chosen;
  return access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
}

TEST(ReadableReport, TheQuickPresetWithThePythonPeersPassesEveryCheck) {
  const std::string python = peers_python();
  const Outcome numpy = run_command(python, "-c 'import numpy'");
  if (numpy.exit_code != 0)
    GTEST_SKIP() << "the Python peers' packages are missing: " << python << " cannot import numpy\n"
                 << numpy.output;
  TempDir dir;
  // One size and short repetitions, so that the run stays near a minute on a loaded 2-core machine; every
  // tier and every peer still runs.
  const Outcome run = ladder(
      "run --preset quick --peers python --n 1e6 --reps 2 --min-time 0.005 "
      "--no-instructions --out " +
      (dir / "quick").string());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const json results = read_json(dir / "quick/results.json");
  bool peer = false;
  for (const auto& card : results.at("tiers")) peer = peer || card.value("peer", false);
  ASSERT_TRUE(peer) << "the run's tiers include the Python peers";
  const Outcome browser = check_readable(dir / "quick/report.html", "quick-python-peers",
                                         " --expect-chart speedup-1 --expect-chart pareto-1");
  if (browser.exit_code == 77) GTEST_SKIP() << browser.output;
  EXPECT_EQ(browser.exit_code, 0) << browser.output;
}

// The default run, and a second machine made from it: 16 cores in two sockets, its cells 30 % faster.
TEST(ReadableReport, TwoMachinesInOneReportPassEveryCheckWithEachMachinesCharts) {
  TempDir dir;
  const fs::path first = default_run(dir / "first");
  json second = read_json(first / "results.json");
  auto& context = second.at("context");
  context["host_name"] = "sixteen-cores";
  context["cpu_model"] = "a test CPU with 16 cores";
  context["logical_cpus"] = 16;
  context["physical_cores"] = 16;
  context["topology"] = crafted_topology(2, 1, 1, 8, 1);
  for (auto& entry : second.at("benchmarks"))
    for (const char* field : {"real_time", "cpu_time", "ns_per_node"})
      if (entry.contains(field) && entry.at(field).is_number())
        entry[field] = 0.7 * entry.at(field).get<double>();
  write_results(dir / "second", second);
  const Outcome report = ladder("report " + first.string() + " " + (dir / "second").string() + " --out " +
                                (dir / "both").string());
  ASSERT_EQ(report.exit_code, 0) << report.output;
  const Outcome browser = check_readable(dir / "both/report.html", "two-machines",
                                         " --expect-chart pareto-1 --expect-chart pareto-2"
                                         " --expect-chart scaling-1 --expect-chart scaling-2"
                                         " --expect-text sixteen-cores");
  if (browser.exit_code == 77) GTEST_SKIP() << browser.output;
  EXPECT_EQ(browser.exit_code, 0) << browser.output;
}

}  // namespace
}  // namespace ladder::testing
