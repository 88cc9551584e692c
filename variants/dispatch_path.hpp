// One path of the dispatch tier, what dispatch_avx512.cpp, dispatch_avx2.cpp and dispatch_sse2.cpp each
// include: the kernel compiled for that file's architecture (cmake/dispatch_tier.cmake gives each its
// -march) for every integrand the tier runs, for dispatch.cpp, compiled for the baseline, to call.
#pragma once

#include <cstdint>
#include <tuple>

#include "integrands.hpp"
#include "kernels/dispatch.hpp"
#include "simd_integrands.hpp"

template <class Arch, class F>
double ladder::dispatched::compiled(F f, double a, double b, std::int64_t n) {
  return midpoint<Arch>(f, a, b, n);
}

namespace ladder::dispatched {

// Which integrands: those the registry gives the tier (ladder::SimdIntegrand, as in dispatch.cpp).
template <class Arch, class F>
consteval auto kernel_of() {
  if constexpr (SimdIntegrand<F>)
    return &compiled<Arch, F>;
  else
    return nullptr;
}

// The kernels of every integrand, as a table of their addresses. A path file defines one table, with
// external linkage and nothing reading it: the compiler must then emit every function it points to, and
// the table, a constant, is written at compile time, so the file runs no code of its architecture when the
// program starts (where the CPU may not have it).
template <class Arch, class... Integrands>
constexpr auto every_integrand(IntegrandList<Integrands...>) {
  return std::tuple{kernel_of<Arch, Integrands>()...};
}

}  // namespace ladder::dispatched
