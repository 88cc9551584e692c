// Rung 11 — mpi: the ladder across machines, on the engine HPC sites already run. The same program starts
// once per rank (`mpirun -np R`); each rank takes one contiguous share of the nodes, sums it with the
// openmp tier's kernel on its own cores, and the partial sums meet on rank 0 in MPI_Reduce. The reduction
// carries (sum, correction) pairs added with Neumaier's compensation in rank order, so the result moves
// with the rank count by rounding only. Rank 0 holds the integral; the other ranks return their share.
//
// What it costs: a launcher and a cluster to test on, and every rank must make the same calls in the same
// order, or the program hangs.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

#include "mpi_runtime.hpp"
#include "simd_kernel.hpp"
#include "tier.hpp"

namespace {

constexpr std::int64_t block = 1 << 16;

// Rank r of R takes [first, last): n/R nodes each, the remainder one apiece to the first ranks.
std::pair<std::int64_t, std::int64_t> share(std::int64_t n, int rank, int ranks) {
  const std::int64_t base = n / ranks, extra = n % ranks;
  const std::int64_t first = rank * base + std::min<std::int64_t>(rank, extra);
  return {first, first + base + (rank < extra ? 1 : 0)};
}

template <class F>
double local_sum(F f, double a, double step, std::int64_t first, std::int64_t last, int threads) {
  const std::int64_t blocks = (last - first + block - 1) / block;
  double sum = 0.0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : sum)
  for (std::int64_t b = 0; b < blocks; ++b)
    sum += ladder::simd::block_sum(f, a, step, first + b * block, std::min(last, first + (b + 1) * block));
  return sum;
}

// MPI_Reduce's operation: add `in` into `inout`, both (sum, correction) pairs, keeping the rounding error.
void compensated_add(void* in, void* inout, int* count, MPI_Datatype*) {
  const auto* x = static_cast<const double*>(in);
  auto* y = static_cast<double*>(inout);
  for (int i = 0; i < *count; ++i, x += 2, y += 2) {
    const double sum = x[0] + y[0];
    const double error = std::fabs(x[0]) >= std::fabs(y[0]) ? (x[0] - sum) + y[0] : (y[0] - sum) + x[0];
    y[0] = sum;
    y[1] += x[1] + error;
  }
}

template <class F>
double integrate(F f, ladder::Interval ab, std::int64_t n, int threads) {
  ladder::mpi::start();  // MPI_Init, once a process (mpi_runtime.hpp): the program starts MPI, not the kernel
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const double step = (ab.b - ab.a) / static_cast<double>(n);
  const auto [first, last] = share(n, rank, ranks);
  const double partial[2] = {local_sum(f, ab.a, step, first, last, threads), 0.0};

  double total[2] = {partial[0], 0.0};
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
  MPI_Type_commit(&pair);
  MPI_Op add;
  MPI_Op_create(compensated_add, /*commute=*/0, &add);  // not commutative: applied in rank order
  MPI_Reduce(partial, total, 1, pair, add, 0, MPI_COMM_WORLD);
  MPI_Op_free(&add);
  MPI_Type_free(&pair);
  return (total[0] + total[1]) * step;
}

// Each thread adds its blocks in order (as in openmp); then ranks in rank order, compensated.
double blocks_depth(std::int64_t n, int threads) {
  const auto lanes = ladder::simd::accumulators * ladder::simd::width;
  return static_cast<double>(n / block + block / lanes + lanes + threads + 4);
}

const ladder::Registration registration{
    {.id = "mpi",
     .rung = 11,
     .summary = "MPI ranks over contiguous shares, the openmp kernel within each, MPI_Reduce compensated",
     .libraries = {"Open MPI", "OpenMP (libgomp)", "xsimd 8.1"},
     .concepts = {"distributed memory", "SPMD programs", "collective reductions", "launchers and hostfiles",
                  "OpenMP reductions", "SIMD batch types"},
     .learning_time = ladder::LearningTime::days,
     .evaluates = ladder::Evaluates::simd_batches,
     .parallel = true,
     .reproducible = ladder::Reproducible::never,
     .summation = "SIMD lanes within blocks, blocks per thread, threads by the OpenMP runtime, ranks in "
                  "rank order with compensation",
     .summation_depth = blocks_depth,
     .environment = {"OMP_PROC_BIND=close", "OMP_PLACES=cores"},
     .distributed = true,
     .unavailable = ladder::mpi::missing_launcher},
    [](ladder::simd::Integrand auto f, ladder::Interval ab, std::int64_t n,
       const ladder::RunOptions& options) { return integrate(f, ab, n, options.threads); }};

}  // namespace
