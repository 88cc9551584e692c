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
     .heap_bytes_per_node = 8,
     // Read from its disassembly: std::vector's constructor zeroes the nodes (a call to memset), the first
     // loop writes them, the second reads them back.
     .memory_bytes_per_node = 24,
     .memory_bytes_counted = "24: the node vector's 8 B a node written twice (zeroed by std::vector's "
                             "constructor, then filled with the nodes) and read back once by the sum; "
                             "the program's own loads and stores, not the cache's write-allocate reads"},
    [](auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions&) {
      return ladder::naive(ladder::type_erased(f), ab.a, ab.b, n);
    }};

}  // namespace
