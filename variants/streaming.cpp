// Rung 1 — streaming: no node array; each node is computed when it is needed, the way a Python generator
// yields it. Memory no longer grows with n. f is still called through a std::function.
#include <cstdint>
#include <functional>

#include "tier.hpp"

namespace {

double integrate(const std::function<double(double)>& f, ladder::Interval ab, std::int64_t n) {
  const double step = (ab.b - ab.a) / static_cast<double>(n);
  double sum = 0.0;
  for (std::int64_t i = 0; i < n; ++i) sum += f(ab.a + (static_cast<double>(i) + 0.5) * step);
  return sum * step;
}

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
      return integrate(ladder::type_erased(f), ab, n);
    }};

}  // namespace
