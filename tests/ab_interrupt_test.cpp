// `ladder ab` stopped by SIGTERM (or Ctrl-C) part-way (harness/run/ab.hpp): what was measured is kept. The
// head side is a wrapper that runs this build's own worker and, on its third process, sends SIGTERM to the
// process that started it (this test, which has caught interrupts as `ladder ab` does): the run ends inside
// the first cell's third pair, keeps its two whole pairs and says it was interrupted, and never starts the
// second cell. A binary of its own, since the interrupt is remembered for the rest of the process.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "ab.hpp"
#include "worker_process.hpp"

namespace ladder {
namespace {

namespace fs = std::filesystem;

TEST(AbInterrupted, KeepsTheWholePairsOfTheCellItStoppedAndStartsNoOther) {
  const fs::path dir = fs::temp_directory_path() / ("ladder-ab-interrupt-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path calls = dir / "head-calls", head = dir / "head";
  {
    std::ofstream out(head);
    out << "#!/bin/sh\necho x >> '" << calls.string() << "'\n"
        << "if [ \"$(wc -l < '" << calls.string() << "')\" -eq 3 ]; then kill -TERM $PPID; fi\n"
        << "exec '" << LADDER_BINARY << "' \"$@\"\n";
  }
  ::chmod(head.c_str(), 0755);

  AbSettings settings;
  settings.matrix.tiers = {"inlined"};
  settings.matrix.integrands = {"gauss"};
  settings.matrix.sizes = {200'000, 300'000};
  settings.matrix.threads = {1};
  settings.matrix.repetitions = 2;
  settings.matrix.min_time = 0.005;
  settings.matrix.min_warmup_time = 0.002;
  settings.fixed_pairs = 6;
  settings.budget_seconds = 240;
  settings.threshold = [](const CellKey&) { return Threshold{5, "a test's 5 %", false}; };

  catch_interrupts();
  const std::vector<AbCell> cells = run_ab(settings, LADDER_BINARY, head.string());
  EXPECT_TRUE(interrupted());
  ASSERT_EQ(cells.size(), 1U) << "the second cell was started after the interrupt";
  EXPECT_TRUE(cells[0].interrupted);
  EXPECT_TRUE(cells[0].failure.empty()) << cells[0].failure;
  // Pairs A B and B A are whole; the third (A, then the head's third process) was stopped.
  EXPECT_EQ(cells[0].pairs.size(), 2U);
  for (const AbPair& pair : cells[0].pairs) {
    EXPECT_GT(pair.base_seconds, 0);
    EXPECT_GT(pair.head_seconds, 0);
  }
  EXPECT_NE(cells[0].row().note.find("2 pairs"), std::string::npos) << cells[0].row().note;
  EXPECT_NE(cells[0].row().note.find("(interrupted)"), std::string::npos) << cells[0].row().note;
  std::ifstream in(calls);
  int lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  EXPECT_EQ(lines, 3) << "a head process was started after the interrupt";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ladder
