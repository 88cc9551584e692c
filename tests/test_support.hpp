// What the tests share: the edge cases every tier meets, and the references, computed once per case.
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "reference.hpp"
#include "registry.hpp"

namespace ladder::testing {

// n not a multiple of SIMD width × accumulators × threads, so every remainder path runs.
inline const std::vector<std::int64_t> edge_sizes = {1, 2, 3, 7, 8, 9, 15, 1000, 1000003};

struct NamedInterval {
  std::string name;
  Interval ab;
};

inline const std::vector<NamedInterval> edge_intervals = {
    {"unit [0,1]", {0.0, 1.0}},         {"across zero [-2,3]", {-2.0, 3.0}},
    {"negative [-3,-1]", {-3.0, -1.0}}, {"reversed [1,0] (negative sum)", {1.0, 0.0}},
    {"empty [0.5,0.5]", {0.5, 0.5}},
};

// The tiers that can run on this machine (a GPU tier without a GPU cannot): the tests that loop over every
// tier check these; the parameterized tests report the others as skipped, with the reason.
inline std::vector<const Tier*> runnable_tiers() {
  std::vector<const Tier*> runnable;
  for (const auto& tier : tiers())
    if (unavailable_reason(tier).empty()) runnable.push_back(&tier);
  return runnable;
}

inline const Reference& cached_reference(std::size_t integrand, Interval ab, std::int64_t n) {
  static std::map<std::tuple<std::size_t, double, double, std::int64_t>, Reference> cache;
  const auto key = std::make_tuple(integrand, ab.a, ab.b, n);
  auto found = cache.find(key);
  if (found == cache.end()) found = cache.emplace(key, reference(integrands()[integrand], ab, n)).first;
  return found->second;
}

// The observed order of convergence between n and 2n: log2(|I − result(n)| / |I − result(2n)|).
// A midpoint rule gives 2; nodes shifted by half a step give 1.
inline std::vector<double> observed_orders(Kernel kernel, std::size_t integrand, Interval ab,
                                           std::int64_t first_n, int doublings, int threads = 1) {
  const long double exact = reference(integrands()[integrand], ab, 1).exact;
  std::vector<double> orders;
  long double previous = 0;
  for (int step = 0; step <= doublings; ++step) {
    const std::int64_t n = first_n << step;
    const long double error = std::fabs(kernel(ab, n, {threads, false}) - exact);
    if (step > 0) orders.push_back(static_cast<double>(std::log2(previous / error)));
    previous = error;
  }
  return orders;
}

}  // namespace ladder::testing
