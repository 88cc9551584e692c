// Rung 3 — std-algorithms: no raw loop. std::views::iota names the node indices and std::transform_reduce
// maps each to f(node) and adds them up: the loop says what it computes, not how.
#pragma once

#include <cstdint>
#include <functional>
#include <numeric>
#include <ranges>

namespace ladder {

// The midpoint rule: the integral of f over [a, b] with n nodes.
template <class F>
double std_algorithms(F f, double a, double b, std::int64_t n) {
  const double step = (b - a) / static_cast<double>(n);
  const auto indices = std::views::iota(std::int64_t{0}, n);
  const double sum =
      std::transform_reduce(indices.begin(), indices.end(), 0.0, std::plus<>{},
                            [&](std::int64_t i) { return f(a + (static_cast<double>(i) + 0.5) * step); });
  return sum * step;
}

}  // namespace ladder
