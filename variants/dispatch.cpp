// Rung 16 — dispatch: the card; the kernel is kernels/dispatch.hpp, compiled for each architecture in
// dispatch_avx512.cpp, dispatch_avx2.cpp and dispatch_sse2.cpp. This file, the caller that picks one, is
// compiled for the baseline (-march=x86-64) whatever the build's -march (cmake/dispatch_tier.cmake).
#include "kernels/dispatch.hpp"

#include <cstdint>
#include <string>

#include "simd_integrands.hpp"
#include "tier.hpp"

namespace {

#if defined(__x86_64__)
using ladder::dispatched::best_path;
using ladder::dispatched::Path;

// The path's architecture as xsimd names it, as the other tiers' builds record theirs (avx512bw, …).
std::string architecture(Path path) {
  switch (path) {
    case Path::avx512:
      return xsimd::avx512bw::name();
    case Path::avx2:
      return xsimd::fma3<xsimd::avx2>::name();
    case Path::sse2:
      break;
  }
  return xsimd::sse2::name();
}

// Doubles in one register of the path: its bytes (xsimd's alignment for it) over 8.
std::int64_t width(Path path) {
  const std::size_t bytes = path == Path::avx512 ? xsimd::avx512bw::alignment()
                            : path == Path::avx2 ? xsimd::fma3<xsimd::avx2>::alignment()
                                                 : xsimd::sse2::alignment();
  return static_cast<std::int64_t>(bytes / sizeof(double));
}

// As xsimd's, with the width of the path this CPU runs.
double dispatched_lanes_depth(std::int64_t n, int) {
  const auto lanes = 4 * width(best_path());
  return static_cast<double>(n / lanes + lanes);
}

std::string runtime_path() { return architecture(best_path()); }
constexpr std::string (*refused_here)() = nullptr;

template <class F>
double dispatched(F f, ladder::Interval ab, std::int64_t n) {
  return ladder::dispatch(f, ab.a, ab.b, n);
}
#else
// On aarch64 the tier has no paths: its kernel is xsimd's, and xsimd 8.1 has NEON alone (its SVE came with
// xsimd 10), so NEON is the only path there is to pick, and the xsimd tier already is that path.
std::string refused_reason() {
  return "the dispatch tier is for x86-64: on aarch64 its kernel, xsimd's, has NEON only (xsimd 8.1 has no "
         "SVE), so there is no second path to choose at run time; the xsimd tier is that NEON path";
}
constexpr std::string (*refused_here)() = refused_reason;
double dispatched_lanes_depth(std::int64_t n, int) { return static_cast<double>(n / 8 + 8); }
std::string runtime_path() { return xsimd::neon64::name(); }

template <class F>
double dispatched(F f, ladder::Interval ab, std::int64_t n) {  // not called: the tier is refused
  return ladder::dispatched::midpoint<xsimd::neon64>(f, ab.a, ab.b, n);
}
#endif

const ladder::Registration registration{
    {.id = "dispatch",
     .rung = 16,
     .summary = "the xsimd kernel compiled for AVX-512, AVX2 and SSE2 in one binary, the widest the CPU has "
                "chosen at run time",
     .libraries = {"xsimd 8.1"},
     .concepts = {"run-time dispatch", "one translation unit per architecture", "x86-64 levels",
                  "SIMD batch types", "the one-definition rule across architectures"},
     .learning_time = ladder::LearningTime::days,
     .evaluates = ladder::simd_batches,
     .summation =
         "4 × width SIMD lanes of the path it runs (width 8 with AVX-512, 4 with AVX2, 2 with SSE2), "
         "then a horizontal add",
     .summation_depth = dispatched_lanes_depth,
     .unavailable = refused_here,
     .runtime_path = runtime_path,
     .note =
         "One binary for every x86-64 CPU, as a distribution or a product ships: dispatch.cpp is compiled "
         "for the baseline (-march=x86-64) and calls the kernel a path file compiled for the widest "
         "architecture the CPU has (under valgrind, which hides AVX-512, the AVX2 one); each cell records "
         "the path it ran as its instruction set. Not GCC's target_clones: inside "
         "each clone xsimd 8.1 still picks its batch width from the file's preprocessor macros (2 lanes "
         "in every clone), and clang refuses target_clones on function templates."},
    [](ladder::SimdIntegrand auto f, ladder::Interval ab, std::int64_t n, const ladder::RunOptions&) {
      return dispatched(f, ab, n);
    }};

}  // namespace
