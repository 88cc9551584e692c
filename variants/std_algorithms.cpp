// Rung 3 — std-algorithms: no raw loop. std::views::iota names the node indices and std::transform_reduce
// maps each to f(node) and adds them up: the loop says what it computes, not how.
#include <cstdint>
#include <functional>
#include <numeric>
#include <ranges>

#include "tier.hpp"

namespace {

template <class F>
double integrate(F f, ladder::Interval ab, std::int64_t n) {
  const double step = (ab.b - ab.a) / static_cast<double>(n);
  const auto indices = std::views::iota(std::int64_t{0}, n);
  const double sum =
      std::transform_reduce(indices.begin(), indices.end(), 0.0, std::plus<>{},
                            [&](std::int64_t i) { return f(ab.a + (static_cast<double>(i) + 0.5) * step); });
  return sum * step;
}

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
      return integrate(f, ab, n);
    }};

}  // namespace
