// Where the time goes: instructions a node under callgrind (deterministic), `ladder profile` line by line,
// hardware counters or the kernel's reason for having none, and memory over time during one call.
#include <gtest/gtest.h>
#include <linux/perf_event.h>
#include <time.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "command.hpp"
#include "counters.hpp"
#include "registry.hpp"
#include "timeline.hpp"

namespace {

using ladder::testing::read_json;
using ladder::testing::read_text;
using ladder::testing::run_command;
using ladder::testing::TempDir;
using nlohmann::json;

const std::string ladder_binary = LADDER_BINARY;

json instructions(const std::string& arguments) {
  const auto outcome = run_command(ladder_binary, "instructions --json " + arguments);
  EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
  return json::parse(outcome.output.substr(outcome.output.find('{')));
}

TEST(Instructions, AreCountedForEveryCpuTierAndIdenticalAcrossTwoRuns) {
  const json first = instructions("");
  const json second = instructions("");
  ASSERT_TRUE(first.at("available").get<bool>()) << first.dump(2);
  EXPECT_EQ(first.at("target"), "x86-64-v3");
  EXPECT_EQ(first.at("tiers"), second.at("tiers")) << "callgrind counts moved between two runs";
  for (const auto& tier : ladder::tiers()) {
    const json& entry = first.at("tiers").at(tier.card.id);
    if (tier.card.distributed || tier.card.id == "cuda") {  // not CPU kernels in one process
      EXPECT_TRUE(entry.contains("unavailable")) << tier.card.id;
      continue;
    }
    ASSERT_TRUE(entry.contains("per_node")) << tier.card.id << ": " << entry.dump();
    EXPECT_GT(entry.at("per_node").get<double>(), 1.0) << tier.card.id;  // at least an add a node
    EXPECT_LT(entry.at("per_node").get<double>(), 1000.0) << tier.card.id;
  }
  const double xsimd = first.at("tiers").at("xsimd").at("per_node");
  const double inlined = first.at("tiers").at("inlined").at("per_node");
  EXPECT_LT(xsimd, 0.5 * inlined)
      << "explicit SIMD should need well under half the scalar loop's instructions";
}

TEST(Instructions, PerNodeIsTheSlopeNotTheFixedCost) {
  const json counts = instructions("--tiers naive");
  const json& naive = counts.at("tiers").at("naive");
  const double small = naive.at("instructions").at(0), large = naive.at("instructions").at(1);
  const double n_small = counts.at("n").at(0), n_large = counts.at("n").at(1);
  EXPECT_DOUBLE_EQ(naive.at("per_node").get<double>(), (large - small) / (n_large - n_small));
  EXPECT_GT(small, 0);
}

// The CI use: counts saved once, a change that adds instructions caught however noisy the machine.
TEST(Instructions, ABaselineCatchesATierThatNeedsMore) {
  TempDir dir;
  json saved = instructions("--tiers inlined,xsimd");
  std::ofstream(dir / "same.json") << saved.dump();
  auto outcome = run_command(ladder_binary,
                             "instructions --tiers inlined,xsimd --baseline " + (dir / "same.json").string());
  EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
  EXPECT_NE(outcome.output.find("+0.0 %"), std::string::npos) << outcome.output;

  saved["tiers"]["xsimd"]["per_node"] =
      saved["tiers"]["xsimd"]["per_node"].get<double>() * 0.9;  // it was cheaper
  std::ofstream(dir / "cheaper.json") << saved.dump();
  outcome = run_command(ladder_binary,
                        "instructions --tiers inlined,xsimd --baseline " + (dir / "cheaper.json").string());
  EXPECT_EQ(outcome.exit_code, 1) << outcome.output;
  EXPECT_NE(outcome.output.find("grew by more than 1 % on: xsimd (+11.1 %)"), std::string::npos)
      << outcome.output;
  outcome = run_command(ladder_binary, "instructions --tiers inlined,xsimd --max-increase 20 --baseline " +
                                           (dir / "cheaper.json").string());
  EXPECT_EQ(outcome.exit_code, 0) << outcome.output;

  saved["target"] = "x86-64-v2";
  std::ofstream(dir / "other-target.json") << saved.dump();
  outcome = run_command(ladder_binary,
                        "instructions --tiers xsimd --baseline " + (dir / "other-target.json").string());
  EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
  EXPECT_NE(outcome.output.find("not comparable"), std::string::npos) << outcome.output;
  outcome = run_command(ladder_binary, "instructions --baseline " + (dir / "missing.json").string());
  EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
  EXPECT_NE(outcome.output.find("does not exist"), std::string::npos) << outcome.output;
}

// The marked lines of `ladder profile`: ">1" the hottest.
std::string hottest_line(const std::string& output) {
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(">1 ", 0) == 0) return line;
  return "";
}

TEST(Profile, TheHotLineOfXsimdIsTheOneHoldingTheExp) {
  const auto outcome = run_command(ladder_binary, "profile xsimd --n 1e4");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  EXPECT_NE(hottest_line(outcome.output).find("exp("), std::string::npos) << outcome.output;
  EXPECT_NE(outcome.output.find("variants/simd_kernel.hpp"), std::string::npos) << outcome.output;
  EXPECT_NE(outcome.output.find("-march=x86-64-v3"), std::string::npos) << outcome.output;
}

TEST(Profile, NaiveChargesItsLibmCallsToTheExpLineAndShowsItsNodeVector) {
  const auto outcome = run_command(ladder_binary, "profile naive --n 1e4");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  EXPECT_NE(hottest_line(outcome.output).find("exp("), std::string::npos) << outcome.output;
  EXPECT_NE(outcome.output.find("nodes[i] = "), std::string::npos)
      << "the vector-filling line: " << outcome.output;
}

TEST(Profile, BadInputNamesTheValueAndMissingValgrindIsExplained) {
  auto outcome = run_command(ladder_binary, "profile no-such-tier");
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.output.find("unknown tier 'no-such-tier'"), std::string::npos) << outcome.output;
  outcome = run_command(ladder_binary, "profile xsimd --n 0");
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.output.find("0"), std::string::npos) << outcome.output;
  outcome = run_command(ladder_binary, "profile xsimd --n 1e9");
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.output.find("at most 1e8"), std::string::npos) << outcome.output;
  outcome = run_command("env PATH=/nonexistent " + ladder_binary, "profile xsimd");
  EXPECT_EQ(outcome.exit_code, 3);
  EXPECT_NE(outcome.output.find("valgrind is not installed"), std::string::npos) << outcome.output;
  outcome = run_command("env PATH=/nonexistent " + ladder_binary, "instructions");
  EXPECT_EQ(outcome.exit_code, 3);
  EXPECT_NE(outcome.output.find("unavailable: valgrind is not installed"), std::string::npos)
      << outcome.output;
}

double process_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// The counting machinery, with a software event every kernel has: the task clock of every thread the
// OpenMP tier's pool runs on adds up to the process's CPU time over the call.
TEST(Counters, CountEveryThreadOfTheParallelRuntime) {
  const auto& openmp = ladder::find_tier("openmp");
  std::int64_t n = 20'000'000;
  auto call = [&] { ladder::integrate(openmp, 0, {0, 1}, n, {2, false}); };
  call();  // the pool exists before counting, as in a worker after its timed runs
  // Around the counted call the process spends CPU time no counter sees: opening and reading a counter per
  // thread, the pool's threads spinning a while after the parallel region. That is a few milliseconds, a
  // third of a 20 ms call (seen: 0.016 s counted of 0.023 s): the call grows until it takes 0.3 s of CPU,
  // where it is a few per cent, on a fast machine as on a slow one.
  while (n < (std::int64_t{1} << 34)) {
    const double start = process_cpu_seconds();
    call();
    if (process_cpu_seconds() - start >= 0.3) break;
    n *= 2;
  }
  const double before = process_cpu_seconds();
  const json counted =
      ladder::counters::count(call, {{"task_clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK}});
  const double cpu = process_cpu_seconds() - before;
  if (!counted.at("available").get<bool>())
    GTEST_SKIP() << "this kernel refuses even software events: " << counted.at("reason");
  EXPECT_GE(counted.at("threads_counted").get<int>(), 2);
  const double task_seconds = counted.at("task_clock").get<double>() * 1e-9;
  EXPECT_GT(task_seconds, 0.7 * cpu) << "threads missed: counted " << task_seconds << " s of " << cpu << " s";
  EXPECT_LT(task_seconds, 1.05 * cpu + 0.01);
}

TEST(Counters, WithoutHardwareCountersTheReasonIsRecordedNeverAZero) {
  const json counted = ladder::counters::hardware([] {}, 1000);
  if (counted.at("available").get<bool>()) {
    EXPECT_GT(counted.at("cycles").get<double>(), 0);  // a machine with counters: real figures
    return;
  }
  const std::string reason = counted.at("reason");
  EXPECT_EQ(reason.rfind("unavailable: perf_event_open: ", 0), 0u) << reason;
  EXPECT_GT(reason.size(), std::string("unavailable: perf_event_open: ").size()) << reason;
  EXPECT_FALSE(counted.contains("cycles"));
  EXPECT_FALSE(counted.contains("ipc"));
}

TEST(Timeline, SamplesAGrowingVectorAsItGrows) {
  ladder::Timeline timeline(0.001);
  timeline.start();
  std::vector<double> grown;
  for (int step = 0; step < 40; ++step) {
    grown.resize(grown.size() + (1 << 18), 1.0);  // 2 MiB more each step, touched
    timespec pause{0, 1'000'000};
    nanosleep(&pause, nullptr);
  }
  const json samples = timeline.stop();
  const auto& rss = samples.at("rss_bytes");
  ASSERT_GE(samples.at("samples").get<int>(), 10);
  const double first = rss.front(), peak = std::max_element(rss.begin(), rss.end())->get<double>();
  EXPECT_GT(peak - first, 60.0 * (1 << 20)) << samples.dump();
  const auto& seconds = samples.at("seconds");
  EXPECT_TRUE(std::is_sorted(seconds.begin(), seconds.end()));
  EXPECT_GT(samples.at("cpu_seconds").back().get<double>(), 0);
}

// A run records the counters' reason and memory over time per cell, and the report draws the timeline.
TEST(Run, CellsCarryCountersAndMemoryOverTimeAndTheReportDrawsIt) {
  TempDir out;
  const auto outcome = run_command(ladder_binary,
                                   "run --tiers naive,streaming --n 2e7 --threads 1 --reps 1 "
                                   "--min-time 0.01 --out " +
                                       out.str());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  const json results = read_json(out / "results.json");
  EXPECT_TRUE(results.at("instructions").at("available").get<bool>()) << results.at("instructions").dump();
  std::map<std::string, json> timelines;
  for (const auto& entry : results.at("benchmarks")) {
    const json& counters = entry.at("counters");
    if (counters.at("available").get<bool>())
      EXPECT_GT(counters.at("cycles").get<double>(), 0);
    else
      EXPECT_EQ(counters.at("reason").get<std::string>().rfind("unavailable: ", 0), 0u) << counters.dump();
    if (entry.value("aggregate_name", "") == "median")
      timelines[entry.at("tier")] = entry.at("memory_timeline");
  }
  ASSERT_EQ(timelines.size(), 2u);
  auto growth = [](const json& timeline) {
    const auto& rss = timeline.at("rss_bytes");
    return std::max_element(rss.begin(), rss.end())->get<double>() - rss.front().get<double>();
  };
  EXPECT_GT(growth(timelines["naive"]), 0.8 * 8 * 2e7) << "naive's node vector: 160 MB";
  EXPECT_LT(growth(timelines["streaming"]), 4.0 * (1 << 20)) << "streaming holds no vector";
  const std::string html = read_text(out / "report.html");
  const auto chart = html.find("data-chart=\"memory-over-time-1\"");
  ASSERT_NE(chart, std::string::npos);
  EXPECT_NE(html.find("data-series=\"naive\"", chart), std::string::npos);
  EXPECT_NE(html.find("data-series=\"streaming\"", chart), std::string::npos);
  const std::string markdown = read_text(out / "report.md");
  EXPECT_NE(markdown.find("## Where the time goes"), std::string::npos);
  const json& first_counters = results.at("benchmarks").at(0).at("counters");
  if (!first_counters.at("available").get<bool>()) {
    EXPECT_NE(markdown.find(first_counters.at("reason").get<std::string>()), std::string::npos)
        << "the counters column says why it is empty";
  }
}

}  // namespace
