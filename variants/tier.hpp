// What a tier is: a midpoint-rule kernel plus the card a reader needs to judge what it costs to keep.
//
// The kernel is a header of its own, variants/kernels/STEM.hpp: a function template ladder::STEM over the
// integrand that includes nothing of Ladder's registry, harness or cards, so a team can take it as it is.
// The tier file, variants/STEM.cpp, includes it, fills in the card, and registers both with one line that
// adapts the registry's arguments to the kernel's:
//
//   const ladder::Registration registration{card, [](auto f, ladder::Interval ab, std::int64_t n,
//                                                    const ladder::RunOptions& options) {
//     return ladder::STEM(f, ab.a, ab.b, n, {.threads = options.threads});
//   }};
//
// The registry instantiates the kernel once for every integrand in integrands.hpp, so the harness, the
// command line and the report find tiers by id and never name one.
#pragma once

#include <cstdint>
#include <source_location>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "integrands.hpp"

namespace ladder {

struct Interval {
  double a;
  double b;
};

struct RunOptions {
  int threads = 1;
  // Parallel tiers that can trade speed for a result that is bit-identical at every thread count do so
  // when this is set (see the card's `reproducible`).
  bool reproducible = false;
  // The CPUs the harness placed the threads on, one a thread in the order the threads take them (thread
  // or arena slot i runs on cpus[i]); empty: not pinned. A tier whose runtime has no pinning setting of
  // its own pins with it (the oneTBB tiers, tbb_pinning.hpp); OpenMP's tiers get OMP_PLACES instead.
  std::vector<int> cpus{};
};

enum class LearningTime { minutes, hours, days };

// What the kernel calls the integrand with: one double at a time, xsimd batches, Eigen arrays, (on the
// GPU) doubles in device code, or the vector types of the std-simd, sleef and highway tiers. An integrand
// that does not compile for it leaves the tier unavailable for that integrand (IntegrandBuild in
// integrands.hpp).
enum class Evaluates {
  scalars,
  simd_batches,
  tuned_batches,
  arrays,
  device,
  std_simd_vectors,
  sleef_batches,
  highway_vectors
};

// Whether the same inputs give the same bits at every thread count.
enum class Reproducible { always, on_request, never };

struct TierCard {
  std::string id{};
  int rung = 0;
  std::string summary{};
  std::vector<std::string> libraries{};  // what a maintainer must install and keep current
  std::vector<std::string> concepts{};   // what a maintainer must understand
  LearningTime learning_time = LearningTime::minutes;
  Evaluates evaluates = Evaluates::scalars;
  bool parallel = false;  // takes RunOptions::threads; serial tiers accept threads = 1 only
  Reproducible reproducible = Reproducible::always;
  // How the terms are summed, in words, and the longest chain of rounded additions any term passes
  // through for n terms on `threads` threads: the rounding bound in the tests grows with it.
  std::string summation{};
  double (*summation_depth)(std::int64_t n, int threads) = nullptr;
  // Heap bytes the kernel holds per node (8 for a vector of the nodes, 0 for a streaming kernel): the
  // harness predicts a run's memory from it and skips what the machine cannot hold.
  double heap_bytes_per_node = 0;
  // Bytes a node the kernel moves to and from memory once n outgrows the caches, and how they were
  // counted: a design fact, like the heap bytes. Left empty, the card says 0, "none: streaming, the nodes
  // never leave registers" when heap_bytes_per_node is 0 (harness/cards.cpp); a tier that keeps nodes in
  // memory types both.
  double memory_bytes_per_node = 0;
  std::string memory_bytes_counted{};
  // Environment the harness gives this tier's worker processes, "NAME=value", unless the user's own
  // environment sets NAME: how the tier's runtime pins its threads (OMP_PROC_BIND, OMP_PLACES).
  std::vector<std::string> environment{};
  // Runs as several processes started by an MPI launcher (`ladder run --ranks`, `ladder eval --ranks`):
  // every rank calls the kernel with the same arguments, and rank 0's result is the integral.
  bool distributed = false;
  // Why the tier cannot run on this machine (no GPU, no mpirun, …), or empty when it can. Null: always can.
  std::string (*unavailable)() = nullptr;
  // The code path chosen at run time, for a tier that dispatches on the CPU it runs on ("avx512bw",
  // "fma3+avx2", "sse2", as xsimd names them), which the harness records with each cell. Null: one path.
  std::string (*runtime_path)() = nullptr;

  // What a reader must know that the fields above do not say (e.g. which integrands a tier treats
  // differently), or empty.
  std::string note{};
  // The largest error of an elementary function the tier implements itself (not a library's), in ulps of
  // the double result, as the tier's own test measures it; 0: the tier implements none.
  double max_ulp_error = 0;

  // Filled in by the build, never typed in (see ladder_add_tier in CMakeLists.txt).
  std::string source_file{};  // the tier's file name: "xsimd.cpp"
  // The kernel's header, relative to the source directory: "variants/kernels/xsimd.hpp"
  std::string kernel_header{};
  // Non-blank, non-comment lines of the kernel header: the code a team keeps (the card and registration
  // in source_file are Ladder's, not counted). A tier given no KERNEL counts its own file instead.
  int source_lines = 0;
  std::vector<std::string> shares{};  // project headers whose kernel the tier builds on
  int shared_lines = 0;               // ... and their non-blank, non-comment lines
  std::vector<std::string> flags{};   // compiler flags this tier adds to the common set
};

// The summation depth of one accumulator adding n terms in order: the bound for any order at all.
inline double sequential_depth(std::int64_t n, int) { return static_cast<double>(n); }

// One integrand's entry point into one tier: the integral of that integrand over ab with n nodes.
using Kernel = double (*)(Interval ab, std::int64_t n, const RunOptions& options);

struct Tier {
  TierCard card;
  std::vector<Kernel> kernels;  // one per integrand, in the order of integrand_names(); null: cannot run it
  std::vector<std::string> unsupported;  // why not, for each null kernel (else empty)
};

void register_tier(TierCard card, std::vector<Kernel> kernels, std::vector<std::string> unsupported,
                   std::string_view file);

std::string_view to_string(Evaluates evaluates);

// What the build found out about F on what a tier calls it with (doubles always work).
template <class F>
constexpr Probe probe_for(Evaluates evaluates) {
  using Build = IntegrandBuild<F>;
  switch (evaluates) {
    case Evaluates::scalars:
      return {};
    case Evaluates::simd_batches:
      return Build::simd;
    case Evaluates::tuned_batches:
      return Build::tuned;
    case Evaluates::arrays:
      return Build::array;
    case Evaluates::device:
      return Build::device;
    case Evaluates::std_simd_vectors:
      return Build::std_simd;
    case Evaluates::sleef_batches:
      return Build::sleef;
    case Evaluates::highway_vectors:
      return Build::highway;
  }
  return {};
}

// Why an integrand cannot be called with what a tier's kernel takes: the build's probe, or the call
// operator's own constraints.
template <class F>
std::string unsupported_reason(Evaluates evaluates) {
  const Probe probe = probe_for<F>(evaluates);
  const std::string what(to_string(evaluates));
  if (!probe.compiles) return "does not work on " + what + ": " + std::string(probe.error);
  return "its call operator does not take " + what;
}

// The static object a tier file defines to register itself.
struct Registration {
  template <class GenericKernel>
  Registration(TierCard card, GenericKernel, std::source_location where = std::source_location::current()) {
    std::vector<Kernel> kernels;
    std::vector<std::string> unsupported;
    add_kernels<GenericKernel>(AllIntegrands{}, card.evaluates, kernels, unsupported);
    register_tier(std::move(card), std::move(kernels), std::move(unsupported), where.file_name());
  }

 private:
  // The kernel for each integrand its constraints accept (a `requires` check: nothing is instantiated for
  // the others), a null kernel and the reason for the rest.
  template <class GenericKernel, class... Integrands>
  static void add_kernels(IntegrandList<Integrands...>, Evaluates evaluates, std::vector<Kernel>& kernels,
                          std::vector<std::string>& unsupported) {
    (add_kernel<GenericKernel, Integrands>(evaluates, kernels, unsupported), ...);
  }
  template <class GenericKernel, class F>
  static void add_kernel(Evaluates evaluates, std::vector<Kernel>& kernels,
                         std::vector<std::string>& unsupported) {
    if constexpr (std::is_invocable_v<GenericKernel, F, Interval, std::int64_t, const RunOptions&>) {
      kernels.push_back([](Interval ab, std::int64_t n, const RunOptions& options) -> double {
        return GenericKernel{}(F{}, ab, n, options);
      });
      unsupported.emplace_back();
    } else {
      kernels.push_back(nullptr);
      unsupported.push_back(unsupported_reason<F>(evaluates));
    }
  }
};

}  // namespace ladder
