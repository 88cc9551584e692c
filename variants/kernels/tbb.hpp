// Rung 9 — tbb: the xsimd kernel on every core through oneTBB's task scheduler. parallel_reduce splits the
// index range recursively, runs the kernel on the pieces and joins the partial sums as a tree; the
// task_arena caps the threads, and an observer pins each of them to the CPU the harness placed it on
// (tbb_pinning.hpp): oneTBB itself never pins. Splitting follows the load, so the sum's order — and its last
// bits — vary from run to run; parallel_deterministic_reduce splits the same way every time and gives the
// same bits at every thread count, for a little lost balance.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "simd_kernel.hpp"
#include "tbb_pinning.hpp"

namespace ladder {

inline constexpr std::int64_t tbb_grain = 1 << 16;

struct TbbOptions {
  int threads = 1;            // the task arena's threads
  std::vector<int> cpus{};    // the CPU for arena slot i; empty: not pinned
  bool reproducible = false;  // parallel_deterministic_reduce: the same bits at every thread count
};

// The midpoint rule: the integral of f over [a, b] with n nodes.
template <simd::Integrand F>
double tbb(F f, double a, double b, std::int64_t n, const TbbOptions& options = {}) {
  const double step = (b - a) / static_cast<double>(n);
  const tbb::blocked_range<std::int64_t> nodes(0, n, tbb_grain);
  auto partial_sum = [&](const tbb::blocked_range<std::int64_t>& range, double sum) {
    return sum + simd::block_sum(f, a, step, range.begin(), range.end());
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
