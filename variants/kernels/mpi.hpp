// Rung 11 — mpi: the ladder across machines, on the engine HPC sites already run. The same program starts
// once per rank (`mpirun -np R`); each rank takes one contiguous share of the nodes, sums it with the
// openmp tier's kernel on its own cores, and the partial sums meet on rank 0 in MPI_Reduce. The reduction
// carries (sum, correction) pairs added with Neumaier's compensation in rank order, so the result moves
// with the rank count by rounding only. Rank 0 holds the integral; the other ranks return their share.
//
// What it costs: a launcher and a cluster to test on, and every rank must make the same calls in the same
// order, or the program hangs.
//
// Build with -fopenmp and MPI; link mpi_runtime.cpp, which starts MPI once a process (mpi_runtime::start).
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

#include "mpi_runtime.hpp"
#include "simd_kernel.hpp"

namespace ladder {

inline constexpr std::int64_t mpi_block = 1 << 16;

namespace mpi_detail {

// Rank r of R takes [first, last): n/R nodes each, the remainder one apiece to the first ranks.
inline std::pair<std::int64_t, std::int64_t> share(std::int64_t n, int rank, int ranks) {
  const std::int64_t base = n / ranks, extra = n % ranks;
  const std::int64_t first = rank * base + std::min<std::int64_t>(rank, extra);
  return {first, first + base + (rank < extra ? 1 : 0)};
}

template <class F>
double local_sum(F f, double a, double step, std::int64_t first, std::int64_t last, int threads) {
  constexpr std::int64_t block = mpi_block;
  const std::int64_t blocks = (last - first + block - 1) / block;
  double sum = 0.0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : sum)
  for (std::int64_t b = 0; b < blocks; ++b)
    sum += simd::block_sum(f, a, step, first + b * block, std::min(last, first + (b + 1) * block));
  return sum;
}

// MPI_Reduce's operation: add `in` into `inout`, both (sum, correction) pairs, keeping the rounding error.
inline void compensated_add(void* in, void* inout, int* count, MPI_Datatype*) {
  const auto* x = static_cast<const double*>(in);
  auto* y = static_cast<double*>(inout);
  for (int i = 0; i < *count; ++i, x += 2, y += 2) {
    const double sum = x[0] + y[0];
    const double error = std::fabs(x[0]) >= std::fabs(y[0]) ? (x[0] - sum) + y[0] : (y[0] - sum) + x[0];
    y[0] = sum;
    y[1] += x[1] + error;
  }
}

}  // namespace mpi_detail

struct MpiOptions {
  int threads = 1;  // OpenMP threads within each rank
};

// The midpoint rule: the integral of f over [a, b] with n nodes, on rank 0 (the other ranks: their share).
template <simd::Integrand F>
double mpi(F f, double a, double b, std::int64_t n, const MpiOptions& options = {}) {
  mpi_runtime::start();  // MPI_Init, once a process (mpi_runtime.hpp): the program starts MPI, not the kernel
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const double step = (b - a) / static_cast<double>(n);
  const auto [first, last] = mpi_detail::share(n, rank, ranks);
  const double partial[2] = {mpi_detail::local_sum(f, a, step, first, last, options.threads), 0.0};

  double total[2] = {partial[0], 0.0};
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
  MPI_Type_commit(&pair);
  MPI_Op add;
  MPI_Op_create(mpi_detail::compensated_add, /*commute=*/0, &add);  // not commutative: applied in rank order
  MPI_Reduce(partial, total, 1, pair, add, 0, MPI_COMM_WORLD);
  MPI_Op_free(&add);
  MPI_Type_free(&pair);
  return (total[0] + total[1]) * step;
}

}  // namespace ladder
