// Rung 1 — streaming: no node array; each node is computed when it is needed, the way a Python generator
// yields it. Memory no longer grows with n. f is still called through a std::function.
#pragma once

#include <cstdint>
#include <functional>

namespace ladder {

// The midpoint rule: the integral of f over [a, b] with n nodes.
inline double streaming(const std::function<double(double)>& f, double a, double b, std::int64_t n) {
  const double step = (b - a) / static_cast<double>(n);
  double sum = 0.0;
  for (std::int64_t i = 0; i < n; ++i) sum += f(a + (static_cast<double>(i) + 0.5) * step);
  return sum * step;
}

}  // namespace ladder
