// exp throughput, elements per second, for the four exps the ladder uses: glibc's scalar exp (the scalar
// tiers), xsimd's (rungs 6–10), libmvec's (autovec) and the hand-written one (rungs 13–15). Each runs over
// the same 4096 inputs, written to an output array, in two ranges: [−1, 0], what gauss on [0, 1] feeds it,
// and [−745, 709], the whole range where e^x is neither 0 nor infinite.
//
//   build/ladder_exp_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstddef>
#include <random>
#include <vector>
#include <xsimd/xsimd.hpp>

#include "tuned_exp_math.hpp"

void exp_libmvec(const double* inputs, double* outputs, int count);  // exp_libmvec.cpp, -ffast-math

namespace {

constexpr int count = 4096;  // 32 KiB in, 32 KiB out: both stay in L1/L2, so exp is what is timed
using Batch = xsimd::batch<double>;
using Vector = std::vector<double, xsimd::aligned_allocator<double>>;

Vector inputs_between(double low, double high) {
  std::mt19937_64 generator(2024);
  std::uniform_real_distribution<double> uniform(low, high);
  Vector inputs(count);
  for (auto& x : inputs) x = uniform(generator);
  return inputs;
}

template <class ExpOverArray>
void run(benchmark::State& state, double low, double high, ExpOverArray exp_over_array) {
  const Vector inputs = inputs_between(low, high);
  Vector outputs(count);
  for (auto _ : state) {
    exp_over_array(inputs.data(), outputs.data());
    benchmark::DoNotOptimize(outputs.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * count);
}

void glibc_scalar(const double* inputs, double* outputs) {
  for (int i = 0; i < count; ++i) outputs[i] = std::exp(inputs[i]);
}

template <class BatchExp>
void over_batches(const double* inputs, double* outputs, BatchExp batch_exp) {
  for (int i = 0; i < count; i += static_cast<int>(Batch::size))
    batch_exp(Batch::load_aligned(inputs + i)).store_aligned(outputs + i);
}

void xsimd_exp(const double* inputs, double* outputs) {
  over_batches(inputs, outputs, [](Batch x) { return xsimd::exp(x); });
}

void tuned_exp(const double* inputs, double* outputs) {
  over_batches(inputs, outputs, [](Batch x) { return ladder::tuned::exp(x); });
}

void libmvec_exp(const double* inputs, double* outputs) { exp_libmvec(inputs, outputs, count); }

void BM_exp(benchmark::State& state, void (*exp_over_array)(const double*, double*), double low,
            double high) {
  run(state, low, high, exp_over_array);
}

BENCHMARK_CAPTURE(BM_exp, glibc_scalar / gauss_range, glibc_scalar, -1.0, 0.0);
BENCHMARK_CAPTURE(BM_exp, libmvec / gauss_range, libmvec_exp, -1.0, 0.0);
BENCHMARK_CAPTURE(BM_exp, xsimd / gauss_range, xsimd_exp, -1.0, 0.0);
BENCHMARK_CAPTURE(BM_exp, tuned / gauss_range, tuned_exp, -1.0, 0.0);
BENCHMARK_CAPTURE(BM_exp, glibc_scalar / whole_range, glibc_scalar, -745.0, 709.0);
BENCHMARK_CAPTURE(BM_exp, libmvec / whole_range, libmvec_exp, -745.0, 709.0);
BENCHMARK_CAPTURE(BM_exp, xsimd / whole_range, xsimd_exp, -745.0, 709.0);
BENCHMARK_CAPTURE(BM_exp, tuned / whole_range, tuned_exp, -745.0, 709.0);

}  // namespace

BENCHMARK_MAIN();
