// Tiers side by side in one process, their repetitions in a random order (Google Benchmark's random
// interleaving): on a shared VM whose speed drifts over seconds, every tier sees the same mixture of fast
// and slow moments, so the ratio of two medians is not decided by which tier happened to run when.
// `ladder run` isolates each cell in its own process and runs its repetitions together; this is the
// complement for a ratio claim, not a replacement.
//
//   build/ladder_tiers_bench --n 1e8 --tiers xsimd,tuned-exp --threads 1,2
//       --benchmark_repetitions=15 --benchmark_enable_random_interleaving=true
//       --benchmark_report_aggregates_only=true          (one command line)
#include <benchmark/benchmark.h>

#include <cstdio>
#include <exception>
#include <sstream>
#include <string>
#include <vector>

#include "parse.hpp"
#include "registry.hpp"

namespace {

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> items;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) items.push_back(item);
  return items;
}

}  // namespace

int main(int argc, char** argv) try {
  std::int64_t n = 100'000'000;
  std::vector<std::string> ids = {"xsimd", "tuned-exp"};
  std::vector<int> thread_counts = {1};
  std::vector<char*> rest = {argv[0]};  // what is left for Google Benchmark
  for (int i = 1; i < argc; ++i) {
    const std::string option = argv[i];
    if (option == "--n" && i + 1 < argc) {
      n = ladder::parse_size(argv[++i]);
    } else if (option == "--tiers" && i + 1 < argc) {
      ids = split(argv[++i]);
    } else if (option == "--threads" && i + 1 < argc) {
      thread_counts.clear();
      for (const auto& count : split(argv[++i])) thread_counts.push_back(ladder::parse_threads(count));
    } else {
      rest.push_back(argv[i]);
    }
  }
  for (const auto& id : ids) {
    const ladder::Tier& tier = ladder::find_tier(id);  // an unknown id: the error lists the known ones
    for (const int threads : thread_counts) {
      if (threads > 1 && !tier.card.parallel) continue;
      benchmark::RegisterBenchmark(
          (id + "/threads:" + std::to_string(threads)).c_str(),
          [&tier, n, threads](benchmark::State& state) {
            for (auto _ : state) {
              std::int64_t nodes = n;
              benchmark::DoNotOptimize(nodes);
              double result = ladder::integrate(tier, 0, {0, 1}, nodes, {threads, false});
              benchmark::DoNotOptimize(result);
            }
          })
          ->UseRealTime()
          ->MeasureProcessCPUTime()
          ->Unit(benchmark::kMillisecond);
    }
  }
  int count = static_cast<int>(rest.size());
  benchmark::Initialize(&count, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
} catch (const std::exception& error) {
  std::fprintf(stderr, "ladder_tiers_bench: %s\n", error.what());
  return 2;
}
