// Rung 2 — inlined: the integrand is a template parameter instead of a std::function, so the compiler sees
// its body and inlines it into the loop. Flexibility is kept (any callable still works); the indirect call
// per node is gone.
#include <cstdint>

#include "tier.hpp"

namespace {

template <class F>
double integrate(F f, ladder::Interval ab, std::int64_t n) {
  const double step = (ab.b - ab.a) / static_cast<double>(n);
  double sum = 0.0;
  for (std::int64_t i = 0; i < n; ++i) sum += f(ab.a + (static_cast<double>(i) + 0.5) * step);
  return sum * step;
}

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
      return integrate(f, ab, n);
    }};

}  // namespace
