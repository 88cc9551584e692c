// Rung 14 — openmp-tuned: the openmp tier's driver over the tuned-exp kernel. Blocks of nodes shared out
// by one `parallel for`, a private partial sum per thread, and inside each block the xsimd kernel with
// the hand-written exp (tuned_exp_math.hpp). The two ideas are independent: this file is openmp.hpp with one
// call changed.
//
// Build with -fopenmp. Where the threads run is OpenMP's to say: OMP_PROC_BIND=close OMP_PLACES=cores.
#pragma once

#include <algorithm>
#include <cstdint>

#include "simd_kernel.hpp"
#include "tuned_exp_math.hpp"

namespace ladder {

inline constexpr std::int64_t openmp_tuned_block = 1 << 16;

struct OpenmpTunedOptions {
  int threads = 1;  // OpenMP threads sharing the blocks
};

// The midpoint rule: the integral of f over [a, b] with n nodes.
template <tuned::Integrand F>
double openmp_tuned(F f, double a, double b, std::int64_t n, const OpenmpTunedOptions& options = {}) {
  constexpr std::int64_t block = openmp_tuned_block;
  const double step = (b - a) / static_cast<double>(n);
  const std::int64_t blocks = (n + block - 1) / block;
  const auto tuned_f = tuned::with_tuned_exp(f);
  double sum = 0.0;
#pragma omp parallel for num_threads(options.threads) schedule(static) reduction(+ : sum)
  for (std::int64_t i = 0; i < blocks; ++i)  // block i: nodes [i·block, (i + 1)·block)
    sum += simd::block_sum(tuned_f, a, step, i * block, std::min(n, (i + 1) * block));
  return sum * step;
}

}  // namespace ladder
