// Rung 15 — tbb-tuned: the tbb tier's driver over the tuned-exp kernel. parallel_reduce splits the nodes
// into tasks and joins their partial sums as a tree; each task runs the xsimd kernel with the
// hand-written exp (tuned_exp.hpp). parallel_deterministic_reduce, on request, gives the same bits at
// every thread count. The arena's threads are pinned as on tbb (tbb_pinning.hpp).
#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

#include <cstdint>
#include <functional>

#include "simd_kernel.hpp"
#include "tbb_pinning.hpp"
#include "tier.hpp"
#include "tuned_exp.hpp"

namespace {

constexpr std::int64_t grain = 1 << 16;

template <class F>
double integrate(F f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions& options) {
  const double step = (ab.b - ab.a) / static_cast<double>(n);
  const tbb::blocked_range<std::int64_t> nodes(0, n, grain);
  const auto tuned_f = ladder::tuned::with_tuned_exp(f);
  auto partial_sum = [&](const tbb::blocked_range<std::int64_t>& range, double sum) {
    return sum + ladder::simd::block_sum(tuned_f, ab.a, step, range.begin(), range.end());
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
    {.id = "tbb-tuned",
     .rung = 15,
     .summary = "oneTBB parallel_reduce over the tuned-exp kernel (gauss); the other integrands as on tbb",
     .libraries = {"xsimd 8.1", "oneTBB"},
     .concepts = {"SIMD batch types", "task-parallel runtime", "parallel reduction trees", "task arenas",
                  "pinning threads with a task_scheduler_observer", "range reduction",
                  "polynomial evaluation schemes", "IEEE 754 bit manipulation", "ulp error analysis",
                  "AVX-512 intrinsics"},
     .learning_time = ladder::LearningTime::days,
     .evaluates = ladder::Evaluates::tuned_batches,
     .parallel = true,
     .reproducible = ladder::Reproducible::on_request,
     .summation = "SIMD lanes within each task's range, partial sums joined as a tree",
     .summation_depth = tree_depth,
     .note = ladder::tuned::integrands_note,
     .max_ulp_error = ladder::tuned::max_ulp_error},
    [](ladder::tuned::Integrand auto f, ladder::Interval ab, std::int64_t n,
       const ladder::RunOptions& options) { return integrate(f, ab, n, options); }};

}  // namespace
