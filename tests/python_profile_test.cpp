// `ladder profile --peer ID`: the pure-Python peers line by line under line_profiler and memory_profiler,
// the refusals, a missing profiler, and the profile a report shows when one is saved beside the results.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "command.hpp"

namespace {

using namespace ladder::testing;
namespace fs = std::filesystem;

const std::string ladder_binary = LADDER_BINARY;

// What the profile says of its largest memory increment: its bytes and its line's source, or 0 bytes when no
// line grew the resident set.
struct Increment {
  bool found = false;
  double bytes = 0;
  std::string source;
};

Increment largest_increment(const std::string& output) {
  static const std::regex said(
      R"(largest memory increment: (?:line \d+, )?(\d+) bytes(?: \([^)]*\))?: (.*))");
  std::smatch match;
  if (!std::regex_search(output, match, said)) return {};
  return {true, std::stod(match[1]), match[2]};
}

// The row of the line marked ">1": the line with the most time.
std::string hottest_row(const std::string& output) {
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(">1 ", 0) == 0) return line;
  return "";
}

// A profile that cannot run for want of a profiler is a skip that names it, never a pass.
#define SKIP_WITHOUT_PROFILERS(outcome) \
  if ((outcome).exit_code == 3) GTEST_SKIP() << (outcome).output;

// The notebook's finding: the list of nodes is where the memory goes. A node costs the list a pointer
// (8 bytes) and a float object: 24 bytes asked for, a 32-byte block from CPython's allocator, which rounds
// every object to 16 bytes since Python 3.8 (the notebook's 32 bytes a node was 3.7's 8-byte rounding).
TEST(PythonProfile, PyListsLargestMemoryIncrementIsTheLineThatBuildsTheNodeList) {
  const double n = 1e6;
  const auto outcome = run_command(ladder_binary, "profile --peer py-list --n 1e6");
  SKIP_WITHOUT_PROFILERS(outcome);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  const Increment largest = largest_increment(outcome.output);
  ASSERT_TRUE(largest.found) << outcome.output;
  EXPECT_NE(largest.source.find("nodes = [a + (i + 0.5) * h for i in range(n)]"), std::string::npos)
      << outcome.output;
  const double expected = n * (8 + 32);
  EXPECT_GT(largest.bytes, 0.75 * expected) << outcome.output;
  EXPECT_LT(largest.bytes, 1.25 * expected) << outcome.output;
  // The time goes to the loop that calls f a node, not to the list.
  EXPECT_NE(hottest_row(outcome.output).find("total += f(x)"), std::string::npos) << outcome.output;
  EXPECT_NE(outcome.output.find("line_profiler"), std::string::npos);
  EXPECT_NE(outcome.output.find("scripts/peers/peers.py: py_list"), std::string::npos) << outcome.output;
}

// The generator makes each node as sum() asks for it: no line holds them all.
TEST(PythonProfile, PyGeneratorGrowsNoLineByATenthOfTheList) {
  const double n = 1e6;
  const auto outcome = run_command(ladder_binary, "profile --peer py-generator --n 1e6");
  SKIP_WITHOUT_PROFILERS(outcome);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  const Increment largest = largest_increment(outcome.output);
  ASSERT_TRUE(largest.found) << outcome.output;
  EXPECT_LT(largest.bytes, 0.1 * n * 32) << outcome.output;
  EXPECT_NE(hottest_row(outcome.output).find("return sum(f(x) for x in nodes) * h"), std::string::npos)
      << outcome.output;
}

TEST(PythonProfile, OnlyPurePythonPeersAreProfiledAndBadInputIsNamed) {
  struct Refused {
    std::string arguments, message;
  };
  const std::vector<Refused> cases = {
      {"--peer numpy", "peer 'numpy' is not pure Python (it needs numpy)"},
      {"--peer numba", "the pure-Python peers: py-list, py-generator, py-inlined"},
      {"--peer no-such-peer", "unknown peer 'no-such-peer'"},
      {"--peer py-list --n 1e8", "at most 1e7 nodes"},
      {"xsimd --peer py-list", "give a tier or --peer, not both"},
      {"", "give a tier (`ladder profile xsimd`) or a pure-Python peer"},
      {"xsimd --save /tmp", "--save keeps a Python peer's profile; it goes with --peer"},
      {"--peer py-list --save /nonexistent/folder", "--save '/nonexistent/folder' is not a directory"},
  };
  for (const auto& refused : cases) {
    const auto outcome = run_command(ladder_binary, "profile " + refused.arguments);
    EXPECT_EQ(outcome.exit_code, 2) << refused.arguments << ": " << outcome.output;
    EXPECT_NE(outcome.output.find(refused.message), std::string::npos)
        << refused.arguments << ": " << outcome.output;
  }
}

// Each profiler hidden behind a module of the same name that cannot be imported, first on Python's path:
// the message names it and its Debian package, with the exit code of a missing valgrind (3, unavailable).
TEST(PythonProfile, AMissingProfilerIsNamedWithItsPackage) {
  TempDir dir;
  for (const std::string module : {"line_profiler", "memory_profiler"}) {
    const fs::path shadow = dir / module;
    fs::create_directories(shadow);
    write_text(shadow / (module + ".py"), "raise ImportError('No module named " + module + " (hidden)')\n");
    const auto outcome = run_command("env PYTHONPATH=" + shadow.string() + " " + ladder_binary,
                                     "profile --peer py-list --n 10");
    EXPECT_EQ(outcome.exit_code, 3) << outcome.output;
    const std::string package =
        module == "line_profiler" ? "python3-line-profiler" : "python3-memory-profiler";
    EXPECT_NE(outcome.output.find("cannot profile: " + module + " cannot be imported"), std::string::npos)
        << outcome.output;
    EXPECT_NE(outcome.output.find("(Debian package " + package + ";"), std::string::npos) << outcome.output;
  }
}

// A results file with the Python peers, unpacked into DIR/results.json.
fs::path quick_peers_run(const fs::path& dir) {
  fs::create_directories(dir);
  const auto unpacked =
      run_command("gzip", "-dc " + std::string(LADDER_FIXTURES_DIR) + "/quick_peers_results.json.gz > " +
                              (dir / "results.json").string());
  EXPECT_EQ(unpacked.exit_code, 0) << unpacked.output;
  return dir;
}

// The report shows a profile saved beside the results, and says how to make one where none is.
TEST(PythonProfile, TheReportShowsAProfileSavedBesideTheResults) {
  TempDir dir;
  const fs::path run = quick_peers_run(dir / "run");
  // The report goes elsewhere (--out): the run's folder holds a results file only, not a run's journal, so a
  // report there would refuse the profile as a file Ladder did not write.
  const fs::path out = dir / "report";
  const std::string report_command = "report " + run.string() + " --out " + out.string();
  auto report = run_command(ladder_binary, report_command);
  ASSERT_EQ(report.exit_code, 0) << report.output;
  EXPECT_NE(read_text(out / "report.md").find("none was profiled beside these results"), std::string::npos);

  const auto saved = run_command(ladder_binary, "profile --peer py-list --n 1e4 --save " + run.string());
  SKIP_WITHOUT_PROFILERS(saved);
  ASSERT_EQ(saved.exit_code, 0) << saved.output;
  ASSERT_TRUE(fs::exists(run / "python-profile-py-list.json")) << saved.output;
  report = run_command(ladder_binary, report_command);
  ASSERT_EQ(report.exit_code, 0) << report.output;
  const std::string text = read_text(out / "report.md");
  EXPECT_EQ(text.find("none was profiled beside these results"), std::string::npos);
  const auto where = text.find("## Where the time goes");
  ASSERT_NE(where, std::string::npos);
  const auto profile = text.find("py-list line by line (integrand gauss, n = 1e4)", where);
  EXPECT_NE(profile, std::string::npos) << text.substr(where);
  EXPECT_NE(text.find("`nodes = [a + (i + 0.5) * h for i in range(n)]`", where), std::string::npos)
      << text.substr(where);

  // A damaged profile is named with its problem; the report is still written.
  write_text(run / "python-profile-py-list.json", "{\"peer\": \"py-list\"");
  report = run_command(ladder_binary, report_command);
  ASSERT_EQ(report.exit_code, 0) << report.output;
  EXPECT_NE(read_text(out / "report.md").find("python-profile-py-list.json cannot be read"),
            std::string::npos);
}

}  // namespace
