// The machine's shape through hwloc, on machines this one is not (tests/topology_fixtures.hpp): the counts
// and the one-line description, the default thread ladder with its reasons, the compact placement of every
// thread count, the --threads forms, and what is refused (an unreadable topology, a damaged one in a
// results file, too many threads, a run on a machine that is only described).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "command.hpp"
#include "errors.hpp"
#include "json_reader.hpp"
#include "machine_topology.hpp"
#include "peers.hpp"
#include "registry.hpp"
#include "run_request.hpp"
#include "test_support.hpp"
#include "thread_binding.hpp"
#include "topology_fixtures.hpp"

namespace ladder::testing {
namespace {

using nlohmann::json;

std::vector<int> counts_of(const std::vector<ThreadStep>& ladder) {
  std::vector<int> counts;
  for (const auto& step : ladder) counts.push_back(step.threads);
  return counts;
}

std::vector<std::string> reasons_at(const std::vector<ThreadStep>& ladder, int threads) {
  for (const auto& step : ladder)
    if (step.threads == threads) return step.reasons;
  return {};
}

// What hwloc reads of each fixture: the counts and the report's one line.
struct Shape {
  const TopologyFixture& fixture;
  int packages, numa_nodes, l3_groups, cores, hardware_threads;
  std::string line;
};

const std::vector<Shape> shapes{
    {one_core, 1, 1, 0, 1, 1, "1 socket, 1 core, 1 NUMA node, no L3 reported"},
    {two_cores, 1, 1, 0, 2, 2, "1 socket, 2 cores, 1 NUMA node, no L3 reported"},
    {twelve_cores, 1, 1, 0, 12, 12, "1 socket, 12 cores, 1 NUMA node, no L3 reported"},
    {sixteen_cores, 1, 1, 0, 16, 16, "1 socket, 16 cores, 1 NUMA node, no L3 reported"},
    {two_sockets, 2, 2, 8, 64, 128, "2 sockets × 32 cores × 2 threads, 2 NUMA nodes, 8 L3 groups"},
    {amd_like, 1, 4, 12, 96, 192, "1 socket, 96 cores × 2 threads, 4 NUMA nodes, 12 L3 groups"},
};

TEST(TopologyFromHwloc, EachFixtureHasItsCountsAndItsLine) {
  for (const auto& shape : shapes) {
    const Topology topology = read_fixture(shape.fixture);
    SCOPED_TRACE(shape.fixture.name);
    EXPECT_TRUE(topology.synthetic);
    EXPECT_EQ(topology.source, std::string("HWLOC_SYNTHETIC=") + shape.fixture.synthetic);
    EXPECT_EQ(topology.packages, shape.packages);
    EXPECT_EQ(topology.numa_nodes, shape.numa_nodes);
    EXPECT_EQ(topology.l3_groups, shape.l3_groups);
    EXPECT_EQ(topology.cores, shape.cores);
    EXPECT_EQ(topology.hardware_threads(), shape.hardware_threads);
    EXPECT_EQ(topology.describe(), shape.line);
  }
}

// The results file carries the topology: what is read back is what was written.
TEST(TopologyFromHwloc, TheResultsFilesCopyReadsBackTheSame) {
  const Topology topology = read_fixture(two_sockets);
  const json written = topology.to_json();
  const Topology read = Topology::from_json(JsonReader(written, "context.topology"));
  EXPECT_EQ(read.to_json(), written);
}

TEST(TheDefaultThreadLadder, TwoSocketsOf32CoresWithSmtGoFrom1To128) {
  const auto ladder = thread_ladder(read_fixture(two_sockets));
  EXPECT_EQ(counts_of(ladder), (std::vector<int>{1, 2, 4, 8, 16, 32, 64, 128}));
  EXPECT_EQ(reasons_at(ladder, 1), (std::vector<std::string>{"one thread"}));
  EXPECT_EQ(reasons_at(ladder, 8), (std::vector<std::string>{"a power of two", "the cores of one L3 group"}));
  EXPECT_EQ(reasons_at(ladder, 32), (std::vector<std::string>{"a power of two", "the cores of one NUMA node",
                                                              "the cores of one socket"}));
  EXPECT_EQ(reasons_at(ladder, 64), (std::vector<std::string>{"all physical cores"}));
  EXPECT_EQ(reasons_at(ladder, 128), (std::vector<std::string>{"all hardware threads (SMT siblings too)"}));
}

TEST(TheDefaultThreadLadder, TwelveCoresGo1248And12) {
  const auto ladder = thread_ladder(read_fixture(twelve_cores));
  EXPECT_EQ(counts_of(ladder), (std::vector<int>{1, 2, 4, 8, 12}));
  EXPECT_EQ(reasons_at(ladder, 4), (std::vector<std::string>{"a power of two"}));
  EXPECT_EQ(reasons_at(ladder, 12), (std::vector<std::string>{"all physical cores"}));
}

TEST(TheDefaultThreadLadder, ThisVmsShapeGives1And2AndOneCoreGives1) {
  const auto ladder = thread_ladder(read_fixture(two_cores));
  EXPECT_EQ(counts_of(ladder), (std::vector<int>{1, 2}));
  EXPECT_EQ(reasons_at(ladder, 2), (std::vector<std::string>{"all physical cores"}));
  EXPECT_EQ(counts_of(thread_ladder(read_fixture(one_core))), (std::vector<int>{1}));
}

TEST(TheDefaultThreadLadder, SixteenCoresAndTheAmdLikeMachine) {
  EXPECT_EQ(counts_of(thread_ladder(read_fixture(sixteen_cores))), (std::vector<int>{1, 2, 4, 8, 16}));
  const auto ladder = thread_ladder(read_fixture(amd_like));
  EXPECT_EQ(counts_of(ladder), (std::vector<int>{1, 2, 4, 8, 16, 24, 32, 64, 96, 192}));
  EXPECT_EQ(reasons_at(ladder, 24), (std::vector<std::string>{"the cores of one NUMA node"}));
}

// On the synthetic fixtures hwloc numbers the PUs in its logical order, a core's siblings side by side
// (core c holds PUs s·c … s·c + s − 1 with s threads a core). Compact placement then means: thread i < cores
// on the first PU of core i, thread cores + j on the second PU of core j. Checked for every thread count,
// with what each placement spans: the L3 groups, NUMA nodes and sockets fill one after another.
int ceil_div(int a, int b) { return (a + b - 1) / b; }

TEST(Placement, EveryThreadCountOfEveryFixtureIsCompact) {
  for (const auto& fixture : all_fixtures) {
    const Topology topology = read_fixture(fixture);
    const int cores = topology.cores, smt = topology.hardware_threads() / cores;
    for (int threads = 1; threads <= topology.hardware_threads(); ++threads) {
      std::vector<int> expected;
      for (int i = 0; i < threads; ++i) expected.push_back(i < cores ? smt * i : smt * (i - cores) + 1);
      const auto pus = placement(topology, threads);
      ASSERT_EQ(pus, expected) << fixture.name << ", " << threads << " threads";

      const Span spans = span(topology, pus);
      const int used = std::min(threads, cores);
      EXPECT_EQ(spans.cores, used) << fixture.name << ", " << threads;
      const int l3_groups = topology.l3_groups > 0 ? ceil_div(used, topology.cores_per_l3()) : 0;
      EXPECT_EQ(spans.l3_groups, l3_groups) << fixture.name << ", " << threads;
      EXPECT_EQ(spans.numa_nodes, ceil_div(used, topology.cores_per_numa()))
          << fixture.name << ", " << threads;
      EXPECT_EQ(spans.packages, ceil_div(used, topology.cores_per_package()))
          << fixture.name << ", " << threads;
      EXPECT_EQ(spans.shares_cores, threads > cores) << fixture.name << ", " << threads;
    }
  }
}

TEST(Placement, TheBoundariesOfTheTwoSocketMachine) {
  const Topology topology = read_fixture(two_sockets);
  const auto at = [&](int threads) { return span(topology, placement(topology, threads)); };
  EXPECT_EQ(at(8).l3_groups, 1);  // one L3 group's 8 cores
  EXPECT_EQ(at(9).l3_groups, 2);
  EXPECT_EQ(at(32).numa_nodes, 1);  // one NUMA node, one socket
  EXPECT_EQ(at(32).packages, 1);
  EXPECT_EQ(at(33).numa_nodes, 2);  // the 33rd thread crosses to the other socket's node
  EXPECT_EQ(at(33).packages, 2);
  EXPECT_FALSE(at(64).shares_cores);  // every core, no sibling yet
  EXPECT_TRUE(at(65).shares_cores);
}

TEST(Placement, OutsideOneToTheHardwareThreadsIsRefused) {
  const Topology topology = read_fixture(twelve_cores);
  EXPECT_THROW(placement(topology, 0), InputError);
  try {
    placement(topology, 13);
    ADD_FAILURE() << "13 threads placed on 12 hardware threads";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "13 threads cannot be placed on 12 hardware threads");
  }
}

// Placement by the kernel's CPU numbers, on a machine whose numbers are not 0 … N − 1 in hwloc's order:
// the sockets alternate and the SMT siblings are k and k + 8 (topology_fixtures.hpp). The first threads stay
// on socket 0 (CPUs 0, 2, 4, 6), not on CPUs 0 and 1 of two sockets, and not on CPU 0's sibling 8.
TEST(Placement, ByOsIndexOnAnXmlMachineNumberedAsLinuxDoes) {
  const ScopedVariable xml("HWLOC_XMLFILE", interleaved_xml());
  const Topology topology = read_topology();
  EXPECT_TRUE(topology.synthetic);
  EXPECT_EQ(topology.source, "HWLOC_XMLFILE=" + interleaved_xml());
  EXPECT_EQ(topology.describe(), "2 sockets × 4 cores × 2 threads, 2 NUMA nodes, 2 L3 groups");
  EXPECT_EQ(counts_of(thread_ladder(topology)), (std::vector<int>{1, 2, 4, 8, 16}));
  const std::vector<int> order{0, 2, 4, 6, 1, 3, 5, 7, 8, 10, 12, 14, 9, 11, 13, 15};
  for (int threads = 1; threads <= 16; ++threads)
    EXPECT_EQ(placement(topology, threads), std::vector<int>(order.begin(), order.begin() + threads))
        << threads << " threads";
  const Span four = span(topology, placement(topology, 4));
  EXPECT_EQ(four.packages, 1);
  EXPECT_EQ(four.numa_nodes, 1);
  EXPECT_EQ(span(topology, placement(topology, 5)).numa_nodes, 2);
  EXPECT_TRUE(span(topology, placement(topology, 9)).shares_cores);
}

// What read_topology() refuses while `variable` is `value`, or "accepted".
std::string refusal(const char* variable, const std::string& value) {
  const ScopedVariable set(variable, value);
  try {
    read_topology();
  } catch (const InputError& error) {
    return error.what();
  }
  return "accepted";
}

TEST(TopologyFromHwloc, AnUnreadableSyntheticOrXmlValueIsNamed) {
  const std::string synthetic = refusal("HWLOC_SYNTHETIC", "core:banana");
  EXPECT_NE(synthetic.find("HWLOC_SYNTHETIC='core:banana' is not a topology"), std::string::npos)
      << synthetic;
  const std::string xml = refusal("HWLOC_XMLFILE", "/nonexistent/machine.xml");
  EXPECT_NE(xml.find("HWLOC_XMLFILE='/nonexistent/machine.xml' is not a topology"), std::string::npos) << xml;
}

// A damaged topology in a results file: a SchemaError naming the field.
TEST(TopologyFromHwloc, ADamagedTopologyInJsonNamesTheField) {
  const json good = read_fixture(two_cores).to_json();
  const auto problem = [](const json& damaged) {
    try {
      Topology::from_json(JsonReader(damaged, "context.topology"));
    } catch (const SchemaError& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  json wrong_type = good;
  wrong_type["pus"][1]["numa"] = "zero";
  EXPECT_NE(problem(wrong_type).find("context.topology.pus[1].numa"), std::string::npos)
      << problem(wrong_type);
  json missing = good;
  missing.erase("cores");
  EXPECT_NE(problem(missing).find("context.topology has no 'cores'"), std::string::npos) << problem(missing);
  json empty = good;
  empty["pus"] = json::array();
  EXPECT_NE(problem(empty).find("context.topology.pus: expected at least one hardware thread"),
            std::string::npos)
      << problem(empty);
}

// --threads on a machine of 2 sockets × 32 cores × SMT2.
std::vector<int> threads_asked(const std::vector<std::string>& threads, const Topology& topology) {
  RunArguments arguments;
  arguments.threads = threads;
  return requested_matrix(parse_request(arguments), nullptr, topology).threads;
}

TEST(ThreadsOption, CoresSmtAllAndListsOnTheTwoSocketMachine) {
  const Topology topology = read_fixture(two_sockets);
  EXPECT_EQ(threads_asked({"cores"}, topology), (std::vector<int>{64}));
  EXPECT_EQ(threads_asked({"smt"}, topology), (std::vector<int>{128}));
  EXPECT_EQ(threads_asked({"3", "cores", "smt", "3"}, topology), (std::vector<int>{3, 64, 128}));
  const auto all = threads_asked({"all"}, topology);
  ASSERT_EQ(all.size(), 128u);
  EXPECT_EQ(all.front(), 1);
  EXPECT_EQ(all.back(), 128);
  EXPECT_EQ(requested_matrix(RunRequest{}, nullptr, topology).threads,
            (std::vector<int>{1, 2, 4, 8, 16, 32, 64, 128}));
}

TEST(ThreadsOption, AboveTheHardwareThreadsIsRefusedWithTheLimit) {
  const Topology topology = read_fixture(twelve_cores);
  try {
    threads_asked({"13"}, topology);
    ADD_FAILURE() << "--threads 13 accepted on 12 hardware threads";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what())
                  .find("--threads 13 is more than the 12 hardware threads of 1 socket, 12 "
                        "cores"),
              std::string::npos)
        << error.what();
  }
}

// The same through the binary, on this machine: exit 2, the message, and nothing written.
TEST(ThreadsOption, TheBinaryRefusesMoreThreadsThanThisMachineHas) {
  TempDir dir;
  const int too_many = read_topology().hardware_threads() + 1;
  const auto run =
      run_command(LADDER_BINARY, "run --no-limits --tiers openmp --threads " + std::to_string(too_many) +
                                     " --no-instructions --out " + dir.str() + "/out");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("--threads " + std::to_string(too_many) + " is more than the"), std::string::npos)
      << run.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "out")) << run.output;
}

TEST(ThreadsOption, CoresAndSmtRunThisMachinesCounts) {
  const Topology here = read_topology();
  TempDir dir;
  const auto [outcome, results] = run_and_read(
      LADDER_BINARY, "--tiers openmp --threads cores,smt --n 1e4 --reps 1 --min-time 0.001 --no-limits",
      dir / "out");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  std::vector<int> expected{here.cores, here.hardware_threads()};
  expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
  EXPECT_EQ(results.at("context").at("matrix").at("threads").get<std::vector<int>>(), expected)
      << results.at("context").at("matrix").dump();
}

TEST(RunOnADescribedMachine, IsRefusedAndWritesNothing) {
  for (const std::string& variable : {std::string("HWLOC_SYNTHETIC='") + two_sockets.synthetic + "'",
                                      "HWLOC_XMLFILE=" + interleaved_xml()}) {
    TempDir dir;
    const auto run =
        run_command(variable + " " + LADDER_BINARY,
                    "run --no-limits --tiers naive --no-instructions --out " + dir.str() + "/out");
    EXPECT_EQ(run.exit_code, 2) << variable << ": " << run.output;
    EXPECT_NE(run.output.find("ladder run measures this machine, and the topology is HWLOC_"),
              std::string::npos)
        << run.output;
    EXPECT_NE(run.output.find("threads cannot be bound to a machine that is only described"),
              std::string::npos)
        << run.output;
    EXPECT_FALSE(std::filesystem::exists(dir / "out")) << variable << ": " << run.output;
  }
}

TEST(RunOnADescribedMachine, AnUnreadableValueIsBadInput) {
  TempDir dir;
  const auto run = run_command("HWLOC_SYNTHETIC='core:banana' " + std::string(LADDER_BINARY),
                               "run --no-limits --tiers naive --no-instructions --out " + dir.str() + "/out");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("HWLOC_SYNTHETIC='core:banana' is not a topology hwloc can read"),
            std::string::npos)
      << run.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "out")) << run.output;
}

// Each cell's binding, on the two-socket machine: what the worker's mask, OpenMP's places, oneTBB's
// RunOptions::cpus and the cell's record get, runtime by runtime (thread_binding.hpp).
cpu_set_t every_cpu(const Topology& topology) {
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  for (const auto& pu : topology.pus) CPU_SET(pu.os_index, &cpus);
  return cpus;
}

std::string mask_of(const ThreadBinding& binding) { return cpu_list(binding.cpus); }

CellKey cell_of(const std::string& tier, int threads, int ranks = 1) {
  return {{tier, "gauss", 1000, threads, ranks}, 0, 1, false};
}

TEST(CellBinding, OpenMpGetsAnExplicitPlacesListAndTheMask) {
  const ScopedVariable places("OMP_PLACES", std::nullopt), bind("OMP_PROC_BIND", std::nullopt);
  const Topology topology = read_fixture(two_sockets);
  const auto binding = ThreadBinding::for_cell(find_card("openmp"), cell_of("openmp", 4), topology,
                                               every_cpu(topology), false);
  EXPECT_EQ(binding.pus, (std::vector<int>{0, 2, 4, 6}));
  EXPECT_EQ(mask_of(binding), "0,2,4,6");
  EXPECT_EQ(binding.set, (std::vector<std::string>{"OMP_PROC_BIND=close", "OMP_PLACES={0},{2},{4},{6}"}));
  EXPECT_EQ(binding.describe().at("OMP_PLACES"), "{0},{2},{4},{6} (set by ladder: the cell's placement)");
  EXPECT_EQ(binding.worker_cpus(), binding.pus);
}

TEST(CellBinding, TheUsersOmpPlacesWinsAndTheEntrySaysSo) {
  const ScopedVariable places("OMP_PLACES", "cores"), bind("OMP_PROC_BIND", std::nullopt);
  const Topology topology = read_fixture(two_sockets);
  const auto binding = ThreadBinding::for_cell(find_card("openmp"), cell_of("openmp", 2), topology,
                                               every_cpu(topology), false);
  EXPECT_EQ(binding.set, (std::vector<std::string>{"OMP_PROC_BIND=close"}));
  EXPECT_EQ(mask_of(binding), "0,2");  // the mask still holds OpenMP's places to the cell's CPUs
  EXPECT_EQ(binding.describe().at("OMP_PLACES"),
            "cores (from the environment, which wins over the cell's placement)");
}

TEST(CellBinding, OneTbbAndSerialTiersGetTheirCpusAndTheRecordSaysWhatTheySpan) {
  const ScopedVariable places("OMP_PLACES", std::nullopt), bind("OMP_PROC_BIND", std::nullopt);
  const Topology topology = read_fixture(two_sockets);
  const auto tbb =
      ThreadBinding::for_cell(find_card("tbb"), cell_of("tbb", 33), topology, every_cpu(topology), false);
  EXPECT_TRUE(tbb.set.empty());
  ASSERT_EQ(tbb.worker_cpus().size(), 33u);
  EXPECT_EQ(tbb.worker_cpus().back(), 64);  // the 33rd thread: the first core of the second socket
  const auto record = tbb.placement(topology);
  ASSERT_TRUE(record);
  EXPECT_EQ(record->cores, 33);
  EXPECT_EQ(record->l3_groups, 5);
  EXPECT_EQ(record->numa_nodes, 2);
  EXPECT_EQ(record->packages, 2);
  EXPECT_FALSE(record->shares_cores);
  EXPECT_TRUE(record->crosses_numa());

  const auto naive =
      ThreadBinding::for_cell(find_card("naive"), cell_of("naive", 1), topology, every_cpu(topology), false);
  EXPECT_EQ(mask_of(naive), "0");  // allocated and first touched on this CPU's NUMA node
  EXPECT_FALSE(naive.placement(topology)->crosses_numa());
}

// Open MPI picks the cores from the whole machine, not from the run's mask (under `taskset -c 1` a rank ran
// on CPU 0): the launcher's binding is not recorded as a Placement; its threads' masks are the record.
TEST(CellBinding, MpiIsBoundByTheLauncherAndRecordsNoPlacementOfItsOwn) {
  const auto& all_tiers = tiers();
  if (std::none_of(all_tiers.begin(), all_tiers.end(),
                   [](const Tier& tier) { return tier.card.id == "mpi"; }))
    GTEST_SKIP() << "this build has no mpi tier (MPI was not found when it was built)";
  const Topology topology = read_fixture(two_sockets);
  const cpu_set_t all = every_cpu(topology);
  const auto bound = ThreadBinding::for_cell(find_card("mpi"), cell_of("mpi", 2, 3), topology, all, false);
  EXPECT_TRUE(bound.by_launcher);
  EXPECT_EQ(mask_of(bound), cpu_list(all));  // the launcher starts with every CPU and binds the ranks itself
  EXPECT_TRUE(bound.worker_cpus().empty());
  EXPECT_EQ(bound.cores, 64);  // for the launcher: past the physical cores it binds hardware threads
  EXPECT_FALSE(bound.placement(topology));
  const auto on_hosts = ThreadBinding::for_cell(find_card("mpi"), cell_of("mpi", 2, 3), topology, all, true);
  EXPECT_FALSE(on_hosts.placement(topology));
  const auto oversubscribed =
      ThreadBinding::for_cell(find_card("mpi"), cell_of("mpi", 64, 3), topology, all, false);
  EXPECT_FALSE(oversubscribed.placement(topology));
}

}  // namespace
}  // namespace ladder::testing
