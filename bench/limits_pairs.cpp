// Ladder's probes of the machine's limits (harness/machine/limit_probes.hpp) against likwid-bench's peakflops
// and triad kernels, run in pairs: one run of each, one right after the other, the order swapped every pair,
// for each reading (FMA peak and triad bandwidth, one core and all cores). On a shared VM whose speed swings
// within minutes, only figures taken side by side compare: each pair's ratio is printed, then each tool's
// best and the ratio of the bests, and whether the one-core figures agree within 15 %. A benchmark, not a
// test; scripts/bench-limits runs it.
//
//   build/ladder_limits_bench [PAIRS]        (default 8; each pair takes about 1.5 s: likwid-bench's start)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "likwid_bench.hpp"
#include "limit_probes.hpp"
#include "machine_topology.hpp"
#include "text.hpp"
#include "topology.hpp"

namespace {

using namespace ladder;

struct Reading {
  std::string words, unit;
  std::function<double()> likwid, probe;
};

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

// The pairs of one reading, printed as they come; true when the bests agree within 15 %.
bool compare(const Reading& reading, int pairs) {
  std::vector<double> likwid, probe, ratios;
  std::printf("%s (%s): likwid-bench, probe, probe/likwid a pair\n", reading.words.c_str(),
              reading.unit.c_str());
  for (int pair = 0; pair < pairs; ++pair) {
    if (pair % 2 == 0) {
      likwid.push_back(reading.likwid());
      probe.push_back(reading.probe());
    } else {
      probe.push_back(reading.probe());
      likwid.push_back(reading.likwid());
    }
    ratios.push_back(probe.back() / likwid.back());
    std::printf("  %8.1f %8.1f %6.2f%s\n", likwid.back(), probe.back(), ratios.back(),
                pair % 2 ? "  (probe first)" : "");
    std::fflush(stdout);
  }
  const double likwid_best = *std::max_element(likwid.begin(), likwid.end());
  const double probe_best = *std::max_element(probe.begin(), probe.end());
  const double ratio = probe_best / likwid_best;
  std::printf(
      "  best: likwid-bench %.1f (%.1f … %.1f), probe %.1f (%.1f … %.1f) %s; probe/likwid %.2f (of the "
      "bests), %.2f (median of the pairs)\n",
      likwid_best, *std::min_element(likwid.begin(), likwid.end()), likwid_best, probe_best,
      *std::min_element(probe.begin(), probe.end()), probe_best, reading.unit.c_str(), ratio, median(ratios));
  return std::abs(ratio - 1) <= 0.15;
}

int run(int pairs) {
  const auto bench = likwid::find_bench();
  if (!bench) {
    std::printf(
        "likwid-bench is not installed (Debian's package likwid): nothing to compare the probes with\n");
    return 3;
  }
  const Topology topology = read_topology();
  std::vector<int> all;
  for (const auto& pu : topology.pus) all.push_back(pu.os_index);
  const std::vector<int> one = placement(topology, 1);
  const auto threads = static_cast<int>(all.size());
  const likwid::Kernels kernels = likwid::kernels_for_this_cpu();
  const std::int64_t bytes = probes::triad_bytes();
  std::printf("%s (%s, %s), Ladder's probe (%d doubles an FMA, %d chains); triad over %lld MiB; %s\n\n",
              likwid::version(*bench).c_str(), kernels.peak.c_str(), kernels.triad.c_str(),
              probes::fma_lanes(), probes::fma_chains(), static_cast<long long>(bytes >> 20),
              topology.describe().c_str());
  const auto fma = [&](const std::vector<int>& cpus) {
    return Reading{"FMA peak, " + std::to_string(cpus.size()) + " thread(s)", "GFLOP/s",
                   [&, cpus] {
                     return likwid::run_figure(
                         *bench, likwid::peak_arguments(kernels, static_cast<int>(cpus.size())), "MFlops/s");
                   },
                   [cpus] { return probes::fma_peak(cpus, 1).front(); }};
  };
  const auto triad = [&](const std::vector<int>& cpus) {
    return Reading{"triad bandwidth, " + std::to_string(cpus.size()) + " thread(s)", "GB/s",
                   [&, cpus] {
                     return likwid::run_figure(
                         *bench, likwid::triad_arguments(kernels, static_cast<int>(cpus.size()), bytes),
                         "MByte/s");
                   },
                   [&, cpus] { return probes::triad_bandwidth(cpus, bytes, 1).front(); }};
  };
  const bool fma_agrees = compare(fma(one), pairs);
  if (threads > 1) compare(fma(all), pairs);
  const bool triad_agrees = compare(triad(one), pairs);
  if (threads > 1) compare(triad(all), pairs);
  std::printf("\none core: FMA peak %s, triad %s within 15 %% (bests)\n",
              fma_agrees ? "agrees" : "does not agree", triad_agrees ? "agrees" : "does not agree");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const int pairs = argc > 1 ? std::atoi(argv[1]) : 8;
    if (pairs < 1) {
      std::fprintf(stderr, "usage: ladder_limits_bench [PAIRS]  (PAIRS: a whole number from 1, not '%s')\n",
                   argv[1]);
      return 2;
    }
    return run(pairs);
  } catch (const std::exception& failure) {
    std::fprintf(stderr, "ladder_limits_bench: %s\n", failure.what());
    return 1;
  }
}
