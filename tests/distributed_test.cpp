// The launch command the harness builds for a distributed tier (harness/worker/distributed.cpp): how ranks
// are mapped and bound on one machine, oversubscribed past its CPUs, and on a cluster's hostfile; then the
// same seen from `ladder run`: --hostfile reaching the launcher, and an oversubscribed cell's mark in the
// results and the report.
#include "distributed.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "command.hpp"
#include "registry.hpp"

namespace ladder {
namespace {

using testing::read_json;
using testing::read_text;
using testing::run_command;
using testing::TempDir;
using testing::write_text;
using Command = std::vector<std::string>;

// LADDER_MPIRUN names the launcher; it is passed on to the ranks (-x), as OMP_PROC_BIND and OMP_PLACES are.
class LaunchCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("LADDER_MPIRUN", "/opt/fake/mpirun", 1);
    unsetenv("OMPI_MCA_pml");
    unsetenv("OMP_PROC_BIND");
    unsetenv("OMP_PLACES");
  }
  void TearDown() override { unsetenv("LADDER_MPIRUN"); }

  // What every command holds: the launcher, the rank count, (as root) Open MPI's permission, then
  // `placement`, then on one node the shared-memory messaging, then the launcher passed on to the ranks.
  static Command expected(int ranks, const Command& placement, bool one_node = true) {
    Command command = {"/opt/fake/mpirun", "-np", std::to_string(ranks)};
    if (geteuid() == 0) command.push_back("--allow-run-as-root");
    command.insert(command.end(), placement.begin(), placement.end());
    if (one_node) command.insert(command.end(), {"--mca", "pml", "ob1"});
    command.insert(command.end(), {"-x", "LADDER_MPIRUN"});
    return command;
  }
};

TEST_F(LaunchCommand, WithinTheCpusEachRankIsBoundToItsOwnThreadsCores) {
  EXPECT_EQ(distributed::launch_command(2, 2, 4),
            expected(2, {"--map-by", "slot:PE=2", "--bind-to", "core"}));
  EXPECT_EQ(distributed::launch_command(4, 1, 4),
            expected(4, {"--map-by", "slot:PE=1", "--bind-to", "core"}));
}

// Open MPI counts PE= in cores: on an SMT machine, 1 rank of all its hardware threads would find "no
// available cpus" unless told to count hardware threads.
TEST_F(LaunchCommand, PastThePhysicalCoresEachRankIsBoundToHardwareThreads) {
  EXPECT_EQ(distributed::launch_command(1, 4, 4, {}, 2),
            expected(1, {"--use-hwthread-cpus", "--map-by", "slot:PE=4", "--bind-to", "hwthread"}));
  EXPECT_EQ(distributed::launch_command(2, 1, 4, {}, 2),
            expected(2, {"--map-by", "slot:PE=1", "--bind-to", "core"}));  // within the cores: cores
  EXPECT_EQ(distributed::launch_command(3, 2, 4, {}, 2),
            expected(3, {"--oversubscribe", "--bind-to", "none"}));
}

TEST_F(LaunchCommand, PastTheCpusRanksAreOversubscribedAndUnbound) {
  EXPECT_FALSE(distributed::oversubscribed(2, 2, 4));  // exactly the CPUs: not oversubscribed
  EXPECT_TRUE(distributed::oversubscribed(3, 2, 4));
  EXPECT_TRUE(distributed::oversubscribed(5, 1, 4));
  EXPECT_EQ(distributed::launch_command(3, 2, 4), expected(3, {"--oversubscribe", "--bind-to", "none"}));
}

TEST_F(LaunchCommand, HostfileMapsOneRankPerNodeBoundToItsThreads) {
  // On a cluster the local CPU count does not matter: 4 ranks of 8 threads on a 2-CPU login node are
  // one rank on each of 4 nodes, not oversubscribed.
  EXPECT_EQ(distributed::launch_command(4, 8, 2, "/home/me/hosts"),
            expected(4, {"--hostfile", "/home/me/hosts", "--map-by", "ppr:1:node:PE=8", "--bind-to", "core"},
                     false));
}

// One node's ranks message through shared memory (ob1), not UCX, whose probing cost 0.3 s a launch; a
// user's own choice is the launcher's to read.
TEST_F(LaunchCommand, OneNodesRanksUseSharedMemoryMessagingUnlessTheUserChoseTheirOwn) {
  const Command placement = {"--map-by", "slot:PE=1", "--bind-to", "core"};
  EXPECT_EQ(distributed::launch_command(2, 1, 4), expected(2, placement));
  setenv("OMPI_MCA_pml", "ucx", 1);
  const Command own = distributed::launch_command(2, 1, 4);
  unsetenv("OMPI_MCA_pml");
  EXPECT_EQ(own, expected(2, placement, false));
}

TEST_F(LaunchCommand, OpenMpBindingIsPassedOnToTheRanks) {
  setenv("OMP_PROC_BIND", "close", 1);
  setenv("OMP_PLACES", "cores", 1);
  const Command command = distributed::launch_command(1, 1, 4);
  unsetenv("OMP_PROC_BIND");
  unsetenv("OMP_PLACES");
  EXPECT_EQ(command, expected(1,
                              {"--map-by", "slot:PE=1", "--bind-to", "core", "--mca", "pml", "ob1", "-x",
                               "OMP_PROC_BIND", "-x", "OMP_PLACES"},
                              false));
}

// `ladder run --hostfile`: a fake launcher records the command it was given and fails, as it would on a
// machine that is not the cluster; the cell is recorded failed, with the launcher's exit as its reason.
TEST(RunWithHostfile, TheHostfileAndOneRankPerNodeReachTheLauncher) {
  TempDir dir;
  const std::string launcher = dir / "mpirun", arguments = dir / "arguments", hosts = dir / "hosts";
  write_text(launcher, "#!/bin/sh\necho \"$@\" > '" + arguments + "'\nexit 1\n");
  write_text(hosts, "node1 slots=4\nnode2 slots=4\n");
  ASSERT_EQ(chmod(launcher.c_str(), 0755), 0);
  const auto run =
      run_command("LADDER_MPIRUN=" + launcher + " " + LADDER_BINARY,
                  "run --no-limits --tiers mpi --ranks 2 --threads 3 --n 1e4 --reps 1 --min-time 0.001 "
                  "--no-instructions --hostfile " +
                      hosts + " --out " + dir.str() + "/out");
  const std::string given = read_text(arguments);
  EXPECT_NE(given.find("-np 2 "), std::string::npos) << given << run.output;
  EXPECT_NE(given.find("--hostfile " + hosts + " --map-by ppr:1:node:PE=3 --bind-to core"), std::string::npos)
      << given;
  EXPECT_EQ(given.find("--oversubscribe"), std::string::npos) << given;
  const auto results = read_json(dir / "out/results.json");
  EXPECT_EQ(results.at("context").at("run").at("hostfile"), hosts) << results.at("context").dump();
  ASSERT_EQ(results.at("benchmarks").size(), 1u) << results.at("benchmarks").dump();
  const auto& entry = results.at("benchmarks").at(0);
  EXPECT_EQ(entry.at("status"), "failed") << entry.dump();
  EXPECT_EQ(entry.at("reason"), "the worker exited with code 1 and no result") << entry.dump();
}

// More ranks than the machine has CPUs: the cell runs (oversubscribed, unbound), and says so in the
// results, in the run's warnings and beside its numbers in the report.
TEST(RunOversubscribed, TheCellIsMarkedInResultsWarningsAndReport) {
  if (const std::string why = unavailable_reason(find_tier("mpi")); !why.empty()) GTEST_SKIP() << why;
  TempDir dir;
  const int ranks = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)) + 1;
  const auto run = run_command(LADDER_BINARY, "run --no-limits --tiers mpi --ranks " + std::to_string(ranks) +
                                                  " --threads 1 --n 1e4 --reps 1 --min-time 0.001 "
                                                  "--no-instructions --out " +
                                                  dir.str() + "/out");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto results = read_json(dir / "out/results.json");
  int marked = 0;
  for (const auto& entry : results.at("benchmarks")) {
    EXPECT_EQ(entry.at("ranks"), ranks);
    EXPECT_EQ(entry.at("oversubscribed"), true) << entry.dump();
    EXPECT_NE(entry.at("launcher").get<std::string>().find("--oversubscribe --bind-to none"),
              std::string::npos);
    ++marked;
  }
  EXPECT_GT(marked, 0);
  std::vector<std::string> warned;
  for (const auto& warning : results.at("context").at("warnings"))
    if (warning.at("kind") == "threads over cores")
      warned = warning.at("cells").get<std::vector<std::string>>();
  EXPECT_EQ(warned.size(), 1u) << results.at("context").at("warnings").dump();
  const auto report =
      run_command(LADDER_BINARY, "report " + dir.str() + "/out --out " + dir.str() + "/report");
  ASSERT_EQ(report.exit_code, 0) << report.output;
  const std::string markdown = read_text(dir / "report/report.md");
  EXPECT_NE(markdown.find("(oversubscribed)"), std::string::npos) << markdown;
}

}  // namespace
}  // namespace ladder
