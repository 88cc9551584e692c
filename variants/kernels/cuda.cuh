// Rung 12 — cuda: the sum on a GPU. A grid of up to 1024 blocks × 256 threads sweeps the nodes, each
// thread adding every 262 144th one (a grid-stride loop, so any n fits one launch); each block adds its
// threads' sums with CUB's BlockReduce, and a second, one-block kernel adds the block sums. The integrand
// is the same callable, compiled for the device as well (LADDER_HOST_DEVICE in ladder/integrand.hpp), and
// the GPU's own exp and sin do the work. The grid depends on n alone and every addition has its fixed place
// in the tree, so the same n gives the same bits on every call.
//
// A call launches both kernels and copies the 8-byte result back, which waits for them. The scratch memory
// is allocated on a thread's first call and kept: a cudaMalloc/cudaFree pair per call would cost more than
// the kernels. The first call in a process also pays for creating the CUDA context.
//
// What it costs: a second compiler (nvcc) in the build, a GPU to test on, device memory to manage, and
// mistakes in a launch that show up only when it runs.
//
// Compile with nvcc, from one .cu file of a program: it defines a __global__ function (sum_blocks), which
// cannot be inline.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cub/block/block_reduce.cuh>
#include <stdexcept>
#include <string>

namespace ladder {

inline constexpr int cuda_block_threads = 256;
inline constexpr int cuda_max_blocks =
    1024;  // 262 144 threads: enough to fill an H200 (132 SMs × 2048 threads)

namespace cuda_detail {

// The sum of one value from every thread of the block. CUB adds within each warp by a fixed tree of
// shuffles, then the warps' sums in order: the same order on every call.
__device__ inline double block_sum(double value) {
  using BlockReduce = cub::BlockReduce<double, cuda_block_threads>;
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

inline void check(cudaError_t status) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string("CUDA error: ") + cudaGetErrorString(status));
}

inline int blocks_for(std::int64_t n) {
  return static_cast<int>(
      std::min<std::int64_t>(cuda_max_blocks, (n + cuda_block_threads - 1) / cuda_block_threads));
}

// Device memory for the block sums and the result, allocated on a thread's first call and kept until the
// thread ends.
inline double* scratch() {
  struct DeviceMemory {
    double* pointer = nullptr;
    DeviceMemory() { check(cudaMalloc(&pointer, (cuda_max_blocks + 1) * sizeof(double))); }
    ~DeviceMemory() { cudaFree(pointer); }
  };
  thread_local const DeviceMemory memory;
  return memory.pointer;
}

}  // namespace cuda_detail

// The midpoint rule: the integral of f over [a, b] with n nodes, on the GPU. f's call operator must be
// compiled for the device (__host__ __device__, LADDER_HOST_DEVICE).
template <class F>
double cuda(F f, double a, double b, std::int64_t n) {
  double* block_sums = cuda_detail::scratch();
  double* result = block_sums + cuda_max_blocks;
  const double step = (b - a) / static_cast<double>(n);
  const int blocks = cuda_detail::blocks_for(n);
  cuda_detail::sum_nodes<<<blocks, cuda_block_threads>>>(f, a, step, n, block_sums);
  cuda_detail::sum_blocks<<<1, cuda_block_threads>>>(block_sums, blocks, result);
  cuda_detail::check(cudaGetLastError());
  double sum = 0.0;
  cuda_detail::check(cudaMemcpy(&sum, result, sizeof sum, cudaMemcpyDeviceToHost));  // waits for both kernels
  return sum * step;
}

}  // namespace ladder
