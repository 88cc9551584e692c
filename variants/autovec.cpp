// Rung 5 — autovec: the card; the kernel is kernels/autovec.hpp. This file is built with -ffast-math and
// -fopenmp-simd (ladder_add_tier's FLAGS): they apply to the kernel where this file instantiates it.
#include "kernels/autovec.hpp"

#include <cstdint>

#include "tier.hpp"

namespace {

const ladder::Registration registration{
    {.id = "autovec",
     .rung = 5,
     .summary = "the plain loop, vectorized by the compiler (omp simd, -ffast-math, libmvec)",
     .libraries = {"glibc libmvec"},
     .concepts = {"compiler vectorization", "floating-point reassociation", "compiler flags"},
     .learning_time = ladder::LearningTime::hours,
     .summation = "SIMD lanes chosen by the compiler",
     .summation_depth = ladder::sequential_depth},
    [](auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions&) {
      return ladder::autovec(f, ab.a, ab.b, n);
    }};

}  // namespace
