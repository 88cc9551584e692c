// Rung 15 — tbb-tuned: the tbb tier's driver over the tuned-exp kernel. parallel_reduce splits the nodes
// into tasks and joins their partial sums as a tree; each task runs the xsimd kernel with the
// hand-written exp (tuned_exp_math.hpp). parallel_deterministic_reduce, on request, gives the same bits at
// every thread count. The arena's threads are pinned as on tbb (tbb_pinning.hpp).
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "simd_kernel.hpp"
#include "tbb_pinning.hpp"
#include "tuned_exp_math.hpp"

namespace ladder {

inline constexpr std::int64_t tbb_tuned_grain = 1 << 16;

struct TbbTunedOptions {
  int threads = 1;            // the task arena's threads
  std::vector<int> cpus{};    // the CPU for arena slot i; empty: not pinned
  bool reproducible = false;  // parallel_deterministic_reduce: the same bits at every thread count
};

// The midpoint rule: the integral of f over [a, b] with n nodes.
template <tuned::Integrand F>
double tbb_tuned(F f, double a, double b, std::int64_t n, const TbbTunedOptions& options = {}) {
  const double step = (b - a) / static_cast<double>(n);
  const tbb::blocked_range<std::int64_t> nodes(0, n, tbb_tuned_grain);
  const auto tuned_f = tuned::with_tuned_exp(f);
  auto partial_sum = [&](const tbb::blocked_range<std::int64_t>& range, double sum) {
    return sum + simd::block_sum(tuned_f, a, step, range.begin(), range.end());
  };

  tbb::task_arena arena(options.threads);
  const PinThreads pin(arena, options.cpus);  // thread i on cpus[i], when the caller placed them
  const double sum = arena.execute([&] {
    return options.reproducible ? tbb::parallel_deterministic_reduce(nodes, 0.0, partial_sum, std::plus<>{})
                                : tbb::parallel_reduce(nodes, 0.0, partial_sum, std::plus<>{});
  });
  return sum * step;
}

}  // namespace ladder
