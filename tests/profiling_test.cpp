// Where the time goes: instructions a node under callgrind (deterministic), `ladder profile` line by line,
// hardware counters or the kernel's reason for having none, and memory over time during one call.
#include <gtest/gtest.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

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
  EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
  EXPECT_NE(outcome.output.find("n = '0' is less than 1; n is a whole number from 1 to 2^62, written as "
                                "100000000, 1e8 or 2^27"),
            std::string::npos)
      << outcome.output;
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

double cpu_seconds(clockid_t clock) {
  timespec now{};
  clock_gettime(clock, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// The counting machinery, with a software event every kernel has: a call whose work is all done by another
// thread (alive before the count starts, as a parallel runtime's pool is) is counted in full. The helper
// spins until its own CPU clock has advanced 50 ms, so the work is the same however loaded the machine is;
// the calling thread only waits. A count of the calling thread alone would see next to nothing, and a
// thread counted twice would exceed the process's CPU time over the call.
TEST(Counters, CountTheWorkOfEveryThreadNotOnlyTheCaller) {
  constexpr double work_seconds = 0.05;
  std::mutex mutex;
  std::condition_variable changed;
  int stage = 0;  // 0 waiting, 1 working, 2 done
  std::thread helper([&] {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return stage == 1; });
    lock.unlock();
    const double start = cpu_seconds(CLOCK_THREAD_CPUTIME_ID);
    while (cpu_seconds(CLOCK_THREAD_CPUTIME_ID) - start < work_seconds) {
    }
    lock.lock();
    stage = 2;
    changed.notify_all();
  });
  auto call = [&] {
    std::unique_lock lock(mutex);
    stage = 1;
    changed.notify_all();
    changed.wait(lock, [&] { return stage == 2; });
  };
  const double before = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
  const json counted =
      ladder::counters::count(call, {{"task_clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK}});
  const double process = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - before;
  helper.join();
  if (!counted.at("available").get<bool>())
    GTEST_SKIP() << "this kernel refuses even software events: " << counted.at("reason");
  EXPECT_GE(counted.at("threads_counted").get<int>(), 2);
  const double task_seconds = counted.at("task_clock").get<double>() * 1e-9;
  // Both clocks count the same thread's time on a CPU, so load does not move them apart. The count came out
  // 0.1-0.3 % under the thread's own clock here (the two start and stop at slightly different moments); a
  // count of the calling thread alone would be near 0, so 0.9 separates the two cases with room to spare.
  EXPECT_GE(task_seconds, 0.9 * work_seconds) << "the helper thread's work was missed";
  EXPECT_LE(task_seconds, process + 0.001) << "more than the process spent: a thread counted twice?";
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

// Fresh pages, mapped and touched: the resident set grows by their size whatever malloc keeps.
class FreshPages {
 public:
  explicit FreshPages(std::size_t bytes) : bytes_(bytes) {
    memory_ = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory_ != MAP_FAILED) std::memset(memory_, 1, bytes);
  }
  ~FreshPages() {
    if (memory_ != MAP_FAILED) munmap(memory_, bytes_);
  }
  FreshPages(const FreshPages&) = delete;
  FreshPages& operator=(const FreshPages&) = delete;
  bool mapped() const { return memory_ != MAP_FAILED; }

 private:
  std::size_t bytes_;
  void* memory_;
};

// The sampler during a load that waits for it: ten steps of 4 MiB more, each followed by a sample begun
// after it (the test waits on the count of samples taken, not on a clock), so the timeline must show every
// step however slow or loaded the machine is.
TEST(Timeline, SamplesAGrowingResidentSetAsItGrows) {
  constexpr std::size_t step = std::size_t{4} << 20;
  constexpr int steps = 10;
  ladder::Timeline timeline(0.005);
  timeline.start();
  std::vector<std::unique_ptr<FreshPages>> grown;
  for (int k = 0; k < steps; ++k) {
    grown.push_back(std::make_unique<FreshPages>(step));
    ASSERT_TRUE(grown.back()->mapped());
    // The next sample may have read the resident set before the step; the one after it cannot have.
    const std::size_t after = timeline.samples_taken() + 2;
    // A guard against a sampler that never samples (a bug), not a measure of speed.
    for (int wait = 0; timeline.samples_taken() < after; ++wait) {
      ASSERT_LT(wait, 60'000) << "the sampling thread took no sample in a minute after step " << k;
      usleep(1000);
    }
  }
  grown.clear();  // given back: the highest sample is now neither the first nor the last
  for (const std::size_t after = timeline.samples_taken() + 2; timeline.samples_taken() < after;)
    usleep(1000);
  const json samples = timeline.stop(std::size_t{1} << 20);  // every sample
  const auto& rss = samples.at("rss_bytes");
  ASSERT_GE(samples.at("samples").get<std::size_t>(), 2u * steps + 2) << "the first, two a step, the last";
  ASSERT_EQ(rss.size(), samples.at("samples").get<std::size_t>());
  const double first = rss.front();
  // Each step's level (4 MiB more a step, to the nearest step) is among the samples.
  std::set<long> levels;
  for (std::size_t i = 1; i + 1 < rss.size(); ++i)
    levels.insert(std::lround((rss[i].get<double>() - first) / static_cast<double>(step)));
  for (long level = 1; level <= steps; ++level)
    EXPECT_TRUE(levels.count(level)) << "no sample after step " << level << ": " << samples.dump();
  const auto& seconds = samples.at("seconds");
  EXPECT_TRUE(std::is_sorted(seconds.begin(), seconds.end()));
  EXPECT_GT(samples.at("cpu_seconds").back().get<double>(), 0) << "touching 40 MiB takes CPU time";

  // Fewer points asked for: every k-th sample, with the first, the highest and the last kept. Asked for one,
  // it keeps those three.
  const json thinned = timeline.stop(1);
  const auto& kept = thinned.at("rss_bytes");
  EXPECT_EQ(thinned.at("samples"), samples.at("samples"));
  ASSERT_EQ(kept.size(), 3u) << thinned.dump();
  EXPECT_EQ(kept[0], rss.front());
  EXPECT_EQ(kept[1], *std::max_element(rss.begin(), rss.end()));
  EXPECT_EQ(kept[2], rss.back());
  EXPECT_TRUE(std::is_sorted(thinned.at("seconds").begin(), thinned.at("seconds").end()));
}

// A run records the counters' reason and memory over time per cell, and the report draws the timeline.
TEST(Run, CellsCarryCountersAndMemoryOverTimeAndTheReportDrawsIt) {
  TempDir out;
  const auto outcome = run_command(ladder_binary,
                                   "run --no-limits --tiers naive,streaming --n 2e7 --threads 1 --reps 1 "
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
