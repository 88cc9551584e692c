// Rung 17 — std-simd: explicit SIMD with no library at all. std::experimental::simd (the Parallelism TS 2,
// in libstdc++ since GCC 11; std::simd in C++26) gives a register of doubles as wide as the target allows,
// native_simd<double>: 8 with AVX-512, 4 with AVX2, 2 with SSE2. The kernel is the xsimd tier's, four
// partial sums in flight, written with the standard library's type instead of xsimd's.
//
// What it costs: the standard gives the maths functions for simd, not how. GCC 12's libstdc++ computes
// sin and cos in vector registers, but exp (and log, atan, erfc, …) as one call of the scalar exp per
// lane: the arithmetic is vectorized, the exp is not.
#pragma once

#include <cmath>
#include <concepts>
#include <cstdint>
#include <experimental/simd>

namespace ladder {
namespace stdsimd {

using Vector = std::experimental::native_simd<double>;
constexpr std::int64_t width = Vector::size();
constexpr std::int64_t accumulators = 4;

// What the kernel needs of an integrand: it takes a vector of nodes and gives a vector of values.
template <class F>
concept Integrand = requires(const F& f, const Vector& x) {
  { f(x) } -> std::convertible_to<Vector>;
};

}  // namespace stdsimd

// The midpoint rule: the integral of f over [a, b] with n nodes.
template <stdsimd::Integrand F>
double std_simd(F f, double a, double b, std::int64_t n) {
  using stdsimd::Vector, stdsimd::width, stdsimd::accumulators;
  const double step = (b - a) / static_cast<double>(n);
  const Vector offsets([](auto lane) { return static_cast<double>(lane) + 0.5; });  // ½, 1½, 2½, …
  const Vector step_vector(step), a_vector(a);
  // The index goes to double once per four vectors; each node is fma(i + ½, step, a) (as in simd_kernel.hpp).
  auto node = [&](Vector index) { return std::experimental::fma(index, step_vector, a_vector); };

  Vector sum0 = 0.0, sum1 = 0.0, sum2 = 0.0, sum3 = 0.0;
  std::int64_t i = 0;
  for (; n - i >= accumulators * width; i += accumulators * width) {
    const Vector index = Vector(static_cast<double>(i)) + offsets;
    sum0 += f(node(index));
    sum1 += f(node(index + 1.0 * width));
    sum2 += f(node(index + 2.0 * width));
    sum3 += f(node(index + 3.0 * width));
  }
  for (; n - i >= width; i += width) sum0 += f(node(Vector(static_cast<double>(i)) + offsets));

  double total = std::experimental::reduce((sum0 + sum1) + (sum2 + sum3));
  for (; i < n; ++i) total += f(std::fma(static_cast<double>(i) + 0.5, step, a));
  return total * step;
}

}  // namespace ladder
