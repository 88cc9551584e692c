// What the tests share: the edge cases every tier meets, the references, computed once per case, the
// summation depth of every tier pinned by the tests themselves, and a fixture over every tier that reports
// the ones this machine cannot run as skipped, with the reason.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "reference.hpp"
#include "registry.hpp"
#include "simd_kernel.hpp"

namespace ladder::testing {

// n not a multiple of SIMD width × accumulators × threads, so every remainder path runs.
inline const std::vector<std::int64_t> edge_sizes = {1, 2, 3, 7, 8, 9, 15, 1000, 1000003};

struct NamedInterval {
  std::string name;
  Interval ab;
};

inline const std::vector<NamedInterval> edge_intervals = {
    {"unit [0,1]", {0.0, 1.0}},         {"across zero [-2,3]", {-2.0, 3.0}},
    {"negative [-3,-1]", {-3.0, -1.0}}, {"reversed [1,0] (negative sum)", {1.0, 0.0}},
    {"empty [0.5,0.5]", {0.5, 0.5}},
};

inline const Reference& cached_reference(std::size_t integrand, Interval ab, std::int64_t n) {
  static std::map<std::tuple<std::size_t, double, double, std::int64_t>, Reference> cache;
  const auto key = std::make_tuple(integrand, ab.a, ab.b, n);
  auto found = cache.find(key);
  if (found == cache.end()) found = cache.emplace(key, reference(integrands()[integrand], ab, n)).first;
  return found->second;
}

// ---- the summation depth of every tier, pinned here -------------------------------------------------
// The rounding bound grows with the longest chain of rounded additions a term passes through. A tier's
// card states that depth, but a bound taken from the card lets a tier loosen its own oracle (a card saying
// n·10⁶ would pass anything). So the tests own the depths: each is written below from the summation order
// the tier's file describes, Cards.SummationDepthIsThePinnedOne holds every card to it, and the tests'
// bounds come from here, capped at n (no chain over n terms is longer than n).
// A tier missing from this table fails every test that asks for its bound: add it when adding a tier.
namespace depth {

// The block sizes the tiers' kernels use (restated from their headers in variants/kernels/ — eigen_chunk,
// compensated_block, openmp_block, openmp_tuned_block, mpi_block, cuda_block_threads, cuda_max_blocks —
// not included from there: a change there must show here).
constexpr std::int64_t eigen_chunk = 4096;
constexpr std::int64_t compensated_block = 4096;
constexpr std::int64_t openmp_block = std::int64_t{1} << 16;  // openmp, openmp-tuned, mpi
constexpr std::int64_t cuda_block_threads = 256, cuda_max_blocks = 1024;
// simd_kernel.hpp's lanes: 4 accumulators of `width` doubles each.
constexpr std::int64_t lanes = simd::accumulators * simd::width;

// One accumulator in order; also the bound for an order nobody states (autovec's lanes are the
// compiler's choice, stdpar's leaves the library's).
inline double sequential(std::int64_t n, int) { return static_cast<double>(n); }
// simd::block_sum: n/lanes additions per lane, then a few to fold the 4 × width lanes and the scalar tail
// (at most 2·width + 3 of them, within `lanes`).
inline double simd_lanes(std::int64_t n, int) { return static_cast<double>(n / lanes + lanes); }
// Eigen: within a chunk at most chunk additions, whatever its lanes; the chunk sums in order.
inline double eigen_chunks(std::int64_t n, int) { return static_cast<double>(eigen_chunk + n / eigen_chunk); }
// block_sum within a 4096-node block; the block sums compensated (Neumaier): a constant 4, not n/block.
inline double compensated_blocks(std::int64_t, int) {
  return static_cast<double>(compensated_block / lanes + lanes + 4);
}
// block_sum within a block, a thread's blocks in order (at most all of them), the threads' sums by the
// runtime (at most one addition each).
inline double openmp_blocks(std::int64_t n, int threads) {
  return static_cast<double>(n / openmp_block + openmp_block / lanes + lanes + threads);
}
// As openmp within each rank; the ranks' partial sums compensated in rank order: 4 more.
inline double mpi_ranks(std::int64_t n, int threads) { return openmp_blocks(n, threads) + 4; }
// A task's range may be long (the auto partitioner), so its leaf counts as lanes over all n; the joins of
// ranges of at least grain/2 = 32768 nodes add fewer than n/lanes − leaf/lanes more.
inline double tbb_tree(std::int64_t n, int) { return simd_lanes(n, 1); }
// A GPU thread adds ⌈n/grid⌉ nodes in turn; a block reduction is 5 shuffle levels and then the 8 warp sums
// in turn (13); the one-block second kernel adds up to 1024/256 = 4 block sums a thread, then reduces (13).
inline double cuda_grid(std::int64_t n, int) {
  const std::int64_t blocks = std::min(cuda_max_blocks, (n + cuda_block_threads - 1) / cuda_block_threads);
  const std::int64_t grid = blocks * cuda_block_threads, block_reduction = 5 + cuda_block_threads / 32;
  return static_cast<double>((n + grid - 1) / grid + block_reduction + cuda_max_blocks / cuda_block_threads +
                             block_reduction);
}

// The dispatch tier's path is the widest this CPU has, read here from the CPU, not from the tier: 8 doubles
// a register with x86-64-v4's AVX-512 (F, BW, DQ, CD, VL), 4 with AVX2 and FMA, else SSE2's 2. Its lanes
// are then as simd_lanes's, at that width.
inline std::int64_t dispatched_width() {
#if !defined(__x86_64__)
  return 2;  // aarch64: the NEON path's 2 doubles (xsimd 8.1, which the kernel is written in, has no SVE)
#else
  __builtin_cpu_init();
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  const bool avx512 = avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512cd") &&
                      __builtin_cpu_supports("avx512vl");
  return avx512 ? 8 : avx2 ? 4 : 2;
#endif
}
inline double dispatched_lanes(std::int64_t n, int) {
  const std::int64_t lanes = simd::accumulators * dispatched_width();
  return static_cast<double>(n / lanes + lanes);
}

template <double (*Depth)(std::int64_t, int)>
double capped(std::int64_t n, int threads) {
  return std::min(Depth(n, threads), static_cast<double>(n));
}

}  // namespace depth

struct PinnedDepth {
  double (*stated)(std::int64_t n, int threads);  // what the card must say
  double (*capped)(std::int64_t n, int threads);  // what the bound uses: the same, at most n
  // What the tier calls f with, from its file: a user integrand's bound allows for what the build measured
  // its vector maths to lose there (the ulps of this probe), so this too is pinned, not taken from the card.
  // Empty: doubles, nothing added.
  std::string_view ulps_probe{};
};

template <double (*Depth)(std::int64_t, int)>
constexpr PinnedDepth pin(std::string_view ulps_probe = {}) {
  return {Depth, depth::capped<Depth>, ulps_probe};
}

inline const std::map<std::string, PinnedDepth, std::less<>>& pinned_depths() {
  static const std::map<std::string, PinnedDepth, std::less<>> table = {
      {"naive", pin<depth::sequential>()},
      {"streaming", pin<depth::sequential>()},
      {"inlined", pin<depth::sequential>()},
      {"std-algorithms", pin<depth::sequential>()},
      {"eigen", pin<depth::eigen_chunks>("array")},
      {"autovec", pin<depth::sequential>()},
      {"xsimd", pin<depth::simd_lanes>("simd")},
      {"compensated", pin<depth::compensated_blocks>("simd")},
      {"openmp", pin<depth::openmp_blocks>("simd")},
      {"tbb", pin<depth::tbb_tree>("simd")},
      {"stdpar", pin<depth::sequential>()},
      {"mpi", pin<depth::mpi_ranks>("simd")},
      {"cuda", pin<depth::cuda_grid>("device")},  // no probe: user integrands are not run there
      // TunedBatch is xsimd's batch with the tuned exp: the rest of its maths is xsimd's.
      {"tuned-exp", pin<depth::simd_lanes>("simd")},
      {"openmp-tuned", pin<depth::openmp_blocks>("simd")},
      {"tbb-tuned", pin<depth::tbb_tree>("simd")},
      {"dispatch", pin<depth::dispatched_lanes>("simd")},
      // Their vectors are as wide as xsimd's batch at every target (tests/new_rungs_test.cpp checks).
      {"std-simd", pin<depth::simd_lanes>("std_simd")},
      {"sleef", pin<depth::simd_lanes>("sleef")},
      {"highway", pin<depth::simd_lanes>("highway")},
  };
  return table;
}

// The largest |result − midpoint| rounding explains for this tier: the harness's formula (reference.hpp)
// fed the pinned depth, never the card's. A tier with no pinned depth fails the calling test (bound 0).
inline double pinned_rounding_bound(const Tier& tier, const Reference& ref, std::int64_t n, int threads) {
  const auto found = pinned_depths().find(tier.card.id);
  if (found == pinned_depths().end()) {
    ADD_FAILURE() << "tier '" << tier.card.id
                  << "' has no summation depth pinned in tests/test_support.hpp (pinned_depths): add one "
                     "written from its summation order";
    return 0;
  }
  TierCard pinned;
  pinned.summation_depth = found->second.capped;
  pinned.evaluates.id = found->second.ulps_probe;
  return rounding_bound(pinned, ref, n, threads);
}

// ---- every tier, the unavailable ones reported as skipped ------------------------------------------
inline std::vector<std::string> tier_ids_where(const std::function<bool(const TierCard&)>& wanted) {
  std::vector<std::string> ids;
  for (const auto& tier : tiers())
    if (wanted(tier.card)) ids.push_back(tier.card.id);
  return ids;
}

inline std::vector<std::string> every_tier_id() {
  return tier_ids_where([](const TierCard&) { return true; });
}

// A tier id as a test name: gtest allows letters, digits and underscores.
inline std::string tier_test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

// Parameterized over tier ids. A tier this machine cannot run (mpi without a launcher, cuda without a GPU)
// is reported as skipped, with the reason: dropped silently, a loop over tiers would pass without it.
// Each test file derives its own fixture from this one, so that each instantiates only its own tests.
class EachTier : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (const auto reason = unavailable_reason(tier()); !reason.empty())
      GTEST_SKIP() << "tier '" << GetParam() << "' cannot run on this machine: " << reason;
  }
  const Tier& tier() const { return find_tier(GetParam()); }
};

// ---- every tier × every integrand it can run ---------------------------------------------------------
struct Case {
  std::string tier;
  std::size_t integrand;
};

inline void PrintTo(const Case& c, std::ostream* out) {
  *out << c.tier << " on " << integrands()[c.integrand].name;
}

// Every pair the build made a kernel for. A pair it did not (an integrand that does not work on what the
// tier calls it with) is not a case: tests/cards_test.cpp checks that exactly those are left out, and why.
inline std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (const auto& tier : tiers())
    for (std::size_t integrand = 0; integrand < integrands().size(); ++integrand)
      if (unsupported_reason(tier, integrand).empty()) cases.push_back({tier.card.id, integrand});
  return cases;
}

inline std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string name = info.param.tier + "_" + integrands()[info.param.integrand].name;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

// Parameterized over the (tier, integrand) pairs of all_cases(). Skipped, with the reason, where the tier
// cannot run on this machine: only there. Each test file derives its own fixture from this one.
class EachTierAndIntegrand : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    if (const auto reason = unavailable_reason(tier()); !reason.empty())
      GTEST_SKIP() << "cannot run on this machine: " << reason;
  }
  const Tier& tier() const { return find_tier(GetParam().tier); }
  std::size_t integrand() const { return GetParam().integrand; }
};

// The observed order of convergence between n and 2n: log2(|I − result(n)| / |I − result(2n)|).
// A midpoint rule gives 2; nodes shifted by half a step give 1.
inline std::vector<double> observed_orders(Kernel kernel, std::size_t integrand, Interval ab,
                                           std::int64_t first_n, int doublings, int threads = 1) {
  const long double exact = reference(integrands()[integrand], ab, 1).exact.value();
  std::vector<double> orders;
  long double previous = 0;
  for (int step = 0; step <= doublings; ++step) {
    const std::int64_t n = first_n << step;
    const long double error = std::fabs(kernel(ab, n, {threads, false}) - exact);
    if (step > 0) orders.push_back(static_cast<double>(std::log2(previous / error)));
    previous = error;
  }
  return orders;
}

}  // namespace ladder::testing
