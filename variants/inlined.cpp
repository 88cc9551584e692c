// Rung 2 — inlined: the card; the kernel is kernels/inlined.hpp.
#include "kernels/inlined.hpp"

#include <cstdint>

#include "tier.hpp"

namespace {

const ladder::Registration registration{
    {.id = "inlined",
     .rung = 2,
     .summary = "the integrand as a template parameter, inlined into the loop",
     .libraries = {},
     .concepts = {"loops", "function templates"},
     .learning_time = ladder::LearningTime::minutes,
     .summation = "one accumulator, in order",
     .summation_depth = ladder::sequential_depth},
    [](auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions&) {
      return ladder::inlined(f, ab.a, ab.b, n);
    }};

}  // namespace
