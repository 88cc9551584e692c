// The machine's limits: their record in the results schema (common/machine_limits.hpp), likwid-bench's
// output read (harness/machine/likwid_bench.hpp), a likwid-bench that fails or prints its figures (a script
// on PATH in its place), Ladder's own probes, `ladder machine`, and a run that carries them in its context.
#include "machine_limits.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <xsimd/xsimd.hpp>

#include "command.hpp"
#include "json_reader.hpp"
#include "likwid_bench.hpp"
#include "machine_topology.hpp"
#include "measure_limits.hpp"
#include "plan.hpp"
#include "results_file.hpp"
#include "run_context.hpp"
#include "run_limits.hpp"

namespace {

using nlohmann::json;
using namespace ladder;
using ladder::testing::read_json;
using ladder::testing::run_command;
using ladder::testing::TempDir;

// likwid-bench 5.2.2's output, as it printed it on a 2-vCPU VM: `-t triad_avx512_fma -W N:512MB:1 -i 4`.
const char* captured_triad = R"(Running without Marker API. Activate Marker API with -m on commandline.
Allocate: Process running on hwthread 0 (Domain N) - Vector length 16000000/128000000 Offset 0 Alignment 512
--------------------------------------------------------------------------------
LIKWID MICRO BENCHMARK
Test: triad_avx512_fma
--------------------------------------------------------------------------------
Using 1 work groups
Using 1 threads
--------------------------------------------------------------------------------
Group: 0 Thread 0 Global Thread 0 running on hwthread 0 - Vector length 16000000 Offset 0
--------------------------------------------------------------------------------
Cycles:			694704244
CPU Clock:		2596043908
Cycle Clock:		2596043908
Time:			2.676011e-01 sec
Iterations:		4
Iterations per thread:	4
Inner loop executions:	500000
Size (Byte):		512000000
Size per thread:	512000000
Number of Flops:	128000000
MFlops/s:		478.32
Data volume (Byte):	2048000000
MByte/s:		7653.18
Cycles per update:	10.854754
Cycles per cacheline:	86.838031
Loads per update:	3
Stores per update:	1
Load bytes per element:	24
Store bytes per elem.:	8
Load/store ratio:	3.00
Instructions:		38000016
UOPs:			52000000
--------------------------------------------------------------------------------
)";

// ... and `-t peakflops_avx512_fma -W N:48kB:2 -i 20000`, its figures only.
const char* captured_peak = R"(Test: peakflops_avx512_fma
Using 2 threads
Time:			1.004675e-01 sec
Iterations:		40000
Number of Flops:	3600000000
MFlops/s:		35832.48
Data volume (Byte):	960000000
MByte/s:		9555.33
Cycles per update:	2.163004
)";

LimitReading crafted_reading() {
  LimitReading reading;
  reading.threads = 2;
  reading.unit = "GFLOP/s";
  reading.runs = {57.4, 118.3, 86.4};
  reading.best = 118.3;
  reading.lanes = 8;
  reading.tool = "likwid-bench 5.2.2";
  reading.method = "likwid-bench -t peakflops_avx512_fma -W N:48kB:2 -i 50000";
  reading.measured_at = "2026-12-01T10:00:00Z";
  reading.note = "";
  return reading;
}

TEST(MachineLimitsSchema, RoundTripsEveryField) {
  MachineLimits limits;
  limits.measured = true;
  limits.fma_all_cores = crafted_reading();
  limits.bandwidth_one_core = crafted_reading();
  limits.bandwidth_one_core->unit = "GB/s";
  limits.bandwidth_one_core->lanes = 0;
  limits.bandwidth_one_core->tool = "ladder probe";
  limits.bandwidth_one_core->note = "likwid-bench failed: ERROR; Ladder's probe used";
  const json written = limits;
  const MachineLimits read = read_machine_limits(JsonReader(written, "context.limits"));
  EXPECT_EQ(json(read), written);
  EXPECT_TRUE(read.measured);
  EXPECT_FALSE(read.fma_one_core);
  ASSERT_TRUE(read.fma_all_cores);
  EXPECT_EQ(read.fma_all_cores->runs, (std::vector<double>{57.4, 118.3, 86.4}));
  EXPECT_EQ(read.fma_all_cores->lanes, 8);
  EXPECT_EQ(read.bandwidth_one_core->note, "likwid-bench failed: ERROR; Ladder's probe used");
}

TEST(MachineLimitsSchema, AMistypedFieldIsNamedByItsPath) {
  MachineLimits limits;
  limits.measured = true;
  limits.fma_one_core = crafted_reading();
  json written = limits;
  written["fma_one_core"]["runs"][1] = "fast";
  try {
    read_machine_limits(JsonReader(written, "context.limits"));
    FAIL() << "a run's figure that is a string was read";
  } catch (const SchemaError& error) {
    EXPECT_EQ(std::string(error.what()).rfind("context.limits.fma_one_core.runs[1]: ", 0), 0u)
        << error.what();
  }
  written = limits;
  written["fma_one_core"]["unit"] = "MFLOP/s";
  EXPECT_THROW(read_machine_limits(JsonReader(written, "context.limits")), SchemaError);
}

TEST(MachineLimitsSchema, AResultsFileWithoutLimitsReadsAsOlder) {
  TempDir dir;
  const std::string path = dir / "results.json";
  ASSERT_EQ(
      run_command("gzip", "-dc " LADDER_FIXTURES_DIR "/default_run_results.json.gz > " + path).exit_code, 0);
  ASSERT_FALSE(read_json(path).at("context").contains("limits")) << "the fixture predates the limits";
  const ResultsFile results = read_results_file(path);
  EXPECT_FALSE(results.context.limits.measured);
  EXPECT_EQ(results.context.limits.reason, "not measured: this results file is older than Ladder's limits");
}

TEST(MachineLimitsSchema, TheContextWritesAndReadsItsLimits) {
  ContextRecord context;
  context.matrix.integrands = {"gauss"};
  context.limits.measured = true;
  context.limits.reason = "";
  context.limits.fma_one_core = crafted_reading();
  json written = context;
  ASSERT_TRUE(written.contains("limits"));
  const ContextRecord read = read_context_record(JsonReader(written, "context"));
  EXPECT_EQ(json(read.limits), json(context.limits));
}

TEST(LikwidOutput, TheFiguresAreReadFromItsLines) {
  EXPECT_EQ(likwid::parse_figure(captured_triad, "MByte/s"), 7653.18);
  EXPECT_EQ(likwid::parse_figure(captured_triad, "MFlops/s"), 478.32);
  EXPECT_EQ(likwid::parse_figure(captured_peak, "MFlops/s"), 35832.48);
  EXPECT_FALSE(likwid::parse_figure(captured_peak, "MUpdates/s"));
  EXPECT_FALSE(likwid::parse_figure("ERROR: Cannot pin thread to hwthread 7\n", "MFlops/s"));
  EXPECT_FALSE(likwid::parse_figure("MFlops/s:\t\tnan\n", "MFlops/s"));
}

TEST(LikwidOutput, TheKernelsFollowTheCpu) {
  const auto kernels = likwid::kernels_for_this_cpu();
  const auto cpu = xsimd::available_architectures();
  EXPECT_EQ(kernels.peak, cpu.avx512f     ? "peakflops_avx512_fma"
                          : cpu.fma3_avx2 ? "peakflops_avx_fma"
                                          : "peakflops_sse");
  EXPECT_EQ(kernels.lanes, cpu.avx512f ? 8 : cpu.fma3_avx2 ? 4 : 2);
  // -s takes whole seconds: runs are sized by -i
  const auto arguments = likwid::peak_arguments(kernels, 2);
  EXPECT_NE(std::find(arguments.begin(), arguments.end(), "-i"), arguments.end());
  EXPECT_EQ(std::find(arguments.begin(), arguments.end(), "-s"), arguments.end());
  EXPECT_NE(std::find(arguments.begin(), arguments.end(), "N:48kB:2"), arguments.end());
}

// PATH with a script called likwid-bench first, for the life of the object.
class FakeLikwid {
 public:
  explicit FakeLikwid(const std::string& script) : old_path_(getenv("PATH") ? getenv("PATH") : "") {
    ladder::testing::write_text(dir_ / "likwid-bench", "#!/bin/sh\n" + script);
    chmod((dir_ / "likwid-bench").c_str(), 0755);
    setenv("PATH", (dir_.str() + ":" + old_path_).c_str(), 1);
  }
  ~FakeLikwid() { setenv("PATH", old_path_.c_str(), 1); }
  std::string dir() const { return dir_.str(); }

 private:
  TempDir dir_;
  std::string old_path_;
};

TEST(MachineLimitsTools, ALikwidThatFailsIsReportedAndTheProbeMeasures) {
  const FakeLikwid fake("echo 'ERROR: Cannot get access to hwthread 0: the fake says no'\nexit 3\n");
  const MachineLimits limits = measure_machine_limits(read_topology(), LimitsTool::automatic, 1);
  ASSERT_TRUE(limits.measured) << limits.reason;
  for (const auto* reading : {&limits.fma_one_core, &limits.fma_all_cores, &limits.bandwidth_one_core,
                              &limits.bandwidth_all_cores}) {
    ASSERT_TRUE(reading->has_value());
    EXPECT_EQ((*reading)->tool, "ladder probe");
    EXPECT_NE((*reading)->note.find("likwid-bench failed"), std::string::npos) << (*reading)->note;
    EXPECT_NE((*reading)->note.find("the fake says no"), std::string::npos) << (*reading)->note;
    EXPECT_NE((*reading)->note.find("exited with 3"), std::string::npos) << (*reading)->note;
    EXPECT_NE((*reading)->note.find("Ladder's probe used"), std::string::npos) << (*reading)->note;
  }
}

TEST(MachineLimitsTools, ALikwidThatWorksGivesItsFiguresInGigaUnits) {
  TempDir outputs;
  ladder::testing::write_text(outputs / "triad.txt", captured_triad);
  ladder::testing::write_text(outputs / "peak.txt", captured_peak);
  const FakeLikwid fake("case \"$*\" in\n  -v) echo 'likwid-bench -- Version 5.2.2';;\n  *peakflops*) cat " +
                        (outputs / "peak.txt").string() + ";;\n  *) cat " + (outputs / "triad.txt").string() +
                        ";;\nesac\n");
  const MachineLimits limits = measure_machine_limits(read_topology(), LimitsTool::likwid, 2);
  ASSERT_TRUE(limits.measured) << limits.reason;
  ASSERT_TRUE(limits.fma_one_core && limits.bandwidth_all_cores);
  EXPECT_EQ(limits.fma_one_core->tool, "likwid-bench 5.2.2");
  ASSERT_EQ(limits.fma_one_core->runs.size(), 2u);
  for (double run : limits.fma_one_core->runs) EXPECT_DOUBLE_EQ(run, 35.83248) << "MFlops/s ÷ 1000";
  EXPECT_EQ(limits.fma_one_core->lanes, likwid::kernels_for_this_cpu().lanes);
  EXPECT_NE(limits.fma_one_core->method.find("-t " + likwid::kernels_for_this_cpu().peak), std::string::npos);
  EXPECT_DOUBLE_EQ(limits.bandwidth_all_cores->best, 7.65318) << "MByte/s ÷ 1000";
  EXPECT_EQ(limits.bandwidth_all_cores->unit, "GB/s");
  EXPECT_EQ(limits.bandwidth_all_cores->lanes, 0);
  EXPECT_TRUE(limits.bandwidth_all_cores->note.empty()) << limits.bandwidth_all_cores->note;
}

TEST(MachineLimitsTools, ProbesGiveFinitePositiveFiguresForEveryCpu) {
  const Topology topology = read_topology();
  const MachineLimits limits = measure_machine_limits(topology, LimitsTool::probe, 3);
  ASSERT_TRUE(limits.measured) << limits.reason;
  for (const auto* reading : {&limits.fma_one_core, &limits.fma_all_cores, &limits.bandwidth_one_core,
                              &limits.bandwidth_all_cores}) {
    ASSERT_TRUE(reading->has_value());
    const LimitReading& each = **reading;
    EXPECT_EQ(each.tool, "ladder probe");
    EXPECT_TRUE(each.note.empty()) << each.note;
    ASSERT_EQ(each.runs.size(), 3u);
    for (double run : each.runs) EXPECT_TRUE(std::isfinite(run) && run > 0) << run;
    EXPECT_EQ(each.best, *std::max_element(each.runs.begin(), each.runs.end()));
    EXPECT_EQ(each.measured_at.size(), std::string("2026-12-01T10:00:00Z").size()) << each.measured_at;
  }
  EXPECT_EQ(limits.fma_one_core->threads, 1);
  EXPECT_EQ(limits.fma_all_cores->threads, topology.hardware_threads());
  EXPECT_EQ(limits.bandwidth_all_cores->threads, topology.hardware_threads());
  EXPECT_EQ(limits.fma_one_core->lanes, static_cast<int>(xsimd::batch<double>::size));
  EXPECT_EQ(limits.fma_one_core->unit, "GFLOP/s");
  EXPECT_EQ(limits.bandwidth_one_core->unit, "GB/s");
  // Sanity, not speed: threads that ran together at all give more than a fifth of one thread's figure
  // (each best of three runs; a loaded VM shares a core at worst half and half).
  EXPECT_GT(limits.fma_all_cores->best, 0.2 * limits.fma_one_core->best);
  EXPECT_GT(limits.bandwidth_all_cores->best, 0.2 * limits.bandwidth_one_core->best);
}

TEST(MachineLimitsTools, SamplesMergeIntoTheBestOfEveryRun) {
  MachineLimits before, after, skipped;
  before.measured = after.measured = true;
  before.fma_one_core = after.fma_one_core = crafted_reading();
  after.fma_one_core->runs = {120.5, 60};
  after.fma_one_core->best = 120.5;
  after.fma_one_core->measured_at = "2026-12-01T11:00:00Z";
  after.bandwidth_one_core = crafted_reading();
  after.bandwidth_one_core->tool = "ladder probe";
  skipped.reason = "not measured: --no-limits";
  const MachineLimits merged = merge_limits({skipped, before, after});
  ASSERT_TRUE(merged.measured);
  EXPECT_EQ(merged.fma_one_core->runs, (std::vector<double>{57.4, 118.3, 86.4, 120.5, 60}));
  EXPECT_EQ(merged.fma_one_core->best, 120.5);
  EXPECT_EQ(merged.fma_one_core->measured_at, "2026-12-01T10:00:00Z");
  EXPECT_EQ(merged.bandwidth_one_core->tool, "ladder probe");
  EXPECT_EQ(merge_limits({skipped}).reason, "not measured: --no-limits");
  // A sample by another tool is not mixed into the first's runs.
  MachineLimits other = before;
  other.fma_one_core->tool = "ladder probe";
  const MachineLimits kept = merge_limits({before, other});
  EXPECT_EQ(kept.fma_one_core->runs.size(), 3u);
  EXPECT_NE(kept.fma_one_core->note.find("left out"), std::string::npos) << kept.fma_one_core->note;
}

TEST(MachineLimitsTools, ADescribedMachineIsNotMeasured) {
  Topology described = read_topology();
  described.synthetic = true;
  described.source = "HWLOC_SYNTHETIC=package:2 core:4 pu:1";
  const MachineLimits limits = measure_machine_limits(described, LimitsTool::probe, 1);
  EXPECT_FALSE(limits.measured);
  EXPECT_NE(limits.reason.find("HWLOC_SYNTHETIC=package:2 core:4 pu:1"), std::string::npos) << limits.reason;
  EXPECT_THROW(parse_limits_tool("perf"), InputError);
}

TEST(MachineLimitsPlan, ThePlanCountsTheLimitsUnlessTheyAreSkipped) {
  RunRequest args;
  const Topology topology = read_topology();
  const PlanSettings settings = plan_settings(args, topology, Matrix{});
  EXPECT_GT(settings.limits_seconds, 0);
  // The probes' estimate for this machine: the sample before the cells and the one after. It grows with the
  // triad's arrays, 16 × the last-level cache (a VM here reports a 300 MiB L3: 4.7 GiB, about 12 s), at
  // most 8 GiB, so it stays under a minute on any machine.
  EXPECT_NEAR(settings.limits_seconds,
              estimated_limits_seconds(LimitsTool::probe, run_limit_runs(LimitsTool::probe, true)) +
                  estimated_limits_seconds(LimitsTool::probe, run_limit_runs(LimitsTool::probe, false)),
              1e-9);
  EXPECT_LT(settings.limits_seconds, 60) << "a run's default limits cost seconds, not minutes";
  Topology described = topology;
  described.synthetic = true;
  EXPECT_EQ(plan_settings(args, described, Matrix{}).limits_seconds, 0);
  args.limits = false;
  EXPECT_EQ(plan_settings(args, topology, Matrix{}).limits_seconds, 0);

  Matrix matrix;
  matrix.tiers = {"naive"};
  matrix.integrands = {"gauss"};
  matrix.sizes = {1000};
  matrix.threads = {1};
  PlanSettings without;
  without.instructions = false;
  PlanSettings with = without;
  with.limits_seconds = 2.5;
  const Estimate plain = estimate(matrix, Calibration{}, without),
                 limited = estimate(matrix, Calibration{}, with);
  EXPECT_NEAR(limited.seconds - plain.seconds, 2.5, 1e-9);
  ASSERT_FALSE(limited.parts.empty());
  EXPECT_EQ(limited.parts.back(), (std::pair<std::string, double>{"the machine's limits", 2.5}));
  for (const auto& [name, seconds] : plain.parts) EXPECT_NE(name, "the machine's limits");
}

TEST(MachineCommand, UnderHwlocSyntheticItRefusesToMeasure) {
  const auto outcome = run_command("HWLOC_SYNTHETIC='package:2 core:4 pu:1' " LADDER_BINARY, "machine");
  EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
  EXPECT_NE(outcome.output.find("HWLOC_SYNTHETIC=package:2 core:4 pu:1"), std::string::npos)
      << outcome.output;
  EXPECT_NE(outcome.output.find("not here"), std::string::npos) << outcome.output;
  EXPECT_EQ(outcome.output.find("GFLOP/s"), std::string::npos) << outcome.output;
}

TEST(MachineCommand, BadInputIsNamed) {
  const auto tool = run_command(LADDER_BINARY, "machine --limits-tool perf");
  EXPECT_EQ(tool.exit_code, 2) << tool.output;
  EXPECT_NE(tool.output.find("perf"), std::string::npos) << tool.output;
  const auto runs = run_command(LADDER_BINARY, "machine --runs 0");
  EXPECT_EQ(runs.exit_code, 2) << runs.output;
  EXPECT_NE(runs.output.find("--runs 0"), std::string::npos) << runs.output;
}

TEST(MachineCommand, JsonIsTheContextsLimits) {
  const auto outcome = run_command(LADDER_BINARY, "machine --json --runs 1 --limits-tool probe");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  const json printed = json::parse(outcome.output);
  const MachineLimits limits = read_machine_limits(JsonReader(printed, "machine"));
  EXPECT_TRUE(limits.measured);
  ASSERT_TRUE(limits.bandwidth_one_core);
  EXPECT_EQ(limits.bandwidth_one_core->runs.size(), 1u);
}

TEST(MachineLimitsRun, ARunCarriesItsLimitsInItsContext) {
  TempDir dir;
  const auto run = ladder::testing::run_and_read(
      LADDER_BINARY, "--tiers xsimd --n 1000 --threads 1 --reps 2 --min-time 0.005", dir / "out");
  ASSERT_EQ(run.outcome.exit_code, 0) << run.outcome.output;
  EXPECT_NE(run.outcome.output.find("measuring the machine's limits before the cells"), std::string::npos);
  const ResultsFile results = read_results_file(dir / "out/results.json");
  const MachineLimits& limits = results.context.limits;
  ASSERT_TRUE(limits.measured) << limits.reason;
  ASSERT_TRUE(limits.fma_one_core && limits.bandwidth_all_cores);
  EXPECT_EQ(limits.fma_one_core->tool, "ladder probe");
  EXPECT_EQ(limits.fma_one_core->runs.size(), 10u) << "five runs before the cells, five after";
  // The sample before the cells is in the journal's first line, for a resumed run to keep.
  const json header =
      json::parse(ladder::testing::lines_of(ladder::testing::read_text(dir / "out/journal.jsonl")).front());
  EXPECT_EQ(header.at("limits").at("fma_one_core").at("runs").size(), 5u);

  TempDir skipped;
  const auto quick = ladder::testing::run_and_read(
      LADDER_BINARY, "--tiers xsimd --n 1000 --threads 1 --reps 2 --min-time 0.005 --no-limits",
      skipped / "out");
  ASSERT_EQ(quick.outcome.exit_code, 0) << quick.outcome.output;
  EXPECT_EQ(quick.results.at("context").at("limits").at("measured"), false);
  EXPECT_EQ(quick.results.at("context").at("limits").at("reason"), "not measured: --no-limits");
}

}  // namespace
