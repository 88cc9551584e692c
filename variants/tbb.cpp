// Rung 9 — tbb: the xsimd kernel on every core through oneTBB's task scheduler. parallel_reduce splits the
// index range recursively, runs the kernel on the pieces and joins the partial sums as a tree; the
// task_arena caps the threads, and an observer pins each of them to the CPU the harness placed it on
// (tbb_pinning.hpp): oneTBB itself never pins. Splitting follows the load, so the sum's order — and its last
// bits — vary from run to run; parallel_deterministic_reduce splits the same way every time and gives the
// same bits at every thread count, for a little lost balance.
#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

#include <cstdint>
#include <functional>

#include "simd_kernel.hpp"
#include "tbb_pinning.hpp"
#include "tier.hpp"

namespace {

constexpr std::int64_t grain = 1 << 16;

template <class F>
double integrate(F f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions& options) {
  const double step = (ab.b - ab.a) / static_cast<double>(n);
  const tbb::blocked_range<std::int64_t> nodes(0, n, grain);
  auto partial_sum = [&](const tbb::blocked_range<std::int64_t>& range, double sum) {
    return sum + ladder::simd::block_sum(f, ab.a, step, range.begin(), range.end());
  };

  tbb::task_arena arena(options.threads);
  const ladder::PinThreads pin(arena, options.cpus);  // thread i on cpus[i], when the caller placed them
  const double sum = arena.execute([&] {
    return options.reproducible ? tbb::parallel_deterministic_reduce(nodes, 0.0, partial_sum, std::plus<>{})
                                : tbb::parallel_reduce(nodes, 0.0, partial_sum, std::plus<>{});
  });
  return sum * step;
}

// The auto partitioner may hand one task a large range, so a leaf can be long: count it as lanes.
double tree_depth(std::int64_t n, int) {
  const auto lanes = ladder::simd::accumulators * ladder::simd::width;
  return static_cast<double>(n / lanes + lanes);
}

const ladder::Registration registration{
    {.id = "tbb",
     .rung = 9,
     .summary = "oneTBB parallel_reduce over the xsimd kernel (deterministic reduce on request)",
     .libraries = {"xsimd 8.1", "oneTBB"},
     .concepts = {"SIMD batch types", "task-parallel runtime", "parallel reduction trees", "task arenas",
                  "pinning threads with a task_scheduler_observer"},
     .learning_time = ladder::LearningTime::days,
     .evaluates = ladder::Evaluates::simd_batches,
     .parallel = true,
     .reproducible = ladder::Reproducible::on_request,
     .summation = "SIMD lanes within each task's range, partial sums joined as a tree",
     .summation_depth = tree_depth},
    [](ladder::simd::Integrand auto f, ladder::Interval ab, std::int64_t n,
       const ladder::RunOptions& options) { return integrate(f, ab, n, options); }};

}  // namespace
