// Issue 17, the report as a reader sees it: real reports — a default run's, the quick preset's with the
// Python peers, two machines' in one, and two machines of six integrands each — opened in headless Chromium
// at 1280 × 800 and put through every readability check of tests/browser_check.py (--readable: the answer on
// the first screen, no overlapping chart texts, series told apart, ladder tables that fit, titled points).
// The screenshots of each case's first screen and charts are kept under the build tree, in
// tests/readable-screenshots/CASE/.
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

// A results file kept whole and compressed in tests/fixtures (NAME.json.gz), written to DIR/results.json;
// returns DIR.
fs::path unpacked(const std::string& name, const fs::path& dir) {
  fs::create_directories(dir);
  const Outcome unpacked = run_command("gzip", "-dc " + std::string(LADDER_SOURCE_DIR) + "/tests/fixtures/" +
                                                   name + ".json.gz > " + (dir / "results.json").string());
  EXPECT_EQ(unpacked.exit_code, 0) << unpacked.output;
  return dir;
}

// A default `ladder run` on a 2-core VM (15 tiers, gauss, n 1e5 to 1e8, threads 1 and 2), its results.json
// kept whole (3.2 MB as written).
fs::path default_run(const fs::path& dir) { return unpacked("default_run_results", dir); }

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
                     " --expect-chart memory-1 --expect-chart error-1 --expect-chart money-1");
  if (browser.exit_code == 77) GTEST_SKIP() << browser.output;
  EXPECT_EQ(browser.exit_code, 0) << browser.output;
}

// The Python the run's peers use (harness/matrix/peers.cpp): LADDER_PYTHON, else /usr/bin/python3, else
// python3.
std::string peers_python() {
  if (const char* chosen = std::getenv("LADDER_PYTHON")) return chosen;
  return access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
}

// `ladder run --preset quick --peers python` as run on a 2-core VM (16 tiers and 8 Python peers, gauss, n 1e5
// and 1e7), kept whole: the layout of its crowded Pareto chart is checked on fixed figures, so that a failure
// can be reproduced.
TEST(ReadableReport, TheQuickPresetWithThePythonPeersPassesEveryCheck) {
  TempDir dir;
  const fs::path run = unpacked("quick_peers_results", dir / "quick");
  const Outcome report = ladder("report " + run.string());
  ASSERT_EQ(report.exit_code, 0) << report.output;
  const Outcome browser =
      check_readable(run / "report.html", "quick-python-peers",
                     " --expect-chart speedup-1 --expect-chart pareto-1 --expect-text py-generator");
  if (browser.exit_code == 77) GTEST_SKIP() << browser.output;
  EXPECT_EQ(browser.exit_code, 0) << browser.output;
}

// The same, run here (one size, short repetitions, so that it stays near a minute on a loaded 2-core
// machine; every tier and every peer still runs): its page passes the checks that do not depend on where
// the measured dots fall — the answer, the series, the tables, the titles. The labels' layout on measured
// figures is the fixture's case above.
TEST(ReadableReport, ALiveQuickRunWithThePythonPeersPassesTheChecksOutsideTheLayout) {
  const std::string python = peers_python();
  const Outcome numpy = run_command(python, "-c 'import numpy'");
  if (numpy.exit_code != 0)
    GTEST_SKIP() << "the Python peers' packages are missing: " << python << " cannot import numpy\n"
                 << numpy.output;
  TempDir dir;
  const Outcome run = ladder(
      "run --no-limits --preset quick --peers python --n 1e6 --reps 2 --min-time 0.005 "
      "--no-instructions --out " +
      (dir / "quick").string());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const json results = read_json(dir / "quick/results.json");
  bool peer = false;
  for (const auto& card : results.at("tiers")) peer = peer || card.value("peer", false);
  ASSERT_TRUE(peer) << "the run's tiers include the Python peers";
  const fs::path shots = fs::path(LADDER_SCREENSHOTS_DIR) / "quick-python-peers-live";
  fs::remove_all(shots);
  fs::create_directories(shots);
  const Outcome browser = run_command(
      "python3",
      std::string(LADDER_SOURCE_DIR) + "/tests/browser_check.py " + (dir / "quick/report.html").string() +
          " --check-answer --check-series --check-tables --check-titles --timeout 180 --screenshot " +
          (shots / "page.png").string() + " --expect-chart speedup-1 --expect-chart pareto-1");
  if (browser.exit_code == 77) GTEST_SKIP() << browser.output;
  EXPECT_EQ(browser.exit_code, 0) << browser.output;
}

// A second machine made from a run's results: another host name, 16 cores in two sockets, its cells 30 %
// faster; written to DIR.
void second_machine(const fs::path& first, const std::string& host, const fs::path& dir) {
  json second = read_json(first / "results.json");
  auto& context = second.at("context");
  context["host_name"] = host;
  context["cpu_model"] = "a test CPU with 16 cores";
  context["logical_cpus"] = 16;
  context["physical_cores"] = 16;
  context["topology"] = crafted_topology(2, 1, 1, 8, 1);
  for (auto& entry : second.at("benchmarks"))
    for (const char* field : {"real_time", "cpu_time", "ns_per_node"})
      if (entry.contains(field) && entry.at(field).is_number())
        entry[field] = 0.7 * entry.at(field).get<double>();
  write_results(dir, second);
}

// The report of FIRST and a second machine made from it (HOST), checked as CASE with EXPECTATIONS.
void expect_two_machines_readable(const fs::path& first, const std::string& host, const std::string& name,
                                  const std::string& expectations) {
  const fs::path dir = first.parent_path();
  second_machine(first, host, dir / "second");
  const Outcome report = ladder("report " + first.string() + " " + (dir / "second").string() + " --out " +
                                (dir / "both").string());
  ASSERT_EQ(report.exit_code, 0) << report.output;
  const Outcome browser = check_readable(dir / "both/report.html", name,
                                         " --expect-chart pareto-1 --expect-chart pareto-2"
                                         " --expect-chart scaling-1 --expect-chart scaling-2 --expect-text " +
                                             host + expectations);
  if (browser.exit_code == 77) GTEST_SKIP() << browser.output;
  EXPECT_EQ(browser.exit_code, 0) << browser.output;
}

// The default run, and a second machine made from it.
TEST(ReadableReport, TwoMachinesInOneReportPassEveryCheckWithEachMachinesCharts) {
  TempDir dir;
  expect_two_machines_readable(default_run(dir / "first"), "sixteen-cores", "two-machines", "");
}

// `ladder run --preset quick` with six integrands (gauss, normal-cdf, rational, piecewise-branch,
// piecewise-select, log-atan) on a 2-core VM, kept whole, and a second machine made from it: two machines of
// six integrands each in one report, where the answer holds a pick for each machine and each integrand.
TEST(ReadableReport, TwoMachinesOfSixIntegrandsEachPassEveryCheck) {
  TempDir dir;
  expect_two_machines_readable(unpacked("six_integrands_results", dir / "first"), "second-box",
                               "two-machines-six-integrands", " --expect-text log-atan");
}

}  // namespace
}  // namespace ladder::testing
