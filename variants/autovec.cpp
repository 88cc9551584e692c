// Rung 5 — autovec: the card; the kernel is kernels/autovec.hpp. This file is built with -ffast-math and
// -fopenmp-simd, and under Clang also -fveclib=libmvec and -Wno-error=pass-failed (ladder_add_tier's FLAGS,
// chosen by compiler in CMakeLists.txt): they apply to the kernel where this file instantiates it.
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
     .summation_depth = ladder::sequential_depth,
     .note =
         "what the loop calls depends on the compiler (the flags show this build's): GCC 12 calls glibc's "
         "vector functions (libmvec) from glibc's own declarations, the 8-lane _ZGVeN8v_exp on AVX-512 and "
         "the 4-lane _ZGVdN4v_exp at x86-64-v3, and vector atan, log1p and erfc too; Clang 15/16 calls "
         "libmvec only under -fveclib=libmvec, and then only the 4-lane _ZGVdN4v_exp (and sin), even on "
         "AVX-512: LLVM's libmvec table has no 8-lane exp, nor atan, log1p or erfc, so for log-atan and "
         "normal-cdf it calls them one value at a time. Those two loops are why Clang warns 'loop not "
         "vectorized' (-Wpass-failed): omp simd asked it to vectorize a loop calling a function it has no "
         "vector version of, and it left the loop scalar; -Wno-error=pass-failed keeps that a warning. "
         "libmvec's exp is not glibc's scalar exp: up to 2.5 ulp from the exact value and 3 ulp from "
         "std::exp (glibc's manual lists no accuracy for the vector versions), so this tier's results "
         "differ from the scalar tiers' in the last bits. On aarch64 glibc 2.36 has no vector exp (its "
         "aarch64 libmvec came with 2.38): GCC 12 leaves the gauss loop calling the scalar exp, one node "
         "at a time, and the disassembly reads scalar"},
    [](auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions&) {
      return ladder::autovec(f, ab.a, ab.b, n);
    }};

}  // namespace
