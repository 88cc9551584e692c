// Rung 9 — tbb: the card; the kernel is kernels/tbb.hpp.
#include "kernels/tbb.hpp"

#include <cstdint>

#include "simd_integrands.hpp"
#include "tier.hpp"

namespace {

const ladder::Registration registration{
    {.id = "tbb",
     .rung = 9,
     .summary = "oneTBB parallel_reduce over the xsimd kernel (deterministic reduce on request)",
     .libraries = {"xsimd 8.1", "oneTBB"},
     .concepts = {"SIMD batch types", "task-parallel runtime", "parallel reduction trees", "task arenas",
                  "pinning threads with a task_scheduler_observer"},
     .learning_time = ladder::LearningTime::days,
     .evaluates = ladder::simd_batches,
     .parallel = true,
     .reproducible = ladder::Reproducible::on_request,
     .summation = "SIMD lanes within each task's range, partial sums joined as a tree",
     // The auto partitioner may hand one task a large range, so a leaf can be long: counted as lanes.
     .summation_depth = ladder::lanes_depth<ladder::simd::accumulators * ladder::simd::width>},
    [](ladder::SimdIntegrand auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions& options) {
      return ladder::tbb(
          f, ab.a, ab.b, n,
          {.threads = options.threads, .cpus = options.cpus, .reproducible = options.reproducible});
    }};

}  // namespace
