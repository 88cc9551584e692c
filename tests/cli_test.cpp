// The command line, run as a user runs it: the real binary, its output and its exit code.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "build_info.hpp"
#include "command.hpp"
#include "registry.hpp"

namespace ladder {
namespace {

using testing::Outcome;

Outcome run(const std::string& arguments) { return testing::run_command(LADDER_BINARY, arguments); }

TEST(CommandLine, ListShowsEveryTier) {
  const Outcome list = run("list");
  ASSERT_EQ(list.exit_code, 0) << list.output;
  for (const auto& tier : tiers())
    EXPECT_NE(list.output.find(tier.card.id), std::string::npos) << tier.card.id;
  EXPECT_NE(list.output.find("SIMD: "), std::string::npos) << "the build's instruction set is shown";
  EXPECT_NE(list.output.find("on request"), std::string::npos) << "tbb's reproducibility is shown";
}

TEST(CommandLine, ListJsonGivesTheCards) {
  const Outcome list = run("list --json");
  ASSERT_EQ(list.exit_code, 0) << list.output;
  const auto cards = nlohmann::json::parse(list.output);
  ASSERT_EQ(cards.size(), tiers().size());
  EXPECT_EQ(cards[0]["id"], "naive");
  EXPECT_EQ(cards[6]["id"], "xsimd");
  EXPECT_EQ(cards[6]["shares"][0], "simd_kernel.hpp");
  EXPECT_EQ(cards[6]["kernel_header"], "variants/kernels/xsimd.hpp");
  EXPECT_GT(cards[6]["source_lines"].get<int>(), 5);  // the kernel header's lines
  EXPECT_EQ(cards[8]["learning_time"], "days");
  EXPECT_EQ(cards[9]["reproducible"], "on request");
  // Each card's engineer-days, recomputed from the documented default figures
  // (reports/analysis/economics.hpp): xsimd learns in days (3), 3 concepts × 0.25, 1 library × 0.5, no flag,
  // its lines × 0.25 a hundred.
  const auto& xsimd = cards[6];
  const double lines = xsimd["source_lines"].get<double>() + xsimd["shared_lines"].get<double>();
  EXPECT_DOUBLE_EQ(xsimd["engineer_days"]["adoption"].get<double>(), 3 + 3 * 0.25 + 0.5 + lines * 0.25 / 100);
  EXPECT_DOUBLE_EQ(xsimd["engineer_days"]["upkeep_per_year"].get<double>(), 0.5 + lines * 0.25 / 100);
  double parts = 0;
  for (const auto& part : xsimd["engineer_days"]["adoption_parts"]) parts += part["days"].get<double>();
  EXPECT_DOUBLE_EQ(parts, xsimd["engineer_days"]["adoption"].get<double>());
}

TEST(CommandLine, EvalJsonHasTheResultAndBothErrors) {
  const Outcome eval = run("eval --tier compensated --integrand pi --a -1 --b 2 --n 2^10 --json");
  ASSERT_EQ(eval.exit_code, 0) << eval.output;
  const auto out = nlohmann::json::parse(eval.output);
  for (const char* key : {"tier", "integrand", "a", "b", "n", "threads", "result", "exact", "rel_error",
                          "rounding_error", "seconds"})
    EXPECT_TRUE(out.contains(key)) << key;
  EXPECT_EQ(out["tier"], "compensated");
  EXPECT_EQ(out["integrand"], "pi");
  EXPECT_EQ(out["n"], 1024);
  EXPECT_EQ(out["a"], -1.0);
  EXPECT_NEAR(out["exact"].get<double>(), 4 * (std::atan(2.0) + std::atan(1.0)), 1e-15);
  EXPECT_NEAR(out["result"].get<double>(), out["exact"].get<double>(), 1e-5);
  EXPECT_LT(std::fabs(out["rounding_error"].get<double>()), 1e-15);
  EXPECT_TRUE(out["within_bound"].get<bool>());
}

// The printed result is the double the tier returned, to the last bit: 17 significant digits read back
// give the same double as the JSON output (nlohmann writes the shortest text that round-trips). 12 digits
// would not: the test first checks that this result needs more than 12.
TEST(CommandLine, EvalTextPrintsSeventeenDigits) {
  const Outcome json_eval = run("eval --tier xsimd --n 1e6 --json");
  ASSERT_EQ(json_eval.exit_code, 0) << json_eval.output;
  const double result = nlohmann::json::parse(json_eval.output).at("result").get<double>();
  char twelve[32];
  std::snprintf(twelve, sizeof twelve, "%.12g", result);
  ASSERT_NE(std::strtod(twelve, nullptr), result) << "a result 12 digits hold cannot tell 12 from 17";

  const Outcome eval = run("eval --tier xsimd --n 1e6");
  ASSERT_EQ(eval.exit_code, 0) << eval.output;
  const std::string label = "result          ";
  const auto at = eval.output.find("\n" + label);
  ASSERT_NE(at, std::string::npos) << eval.output;
  const auto start = at + 1 + label.size();
  const std::string printed = eval.output.substr(start, eval.output.find('\n', start) - start);
  EXPECT_EQ(std::strtod(printed.c_str(), nullptr), result) << printed << " is not the tier's result";
  char seventeen[32];
  std::snprintf(seventeen, sizeof seventeen, "%.17g", result);
  EXPECT_EQ(printed, seventeen) << "17 significant digits";
  EXPECT_NE(eval.output.find("relative error"), std::string::npos);
  EXPECT_NE(eval.output.find("rounding error"), std::string::npos);
  EXPECT_NE(eval.output.find("within"), std::string::npos);
  EXPECT_NE(eval.output.find("SIMD "), std::string::npos) << "the instruction set is shown beside the result";
}

// `--threads smt` and `cores` as `ladder run` reads them: every hardware thread, every core, for a parallel
// tier; 1 for a serial one. `all`, run's list from 1 up, is no one count: eval refuses it, naming both.
TEST(CommandLine, EvalThreadsWordsMeanWhatRunsDoAndAllIsRefused) {
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  const Outcome parallel = run("eval --tier openmp --n 1e5 --threads smt --json");
  ASSERT_EQ(parallel.exit_code, 0) << parallel.output;
  EXPECT_EQ(nlohmann::json::parse(parallel.output).at("threads").get<unsigned>(), hardware);
  const Outcome cores = run("eval --tier tbb --n 1e5 --threads cores --json");
  ASSERT_EQ(cores.exit_code, 0) << cores.output;
  const auto core_count = nlohmann::json::parse(cores.output).at("threads").get<unsigned>();
  EXPECT_GE(core_count, 1u);
  EXPECT_LE(core_count, hardware);
  const Outcome serial = run("eval --tier naive --n 1e5 --threads smt --json");
  ASSERT_EQ(serial.exit_code, 0) << serial.output;
  EXPECT_EQ(nlohmann::json::parse(serial.output).at("threads"), 1);
  const Outcome all = run("eval --tier tbb --n 1e5 --threads all");
  EXPECT_EQ(all.exit_code, 2) << all.output;
  EXPECT_NE(all.output.find("--threads all is `ladder run`'s list"), std::string::npos) << all.output;
  EXPECT_NE(all.output.find("cores (every core) or smt (every hardware thread)"), std::string::npos)
      << all.output;
}

TEST(CommandLine, ZeroExactIntegralSaysRelativeErrorIsUndefined) {
  const Outcome eval = run("eval --tier inlined --integrand sin --a -1 --b 1 --n 1000 --json");
  ASSERT_EQ(eval.exit_code, 0) << eval.output;
  EXPECT_TRUE(nlohmann::json::parse(eval.output)["rel_error"].is_null());
}

struct BadInput {
  const char* arguments;
  const char* message;  // must appear in the output
};

TEST(CommandLine, BadInputExitsWithTwoAndNamesTheValue) {
  const BadInput cases[] = {
      {"eval --tier naive --n 0", "n = '0' is less than 1"},
      {"eval --tier naive --n 1.5", "n = '1.5' is not a whole number"},
      {"eval --tier naive --n lots", "n = 'lots' is not a number"},
      {"eval --tier naive --n 2^63", "n = '2^63' is larger than 2^62"},
      {"eval --tier naive --a nan", "a = 'nan' is not a finite number"},
      {"eval --tier naive --b inf", "b = 'inf' is not a finite number"},
      {"eval --tier tbb --threads 0", "threads = '0' is invalid; threads is a whole number from 1 to 1024"},
      {"eval --tier naive --threads 2", "tier 'naive' is serial and runs on 1 thread only"},
      {"eval --tier warp-drive", "unknown tier 'warp-drive'; known tiers: naive, streaming"},
      {"eval --tier naive --integrand cosh",
       "unknown integrand 'cosh'; known integrands: gauss, pi, sin, poly"},
      {"eval --tier openmp --reproducible", "tier 'openmp' cannot give the same bits at every thread count"},
      {"eval --tier naive --bogus", "--bogus"},
      {"eval", "--tier is required"},
      {"", "A subcommand is required"},
  };
  for (const auto& bad : cases) {
    const Outcome outcome = run(bad.arguments);
    EXPECT_EQ(outcome.exit_code, 2) << bad.arguments << "\n" << outcome.output;
    EXPECT_NE(outcome.output.find(bad.message), std::string::npos) << bad.arguments << "\n" << outcome.output;
  }
}

TEST(CommandLine, HelpExitsWithZero) {
  const Outcome help = run("eval --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.output.find("--integrand"), std::string::npos);
}

// `ladder --version`: the version, the commit (as the build read it) and the compiler and target, exit 0.
TEST(CommandLine, VersionNamesTheCommitAndTheCompiler) {
  const Outcome version = run("--version");
  EXPECT_EQ(version.exit_code, 0) << version.output;
  const std::string commit = source_state().git_commit.substr(0, 7);
  EXPECT_NE(version.output.find("ladder " + build_info().ladder_version + " (commit " + commit),
            std::string::npos)
      << version.output;
  EXPECT_NE(version.output.find("built with " + build_info().compiler), std::string::npos) << version.output;
  EXPECT_NE(version.output.find("-march=" + build_info().target), std::string::npos) << version.output;
  EXPECT_EQ(version.output.find('\n'), version.output.size() - 1) << "one line";
}

}  // namespace
}  // namespace ladder
