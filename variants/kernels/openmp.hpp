// Rung 8 — openmp: the xsimd kernel on every core. The nodes are cut into blocks, one `parallel for`
// shares the blocks among the threads, and the `reduction` clause gives each thread a private partial
// sum and adds them at the end. One pragma buys the cores; the order in which the partial sums meet is up
// to the runtime, so the last bits can differ from one thread count to another.
//
// Build with -fopenmp. Where the threads run is OpenMP's to say: OMP_PROC_BIND=close OMP_PLACES=cores.
#pragma once

#include <algorithm>
#include <cstdint>

#include "simd_kernel.hpp"

namespace ladder {

inline constexpr std::int64_t openmp_block = 1 << 16;

struct OpenmpOptions {
  int threads = 1;  // OpenMP threads sharing the blocks
};

// The midpoint rule: the integral of f over [a, b] with n nodes.
template <simd::Integrand F>
double openmp(F f, double a, double b, std::int64_t n, const OpenmpOptions& options = {}) {
  constexpr std::int64_t block = openmp_block;
  const double step = (b - a) / static_cast<double>(n);
  const std::int64_t blocks = (n + block - 1) / block;
  double sum = 0.0;
#pragma omp parallel for num_threads(options.threads) schedule(static) reduction(+ : sum)
  for (std::int64_t i = 0; i < blocks; ++i)  // block i: nodes [i·block, (i + 1)·block)
    sum += simd::block_sum(f, a, step, i * block, std::min(n, (i + 1) * block));
  return sum * step;
}

}  // namespace ladder
