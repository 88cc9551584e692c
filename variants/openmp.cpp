// Rung 8 — openmp: the xsimd kernel on every core. The nodes are cut into blocks, one `parallel for`
// shares the blocks among the threads, and the `reduction` clause gives each thread a private partial
// sum and adds them at the end. One pragma buys the cores; the order in which the partial sums meet is up
// to the runtime, so the last bits can differ from one thread count to another.
#include <algorithm>
#include <cstdint>

#include "simd_kernel.hpp"
#include "tier.hpp"

namespace {

constexpr std::int64_t block = 1 << 16;

template <class F>
double integrate(F f, ladder::Interval ab, std::int64_t n, int threads) {
  const double step = (ab.b - ab.a) / static_cast<double>(n);
  const std::int64_t blocks = (n + block - 1) / block;
  double sum = 0.0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : sum)
  for (std::int64_t b = 0; b < blocks; ++b)
    sum += ladder::simd::block_sum(f, ab.a, step, b * block, std::min(n, (b + 1) * block));
  return sum * step;
}

double blocks_depth(std::int64_t n, int threads) {
  const auto lanes = ladder::simd::accumulators * ladder::simd::width;
  return static_cast<double>(n / block + block / lanes + lanes + threads);
}

const ladder::Registration registration{
    {.id = "openmp",
     .rung = 8,
     .summary = "OpenMP parallel for with a reduction, over blocks of the xsimd kernel",
     .libraries = {"xsimd 8.1", "OpenMP (libgomp)"},
     .concepts = {"SIMD batch types", "OpenMP reductions", "static scheduling", "data races"},
     .learning_time = ladder::LearningTime::days,
     .evaluates = ladder::Evaluates::simd_batches,
     .parallel = true,
     .reproducible = ladder::Reproducible::never,
     .summation = "SIMD lanes within 65536-node blocks, blocks in order per thread, threads combined "
                  "by the runtime",
     .summation_depth = blocks_depth,
     .environment = {"OMP_PROC_BIND=close", "OMP_PLACES=cores"}},
    [](ladder::simd::Integrand auto f, ladder::Interval ab, std::int64_t n,
       const ladder::RunOptions& options) { return integrate(f, ab, n, options.threads); }};

}  // namespace
