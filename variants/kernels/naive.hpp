// Rung 0 — naive: build the list of nodes, then loop over it calling f through a std::function.
// The first version anyone writes (the notebook's list comprehension, in C++). It is short and obviously
// right; it also allocates and touches 8 bytes per node before doing any arithmetic.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace ladder {

// The midpoint rule: the integral of f over [a, b] with n nodes.
inline double naive(const std::function<double(double)>& f, double a, double b, std::int64_t n) {
  const double step = (b - a) / static_cast<double>(n);

  std::vector<double> nodes(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) nodes[i] = a + (static_cast<double>(i) + 0.5) * step;

  double sum = 0.0;
  for (double x : nodes) sum += f(x);
  return sum * step;
}

}  // namespace ladder
