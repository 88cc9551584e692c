// Rung 0 — naive: the card; the kernel is kernels/naive.hpp.
#include "kernels/naive.hpp"

#include <cstdint>

#include "tier.hpp"

namespace {

const ladder::Registration registration{
    {.id = "naive",
     .rung = 0,
     .summary = "a vector of all n nodes, then a loop calling f through std::function",
     .libraries = {},
     .concepts = {"loops", "std::vector", "std::function"},
     .learning_time = ladder::LearningTime::minutes,
     .summation = "one accumulator, in order",
     .summation_depth = ladder::sequential_depth,
     .heap_bytes_per_node = 8},
    [](auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions&) {
      return ladder::naive(ladder::type_erased(f), ab.a, ab.b, n);
    }};

}  // namespace
