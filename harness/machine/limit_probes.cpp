// Ladder's own probes of the machine's limits (limit_probes.hpp): the FMA chain, the triad, and the pinned
// threads that run them together.
#include "limit_probes.hpp"

#include <sched.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <set>
#include <thread>
#include <utility>
#include <xsimd/xsimd.hpp>

#include "errors.hpp"
#include "process_stats.hpp"
#include "text.hpp"

namespace ladder::probes {
namespace {

using Batch = xsimd::batch<double>;
using Clock = std::chrono::steady_clock;

// 32 vector registers (AVX-512) hold 16 chains and the two constants; 16 (AVX2, SSE) hold 12 and them.
constexpr int chains = Batch::size == 8 ? 16 : 12;

// `iterations` FMAs on each of `chains` independent accumulators, which stay in registers: a chain's next
// FMA waits for its last (the latency), so only many chains keep both FMA pipes busy. acc·m + c with
// m < 1 settles at c / (1 − m) = 1: no overflow, no subnormals. No chain starts at 1, which the compiler
// would see is a fixed point and drop.
template <std::size_t... chain>
double fma_chains(std::int64_t iterations, std::index_sequence<chain...>) {
  Batch accumulators[] = {Batch(1.001 + 0.001 * chain)...};
  const Batch m(0.999'999), c(0.000'001);
  for (std::int64_t i = 0; i < iterations; ++i)
    ((accumulators[chain] = xsimd::fma(accumulators[chain], m, c)), ...);
  return xsimd::hadd((accumulators[chain] + ...));
}

double run_fma_chains(std::int64_t iterations) {
  return fma_chains(iterations, std::make_index_sequence<chains>());
}

// The triad over [begin, end) of the four arrays, a batch at a time (the arrays are aligned, the bounds are
// multiples of a batch).
void triad(double* a, const double* b, const double* c, const double* d, std::int64_t begin,
           std::int64_t end) {
  for (std::int64_t i = begin; i < end; i += Batch::size)
    xsimd::fma(Batch::load_aligned(c + i), Batch::load_aligned(d + i), Batch::load_aligned(b + i))
        .store_aligned(a + i);
}

// One thread pinned to each of `cpus`. Each runs `setup(index)` once, then rounds of `work(index)`, all
// threads starting a round together; after each round, while the others wait, `between(seconds)` (the
// round's wall time, first start to last finish) says whether to run another.
void run_pinned(const std::vector<int>& cpus, const std::function<void(std::size_t)>& setup,
                const std::function<void(std::size_t)>& work, const std::function<bool(double)>& between) {
  std::barrier sync(static_cast<std::ptrdiff_t>(cpus.size()));
  bool stop = false;
  Clock::time_point started;
  std::atomic<int> unpinned{-1}, pin_error{0};
  std::vector<std::thread> threads;
  for (std::size_t index = 0; index < cpus.size(); ++index)
    threads.emplace_back([&, index] {
      cpu_set_t one;
      CPU_ZERO(&one);
      CPU_SET(cpus[index], &one);
      if (sched_setaffinity(0, sizeof one, &one) != 0)
        pin_error = errno, unpinned = cpus[index];  // 0: this thread
      setup(index);
      for (;;) {
        sync.arrive_and_wait();  // `stop` and the work's settings are written before this, by thread 0
        if (stop) return;
        if (index == 0) started = Clock::now();
        work(index);
        sync.arrive_and_wait();
        if (index == 0) stop = !between(std::chrono::duration<double>(Clock::now() - started).count());
      }
    });
  for (auto& thread : threads) thread.join();
  if (unpinned >= 0)
    throw ToolFailed("Ladder's probe cannot pin a thread to CPU " + std::to_string(unpinned.load()) + ": " +
                     std::strerror(pin_error.load()));
}

std::int64_t size_bytes(const std::string& text) {  // "32768K", as /sys says a cache's size
  const std::int64_t number = std::atoll(text.c_str());
  const char unit = text.empty() ? ' ' : text.back();
  return unit == 'K' ? number << 10 : unit == 'M' ? number << 20 : unit == 'G' ? number << 30 : number;
}

std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// The sum of the machine's last-level caches, each counted once (by the CPUs that share it).
std::int64_t last_level_cache_bytes() {
  namespace fs = std::filesystem;
  int deepest = 0;
  std::set<std::string> seen;
  std::int64_t total = 0;
  std::error_code error;
  for (const auto& cpu : fs::directory_iterator("/sys/devices/system/cpu", error)) {
    const std::string name = cpu.path().filename();
    if (name.rfind("cpu", 0) != 0 || name.size() < 4 || !std::isdigit(static_cast<unsigned char>(name[3])))
      continue;
    for (int index = 0; fs::exists(cpu.path() / ("cache/index" + std::to_string(index))); ++index) {
      const std::string dir = (cpu.path() / ("cache/index" + std::to_string(index))).string() + "/";
      if (read_first_line(dir + "type") == "Instruction") continue;
      const int level = std::atoi(read_first_line(dir + "level").c_str());
      if (level < deepest) continue;
      if (level > deepest) deepest = level, seen.clear(), total = 0;
      if (seen.insert(read_first_line(dir + "shared_cpu_list")).second)
        total += size_bytes(read_first_line(dir + "size"));
    }
  }
  return total;
}

}  // namespace

int fma_lanes() { return static_cast<int>(Batch::size); }
int fma_chains() { return chains; }

std::vector<double> fma_peak(const std::vector<int>& cpus, int runs, double seconds) {
  std::int64_t iterations = 1 << 14;
  std::vector<double> figures;
  bool warm = false;
  std::vector<double> sinks(cpus.size());  // the chains' results, so that they are computed
  run_pinned(
      cpus, [](std::size_t) {}, [&](std::size_t index) { sinks[index] += run_fma_chains(iterations); },
      [&](double elapsed) {
        if (!warm) {  // warm-up rounds (the vector units' clock settles), growing to the run's length
          warm = elapsed >= seconds / 2;
          const double growth = std::clamp(seconds / elapsed, 1.0, 1000.0);
          iterations = static_cast<std::int64_t>(static_cast<double>(iterations) * growth);
          return true;
        }
        const double flops = 2.0 * Batch::size * chains * static_cast<double>(iterations) * cpus.size();
        figures.push_back(flops / elapsed / 1e9);
        return static_cast<int>(figures.size()) < runs;
      });
  volatile double sink = 0;
  for (double each : sinks) sink = sink + each;
  return figures;
}

std::string fma_method(int threads) {
  return "an FMA chain on xsimd's batch<double> (" + std::to_string(Batch::size) + " doubles, " +
         std::string(xsimd::default_arch::name()) + "): " + std::to_string(chains) +
         " independent accumulators in registers" +
         (threads == 1 ? std::string(" on 1 pinned thread")
                       : " on each of " + std::to_string(threads) + " pinned threads") +
         ", counted as 2 FLOPs a lane an FMA; each run about 30 ms after warm-up runs";
}

std::int64_t triad_bytes() {
  constexpr std::int64_t floor = std::int64_t{512} << 20, ceiling = std::int64_t{8} << 30;
  std::int64_t bytes = std::clamp(16 * last_level_cache_bytes(), floor, ceiling);
  if (const auto available = process::available_memory(); available && *available > 0)
    bytes = std::min(bytes, std::max<std::int64_t>(*available / 4, std::int64_t{64} << 20));
  return bytes / (std::int64_t{1} << 20) << 20;  // whole MiB
}

std::vector<double> triad_bandwidth(const std::vector<int>& cpus, std::int64_t bytes, int runs) {
  // Each thread's share is a multiple of 64 elements, so every share starts on a cache line and a batch.
  const auto threads = static_cast<std::int64_t>(cpus.size());
  const std::int64_t share = bytes / 32 / threads / 64 * 64, elements = share * threads;
  // Each array on 2 MiB boundaries and offered to transparent huge pages: the first touch of gigabytes in
  // 4 KiB pages is a page fault every 512 doubles (12 s of system time for 4.8 GB on a VM that reports a
  // 300 MiB L3), in 2 MiB pages one every 262 144. A kernel that declines keeps 4 KiB pages, the same triad.
  constexpr std::size_t huge_page = std::size_t{2} << 20;
  const std::size_t array_bytes =
      (static_cast<std::size_t>(elements) * sizeof(double) + huge_page - 1) / huge_page * huge_page;
  const auto allocate = [&] {
    void* memory = std::aligned_alloc(huge_page, array_bytes);
    if (memory) madvise(memory, array_bytes, MADV_HUGEPAGE);
    return std::unique_ptr<double, decltype(&std::free)>(static_cast<double*>(memory), &std::free);
  };
  auto a = allocate(), b = allocate(), c = allocate(), d = allocate();
  if (!a || !b || !c || !d)
    throw ToolFailed("Ladder's triad probe cannot allocate " + std::to_string(bytes >> 20) + " MiB");
  std::vector<double> figures;
  int warm_ups = 1;
  run_pinned(
      cpus,
      [&](std::size_t index) {  // first touch: each thread's pages on its own NUMA node
        const std::int64_t begin = share * static_cast<std::int64_t>(index);
        std::fill(a.get() + begin, a.get() + begin + share, 0.0);
        std::fill(b.get() + begin, b.get() + begin + share, 1.0);
        std::fill(c.get() + begin, c.get() + begin + share, 2.0);
        std::fill(d.get() + begin, d.get() + begin + share, 0.5);
      },
      [&](std::size_t index) {
        const std::int64_t begin = share * static_cast<std::int64_t>(index);
        triad(a.get(), b.get(), c.get(), d.get(), begin, begin + share);
      },
      [&](double elapsed) {
        if (warm_ups > 0) return --warm_ups, true;
        figures.push_back(32.0 * static_cast<double>(elements) / elapsed / 1e9);
        return static_cast<int>(figures.size()) < runs;
      });
  if (a.get()[elements / 2] != 2.0)  // b + c·d: the stores happened
    throw ToolFailed("Ladder's triad probe computed " + format_number("%g", a.get()[elements / 2]) +
                     ", not 2");
  return figures;
}

std::string triad_method(int threads, std::int64_t bytes) {
  return "a triad a[i] = b[i] + c[i]·d[i] on xsimd's batch<double> over four arrays of " +
         std::to_string(bytes / 4 >> 20) + " MiB each (" + std::to_string(bytes >> 20) +
         " MiB in all, at least 16 times the last-level cache where memory allows), split over " +
         std::to_string(threads) +
         (threads == 1 ? " pinned thread" : " pinned threads, each first touching its share") +
         "; counted as likwid-bench counts its triad, 32 bytes an element (the stores' write-allocate reads "
         "not "
         "counted); one pass a run after a warm-up pass";
}

}  // namespace ladder::probes
