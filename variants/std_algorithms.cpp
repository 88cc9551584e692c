// Rung 3 — std-algorithms: the card; the kernel is kernels/std_algorithms.hpp.
#include "kernels/std_algorithms.hpp"

#include <cstdint>

#include "tier.hpp"

namespace {

const ladder::Registration registration{
    {.id = "std-algorithms",
     .rung = 3,
     .summary = "std::transform_reduce over std::views::iota: the standard library, no raw loop",
     .libraries = {},
     .concepts = {"ranges", "standard algorithms", "lambdas"},
     .learning_time = ladder::LearningTime::minutes,
     .summation = "one accumulator, in order",
     .summation_depth = ladder::sequential_depth},
    [](auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions&) {
      return ladder::std_algorithms(f, ab.a, ab.b, n);
    }};

}  // namespace
