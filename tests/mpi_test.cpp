// The mpi tier under its launcher, as users run it: `ladder eval --ranks` and `ladder run --ranks`.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "command.hpp"
#include "registry.hpp"
#include "test_support.hpp"

namespace ladder::testing {
namespace {

using nlohmann::json;

json eval_json(const std::string& arguments) {
  const Outcome outcome = run_command(LADDER_BINARY, "eval --json " + arguments);
  EXPECT_EQ(outcome.exit_code, 0) << arguments << "\n" << outcome.output;
  const auto start = outcome.output.find('{');
  return start == std::string::npos ? json::object() : json::parse(outcome.output.substr(start));
}

// Against the test's own oracle: the exact midpoint sum, computed here in long double from the integrand
// (harness/worker/reference.cpp, which no tier's code enters), and the bound for the depth the tests pin for
// mpi (test_support.hpp), not the within_bound the binary under test reports. n = 1000003 is prime: no rank
// count divides it, so the shares are uneven and the remainder path runs.
TEST(MpiTier, AgreesWithTheExactMidpointSumForOneTwoAndThreeRanksOnEveryIntegrand) {
  const Tier& mpi = find_tier("mpi");
  const std::int64_t n = 1000003;
  const std::pair<Interval, std::string> intervals[] = {{{0.0, 1.0}, "--a 0 --b 1"},
                                                        {{-2.0, 3.0}, "--a -2 --b 3"}};
  for (std::size_t integrand = 0; integrand < integrands().size(); ++integrand) {
    // An integrand that does not work on batches is refused, with the reason (tests/cards_test.cpp).
    if (!unsupported_reason(mpi, integrand).empty()) continue;
    for (const auto& [ab, interval] : intervals) {
      // The user integrands go through the same block kernel as the built-ins: one interval each keeps the
      // number of mpirun launches down.
      if (integrands()[integrand].source != "built-in" && ab.a != 0.0) continue;
      const Reference& ref = cached_reference(integrand, ab, n);
      for (const auto& [ranks, threads] :
           {std::pair{1, 1}, std::pair{2, 1}, std::pair{3, 1}, std::pair{2, 2}}) {
        SCOPED_TRACE(integrands()[integrand].name + " " + interval + ", ranks = " + std::to_string(ranks) +
                     ", threads = " + std::to_string(threads));
        const json result = eval_json("--tier mpi --integrand " + integrands()[integrand].name + " " +
                                      interval + " --n " + std::to_string(n) + " --ranks " +
                                      std::to_string(ranks) + " --threads " + std::to_string(threads));
        ASSERT_TRUE(result.contains("result")) << result.dump();
        EXPECT_EQ(result.at("ranks"), ranks);
        EXPECT_LE(std::fabs(result.at("result").get<double>() - ref.midpoint),
                  pinned_rounding_bound(mpi, ref, n, threads))
            << "result " << result.at("result").get<double>() << ", exact midpoint sum "
            << static_cast<double>(ref.midpoint);
      }
    }
  }
}

// The ranks' partial sums meet in MPI_Reduce with a compensated operation. Here is a case where that
// matters: three ranks, one node each, on an interval chosen so that every rank's partial sum is exact and
// the plain sum of the three is not. Step 131072.5, nodes −131072, ½ and 131073, poly = x³ − 2x² + 3x + 1:
// the partials are −2251834173816831, 17/8 and 2251816993816579 (integers between 2^51 and 2^52, where a
// double's spacing is ½, and 2.125), all exact. Added plainly, in rank order or the other grouping, the
// first addition rounds 2.125 to 2 (or the second's to 2.5) and the cancellation that follows keeps the
// lost ⅛; compensated, the result is the exact sum times the step, rounded once.
TEST(MpiTier, RanksPartialSumsAreAddedWithCompensationWhereAPlainSumLosesBits) {
  const double a = -196608.25, b = 196609.25, step = 131072.5;
  ASSERT_EQ((b - a) / 3, step);
  const Poly poly;
  long double exact_sum = 0;
  double partials[3];
  for (int rank = 0; rank < 3; ++rank) {
    const long double x = a + (rank + 0.5L) * step;
    partials[rank] = poly(std::fma(rank + 0.5, step, a));  // what rank `rank`'s one node gives
    ASSERT_EQ(partials[rank], ((x - 2) * x + 3) * x + 1) << "rank " << rank << "'s partial is not exact";
    exact_sum += partials[rank];  // exact: 54 significant bits at most, in long double's 64
  }
  const double expected = static_cast<double>(exact_sum) * step;  // the sum itself fits a double exactly
  // The case bites: a plain sum of these partials, in either grouping, is off.
  const double rank_order = (partials[0] + partials[1]) + partials[2];
  const double other_grouping = partials[0] + (partials[1] + partials[2]);
  ASSERT_NE(rank_order, exact_sum);
  ASSERT_NE(other_grouping, exact_sum);
  ASSERT_NE(rank_order * step, expected);
  ASSERT_NE(other_grouping * step, expected);

  const json mpi =
      eval_json("--tier mpi --integrand poly --a -196608.25 --b 196609.25 --n 3 --ranks 3 --threads 1");
  ASSERT_TRUE(mpi.contains("result")) << mpi.dump();
  EXPECT_EQ(mpi.at("ranks"), 3);
  EXPECT_EQ(mpi.at("result").get<double>(), expected)
      << "expected " << expected << " (the exact sum of the partials times the step); a plain sum of the "
      << "partials gives " << rank_order * step << " or " << other_grouping * step;
}

TEST(MpiTier, TheMatrixRunsRanksAsADimensionEvenAsRoot) {
  std::string pattern = (std::filesystem::temp_directory_path() / "ladder-mpi-XXXXXX").string();
  const std::filesystem::path dir = mkdtemp(pattern.data());
  const Outcome outcome = run_command(LADDER_BINARY,
                                      "run --no-limits --tiers mpi --ranks 1,2 --threads 1 --n 1e5 --reps 2 "
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
                                  "run --no-limits --tiers mpi,xsimd --n 1e4 --reps 2 --min-time "
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

// Open MPI 4.1 makes one /tmp/ompi.HOST.UID for every job of a user and removes it when a job ends: two
// jobs starting and ending at once race on it ("A call to mkdir was unable to create the desired
// directory", open-mpi/ompi#8510), as ctest's parallel tests once did. Each job gets a session directory
// of its own under $TMPDIR, which the launcher really receives (a launcher that records its environment
// shows it), and nothing is left behind, by the ranks' launch or by a one-rank singleton.
TEST(MpiTier, EachJobHasASessionDirectoryOfItsOwnAndLeavesNothingBehind) {
  TempDir tmp;
  const std::filesystem::path spy = tmp / "mpirun-spy", seen = tmp / "seen";
  {
    std::ofstream script(spy);
    script << "#!/bin/sh\necho \"$OMPI_MCA_orte_tmpdir_base\" > '" << seen.string()
           << "'\n[ -d \"$OMPI_MCA_orte_tmpdir_base\" ] && echo exists >> '" << seen.string() << "'\nexec '"
           << LADDER_MPIEXEC << "' \"$@\"\n";
  }
  std::filesystem::permissions(spy, std::filesystem::perms::owner_all);
  const std::string environment =
      "env -u OMPI_MCA_orte_tmpdir_base TMPDIR=" + tmp.str() + " LADDER_MPIRUN=" + spy.string() + " ";
  const Outcome ranks = run_command(environment + LADDER_BINARY, "eval --tier mpi --ranks 2 --n 1e4");
  ASSERT_EQ(ranks.exit_code, 0) << ranks.output;
  const std::string recorded = read_text(seen);
  EXPECT_EQ(recorded.rfind((tmp / "ladder-mpi.").string(), 0), 0u) << recorded;
  EXPECT_NE(recorded.find("\nexists\n"), std::string::npos) << recorded;
  std::filesystem::remove(seen);

  // A test calling the tier in its own process is a one-rank singleton: here, a child of this process
  // (under ctest each test has a process of its own, so MPI has not started in this one).
  const pid_t child = fork();
  if (child == 0) {
    setenv("TMPDIR", tmp.str().c_str(), 1);
    unsetenv("OMPI_MCA_orte_tmpdir_base");
    const double result = integrate(find_tier("mpi"), 0, {0.0, 1.0}, 10000, RunOptions{1, false});
    std::exit(std::getenv("OMPI_MCA_orte_tmpdir_base") && std::isfinite(result) ? 0 : 1);
  }
  int status = -1;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the singleton ended with status " << status;
  std::vector<std::string> left;
  for (const auto& entry : std::filesystem::directory_iterator(tmp.str()))
    if (entry.path() != spy) left.push_back(entry.path().filename().string());
  EXPECT_TRUE(left.empty()) << "left behind in $TMPDIR: " << ::testing::PrintToString(left);
}

// hwloc's GL component, loaded by mpirun's topology discovery, opens X displays over TCP to "localhost": with
// no /etc/hosts each lookup waits on a DNS server (5.1 s in 2 launches of 3 in a bare Debian chroot). The
// launcher and a singleton get HWLOC_COMPONENTS=-gl; a user's own setting is kept.
TEST(MpiTier, TheLauncherSkipsHwlocsDisplayDiscoveryUnlessTheUserChoseComponents) {
  TempDir tmp;
  const std::filesystem::path spy = tmp / "mpirun-spy", seen = tmp / "seen";
  {
    std::ofstream script(spy);
    script << "#!/bin/sh\necho \"[$HWLOC_COMPONENTS]\" > '" << seen.string() << "'\nexec '" << LADDER_MPIEXEC
           << "' \"$@\"\n";
  }
  std::filesystem::permissions(spy, std::filesystem::perms::owner_all);
  const std::string launch = " LADDER_MPIRUN=" + spy.string() + " " + LADDER_BINARY;
  const Outcome unset = run_command("env -u HWLOC_COMPONENTS" + launch, "eval --tier mpi --ranks 2 --n 1e4");
  ASSERT_EQ(unset.exit_code, 0) << unset.output;
  EXPECT_EQ(read_text(seen), "[-gl]\n");
  const Outcome chosen =
      run_command("env HWLOC_COMPONENTS=-opencl" + launch, "eval --tier mpi --ranks 2 --n 1e4");
  ASSERT_EQ(chosen.exit_code, 0) << chosen.output;
  EXPECT_EQ(read_text(seen), "[-opencl]\n");

  const pid_t child = fork();  // a singleton: MPI has not started in this test's own process
  if (child == 0) {
    unsetenv("HWLOC_COMPONENTS");
    const double result = integrate(find_tier("mpi"), 0, {0.0, 1.0}, 10000, RunOptions{1, false});
    const char* components = std::getenv("HWLOC_COMPONENTS");
    std::exit(components && std::string(components) == "-gl" && std::isfinite(result) ? 0 : 1);
  }
  int status = -1;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the singleton ended with status " << status;
}

TEST(MpiTier, RanksAreForDistributedTiersOnly) {
  const Outcome outcome = run_command(LADDER_BINARY, "eval --tier xsimd --ranks 2 --n 1e4");
  EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
  EXPECT_NE(outcome.output.find("tier 'xsimd' is not distributed"), std::string::npos) << outcome.output;
  const Outcome zero = run_command(LADDER_BINARY, "run --no-limits --tiers mpi --ranks 0 --n 1e4");
  EXPECT_EQ(zero.exit_code, 2) << zero.output;
  EXPECT_NE(zero.output.find("ranks = '0' is invalid"), std::string::npos) << zero.output;
}

}  // namespace
}  // namespace ladder::testing
