// Rung 4 — eigen: whole-array expressions, the NumPy way. Nodes are built a chunk at a time into one
// buffer, then `f(nodes).sum()` evaluates f over the chunk with Eigen's vectorized math and reduces it.
// The chunk keeps memory bounded; it is also what makes Eigen vectorize: fed the lazy LinSpaced expression
// directly, Eigen 3.4 falls back to one scalar exp call per node. (The built-in integrands return a lazy
// expression that .sum() consumes; a user integrand returns its argument's type, an array of the chunk.)
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <concepts>
#include <cstdint>

namespace ladder {

inline constexpr std::int64_t eigen_chunk = 4096;  // 32 KiB of nodes: stays in the L1/L2 cache

// The integrand must take a whole array of nodes and give something with a .sum().
template <class F>
concept EigenIntegrand = requires(const F& f, const Eigen::ArrayXd& x) {
  { f(x).sum() } -> std::convertible_to<double>;
};

// The midpoint rule: the integral of f over [a, b] with n nodes.
template <EigenIntegrand F>
double eigen(F f, double a, double b, std::int64_t n) {
  constexpr std::int64_t chunk = eigen_chunk;
  const double step = (b - a) / static_cast<double>(n);
  const Eigen::ArrayXd offsets = Eigen::ArrayXd::LinSpaced(chunk, 0.5, chunk - 0.5);  // ½, 1½, …
  Eigen::ArrayXd nodes(std::min(chunk, n));

  double sum = 0.0;
  for (std::int64_t first = 0; first < n; first += chunk) {
    const Eigen::Index size = std::min(chunk, n - first);
    if (size != nodes.size()) nodes.resize(size);  // the last chunk
    nodes = (offsets.head(size) + static_cast<double>(first)) * step + a;
    sum += f(nodes).sum();
  }
  return sum * step;
}

}  // namespace ladder
