// Rung 15 — tbb-tuned: the card; the kernel is kernels/tbb_tuned.hpp.
#include "kernels/tbb_tuned.hpp"

#include <cstdint>

#include "simd_integrands.hpp"
#include "tier.hpp"

namespace {

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
     .evaluates = ladder::tuned_batches,
     .parallel = true,
     .reproducible = ladder::Reproducible::on_request,
     .summation = "SIMD lanes within each task's range, partial sums joined as a tree",
     // The auto partitioner may hand one task a large range, so a leaf can be long: counted as lanes.
     .summation_depth = ladder::lanes_depth<ladder::simd::accumulators * ladder::simd::width>,
     .note = ladder::tuned_integrands_note,
     .max_ulp_error = ladder::tuned::max_ulp_error},
    [](ladder::TunedIntegrand auto f, ladder::Interval ab, std::int64_t n,
       const ladder::RunOptions& options) {
      return ladder::tbb_tuned(
          f, ab.a, ab.b, n,
          {.threads = options.threads, .cpus = options.cpus, .reproducible = options.reproducible});
    }};

}  // namespace
