// ladder-profiling: the tiers again, built for a target valgrind can execute (x86-64-v3: valgrind 3.19
// has no AVX-512), with debug lines and at fixed addresses, and nothing else. `ladder` runs it under
// callgrind to count instructions (ladder run, ladder instructions) and to cost each source line
// (ladder profile); callgrind collects inside ladder_profiled_call only.
//   ladder-profiling target                        the -march it was built for
//   ladder-profiling list                          the tier ids it holds
//   ladder-profiling call TIER INTEGRAND A B N T   one warm-up call, then the profiled call
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "registry.hpp"

#ifndef LADDER_PROFILING_TARGET
#error "LADDER_PROFILING_TARGET: the -march of this build"
#endif

// Not inlined and not cloned, so that its name marks exactly the kernel's instructions. GCC may call a clone
// (.isra, .constprop) in its place unless told noipa. Clang has no noipa (and warns about it): noinline is
// enough there, since LLVM rewrites only internal functions' signatures and specializes only on constants.
#if __has_attribute(noipa)
#define LADDER_NOT_CLONED noinline, noipa
#else
#define LADDER_NOT_CLONED noinline
#endif
extern "C" __attribute__((LADDER_NOT_CLONED)) double ladder_profiled_call(const ladder::Tier& tier,
                                                                          std::size_t integrand,
                                                                          ladder::Interval ab, std::int64_t n,
                                                                          const ladder::RunOptions& options) {
  return ladder::integrate(tier, integrand, ab, n, options);
}

int main(int argc, char** argv) try {
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "target" && argc == 2) {
    std::printf("%s\n", LADDER_PROFILING_TARGET);
    return 0;
  }
  if (command == "list" && argc == 2) {
    for (const auto& tier : ladder::tiers()) std::printf("%s\n", tier.card.id.c_str());
    return 0;
  }
  if (command == "call" && argc == 8) {
    const ladder::Tier& tier = ladder::find_tier(argv[2]);
    const std::size_t integrand = ladder::find_integrand(argv[3]);
    const ladder::Interval ab{std::strtod(argv[4], nullptr), std::strtod(argv[5], nullptr)};
    const std::int64_t n = std::strtoll(argv[6], nullptr, 10);
    const ladder::RunOptions options{std::atoi(argv[7]), false};
    // The first call pays for one-time set-up (thread pools, lazy symbol binding): not the kernel's cost.
    ladder::integrate(tier, integrand, ab, n, options);
    std::printf("%.17g\n", ladder_profiled_call(tier, integrand, ab, n, options));
    return 0;
  }
  std::fprintf(stderr, "usage: ladder-profiling target | list | call TIER INTEGRAND A B N THREADS\n");
  return 2;
} catch (const std::exception& error) {
  std::fprintf(stderr, "ladder-profiling: %s\n", error.what());
  return 2;
}
