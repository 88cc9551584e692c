// The mpi tier under its launcher, as users run it: `ladder eval --ranks` and `ladder run --ranks`.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "command.hpp"
#include "registry.hpp"

namespace ladder::testing {
namespace {

using nlohmann::json;

json eval_json(const std::string& arguments) {
  const Outcome outcome = run_command(LADDER_BINARY, "eval --json " + arguments);
  EXPECT_EQ(outcome.exit_code, 0) << arguments << "\n" << outcome.output;
  const auto start = outcome.output.find('{');
  return start == std::string::npos ? json::object() : json::parse(outcome.output.substr(start));
}

// n = 1000003 is prime: no rank count divides it, so the shares are uneven and the remainder path runs.
TEST(MpiTier, AgreesWithXsimdWithinRoundingForOneTwoAndThreeRanksOnEveryIntegrand) {
  for (const auto& integrand : integrands()) {
    for (const char* interval : {"--a 0 --b 1", "--a -2 --b 3"}) {
      const std::string common = "--integrand " + integrand.name + " " + interval + " --n 1000003";
      const json xsimd = eval_json("--tier xsimd " + common);
      for (const int ranks : {1, 2, 3}) {
        SCOPED_TRACE(integrand.name + " " + interval + ", ranks = " + std::to_string(ranks));
        const json mpi = eval_json("--tier mpi --ranks " + std::to_string(ranks) + " " + common);
        ASSERT_TRUE(mpi.contains("result")) << mpi.dump();
        EXPECT_TRUE(mpi.at("within_bound").get<bool>()) << mpi.dump();
        EXPECT_EQ(mpi.at("ranks"), ranks);
        const double gap = std::fabs(mpi.at("result").get<double>() - xsimd.at("result").get<double>());
        EXPECT_LE(gap, mpi.at("rounding_bound").get<double>() + xsimd.at("rounding_bound").get<double>());
      }
    }
  }
}

TEST(MpiTier, TheMatrixRunsRanksAsADimensionEvenAsRoot) {
  std::string pattern = (std::filesystem::temp_directory_path() / "ladder-mpi-XXXXXX").string();
  const std::filesystem::path dir = mkdtemp(pattern.data());
  const Outcome outcome = run_command(LADDER_BINARY,
                                      "run --tiers mpi --ranks 1,2 --threads 1 --n 1e5 --reps 2 "
                                      "--min-time 0.005 --out " +
                                          (dir / "out").string());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  std::ifstream file(dir / "out/results.json");
  const json results = json::parse(file);
  std::set<int> ranks;
  for (const auto& entry : results.at("benchmarks")) {
    if (entry.value("aggregate_name", "") != "median") continue;
    EXPECT_EQ(entry.at("status"), "ok") << entry.dump();
    EXPECT_TRUE(entry.at("within_rounding_bound").get<bool>()) << entry.dump();
    ranks.insert(entry.at("ranks").get<int>());
    const std::string launcher = entry.at("launcher");
    EXPECT_NE(launcher.find("-np " + std::to_string(entry.at("ranks").get<int>())), std::string::npos)
        << launcher;
    if (geteuid() == 0) {
      EXPECT_NE(launcher.find("--allow-run-as-root"), std::string::npos) << launcher;
    }
  }
  EXPECT_EQ(ranks, (std::set<int>{1, 2}));
  std::filesystem::remove_all(dir);
}

TEST(MpiTier, WithoutALauncherItIsUnavailableAndRunsSkipItsCells) {
  const std::string missing = "LADDER_MPIRUN=/nonexistent/mpirun ";
  const Outcome list = run_command(missing + LADDER_BINARY, "list");
  EXPECT_NE(list.output.find("[unavailable: no MPI launcher at '/nonexistent/mpirun'"), std::string::npos)
      << list.output;
  const Outcome eval = run_command(missing + LADDER_BINARY, "eval --tier mpi --ranks 2 --n 1e4");
  EXPECT_EQ(eval.exit_code, 3) << eval.output;
  EXPECT_NE(eval.output.find("cannot run on this machine: no MPI launcher"), std::string::npos)
      << eval.output;

  std::string pattern = (std::filesystem::temp_directory_path() / "ladder-mpi-XXXXXX").string();
  const std::filesystem::path dir = mkdtemp(pattern.data());
  const Outcome run = run_command(missing + LADDER_BINARY,
                                  "run --tiers mpi,xsimd --n 1e4 --reps 2 --min-time "
                                  "0.005 --out " +
                                      (dir / "out").string());
  EXPECT_EQ(run.exit_code, 0) << "an unavailable tier is not a failed run\n" << run.output;
  std::ifstream file(dir / "out/results.json");
  const json results = json::parse(file);
  int unavailable = 0, ok = 0;
  for (const auto& entry : results.at("benchmarks")) {
    if (entry.at("tier") == "mpi") {
      EXPECT_EQ(entry.at("status"), "unavailable");
      EXPECT_NE(entry.at("reason").get<std::string>().find("no MPI launcher"), std::string::npos);
      ++unavailable;
    }
    if (entry.at("tier") == "xsimd" && entry.value("aggregate_name", "") == "median")
      ok += entry.at("status") == "ok";
  }
  EXPECT_GE(unavailable, 1);
  EXPECT_EQ(ok, 1);
  std::filesystem::remove_all(dir);
}

TEST(MpiTier, RanksAreForDistributedTiersOnly) {
  const Outcome outcome = run_command(LADDER_BINARY, "eval --tier xsimd --ranks 2 --n 1e4");
  EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
  EXPECT_NE(outcome.output.find("tier 'xsimd' is not distributed"), std::string::npos) << outcome.output;
  const Outcome zero = run_command(LADDER_BINARY, "run --tiers mpi --ranks 0 --n 1e4");
  EXPECT_EQ(zero.exit_code, 2) << zero.output;
  EXPECT_NE(zero.output.find("ranks = '0' is invalid"), std::string::npos) << zero.output;
}

}  // namespace
}  // namespace ladder::testing
