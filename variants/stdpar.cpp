// Rung 10 — stdpar: the std-algorithms rung with one argument more. std::execution::par_unseq lets the
// standard library run transform_reduce on every core (libstdc++ does it with oneTBB underneath); the
// task_arena caps the threads, pinned as on tbb (tbb_pinning.hpp). No pragma, no SIMD code — and no SIMD exp
// either: the cheapest way onto all cores, not the fastest. The index iterator is the one trap: see
// counting_iterator.hpp.
#include <tbb/task_arena.h>

#include <cstdint>
#include <execution>
#include <functional>
#include <numeric>

#include "counting_iterator.hpp"
#include "tbb_pinning.hpp"
#include "tier.hpp"

namespace {

template <class F>
double integrate(F f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions& options) {
  const double step = (ab.b - ab.a) / static_cast<double>(n);
  const ladder::CountingIterator first(0), last(n);
  tbb::task_arena arena(options.threads);
  const ladder::PinThreads pin(arena, options.cpus);  // thread i on cpus[i], when the caller placed them
  const double sum = arena.execute([&] {
    return std::transform_reduce(
        std::execution::par_unseq, first, last, 0.0, std::plus<>{},
        [=](std::int64_t i) { return f(ab.a + (static_cast<double>(i) + 0.5) * step); });
  });
  return sum * step;
}

const ladder::Registration registration{
    {.id = "stdpar",
     .rung = 10,
     .summary = "std::transform_reduce with std::execution::par_unseq (libstdc++ on oneTBB)",
     .libraries = {"oneTBB (libstdc++ parallel backend)"},
     .concepts = {"standard algorithms", "execution policies", "iterator categories", "task arenas",
                  "pinning threads with a task_scheduler_observer"},
     .learning_time = ladder::LearningTime::hours,
     .parallel = true,
     .reproducible = ladder::Reproducible::never,
     .summation = "leaf ranges chosen by the library, joined as a tree",
     .summation_depth = ladder::sequential_depth,
     .note = "par_unseq spreads the work over cores but does not vectorize it here: GCC 12's libstdc++ "
             "asks for SIMD only under -fopenmp-simd, and exp has no vector version without -ffast-math "
             "(the build's disassembly shows a scalar loop calling exp)"},
    [](auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions& options) {
      return integrate(f, ab, n, options);
    }};

}  // namespace
