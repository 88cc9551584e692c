// Issue 37 (N1, D14), through the binary users run: a path the file system refuses (a name too long, a
// symlink loop) given to --integrand is refused by name with exit 2, never exit 70; an option value of
// 100 000 characters (--seed, --n, --since, --tiers, a tier of `history show`) is named in a message a
// person can read, not echoed whole.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "command.hpp"

namespace ladder::testing {
namespace {

namespace fs = std::filesystem;

constexpr int bad_input = 2;

Outcome ladder(const std::string& arguments) { return run_command(LADDER_BINARY, arguments); }

// A refusal: exit 2, one message under 1 000 bytes that begins `ladder:` and names `words`.
void expect_short_refusal(const Outcome& outcome, const std::string& words, const std::string& what) {
  const std::string shown = outcome.output.substr(0, 1500);
  EXPECT_EQ(outcome.exit_code, bad_input) << what << "\n" << shown;
  EXPECT_LT(outcome.output.size(), 1000u) << what << "\n" << shown;
  EXPECT_EQ(outcome.output.rfind("ladder: ", 0), 0u) << what << "\n" << shown;
  EXPECT_NE(outcome.output.find(words), std::string::npos) << what << " should name " << words << "\n"
                                                           << shown;
}

const std::string huge_number(100000, '9');
const std::string huge_name(100000, 'x');

// N1: FILE:NAME whose whole is a name too long for the file system (it was checked with the throwing
// std::filesystem::exists: "filesystem error: status: File name too long", exit 70).
TEST(LongValues, AnIntegrandPathTooLongIsRefusedByName) {
  TempDir dir;
  const std::string requested =
      LADDER_SOURCE_DIR "/examples/integrands/rational.hpp:" + std::string(300, 'N');
  const auto outcome =
      ladder("export inlined --out '" + (dir / "x").string() + "' --integrand '" + requested + "'");
  expect_short_refusal(outcome, "--integrand", "a FILE:NAME of 300 characters");
  EXPECT_FALSE(fs::exists(dir / "x"));
}

// N1: a symlink loop (ELOOP) and a file name past NAME_MAX, with and without :NAME.
TEST(LongValues, AnIntegrandPathTheFileSystemRefusesIsRefusedByName) {
  TempDir dir;
  fs::create_symlink("loop", dir / "loop");
  const std::string out = " --out '" + (dir / "x").string() + "'";
  for (const std::string& requested :
       {(dir / "loop").string() + ":gauss", (dir / "loop").string(), (dir / "loop").string() + "/a.hpp:gauss",
        (dir / std::string(300, 'h')).string() + ".hpp", (dir / std::string(5000, 'h')).string() + ":gauss"})
    expect_short_refusal(ladder("export inlined" + out + " --integrand '" + requested + "'"), "--integrand",
                         requested.substr(0, 200));
}

// D14: each option value of 100 000 characters is named in a short message.
TEST(LongValues, AHugeSeedIsRefusedInAShortMessage) {
  TempDir dir;
  expect_short_refusal(ladder("run --seed " + huge_number + " --out '" + (dir / "r").string() + "'"),
                       "--seed", "--seed of 100 000 digits");
  expect_short_refusal(ladder("plan --seed " + huge_number), "--seed", "plan --seed of 100 000 digits");
}

TEST(LongValues, AHugeSizeIsRefusedInAShortMessage) {
  TempDir dir;
  expect_short_refusal(ladder("run --n " + huge_number + " --out '" + (dir / "r").string() + "'"),
                       "n = ", "--n of 100 000 digits");
  expect_short_refusal(ladder("eval --tier inlined --n " + huge_number),
                       "n = ", "eval --n of 100 000 digits");
}

TEST(LongValues, AHugeSinceIsRefusedInAShortMessage) {
  TempDir dir;
  expect_short_refusal(
      ladder("history list --since " + huge_number + " --history '" + (dir / "h.sqlite").string() + "'"),
      "--since", "--since of 100 000 characters");
  EXPECT_FALSE(fs::exists(dir / "h.sqlite"));
}

TEST(LongValues, AHugeTierNameIsRefusedInAShortMessage) {
  TempDir dir;
  expect_short_refusal(ladder("run --tiers " + huge_name + " --out '" + (dir / "r").string() + "'"),
                       "unknown tier", "--tiers of 100 000 characters");
  expect_short_refusal(ladder("run --tiers inlined," + huge_name + " --out '" + (dir / "r").string() + "'"),
                       "unknown tier", "--tiers inlined,<100 000 characters>");
  expect_short_refusal(ladder("eval --tier " + huge_name), "unknown tier", "eval <100 000 characters>");
  expect_short_refusal(ladder("run --integrand " + huge_name + " --out '" + (dir / "r").string() + "'"),
                       "unknown integrand", "--integrand of 100 000 characters");
}

// D14: `history show TIER` of a tier the database does not hold quoted the tier whole.
TEST(LongValues, AHugeCompilerOrTargetIsRefusedInAShortMessage) {
  expect_short_refusal(ladder("plan --compilers " + huge_name), "unknown compiler",
                       "--compilers of 100 000 characters");
  expect_short_refusal(ladder("plan --arch " + huge_name), "unknown target", "--arch of 100 000 characters");
}

TEST(LongValues, HistoryShowOfAHugeTierIsRefusedInAShortMessage) {
  TempDir dir;
  const std::string run = (dir / "run").string(), history = (dir / "h.sqlite").string();
  fs::create_directories(run);
  ASSERT_EQ(std::system(
                ("gzip -dc " LADDER_FIXTURES_DIR "/default_run_results.json.gz > '" + run + "/results.json'")
                    .c_str()),
            0);
  const auto imported = ladder("history import '" + run + "' --history '" + history + "'");
  ASSERT_EQ(imported.exit_code, 0) << imported.output;
  expect_short_refusal(ladder("history show " + huge_name + " --history '" + history + "'"),
                       "no measured cell", "history show <100 000 characters>");
}

}  // namespace
}  // namespace ladder::testing
