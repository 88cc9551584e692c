// Rung 10 — stdpar: the std-algorithms rung with one argument more. std::execution::par_unseq lets the
// standard library run transform_reduce on every core (libstdc++ does it with oneTBB underneath); the
// task_arena caps the threads, pinned as on tbb (tbb_pinning.hpp). No pragma, no SIMD code — and no SIMD exp
// either: the cheapest way onto all cores, not the fastest. The index iterator is the one trap: see
// counting_iterator.hpp.
#pragma once

#include <tbb/task_arena.h>

#include <cstdint>
#include <execution>
#include <functional>
#include <numeric>
#include <vector>

#include "counting_iterator.hpp"
#include "tbb_pinning.hpp"

namespace ladder {

struct StdparOptions {
  int threads = 1;          // the task arena's threads, which libstdc++'s parallel algorithms run on
  std::vector<int> cpus{};  // the CPU for arena slot i; empty: not pinned
};

// The midpoint rule: the integral of f over [a, b] with n nodes.
template <class F>
double stdpar(F f, double a, double b, std::int64_t n, const StdparOptions& options = {}) {
  const double step = (b - a) / static_cast<double>(n);
  const CountingIterator first(0), last(n);
  tbb::task_arena arena(options.threads);
  const PinThreads pin(arena, options.cpus);  // thread i on cpus[i], when the caller placed them
  const double sum = arena.execute([&] {
    return std::transform_reduce(
        std::execution::par_unseq, first, last, 0.0, std::plus<>{},
        [=](std::int64_t i) { return f(a + (static_cast<double>(i) + 0.5) * step); });
  });
  return sum * step;
}

}  // namespace ladder
