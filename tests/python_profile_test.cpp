// `ladder profile --peer ID`: the pure-Python peers line by line under line_profiler and memory_profiler,
// the refusals, a missing profiler, and the profile a report shows when one is saved beside the results.
#include <gtest/gtest.h>

#include <chrono>
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
// 300 000 nodes: 12 MB of list, far above the resident set's page-sized steps (40.5 bytes a node here), in a
// minute on the fresh 2-core root, where a million (the profile's limit) took 3 to 4 minutes of the tests.
constexpr long profiled_nodes = 300000;
TEST(PythonProfile, PyListsLargestMemoryIncrementIsTheLineThatBuildsTheNodeList) {
  const double n = profiled_nodes;
  const auto outcome =
      run_command(ladder_binary, "profile --peer py-list --n " + std::to_string(profiled_nodes));
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
// The list's test's nodes: a tenth of their list is 0.96 MB (no line grew at all here).
TEST(PythonProfile, PyGeneratorGrowsNoLineByATenthOfTheList) {
  const double n = profiled_nodes;
  const auto outcome =
      run_command(ladder_binary, "profile --peer py-generator --n " + std::to_string(profiled_nodes));
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
      {"--peer py-list --n 1e8", "at most 1e6 nodes"},
      // The profile's own limit, a million nodes, is what its message promises: a minute or two, not hours.
      {"--peer py-list --n 2e6",
       "--n 2000000 is more than `ladder profile --peer py-list` takes: "
       "at most 1e6 nodes"},
      {"--peer py-generator --n 1e7", "at most 1e6 nodes"},
      // An interval whose width b - a overflows would give a NaN profile.
      {"--peer py-list --a 1e308 --b -1e308", "the interval a = 1e+308, b = -1e+308 is too wide"},
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

// The interval is checked where every command reads it (parsed_interval, and run's own options): a width
// b - a that overflows is refused before anything runs, naming a and b, where eval gave a NaN with exit 0.
TEST(PythonProfile, AnIntervalWhoseWidthIsNotFiniteIsRefusedByEveryCommand) {
  TempDir dir;
  const std::vector<std::string> commands = {
      "eval --tier inlined --n 1e3", "profile --peer py-list --n 10", "profile inlined --n 1e3",
      "run --tiers inlined --n 1e3 --out " + (fs::path(dir.str()) / "run").string()};
  for (const std::string& command : commands) {
    for (const std::string interval : {"--a 1e308 --b -1e308", "--a -1.7e308 --b 1.7e308"}) {
      const auto outcome = run_command(ladder_binary, command + " " + interval);
      EXPECT_EQ(outcome.exit_code, 2) << command << " " << interval << ": " << outcome.output;
      EXPECT_NE(outcome.output.find(" is too wide: b - a is not a finite number"), std::string::npos)
          << command << " " << interval << ": " << outcome.output;
    }
  }
  EXPECT_FALSE(fs::exists(fs::path(dir.str()) / "run"));
  // A wide interval whose width is finite is taken.
  const auto wide = run_command(ladder_binary, "eval --tier inlined --n 1e3 --a -8e307 --b 8e307 --json");
  EXPECT_EQ(wide.exit_code, 0) << wide.output;
}

// ---- The peers' interpreters: LADDER_PYTHON runs the cards' listing and the profile, LADDER_PYPY is probed
// for its version inside the listing. One that hangs costs a bounded time, is stopped with what it started,
// and is named; one that prints bytes that are not UTF-8 gives a printable, bounded message.

// A fake interpreter in DIR: a shell script that starts `sleep 300`, writes its pid to DIR/NAME.pid, and
// waits for it (as a hung interpreter whose child holds on).
fs::path hanging_program(const fs::path& dir, const std::string& name) {
  const fs::path program = dir / name;
  write_text(program, "#!/bin/sh\nsleep 300 &\necho $! > '" + (dir / (name + ".pid")).string() + "'\nwait\n");
  fs::permissions(program, fs::perms::owner_all);
  return program;
}

// A fake interpreter that prints bytes that are not UTF-8, a terminal escape and a long line, then exits 0.
fs::path garbage_program(const fs::path& dir) {
  const fs::path program = dir / "garbage";
  write_text(program,
             "#!/bin/sh\nprintf 'Traceback\\n\\377\\376\\033[2J'\nhead -c 5000 /dev/zero | tr '\\0' x\n");
  fs::permissions(program, fs::perms::owner_all);
  return program;
}

// Whether the process whose pid a fake interpreter wrote still runs (a zombie no one reaps does not).
bool still_running(const fs::path& pid_file) {
  const std::string pid = read_text(pid_file);
  EXPECT_FALSE(pid.empty()) << pid_file << ": the fake interpreter never started its child";
  const std::string stat = read_text("/proc/" + pid.substr(0, pid.find('\n')) + "/stat");
  const auto state = stat.rfind(") ");
  return state != std::string::npos && stat.at(state + 2) != 'Z';
}

struct Timed {
  Outcome outcome;
  double seconds;
};
Timed timed_command(const std::string& environment, const std::string& arguments) {
  const auto start = std::chrono::steady_clock::now();
  Outcome outcome = run_command("env " + environment + " " + ladder_binary, arguments);
  return {outcome, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
}

// No raw byte that is not printable ASCII or UTF-8 text, and no terminal escape, reaches the terminal.
void expect_printable(const std::string& output) {
  EXPECT_EQ(output.find('\xff'), std::string::npos) << output;
  EXPECT_EQ(output.find('\x1b'), std::string::npos) << output;
}

TEST(PeerInterpreters, AHangingPythonIsStoppedWithWhatItStartedAndNamed) {
  TempDir dir;
  const fs::path python = hanging_program(fs::path(dir.str()), "python");
  const auto listing = timed_command("LADDER_PYTHON=" + python.string(), "plan --peers python");
  EXPECT_EQ(listing.outcome.exit_code, 5) << listing.outcome.output;
  EXPECT_NE(listing.outcome.output.find("the peers' Python " + python.string() +
                                        " (LADDER_PYTHON) printed no cards within 40 s"),
            std::string::npos)
      << listing.outcome.output;
  EXPECT_LT(listing.seconds, 40 + 30) << listing.outcome.output;
  EXPECT_FALSE(still_running(dir / "python.pid"));

  const auto profile = timed_command("LADDER_PYTHON=" + python.string(), "profile --peer py-list --n 10");
  EXPECT_EQ(profile.outcome.exit_code, 5) << profile.outcome.output;
  EXPECT_NE(
      profile.outcome.output.find("the peers' Python " + python.string() + " (LADDER_PYTHON) ran past 30 s"),
      std::string::npos)
      << profile.outcome.output;
  EXPECT_LT(profile.seconds, 30 + 30) << profile.outcome.output;
  EXPECT_FALSE(still_running(dir / "python.pid"));
}

TEST(PeerInterpreters, APythonThatPrintsGarbageGetsAPrintableBoundedMessage) {
  TempDir dir;
  const fs::path python = garbage_program(fs::path(dir.str()));
  const auto listing =
      run_command("env LADDER_PYTHON=" + python.string() + " " + ladder_binary, "plan --peers python");
  EXPECT_EQ(listing.exit_code, 2) << listing.output;
  EXPECT_NE(listing.output.find("cannot list the Python peers"), std::string::npos) << listing.output;
  EXPECT_NE(listing.output.find("its output ending … \\xff\\xfe\\x1b[2Jxxx"), std::string::npos)
      << listing.output;
  EXPECT_LT(listing.output.size(), 1000u) << listing.output;
  expect_printable(listing.output);

  const auto profile = run_command("env LADDER_PYTHON=" + python.string() + " " + ladder_binary,
                                   "profile --peer py-list --n 10");
  EXPECT_EQ(profile.exit_code, 5) << profile.output;
  EXPECT_NE(profile.output.find("Traceback\n\\xff\\xfe\\x1b[2Jxxx"), std::string::npos) << profile.output;
  EXPECT_LT(profile.output.size(), 1500u) << profile.output;
  expect_printable(profile.output);

  const std::string peers = "'x\033[2J" + std::string(3000, 'y') + "'";
  const auto unknown = run_command(ladder_binary, "plan --peers \"$(printf " + peers + ")\"");
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("--peers 'x\\x1b[2Jyyy"), std::string::npos) << unknown.output;
  EXPECT_LT(unknown.output.size(), 400u) << unknown.output;
  expect_printable(unknown.output);
}

// A pypy3 that hangs, prints garbage or has a path that is not UTF-8: only the pypy peers are unavailable,
// each with a one-line reason, and the listing (and every other peer) is whole.
TEST(PeerInterpreters, ABrokenPyPyMakesOnlyThePyPyPeersUnavailable) {
  TempDir dir;
  const fs::path pypy = hanging_program(fs::path(dir.str()), "pypy");
  const auto hung =
      timed_command("LADDER_PYPY=" + pypy.string(), "plan --peers python --tiers pypy-list,py-list --n 1e3");
  EXPECT_EQ(hung.outcome.exit_code, 0) << hung.outcome.output;
  EXPECT_NE(hung.outcome.output.find(pypy.string() + " did not print its version within 10 s (stopped)"),
            std::string::npos)
      << hung.outcome.output;
  EXPECT_LT(hung.seconds, 10 + 25) << hung.outcome.output;
  EXPECT_FALSE(still_running(dir / "pypy.pid"));

  const fs::path garbage = garbage_program(fs::path(dir.str()));
  const auto printed = run_command("env LADDER_PYPY=" + garbage.string() + " " + ladder_binary,
                                   "plan --peers python --tiers pypy-list,py-list --n 1e3");
  EXPECT_EQ(printed.exit_code, 0) << printed.output;
  EXPECT_NE(printed.output.find(garbage.string() + " is not PyPy: it printed"), std::string::npos)
      << printed.output;

  const std::string latin1 = (fs::path(dir.str()) / "caf").string() + "\xe9";
  const auto path = run_command("env LADDER_PYPY='" + latin1 + "' " + ladder_binary,
                                "plan --peers python --tiers pypy-list,py-list --n 1e3");
  EXPECT_EQ(path.exit_code, 0) << path.output;
  EXPECT_NE(path.output.find((fs::path(dir.str()) / "caf").string() + "\uFFFD does not run"),
            std::string::npos)
      << path.output;
  EXPECT_NE(path.output.find("1 of 2 cells will be attempted"), std::string::npos) << path.output;
}

}  // namespace
