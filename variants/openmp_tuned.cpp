// Rung 14 — openmp-tuned: the openmp tier's driver over the tuned-exp kernel. Blocks of nodes shared out
// by one `parallel for`, a private partial sum per thread, and inside each block the xsimd kernel with
// the hand-written exp (tuned_exp.hpp). The two ideas are independent: this file is openmp.cpp with one
// call changed.
#include <algorithm>
#include <cstdint>

#include "simd_kernel.hpp"
#include "tier.hpp"
#include "tuned_exp.hpp"

namespace {

constexpr std::int64_t block = 1 << 16;

template <class F>
double integrate(F f, ladder::Interval ab, std::int64_t n, int threads) {
  const double step = (ab.b - ab.a) / static_cast<double>(n);
  const std::int64_t blocks = (n + block - 1) / block;
  const auto tuned_f = ladder::tuned::with_tuned_exp(f);
  double sum = 0.0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : sum)
  for (std::int64_t b = 0; b < blocks; ++b)
    sum += ladder::simd::block_sum(tuned_f, ab.a, step, b * block, std::min(n, (b + 1) * block));
  return sum * step;
}

double blocks_depth(std::int64_t n, int threads) {
  const auto lanes = ladder::simd::accumulators * ladder::simd::width;
  return static_cast<double>(n / block + block / lanes + lanes + threads);
}

const ladder::Registration registration{
    {.id = "openmp-tuned",
     .rung = 14,
     .summary = "OpenMP parallel for over blocks of the tuned-exp kernel (gauss); the other integrands as on "
                "openmp",
     .libraries = {"xsimd 8.1", "OpenMP (libgomp)"},
     .concepts = {"SIMD batch types", "OpenMP reductions", "static scheduling", "data races",
                  "range reduction", "polynomial evaluation schemes", "IEEE 754 bit manipulation",
                  "ulp error analysis", "AVX-512 intrinsics"},
     .learning_time = ladder::LearningTime::days,
     .evaluates = ladder::Evaluates::tuned_batches,
     .parallel = true,
     .reproducible = ladder::Reproducible::never,
     .summation = "SIMD lanes within 65536-node blocks, blocks in order per thread, threads combined "
                  "by the runtime",
     .summation_depth = blocks_depth,
     .environment = {"OMP_PROC_BIND=close", "OMP_PLACES=cores"},
     .note = ladder::tuned::integrands_note,
     .max_ulp_error = ladder::tuned::max_ulp_error},
    [](ladder::tuned::Integrand auto f, ladder::Interval ab, std::int64_t n,
       const ladder::RunOptions& options) { return integrate(f, ab, n, options.threads); }};

}  // namespace
