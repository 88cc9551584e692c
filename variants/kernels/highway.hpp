// Rung 19 — highway: the SIMD kernel written in Google's Highway, the portable SIMD library behind
// JPEG XL's reference codec (libjxl), with its vector maths (hwy/contrib/math: Exp, Sin, Log1p, Atan, …). A
// descriptor, ScalableTag<double>, stands for the widest vector of doubles of the target; every operation
// takes it or a vector made from it, so one source serves SSE4, AVX2, AVX-512 (and Arm's NEON and SVE,
// whose vector length is known only at run time). Four partial sums in flight, as in the xsimd kernel.
//
// What it costs: Highway's own idiom (Set, MulAdd, SumOfLanes) in place of operators, and its build
// switches (highway_vector.hpp); its exp is within 1 ulp and correct for subnormal results.
#pragma once

#include <cmath>
#include <cstdint>

#include "highway_vector.hpp"

namespace ladder {

// The midpoint rule: the integral of f over [a, b] with n nodes.
template <highway_simd::Integrand F>
double highway(F f, double a, double b, std::int64_t n) {
  namespace hn = highway_simd::hn;
  using highway_simd::Vector, highway_simd::width;
  constexpr std::int64_t accumulators = 4;
  const highway_simd::Tag d;
  const double step = (b - a) / static_cast<double>(n);
  const auto offsets = hn::Iota(d, 0.5);  // ½, 1½, 2½, …: the node offsets of the lanes of one vector
  const auto step_vector = hn::Set(d, step), a_vector = hn::Set(d, a);
  const auto next1 = hn::Set(d, 1.0 * width), next2 = hn::Set(d, 2.0 * width),
             next3 = hn::Set(d, 3.0 * width);
  // The index goes to double once per four vectors; each node is fma(i + ½, step, a) (as in simd_kernel.hpp).
  auto indices = [&](std::int64_t i) { return hn::Add(hn::Set(d, static_cast<double>(i)), offsets); };
  auto value_at = [&](highway_simd::Raw index) {
    return f(Vector(hn::MulAdd(index, step_vector, a_vector))).value;
  };

  auto sum0 = hn::Zero(d), sum1 = hn::Zero(d), sum2 = hn::Zero(d), sum3 = hn::Zero(d);
  std::int64_t i = 0;
  for (; n - i >= accumulators * width; i += accumulators * width) {
    const auto index = indices(i);
    sum0 = hn::Add(sum0, value_at(index));
    sum1 = hn::Add(sum1, value_at(hn::Add(index, next1)));
    sum2 = hn::Add(sum2, value_at(hn::Add(index, next2)));
    sum3 = hn::Add(sum3, value_at(hn::Add(index, next3)));
  }
  for (; n - i >= width; i += width) sum0 = hn::Add(sum0, value_at(indices(i)));

  const auto sums = hn::Add(hn::Add(sum0, sum1), hn::Add(sum2, sum3));
  double total = hn::GetLane(hn::SumOfLanes(d, sums));
  for (; i < n; ++i) total += f(std::fma(static_cast<double>(i) + 0.5, step, a));
  return total * step;
}

}  // namespace ladder
