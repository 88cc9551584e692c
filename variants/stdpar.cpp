// Rung 10 — stdpar: the card; the kernel is kernels/stdpar.hpp.
#include "kernels/stdpar.hpp"

#include <cstdint>

#include "tier.hpp"

namespace {

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
      return ladder::stdpar(f, ab.a, ab.b, n, {.threads = options.threads, .cpus = options.cpus});
    }};

}  // namespace
