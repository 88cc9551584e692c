// Rung 4 — eigen: the card; the kernel is kernels/eigen.hpp.
#include "kernels/eigen.hpp"

#include <cstdint>

#include "tier.hpp"

namespace {

// The build compiled each integrand for Eigen arrays first: one that does not compile leaves this tier
// unavailable for it.
// (the PROBE array of this tier's line in CMakeLists.txt).
constexpr ladder::EvaluationKind arrays{.id = "array", .words = "Eigen arrays"};

template <class F>
concept ArrayIntegrand = (ladder::probe_for<F>(arrays).compiles) && ladder::EigenIntegrand<F>;

// Eigen sums a chunk in SIMD lanes; the chunk sums are added in order.
double chunked_depth(std::int64_t n, int) {
  return static_cast<double>(ladder::eigen_chunk + n / ladder::eigen_chunk);
}

const ladder::Registration registration{
    {.id = "eigen",
     .rung = 4,
     .summary = "Eigen array expressions over fixed-size chunks of nodes",
     .libraries = {"Eigen 3.4"},
     .concepts = {"array expressions", "expression templates", "chunking"},
     .learning_time = ladder::LearningTime::hours,
     .evaluates = arrays,
     .summation = "SIMD lanes within a chunk, chunk sums in order",
     .summation_depth = chunked_depth,
     // The nodes are written to an array and read back, but one chunk of 4096 (32 KiB) at a time, which
     // stays in the cache: nothing a node from memory.
     .memory_bytes_per_node = 0,
     .memory_bytes_counted = "none: the nodes pass through one 32 KiB chunk array, reused for every chunk, "
                             "which stays in the cache"},
    [](ArrayIntegrand auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions&) {
      return ladder::eigen(f, ab.a, ab.b, n);
    }};

}  // namespace
