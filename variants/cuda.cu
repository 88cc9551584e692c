// Rung 12 — cuda: the card; the kernel is kernels/cuda.cuh.
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "kernels/cuda.cuh"
#include "tier.hpp"

namespace {

// The built-in integrands are compiled for the device too (LADDER_HOST_DEVICE); user integrands are not.
constexpr ladder::EvaluationKind device_code{
    .id = "device",
    .words = "GPU device code",
    .built_ins_only = "user integrands are compiled for the host only",
    .device = true};

template <class F>
concept DeviceIntegrand = ladder::probe_for<F>(device_code)
.compiles;

// Each thread adds ⌈n / grid⌉ nodes in turn; a block reduction is 5 levels of shuffles and then up to 7
// warp sums in turn; the second kernel's threads add up to 4 block sums each before theirs.
double tree_depth(std::int64_t n, int) {
  constexpr std::int64_t block_reduction = 5 + ladder::cuda_block_threads / 32;
  const std::int64_t grid = std::int64_t{ladder::cuda_detail::blocks_for(n)} * ladder::cuda_block_threads;
  return static_cast<double>((n + grid - 1) / grid + block_reduction +
                             ladder::cuda_max_blocks / ladder::cuda_block_threads + block_reduction);
}

// Asked once per process: whether there is a GPU, and whether this build has code for it.
std::string unavailable() {
  static const std::string reason = []() -> std::string {
    int devices = 0;
    if (const cudaError_t status = cudaGetDeviceCount(&devices); status != cudaSuccess)
      return std::string("no CUDA device: cudaGetDeviceCount returned ") + cudaGetErrorName(status) + " (" +
             cudaGetErrorString(status) + ")";
    if (devices == 0) return "no CUDA device";
    cudaFuncAttributes attributes{};
    if (const cudaError_t status = cudaFuncGetAttributes(&attributes, ladder::cuda_detail::sum_blocks);
        status != cudaSuccess)
      return std::string("this build has no code for the GPU (") + cudaGetErrorString(status) +
             "): rebuild with -DLADDER_CUDA_ARCHITECTURES set to its compute capability";
    return "";
  }();
  return reason;
}

const ladder::Registration registration{
    {.id = "cuda",
     .rung = 12,
     .summary = "a CUDA grid-stride kernel on the GPU, CUB block reductions in a fixed tree",
     .libraries = {"CUDA toolkit (nvcc, runtime, CUB)"},
     .concepts = {"GPU kernels and launch configuration", "grid-stride loops", "block reductions (CUB)",
                  "device memory", "host and device functions", "CUDA error checking"},
     .learning_time = ladder::LearningTime::days,
     .evaluates = device_code,
     .reproducible = ladder::Reproducible::always,
     .summation = "a sum per GPU thread over a grid-stride loop, block sums by CUB, then one block over them",
     .summation_depth = tree_depth,
     .unavailable = unavailable},
    [](DeviceIntegrand auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions&) {
      return ladder::cuda(f, ab.a, ab.b, n);
    }};

}  // namespace
