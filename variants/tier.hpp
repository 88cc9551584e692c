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

// What the kernel calls the integrand with: doubles, xsimd batches, Eigen arrays, (on the GPU) doubles in
// device code, or a vector type of a rung's own. Each kind is one row, defined beside the tiers that use it
// (doubles here, xsimd batches in simd_integrands.hpp, Eigen arrays in eigen.cpp, a rung's own vector type
// in its card file) and registered with their cards (evaluation_kinds() in registry.hpp). An integrand that
// does not work on it leaves the tier unavailable for that integrand, with the build's reason (IntegrandBuild
// in integrands.hpp).
struct EvaluationKind {
  // The build's probe of every user integrand on it: the key in IntegrandBuild<F>::probes, named by the
  // PROBE of a ladder_add_tier line (CMakeLists.txt, cmake/user_integrands.cmake). Empty: doubles.
  std::string_view id{};
  // In words, as the reasons and reports say it: "xsimd batches".
  std::string_view words = "doubles";
  // The probe whose measured ulps the rounding bound adds (harness/worker/reference.hpp): empty, its own;
  // another kind's where its type does that kind's vector maths.
  std::string_view ulps_of{};
  // Why it takes the built-in integrands only (the user's are not probed on it), or empty.
  std::string_view built_ins_only{};
  // What the build knows of a built-in integrand on it, by name (a compiler's known defect); null: each
  // works.
  Probe (*built_in)(std::string_view integrand) = nullptr;
  // Called in GPU device code: the kernel is CUDA.
  bool device = false;

  constexpr std::string_view ulps_probe() const { return ulps_of.empty() ? id : ulps_of; }
};
inline constexpr EvaluationKind doubles{};

// What the build found out about an integrand (its name, whether it is a built-in, its probes: a range of
// KindProbe) on one kind of argument.
template <class Probes>
constexpr Probe probe_on(const EvaluationKind& kind, std::string_view integrand, bool built_in,
                         const Probes& probes) {
  if (kind.id.empty()) return {};
  if (built_in) return kind.built_in ? kind.built_in(integrand) : Probe{};
  if (!kind.built_ins_only.empty()) return {false, kind.built_ins_only};
  for (const auto& probe : probes)
    if (probe.kind == kind.id) return probe.probe;
  return {false, "this build has no probe for it (no ladder_add_tier line with this PROBE)"};
}

// Whether the same inputs give the same bits at every thread count.
enum class Reproducible { always, on_request, never };

struct TierCard {
  std::string id{};
  int rung = 0;
  std::string summary{};
  std::vector<std::string> libraries{};  // what a maintainer must install and keep current
  std::vector<std::string> concepts{};   // what a maintainer must understand
  LearningTime learning_time = LearningTime::minutes;
  EvaluationKind evaluates = doubles;
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
  // never leave registers" when heap_bytes_per_node is 0 (harness/matrix/cards.cpp); a tier that keeps nodes
  // in memory types both.
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
// Lanes SIMD lanes (accumulators × width) each adding every Lanes-th term, then a sum over the lanes.
template <std::int64_t Lanes>
double lanes_depth(std::int64_t n, int) {
  return static_cast<double>(n / Lanes + Lanes);
}
// Blocks of Block nodes, each summed in Lanes lanes and then across them, added in order by each thread,
// then the threads' sums one after the other.
template <std::int64_t Block, std::int64_t Lanes>
double blocks_depth(std::int64_t n, int threads) {
  return static_cast<double>(n / Block + Block / Lanes + Lanes + threads);
}

// One integrand's entry point into one tier: the integral of that integrand over ab with n nodes.
using Kernel = double (*)(Interval ab, std::int64_t n, const RunOptions& options);

struct Tier {
  TierCard card;
  std::vector<Kernel> kernels;  // one per integrand, in the order of integrand_names(); null: cannot run it
  std::vector<std::string> unsupported;  // why not, for each null kernel (else empty)
};

void register_tier(TierCard card, std::vector<Kernel> kernels, std::vector<std::string> unsupported,
                   std::string_view file);

// What the build found out about F on what a tier calls it with (doubles always work).
template <class F>
constexpr Probe probe_for(const EvaluationKind& kind) {
  using Build = IntegrandBuild<F>;
  return probe_on(kind, F::name, Build::source == "built-in", Build::probes);
}

// Why an integrand cannot be called with what a tier's kernel takes: the build's probe, or the call
// operator's own constraints.
template <class F>
std::string unsupported_reason(const EvaluationKind& kind) {
  const Probe probe = probe_for<F>(kind);
  const std::string what(kind.words);
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
  static void add_kernels(IntegrandList<Integrands...>, const EvaluationKind& evaluates,
                          std::vector<Kernel>& kernels, std::vector<std::string>& unsupported) {
    (add_kernel<GenericKernel, Integrands>(evaluates, kernels, unsupported), ...);
  }
  template <class GenericKernel, class F>
  static void add_kernel(const EvaluationKind& evaluates, std::vector<Kernel>& kernels,
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
