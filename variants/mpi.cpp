// Rung 11 — mpi: the card; the kernel is kernels/mpi.hpp.
#include "kernels/mpi.hpp"

#include <cstdint>

#include "mpi_runtime.hpp"
#include "simd_integrands.hpp"
#include "tier.hpp"

namespace {

// Each thread adds its blocks in order (as in openmp); then ranks in rank order, compensated.
double ranks_depth(std::int64_t n, int threads) {
  return ladder::blocks_depth<ladder::mpi_block, ladder::simd::accumulators * ladder::simd::width>(n,
                                                                                                   threads) +
         4;
}

const ladder::Registration registration{
    {.id = "mpi",
     .rung = 11,
     .summary = "MPI ranks over contiguous shares, the openmp kernel within each, MPI_Reduce compensated",
     .libraries = {"Open MPI", "OpenMP (libgomp)", "xsimd 8.1"},
     .concepts = {"distributed memory", "SPMD programs", "collective reductions", "launchers and hostfiles",
                  "OpenMP reductions", "SIMD batch types"},
     .learning_time = ladder::LearningTime::days,
     .evaluates = ladder::simd_batches,
     .parallel = true,
     .reproducible = ladder::Reproducible::never,
     .summation = "SIMD lanes within blocks, blocks per thread, threads by the OpenMP runtime, ranks in "
                  "rank order with compensation",
     .summation_depth = ranks_depth,
     .environment = {"OMP_PROC_BIND=close", "OMP_PLACES=cores"},
     .distributed = true,
     .unavailable = ladder::mpi_runtime::missing_launcher},
    [](ladder::SimdIntegrand auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions& options) {
      return ladder::mpi(f, ab.a, ab.b, n, {.threads = options.threads});
    }};

}  // namespace
