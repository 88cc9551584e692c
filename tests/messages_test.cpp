// Issue 37, through the binary users run: every refusal is `ladder: …` with exit 2, of a size a person can
// read, whatever the input (a value nested 100 000 deep, a 10 MB array, a directory as a file); figures
// stay numbers a person can read; the command line refuses what it used to take silently (an empty value,
// an empty item of a list, --bus-factor 0x10); and `pick` never claims a deadline no tier meets.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <regex>
#include <string>

#include "command.hpp"

namespace ladder::testing {
namespace {

namespace fs = std::filesystem;

constexpr int bad_input = 2, no_tier = 1;

Outcome ladder(const std::string& arguments) { return run_command(LADDER_BINARY, arguments); }

bool says(const Outcome& outcome, const std::string& words) {
  return outcome.output.find(words) != std::string::npos;
}

// The default run's results (the fixture), in a scratch directory.
struct Scratch {
  TempDir dir;
  std::string run = (dir / "run").string();
  Scratch() {
    fs::create_directories(run);
    EXPECT_EQ(std::system(("gzip -dc " LADDER_FIXTURES_DIR "/default_run_results.json.gz > '" + run +
                           "/results.json'")
                              .c_str()),
              0);
  }
  std::string file(const std::string& name, const std::string& text) const {
    write_text(dir / name, text);
    return (dir / name).string();
  }
};

std::string nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

// A refusal: exit 2, one short message that begins `ladder:` and names `words`.
void expect_short_refusal(const Outcome& outcome, const std::string& words, const std::string& command) {
  EXPECT_EQ(outcome.exit_code, bad_input) << command << "\n" << outcome.output.substr(0, 2000);
  EXPECT_LT(outcome.output.size(), 400u) << command << "\n" << outcome.output.substr(0, 2000);
  EXPECT_EQ(outcome.output.rfind("ladder: ", 0), 0u) << command << "\n" << outcome.output.substr(0, 2000);
  EXPECT_TRUE(says(outcome, words)) << command << " should name " << words << "\n"
                                    << outcome.output.substr(0, 2000);
}

// D1, D14: a costs value nested 100 000 deep (it overflowed the stack), or an array of 10 MB (it was
// echoed whole), is named in a message under 400 bytes.
TEST(Messages, AHugeOrDeepCostsValueIsRefusedInAShortMessage) {
  Scratch scratch;
  const auto deep = scratch.file("deep.json", "{\"core_hour\": " + nested(100000) + "}");
  expect_short_refusal(ladder("pick " + scratch.run + " --costs " + deep), "core_hour", "deep core_hour");
  std::string wide = "{\"core_hour\": [";
  for (int i = 0; i < 1000000; ++i) wide += "1234567,";
  wide += "1]}";
  const auto big = scratch.file("big.json", wide);
  expect_short_refusal(ladder("pick " + scratch.run + " --costs " + big), "core_hour", "10 MB core_hour");
  for (const char* key : {"bus_factor", "team_knows", "engineer_day"}) {
    const auto file = scratch.file("k.json", std::string("{\"") + key + "\": " + nested(100000) + "}");
    expect_short_refusal(
        ladder("report " + scratch.run + " --out " + (scratch.dir / "r").string() + " --costs " + file), key,
        key);
  }
}

// D1, D14: results whose schema_version or matrix seed is nested 100 000 deep, or whose status is a 2 MB
// string, are refused by every reader in a short message.
TEST(Messages, ResultsWithAHugeOrDeepValueAreRefusedInAShortMessage) {
  Scratch scratch;
  const std::string good = read_text(scratch.run + "/results.json");
  const auto damaged = [&](const std::string& name, const std::string& from, const std::string& to) {
    const std::string dir = (scratch.dir / name).string();
    fs::create_directories(dir);
    std::string text = good;
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    auto end = at + from.size();  // a number after `from` goes too
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
    write_text(dir + "/results.json", text.replace(at, end - at, to));
    return dir;
  };
  const auto version = damaged("version", "\"schema_version\": ", "\"schema_version\": " + nested(100000));
  const auto seed = damaged("seed", "\"seed\": ", "\"seed\": " + nested(100000));
  const auto status =
      damaged("status", "\"status\": \"ok\"", "\"status\": \"" + std::string(2 << 20, 'x') + "\"");
  for (const auto& [dir, words] :
       {std::pair{version, "schema_version"}, std::pair{seed, "seed"}, std::pair{status, "status"}}) {
    expect_short_refusal(ladder("pick " + dir), words, "pick " + dir);
    expect_short_refusal(ladder("compare " + scratch.run + " " + dir), words, "compare " + dir);
  }
}

// D1: a journal whose header's schema_version is nested 100 000 deep: `run --resume` refuses it.
TEST(Messages, AJournalWithADeepSchemaVersionIsRefused) {
  Scratch scratch;
  const std::string dir = (scratch.dir / "resumed").string();
  fs::create_directories(dir);
  write_text(dir + "/journal.jsonl", "{\"kind\":\"run\",\"schema_version\":" + nested(100000) + "}\n");
  expect_short_refusal(ladder("run --resume " + dir + " --no-history"), "schema_version", "resume");
}

// D5: a directory as the costs file, on each command that reads one; and a file that does not exist.
TEST(Messages, ADirectoryAsTheCostsFileIsRefusedNamingIt) {
  Scratch scratch;
  const std::string dir = scratch.dir.str();
  expect_short_refusal(ladder("pick " + scratch.run + " --costs " + dir),
                       "is a directory; --costs takes a TOML or JSON file", "pick");
  expect_short_refusal(ladder("report " + scratch.run + " --out " + dir + "/r --costs " + dir),
                       "is a directory", "report");
  expect_short_refusal(ladder("run --tiers naive --n 1e4 --no-history --no-instructions --out " + dir +
                              "/new-run --costs " + dir),
                       "is a directory", "run");
  EXPECT_FALSE(fs::exists(dir + "/new-run"));
  expect_short_refusal(ladder("pick " + scratch.run + " --costs " + dir + "/none.toml"), "does not exist",
                       "missing");
}

// D9: the costs file's bus_factor is checked as the integer it is, before it is narrowed to an int;
// --bus-factor takes plain decimal digits.
TEST(Messages, BusFactorOutOfRangeOrNotPlainDigitsIsRefused) {
  Scratch scratch;
  for (const std::string value : {"4294967298", "2147483648", "9223372036854775807", "0", "-1", "1001"}) {
    const auto costs = scratch.file("c.toml", "bus_factor = " + value + "\n");
    expect_short_refusal(ladder("pick " + scratch.run + " --costs " + costs), "bus_factor is " + value,
                         "bus_factor = " + value);
  }
  const auto json = scratch.file("c.json", "{\"bus_factor\": 18446744073709551615}");
  expect_short_refusal(ladder("pick " + scratch.run + " --costs " + json), "at least 1 and at most 1000",
                       "json");
  for (const std::string value : {"0x10", "007", "' 5'", "'5 '", "1e3", "abc", "0", "1001", "99999999999"})
    expect_short_refusal(ladder("pick " + scratch.run + " --bus-factor " + value), "--bus-factor",
                         "--bus-factor " + value);
  const Outcome two = ladder("pick " + scratch.run + " --bus-factor 2");
  EXPECT_EQ(two.exit_code, 0) << two.output;
  EXPECT_TRUE(says(two, "bus factor 2")) << two.output;
  const auto seven = scratch.file("seven.toml", "bus_factor = 7\n");
  EXPECT_TRUE(says(ladder("pick " + scratch.run + " --costs " + seven), "bus factor 7"));
}

// D14: a price of 1e308 gives figures of three significant digits, not of 300 digits, in pick and in
// the report.
TEST(Messages, HugeFiguresPrintInThreeSignificantDigits) {
  Scratch scratch;
  const std::regex long_number("[0-9]{17}");
  for (const char* option : {"--calls-per-day 1e308", "--core-hour 1e308", "--engineer-day 1e308"}) {
    const Outcome pick = ladder("pick " + scratch.run + " " + option);
    EXPECT_EQ(pick.exit_code, 0) << option << "\n" << pick.output;
    EXPECT_FALSE(std::regex_search(pick.output, long_number)) << option << "\n" << pick.output;
    EXPECT_TRUE(says(pick, "e+")) << option << "\n" << pick.output;
    const std::string out = (scratch.dir / "report").string();
    const Outcome report = ladder("report " + scratch.run + " --out " + out + " " + option);
    ASSERT_EQ(report.exit_code, 0) << option << "\n" << report.output;
    const std::string markdown = read_text(out + "/report.md");
    EXPECT_FALSE(std::regex_search(markdown, long_number)) << option;
    for (const auto& chart : fs::directory_iterator(out + "/charts"))
      if (chart.path().filename().string().rfind("money", 0) == 0) {
        EXPECT_FALSE(std::regex_search(read_text(chart.path()), long_number)) << chart.path();
      }
  }
  // Day figures too: a costs file's 1e300 days a concept.
  const auto days = scratch.file("days.toml", "adopt_per_concept = 1e300\nupkeep_per_flag = 1e300\n");
  const std::string out = (scratch.dir / "days").string();
  const Outcome pick = ladder("pick " + scratch.run + " --costs " + days);
  EXPECT_FALSE(std::regex_search(pick.output, long_number)) << pick.output;
  ASSERT_EQ(ladder("report " + scratch.run + " --out " + out + " --costs " + days).exit_code, 0);
  EXPECT_FALSE(std::regex_search(read_text(out + "/report.md"), long_number));
}

// D13: CLI11's refusals say `ladder: COMMAND:` and exit 2; help still exits 0.
TEST(Messages, CommandLineRefusalsBeginWithLadderAndTheCommand) {
  Scratch scratch;
  expect_short_refusal(ladder("pick " + scratch.run + " --calls-per-day"), "ladder: pick: --calls-per-day",
                       "missing value");
  expect_short_refusal(ladder("pick " + scratch.run + " --max-cost abc"), "ladder: pick: ", "max-cost abc");
  expect_short_refusal(ladder("eval --tier naive --bogus"), "ladder: eval: ", "bogus");
  expect_short_refusal(ladder("history list --bogus"), "ladder: history list: ", "history list");
  expect_short_refusal(ladder("--bogus"), "ladder: ", "bogus");
  for (const char* help : {"--help", "pick --help", "history import --help"}) {
    const Outcome outcome = ladder(help);
    EXPECT_EQ(outcome.exit_code, 0) << help << "\n" << outcome.output;
    EXPECT_TRUE(says(outcome, "Options:")) << help << "\n" << outcome.output;
  }
}

// D13: under a deadline no tier meets, pick says so and exits 1 (no tier meets the constraints), never
// "of the tiers that meet … the deadline".
TEST(Messages, PickUnderADeadlineNoTierMeetsSaysSoAndExits1) {
  Scratch scratch;
  for (const char* json : {"", " --json"}) {
    const Outcome none = ladder("pick " + scratch.run + " --deadline 1ns" + json);
    EXPECT_EQ(none.exit_code, no_tier) << json << "\n" << none.output;
    EXPECT_FALSE(says(none, "meet the constraints and the deadline")) << none.output;
    EXPECT_FALSE(says(none, "\npick: ")) << none.output;
  }
  const Outcome some = ladder("pick " + scratch.run + " --deadline 10s");
  EXPECT_EQ(some.exit_code, 0) << some.output;
  EXPECT_TRUE(says(some, "\npick: ")) << some.output;
}

// D13: an empty value, or an empty item of a comma-separated list, is refused, naming the option.
TEST(Messages, EmptyValuesAndEmptyListItemsAreRefused) {
  Scratch scratch;
  expect_short_refusal(ladder("pick " + scratch.run + " --costs ''"), "--costs is empty", "costs");
  expect_short_refusal(ladder("pick " + scratch.run + " --costs="), "--costs is empty", "costs=");
  expect_short_refusal(ladder("eval --tier naive --n 1000 --integrand ''"), "--integrand is empty", "eval");
  expect_short_refusal(ladder("run --integrand '' --no-history --out " + scratch.dir.str() + "/x"),
                       "--integrand is empty", "run");
  expect_short_refusal(ladder("report " + scratch.run + " --out ''"), "--out is empty", "report");
  expect_short_refusal(ladder("plan --compilers gcc,"), "--compilers 'gcc,' has an empty item", "gcc,");
  expect_short_refusal(ladder("plan --compilers , --arch ,"), "--compilers ',' has an empty item", ",");
  expect_short_refusal(ladder("plan --tiers naive,,inlined"), "--tiers", ",,");
  expect_short_refusal(ladder("pick " + scratch.run + " --team-knows=openmp,"), "--team-knows", "team-knows");
  EXPECT_FALSE(fs::exists(scratch.dir / "x"));
}

// D13: `ladder plan` takes `ladder run`'s --no-history, --history and money options, checks them as the
// run does, and plans the same matrix with them (a plan calibrates in workers: label run).
TEST(PlanRunOptions, PlanTakesTheRunsOptionsThatDoNotChangeWhatIsMeasured) {
  Scratch scratch;
  const std::string matrix = "plan --tiers naive --n 1e4 --threads 1 --reps 3 --min-time 0.01 --json";
  const Outcome plain = ladder(matrix);
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  const Outcome with = ladder(matrix + " --no-history --calls-per-day 5 --bus-factor 2 --history " +
                              scratch.dir.str() + "/h.sqlite");
  EXPECT_EQ(with.exit_code, 0) << with.output;
  // The plan's JSON, after the line a calibration (a new build's first plan) prints on stderr.
  const auto cells = [](const Outcome& outcome) {
    return nlohmann::json::parse(outcome.output.substr(outcome.output.find('{'))).at("cells");
  };
  EXPECT_EQ(cells(plain).size(), cells(with).size());
  expect_short_refusal(ladder(matrix + " --costs " + scratch.dir.str()), "is a directory", "plan --costs");
}

}  // namespace
}  // namespace ladder::testing
