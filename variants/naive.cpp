// Rung 0 — naive: build the list of nodes, then loop over it calling f through a std::function.
// The first version anyone writes (the notebook's list comprehension, in C++). It is short and obviously
// right; it also allocates and touches 8 bytes per node before doing any arithmetic.
#include <cstdint>
#include <functional>
#include <vector>

#include "tier.hpp"

namespace {

double integrate(const std::function<double(double)>& f, ladder::Interval ab, std::int64_t n) {
  const double step = (ab.b - ab.a) / static_cast<double>(n);

  std::vector<double> nodes(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) nodes[i] = ab.a + (static_cast<double>(i) + 0.5) * step;

  double sum = 0.0;
  for (double x : nodes) sum += f(x);
  return sum * step;
}

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
      return integrate(ladder::type_erased(f), ab, n);
    }};

}  // namespace
