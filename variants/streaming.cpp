// Rung 1 — streaming: the card; the kernel is kernels/streaming.hpp.
#include "kernels/streaming.hpp"

#include <cstdint>

#include "tier.hpp"

namespace {

const ladder::Registration registration{
    {.id = "streaming",
     .rung = 1,
     .summary = "each node computed when needed, no node array; f still behind std::function",
     .libraries = {},
     .concepts = {"loops", "std::function"},
     .learning_time = ladder::LearningTime::minutes,
     .summation = "one accumulator, in order",
     .summation_depth = ladder::sequential_depth},
    [](auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions&) {
      return ladder::streaming(ladder::type_erased(f), ab.a, ab.b, n);
    }};

}  // namespace
