// Rung 16 — dispatch: one binary for every x86-64 CPU that still uses the widest registers of the one it
// runs on. The xsimd tier's batches are as wide as the -march it was compiled with allows, so a build for
// the baseline, which is what a Debian package or a product binary ships, gets SSE2's 2 lanes even on a CPU
// with 8. Here the same kernel is compiled once per architecture, each time in a file of its own with that
// architecture's -march (dispatch_avx512.cpp: x86-64-v4, dispatch_avx2.cpp: x86-64-v3, dispatch_sse2.cpp:
// x86-64), and the caller, compiled for the baseline, asks the CPU which of them it can run. A path file is
// three lines: it defines `compiled` (below) as `return midpoint<Arch>(f, a, b, n);` and instantiates it
// for the integrands the program integrates. Link the SSE2 file before the wider ones: where they all define
// one of a library's inline functions out of line, the linker keeps the first copy for every caller.
//
// Why not GCC's target_clones, which clones one function per target without the extra files: inside each
// clone xsimd 8.1 still picks its batch from the file's preprocessor macros (2 lanes in every clone), and
// clang refuses target_clones on function templates.
#pragma once

#include <cstdint>
#include <xsimd/xsimd.hpp>

namespace ladder::dispatched {

// The kernel: the xsimd tier's (simd_kernel.hpp), with the architecture a template parameter instead of
// the file's -march, so that each architecture's copy is a function of its own name. Compile it for Arch
// only in a file whose -march has Arch. The last nodes, fewer than a batch, go through f as one more batch
// whose lanes past the end count 0, not one double at a time: f on doubles would be compiled in every
// architecture's file under one name, and the linker keeps one of those copies for every caller in the
// program, perhaps the AVX-512 one, on a CPU without AVX-512.
template <class Arch, class F>
double midpoint(F f, double a, double b, std::int64_t n) {
  using Batch = xsimd::batch<double, Arch>;
  constexpr std::int64_t width = Batch::size, accumulators = 4;
  const double step = (b - a) / static_cast<double>(n);
  double offsets[width];  // ½, 1½, 2½, …: the node offsets of the lanes of one batch
  for (std::int64_t lane = 0; lane < width; ++lane) offsets[lane] = static_cast<double>(lane) + 0.5;
  const Batch lane_offsets = Batch::load_unaligned(offsets), step_batch(step), a_batch(a);
  const Batch next1(1.0 * width), next2(2.0 * width), next3(3.0 * width);
  // Each node is fma(i + ½, step, a), its index turned to double once per four batches (see simd_kernel.hpp).
  auto indices = [&](std::int64_t i) { return Batch(static_cast<double>(i)) + lane_offsets; };
  auto node = [&](Batch index) { return xsimd::fma(index, step_batch, a_batch); };

  Batch sum0(0.0), sum1(0.0), sum2(0.0), sum3(0.0);
  std::int64_t i = 0;
  for (; n - i >= accumulators * width; i += accumulators * width) {
    const Batch index = indices(i);
    sum0 += f(node(index));
    sum1 += f(node(index + next1));
    sum2 += f(node(index + next2));
    sum3 += f(node(index + next3));
  }
  for (; n - i >= width; i += width) sum0 += f(node(indices(i)));
  if (i < n) {  // the lanes past the last node evaluate f there again, and count 0
    const Batch index = indices(i), last(static_cast<double>(n) - 0.5);
    sum0 += xsimd::select(index <= last, f(node(xsimd::min(index, last))), Batch(0.0));
  }
  return xsimd::hadd((sum0 + sum1) + (sum2 + sum3)) * step;
}

// midpoint<Arch> as Arch's own file compiled it. Only declared here: this header is included by the caller,
// compiled for the baseline, which must not compile AVX code (xsimd refuses an AVX batch there anyway).
template <class Arch, class F>
double compiled(F f, double a, double b, std::int64_t n);

}  // namespace ladder::dispatched

#if defined(__x86_64__)  // the paths are x86-64's: on aarch64 the tier is refused (dispatch.cpp says why)
namespace ladder::dispatched {

// The paths, widest first.
enum class Path { avx512, avx2, sse2 };

// The widest path this CPU can run: it has every feature its file's -march lets the compiler use, and the
// OS saves those registers (__builtin_cpu_supports checks both). x86-64-v3 also has LZCNT, MOVBE and F16C,
// which clang 14 cannot ask about; every CPU with the other v3 features has them.
inline Path best_path() {
  __builtin_cpu_init();  // this may run before the runtime's constructors have
  const bool v3 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                  __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
  const bool v4 = v3 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                  __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512cd") &&
                  __builtin_cpu_supports("avx512vl");
  return v4 ? Path::avx512 : v3 ? Path::avx2 : Path::sse2;
}

}  // namespace ladder::dispatched

namespace ladder {

// The midpoint rule: the integral of f over [a, b] with n nodes, on the widest registers this CPU has.
template <class F>
double dispatch(F f, double a, double b, std::int64_t n) {
  using namespace dispatched;
  switch (best_path()) {
    case Path::avx512:
      return compiled<xsimd::avx512bw>(f, a, b, n);
    case Path::avx2:
      return compiled<xsimd::fma3<xsimd::avx2>>(f, a, b, n);
    case Path::sse2:
      break;
  }
  return compiled<xsimd::sse2>(f, a, b, n);
}

}  // namespace ladder
#endif  // __x86_64__
