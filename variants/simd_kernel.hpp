// The explicit-SIMD block kernel: Σ f(a + (i + ½)·step) for i in [first, last), in batches of the widest
// registers the build targets. The xsimd tier is this kernel over all n nodes; the compensated, OpenMP
// and TBB tiers hand it blocks.
#pragma once

#include <array>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <xsimd/xsimd.hpp>

namespace ladder::simd {

using Batch = xsimd::batch<double>;
constexpr std::int64_t width = Batch::size;

// What the kernel needs of an integrand: it takes a batch of nodes and gives a batch of values. This checks
// the call's signature only: an integrand whose generic body does not compile for batches (it calls a
// scalar-only library, or branches on x) fails inside the kernel. Ladder's build compiles each integrand for
// batches first and refuses those that fail (ladder::SimdIntegrand in tier.hpp).
template <class F>
concept Integrand = requires(const F& f, const Batch& x) {
  { f(x) } -> std::convertible_to<Batch>;
};

// Four independent partial sums: the exp of one batch overlaps the adds of the others, and the rounding
// of a long sum is spread over 4 × width lanes instead of one chain.
constexpr std::int64_t accumulators = 4;

// ½, 1½, 2½, …: the node offsets of the lanes of one batch.
inline Batch lane_offsets() {
  std::array<double, width> offsets{};
  for (std::int64_t lane = 0; lane < width; ++lane) offsets[lane] = static_cast<double>(lane) + 0.5;
  return Batch::load_unaligned(offsets.data());
}

template <class F>
double block_sum(F f, double a, double step, std::int64_t first, std::int64_t last) {
  const Batch offsets = lane_offsets();
  const Batch step_batch(step), a_batch(a);
  const Batch next1(static_cast<double>(width)), next2(2.0 * width), next3(3.0 * width);
  // The index goes to double once per four batches, as a scalar: a vector int64 → double conversion needs
  // AVX-512DQ, and without it xsimd falls back to slow scalar code. The lanes' indices i + ½, i + 1½, …
  // are whole numbers and halves, exact in a double below 2^52, and each node is fma(index, step, a).
  auto indices = [&](std::int64_t i) { return Batch(static_cast<double>(i)) + offsets; };
  auto node = [&](Batch index) { return xsimd::fma(index, step_batch, a_batch); };

  Batch sum0(0.0), sum1(0.0), sum2(0.0), sum3(0.0);
  std::int64_t i = first;
  for (; last - i >= accumulators * width; i += accumulators * width) {
    const Batch index = indices(i);
    sum0 += f(node(index));
    sum1 += f(node(index + next1));
    sum2 += f(node(index + next2));
    sum3 += f(node(index + next3));
  }
  for (; last - i >= width; i += width) sum0 += f(node(indices(i)));

  double total = xsimd::hadd((sum0 + sum1) + (sum2 + sum3));
  for (; i < last; ++i) total += f(std::fma(static_cast<double>(i) + 0.5, step, a));
  return total;
}

}  // namespace ladder::simd
