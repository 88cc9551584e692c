// Rung 12 — cuda: the sum on a GPU. A grid of up to 1024 blocks × 256 threads sweeps the nodes, each
// thread adding every 262 144th one (a grid-stride loop, so any n fits one launch); each block adds its
// threads' sums with CUB's BlockReduce, and a second, one-block kernel adds the block sums. The integrand
// is the same callable, compiled for the device as well (LADDER_HOST_DEVICE in integrands.hpp), and the
// GPU's own exp and sin do the work. The grid depends on n alone and every addition has its fixed place in
// the tree, so the same n gives the same bits on every call.
//
// A call launches both kernels and copies the 8-byte result back, which waits for them. The scratch memory
// is allocated on a thread's first call and kept: a cudaMalloc/cudaFree pair per call would cost more than
// the kernels. The first call in a process also pays for creating the CUDA context.
//
// What it costs: a second compiler (nvcc) in the build, a GPU to test on, device memory to manage, and
// mistakes in a launch that show up only when it runs.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cub/block/block_reduce.cuh>
#include <stdexcept>
#include <string>

#include "tier.hpp"

namespace {

constexpr int block_threads = 256;
constexpr int max_blocks = 1024;  // 262 144 threads: enough to fill an H200 (132 SMs × 2048 threads)

// The sum of one value from every thread of the block. CUB adds within each warp by a fixed tree of
// shuffles, then the warps' sums in order: the same order on every call.
__device__ double block_sum(double value) {
  using BlockReduce = cub::BlockReduce<double, block_threads>;
  __shared__ BlockReduce::TempStorage storage;
  return BlockReduce(storage).Sum(value);
}

// Thread t of the grid adds the nodes t, t + grid, t + 2·grid, … ; thread 0 of each block writes the
// block's sum.
template <class F>
__global__ void sum_nodes(F f, double a, double step, std::int64_t n, double* block_sums) {
  const std::int64_t grid = std::int64_t{gridDim.x} * blockDim.x;
  double sum = 0.0;
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += grid)
    sum += f(a + (static_cast<double>(i) + 0.5) * step);
  const double total = block_sum(sum);
  if (threadIdx.x == 0) block_sums[blockIdx.x] = total;
}

// One block adds the block sums.
__global__ void sum_blocks(const double* block_sums, int blocks, double* result) {
  double sum = 0.0;
  for (int i = threadIdx.x; i < blocks; i += blockDim.x) sum += block_sums[i];
  const double total = block_sum(sum);
  if (threadIdx.x == 0) *result = total;
}

void check(cudaError_t status) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string("CUDA error: ") + cudaGetErrorString(status));
}

// The built-in integrands are compiled for the device too (LADDER_HOST_DEVICE); user integrands are not.
template <class F>
concept DeviceIntegrand = ladder::IntegrandBuild<F>::device.compiles;

int blocks_for(std::int64_t n) {
  return static_cast<int>(std::min<std::int64_t>(max_blocks, (n + block_threads - 1) / block_threads));
}

// Device memory for the block sums and the result, allocated on a thread's first call and kept until the
// thread ends.
double* scratch() {
  struct DeviceMemory {
    double* pointer = nullptr;
    DeviceMemory() { check(cudaMalloc(&pointer, (max_blocks + 1) * sizeof(double))); }
    ~DeviceMemory() { cudaFree(pointer); }
  };
  thread_local const DeviceMemory memory;
  return memory.pointer;
}

template <class F>
double integrate(F f, ladder::Interval ab, std::int64_t n) {
  double* block_sums = scratch();
  double* result = block_sums + max_blocks;
  const double step = (ab.b - ab.a) / static_cast<double>(n);
  const int blocks = blocks_for(n);
  sum_nodes<<<blocks, block_threads>>>(f, ab.a, step, n, block_sums);
  sum_blocks<<<1, block_threads>>>(block_sums, blocks, result);
  check(cudaGetLastError());
  double sum = 0.0;
  check(cudaMemcpy(&sum, result, sizeof sum, cudaMemcpyDeviceToHost));  // waits for both kernels
  return sum * step;
}

// Each thread adds ⌈n / grid⌉ nodes in turn; a block reduction is 5 levels of shuffles and then up to 7
// warp sums in turn; the second kernel's threads add up to 4 block sums each before theirs.
double tree_depth(std::int64_t n, int) {
  constexpr std::int64_t block_reduction = 5 + block_threads / 32;
  const std::int64_t grid = std::int64_t{blocks_for(n)} * block_threads;
  return static_cast<double>((n + grid - 1) / grid + block_reduction + max_blocks / block_threads +
                             block_reduction);
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
    if (const cudaError_t status = cudaFuncGetAttributes(&attributes, sum_blocks); status != cudaSuccess)
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
     .evaluates = ladder::Evaluates::device,
     .reproducible = ladder::Reproducible::always,
     .summation = "a sum per GPU thread over a grid-stride loop, block sums by CUB, then one block over them",
     .summation_depth = tree_depth,
     .unavailable = unavailable},
    [](DeviceIntegrand auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions&) {
      return integrate(f, ab, n);
    }};

}  // namespace
