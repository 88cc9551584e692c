// Rung 4 — eigen: whole-array expressions, the NumPy way. Nodes are built a chunk at a time into one
// buffer, then `f(nodes).sum()` evaluates f over the chunk with Eigen's vectorized math and reduces it.
// The chunk keeps memory bounded; it is also what makes Eigen vectorize: fed the lazy LinSpaced expression
// directly, Eigen 3.4 falls back to one scalar exp call per node. (The built-in integrands return a lazy
// expression that .sum() consumes; a user integrand returns its argument's type, an array of the chunk.)
#include <Eigen/Core>
#include <algorithm>
#include <concepts>
#include <cstdint>

#include "tier.hpp"

namespace {

constexpr std::int64_t chunk = 4096;  // 32 KiB of nodes: stays in the L1/L2 cache

// The integrand must take a whole array of nodes (the build compiled each integrand for Eigen arrays first:
// one that does not compile leaves this tier unavailable for it).
template <class F>
concept ArrayIntegrand = ladder::IntegrandBuild<F>::array.compiles&& requires(const F& f,
                                                                              const Eigen::ArrayXd& x) {
  { f(x).sum() } -> std::convertible_to<double>;
};

template <class F>
double integrate(F f, ladder::Interval ab, std::int64_t n) {
  const double step = (ab.b - ab.a) / static_cast<double>(n);
  const Eigen::ArrayXd offsets = Eigen::ArrayXd::LinSpaced(chunk, 0.5, chunk - 0.5);  // ½, 1½, …
  Eigen::ArrayXd nodes(std::min(chunk, n));

  double sum = 0.0;
  for (std::int64_t first = 0; first < n; first += chunk) {
    const Eigen::Index size = std::min(chunk, n - first);
    if (size != nodes.size()) nodes.resize(size);  // the last chunk
    nodes = (offsets.head(size) + static_cast<double>(first)) * step + ab.a;
    sum += f(nodes).sum();
  }
  return sum * step;
}

// Eigen sums a chunk in SIMD lanes; the chunk sums are added in order.
double chunked_depth(std::int64_t n, int) { return static_cast<double>(chunk + n / chunk); }

const ladder::Registration registration{
    {.id = "eigen",
     .rung = 4,
     .summary = "Eigen array expressions over fixed-size chunks of nodes",
     .libraries = {"Eigen 3.4"},
     .concepts = {"array expressions", "expression templates", "chunking"},
     .learning_time = ladder::LearningTime::hours,
     .evaluates = ladder::Evaluates::arrays,
     .summation = "SIMD lanes within a chunk, chunk sums in order",
     .summation_depth = chunked_depth},
    [](ArrayIntegrand auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions&) {
      return integrate(f, ab, n);
    }};

}  // namespace
