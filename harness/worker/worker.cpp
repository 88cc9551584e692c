#include "worker.hpp"

#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <functional>
#include <map>
#include <new>
#include <string>
#include <vector>

#include "atomic_file.hpp"
#include "build_info.hpp"
#include "counters.hpp"
#include "distributed.hpp"
#include "errors.hpp"
#include "heap_counter.hpp"
#include "json_reader.hpp"
#include "parse.hpp"
#include "process_stats.hpp"
#include "reference.hpp"
#include "registry.hpp"
#include "timeline.hpp"
#include "worker_spec.hpp"

namespace ladder {
namespace {

using nlohmann::json;

// Copies every run Google Benchmark reports, repetitions and aggregates alike.
class CopyingReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    copied.insert(copied.end(), runs.begin(), runs.end());
  }
  std::vector<Run> copied;
};

// Every result the kernel returned while it was timed: the same bits every time, or not.
struct ResultLog {
  double first = 0;
  bool any = false;
  std::vector<std::uint64_t> distinct;

  void add(double result) {
    const auto bits = std::bit_cast<std::uint64_t>(result);
    if (!any) first = result, any = true;
    if (distinct.size() < 16 && std::find(distinct.begin(), distinct.end(), bits) == distinct.end())
      distinct.push_back(bits);
  }
};

// Whether a library that allocates behind malloc's back is loaded: oneTBB loads its own scalable
// allocator (libtbbmalloc) when it is installed, and what it takes from the OS is not counted.
bool tbbmalloc_loaded() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line))
    if (line.find("libtbbmalloc") != std::string::npos) return true;
  return false;
}

// LADDER_TEST_SLOWDOWN="TIER=FACTOR[,TIER=FACTOR…]", a switch for tests only (the end-to-end test of
// `ladder history check`): the tier's timed call makes the kernel FACTOR times, so its time and its work
// grow alike; the cell records it (extra "test_slowdown") and the run warns of it. Unset or empty: 1.
int test_slowdown(const std::string& tier) {
  const auto factors = parse_name_counts("LADDER_TEST_SLOWDOWN", std::getenv("LADDER_TEST_SLOWDOWN"),
                                         "TIER=FACTOR (a factor from 1 to 999)", 999);
  const auto named = factors.find(tier);
  return named == factors.end() ? 1 : named->second;
}

Memory memory_of_one_call(const std::function<double(std::int64_t)>& call, std::int64_t n) {
  const bool reset = process::reset_peak_rss();
  const auto rss_before = process::status_bytes("VmRSS").value_or(0);
  const auto usage_before = process::self_usage();
  Timeline timeline;  // its thread starts now, outside the heap window
  heap::start();
  timeline.start();
  double result = call(n);
  benchmark::DoNotOptimize(result);
  const heap::Window heap = heap::read();
  const json over_time = timeline.stop();  // joined: not among the threads placed below
  const auto usage_after = process::self_usage();
  const auto peak_rss = process::status_bytes("VmHWM");

  Memory memory;
  memory.peak_heap_bytes = static_cast<double>(heap.peak_bytes);
  memory.allocations = static_cast<double>(heap.allocations);
  memory.peak_rss_bytes = peak_rss ? std::optional<double>(static_cast<double>(*peak_rss)) : std::nullopt;
  memory.peak_rss_growth_bytes =
      peak_rss ? std::optional<double>(static_cast<double>(*peak_rss) - static_cast<double>(rss_before))
               : std::nullopt;
  memory.minor_faults = static_cast<double>(usage_after.minor_faults - usage_before.minor_faults);
  memory.major_faults = static_cast<double>(usage_after.major_faults - usage_before.major_faults);
  memory.extra = {
      {"allocated_bytes", heap.allocated_bytes},
      {"rss_before_bytes", rss_before},
      {"peak_rss_method", reset ? "VmHWM after a clear_refs reset, one call"
                                : "VmHWM over the worker's life (clear_refs refused)"},
      {"heap_method", "malloc family interposed, one call after the warm-up, before the timed runs"},
  };
  const auto placement = process::thread_placement();  // the runtime's threads are still alive here
  memory.thread_placement = placement;
  memory.timeline = read_timeline(JsonReader(over_time, "timeline"));
  if (tbbmalloc_loaded())
    memory.extra["heap_note"] =
        "oneTBB's scalable allocator (libtbbmalloc) is loaded; what it maps is not counted";
  return memory;
}

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// One call of the kernel at n, in seconds.
double timed_call(const distributed::KernelCall& call, std::int64_t n) {
  const auto start = Clock::now();
  double result = call(n);
  benchmark::DoNotOptimize(result);
  return seconds_since(start);
}

// The warm-up, every round's: the kernel's runtime started (its threads, its pools) and its code brought
// in, then calls until `seconds` have passed. Two calls at a size of at most 1e5 start the runtime and time
// a node; a cell whose call would outlast the warm-up (n = 1e8 on a slow tier) warms up at the size that
// takes about the warm-up's time, so the warm-up costs its minimum, not whole calls. Returns the fastest
// warm call at the cell's own n, when one was made.
std::optional<double> warm_up(const distributed::KernelCall& call, std::int64_t n, double seconds) {
  const auto start = Clock::now();
  const std::int64_t probe = std::min<std::int64_t>(n, 100'000);
  timed_call(call, probe);  // cold: the runtime starts
  const double warm = timed_call(call, probe);
  std::optional<double> fastest = probe == n ? std::optional<double>(warm) : std::nullopt;
  const double node = warm / static_cast<double>(probe);
  const auto size = node * static_cast<double>(n) <= seconds
                        ? n
                        : std::max(probe, static_cast<std::int64_t>(seconds / std::max(node, 1e-12)));
  while (seconds_since(start) < seconds) {
    const double took = timed_call(call, size);
    if (size == n) fastest = std::min(fastest.value_or(took), took);
  }
  return fastest;
}

// A repetition's calls, one at least: 1.25 × the minimum time over the fastest warm call. The timed calls
// run about a tenth slower than the fastest (a 2-vCPU VM: a repetition came to 1.46-1.54 × the minimum
// time aimed at 1.4 ×), so a repetition comes to about the 1.4 × Google Benchmark's own sizing aims at.
std::int64_t iterations_for(double call_seconds, double min_time) {
  const double calls = std::ceil(1.25 * min_time / std::max(call_seconds, 1e-9));
  return static_cast<std::int64_t>(std::clamp(calls, 1.0, 1e9));
}

// The first round's passes, once a cell: the memory of one call and its hardware counters. Returns the
// memory pass's call in seconds (a call at n, warm: the warm-up came first).
double first_round_passes(Measurement& measurement, const distributed::KernelCall& call, std::int64_t n) {
  const auto start = Clock::now();
  measurement.memory = memory_of_one_call(call, n);
  const double seconds = seconds_since(start);
  measurement.counters = read_counters(JsonReader(counters::hardware(
                                                      [&] {
                                                        double result = call(n);
                                                        benchmark::DoNotOptimize(result);
                                                      },
                                                      n),
                                                  "counters"));
  return seconds;
}

}  // namespace

void record_reference(Measurement& measurement, double result, const Reference& ref, double bound) {
  const auto finite = [](long double value) -> std::optional<double> {
    return std::isfinite(value) ? std::optional<double>(static_cast<double>(value)) : std::nullopt;
  };
  const long double rounding_abs = result - ref.midpoint;
  measurement.result = result;
  measurement.exact = ref.exact ? finite(*ref.exact) : std::nullopt;
  measurement.midpoint = finite(ref.midpoint);
  measurement.exact_method = ref.exact_method;
  measurement.exact_error_estimate =
      ref.exact_error_estimate ? std::optional<double>(static_cast<double>(*ref.exact_error_estimate))
                               : std::nullopt;
  measurement.reference_notes = ref.notes;
  measurement.rel_error = relative_error(result, ref.exact);
  measurement.rounding_error = relative_error(result, ref.midpoint);
  measurement.rounding_bound = finite(bound);
  // A result or a midpoint sum that is not finite is never within the bound (the comparison is false).
  measurement.within_rounding_bound = std::fabs(rounding_abs) <= bound;
  measurement.extra["midpoint_method"] = ref.midpoint_method;
  measurement.extra["rounding_abs_error"] =
      finite(rounding_abs) ? json(static_cast<double>(rounding_abs)) : json(nullptr);
}

Measurement measure_cell(const CellKey& cell, const Matrix& matrix, const std::optional<Reference>& computed,
                         const std::vector<int>& cpus, const std::optional<std::int64_t>& iterations) {
  const Tier& tier = find_tier(cell.tier);
  const std::size_t integrand = find_integrand(cell.integrand);
  const Interval ab{cell.a, cell.b};
  // The tiers whose runtime cannot be told where its threads go (oneTBB's) pin them to these; the others
  // are held by the worker's mask and OMP_PLACES (thread_binding.hpp).
  const RunOptions options{cell.threads, cell.reproducible_requested, cpus};
  if (const auto reason = unavailable_reason(tier); !reason.empty())
    throw Unavailable("tier '" + tier.card.id + "' cannot run on this machine: " + reason);

  // A distributed tier's other ranks make each call too: rank 0 tells them first (distributed.hpp).
  const distributed::KernelCall one_call = [&](std::int64_t n) {
    return integrate(tier, integrand, ab, n, options);
  };
  const distributed::KernelCall call = tier.card.distributed ? distributed::lead(one_call) : one_call;

  const int slowdown = test_slowdown(cell.tier);
  ResultLog results;
  std::exception_ptr failure;
  benchmark::internal::Benchmark* registered =
      benchmark::RegisterBenchmark(cell_name(cell).c_str(), [&](benchmark::State& state) {
        for (auto _ : state) {
          std::int64_t n = cell.n;
          benchmark::DoNotOptimize(n);  // n is not a constant to fold or hoist
          try {
            double result = call(n);
            benchmark::DoNotOptimize(result);
            results.add(result);
            for (int again = 1; again < slowdown; ++again) {
              double repeated = call(n);
              benchmark::DoNotOptimize(repeated);
            }
          } catch (...) {
            failure = std::current_exception();
            state.SkipWithError("the kernel threw");
            break;
          }
        }
      });
  registered->UseRealTime()
      ->MeasureProcessCPUTime()  // every thread's CPU time, user and system
      ->Unit(benchmark::kNanosecond)
      ->Repetitions(matrix.repetitions);
  // Every round warms up by itself (warm_up), for its share of the warm-up time: like the repetitions, the
  // preset's warm-up is shared among the rounds, each a fresh process whose runtime the two small calls
  // start. The first round then makes the cell's once-only passes, memory and counters, each one call at n,
  // and sizes the repetitions from its warm calls; a later round keeps the first round's iterations. Google
  // Benchmark times the repetitions alone: no warm-up, no sizing.
  const std::optional<double> warm =
      warm_up(call, cell.n, matrix.min_warmup_time / std::max(1, matrix.rounds));
  Measurement measurement;
  std::int64_t calls = iterations.value_or(0);
  if (!iterations) {
    const double pass = first_round_passes(measurement, call, cell.n);
    const double sized_from = slowdown * std::min(warm.value_or(pass), pass);
    calls = iterations_for(sized_from, matrix.min_time);
    measurement.extra["sized_from_call_seconds"] = sized_from;  // the call the iterations were sized from
  }
  registered->Iterations(calls);

  CopyingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::ClearRegisteredBenchmarks();
  if (failure) std::rethrow_exception(failure);

  for (const auto& run : reporter.copied) {
    if (run.error_occurred) throw ToolFailed("Google Benchmark reported: " + run.error_message);
    if (run.run_type != benchmark::BenchmarkReporter::Run::RT_Iteration) continue;  // its own statistics
    measurement.repetitions.push_back({static_cast<int>(run.repetition_index), run.iterations,
                                       run.GetAdjustedRealTime(), run.GetAdjustedCPUTime()});
    measurement.measured_seconds += run.real_accumulated_time;
  }
  if (measurement.repetitions.empty()) throw ToolFailed("Google Benchmark reported no repetitions");
  measurement.aggregates = aggregate(measurement.repetitions);

  const auto& info = integrands()[integrand];
  const Reference ref = computed ? *computed : reference(info, ab, cell.n);
  const auto& build = build_info();
  record_reference(measurement, results.first, ref, rounding_bound(tier.card, ref, cell.n, cell.threads));
  // A tier that dispatches on the CPU ran the path it chose here, not necessarily the build's own.
  measurement.instruction_set = tier.card.runtime_path ? tier.card.runtime_path() : build.instruction_set;
  if (tier.card.runtime_path) measurement.extra["dispatched_to"] = measurement.instruction_set;
  measurement.extra["distinct_results"] = results.distinct.size();
  measurement.extra["simd_width"] = build.simd_width;
  if (slowdown > 1) measurement.extra["test_slowdown"] = slowdown;
  measurement.bit_identical = results.distinct.size() == 1;
  return measurement;
}

int run_worker(const std::string& cell_json, const std::string& result_file) {
  const json document = parse_json(cell_json, "the cell's spec");
  const JsonReader in(document, "spec");
  // Google Benchmark's random interleaving shuffles the repetitions of the benchmarks a process runs;
  // a worker runs one, so `ladder run` shuffles the cells themselves, round by round (rounds.hpp). No
  // warm-up by flag: the first round's is its benchmark's MinWarmUpTime, a later round's its own (warm_up).
  std::string program = "ladder-worker", interleave = "--benchmark_enable_random_interleaving=true";
  std::string warmup = "--benchmark_min_warmup_time=0";
  char* arguments[] = {program.data(), interleave.data(), warmup.data(), nullptr};
  int count = 3;
  benchmark::Initialize(&count, arguments);

  const CellKey cell = read_cell_key(in.at("cell"));  // all a follower needs
  const Tier& tier = find_tier(cell.tier);
  const bool distributed = tier.card.distributed;
  if (distributed) {  // a follower makes rank 0's calls and writes nothing
    const std::size_t integrand = find_integrand(cell.integrand);
    if (distributed::follow_leader([&](std::int64_t n) {
          return integrate(tier, integrand, {cell.a, cell.b}, n, {cell.threads, cell.reproducible_requested});
        }))
      return 0;
  }

  json outcome;
  int exit_code = 0;
  try {
    const WorkerSpec spec = read_worker_spec(in);
    outcome = measure_cell(spec.cell, spec.matrix, spec.reference, spec.cpus, spec.iterations);
    outcome["status"] = CellStatus::ok;
  } catch (const std::bad_alloc&) {
    rlimit limit{};
    getrlimit(RLIMIT_DATA, &limit);
    const std::string within =
        limit.rlim_cur == RLIM_INFINITY
            ? std::string("with no limit set")
            : "within the cell's limit of " + std::to_string(limit.rlim_cur >> 20) +
                  " MiB (90 % of the memory available when it started, plus room for threads)";
    outcome = {{"status", CellStatus::out_of_memory},
               {"reason", "out of memory: an allocation failed (std::bad_alloc) " + within}};
    exit_code = worker_out_of_memory;
  } catch (const std::length_error& error) {
    outcome = {
        {"status", CellStatus::out_of_memory},
        {"reason", std::string("out of memory: more than a container can hold (") + error.what() + ")"}};
    exit_code = worker_out_of_memory;
  } catch (const Unavailable& error) {
    outcome = {{"status", CellStatus::unavailable}, {"reason", error.what()}};
    exit_code = worker_failed;
  } catch (const std::exception& error) {
    outcome = {{"status", CellStatus::failed}, {"reason", std::string("the kernel threw: ") + error.what()}};
    exit_code = worker_failed;
  }
  if (distributed) {
    if (distributed::size() > 1)
      outcome["ranks_measured"] =
          "timing and errors from rank 0, which waits for the "
          "slowest rank in the reduction; memory of rank 0";
    distributed::release_followers();
  }
  try {
    write_file_atomically(result_file, outcome.dump() + "\n");
  } catch (const WriteError& failure) {  // a full disk: the runner records the cell as failed, with this
    std::fprintf(stderr, "ladder worker: %s\n", failure.what());
    return worker_failed;
  }
  return exit_code;
}

}  // namespace ladder
