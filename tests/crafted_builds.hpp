// A crafted run of several builds (`ladder run --compilers gcc,clang --arch native,x86-64-v2`), for the tests
// of what reads one: every time and every build record is the test's own, so each ratio, each answer and
// each word about vectorization is known in advance.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "crafted_results.hpp"

namespace ladder::testing {

// One tier in one build: its median at n = 1e7 (a tenth of it at 1e6), and its hot loop as the build read it.
struct CraftedBuildTier {
  std::string tier;
  int rung = 0;
  double seconds = 0;  // at n = 1e7, 1 thread
  std::string vectorization = "vectorized";
  int lanes = 8;
  std::string instruction_set = "avx512f";
};

struct CraftedBuild {
  std::string id, compiler, target, state;
  std::vector<CraftedBuildTier> tiers;
};

// The three builds of the tests: the native GCC build at hand, Clang for x86-64-v2 (xsimd down to SSE's two
// lanes, autovec scalar) and GCC for x86-64-v2 (AVX2's four lanes). dispatch picks its path at run time.
inline std::vector<CraftedBuild> three_builds() {
  return {
      {"gcc-native",
       "GNU 12.2.0",
       "native",
       "the build at hand (this binary)",
       {{"naive", 1, 0.010, "scalar", 1, "avx512f"},
        {"autovec", 3, 0.002, "vectorized", 8, "avx512f"},
        {"xsimd", 7, 0.001, "vectorized", 8, "avx512f"},
        {"dispatch", 8, 0.0012, "vectorized", 8, "avx512f"}}},
      {"clang-x86-64-v2",
       "Clang 16.0.6",
       "x86-64-v2",
       "built: configure 12 s, compile 3:20",
       {{"naive", 1, 0.010, "scalar", 1, "sse4_2"},
        {"autovec", 3, 0.008, "scalar", 1, "sse4_2"},
        {"xsimd", 7, 0.0025, "vectorized", 2, "sse4_2"},
        {"dispatch", 8, 0.00125, "vectorized", 8, "avx512f"}}},
      {"gcc-x86-64-v2",
       "GNU 12.2.0",
       "x86-64-v2",
       "reused: up to date, no recompilation (checked in 0.4 s)",
       {{"naive", 1, 0.012, "scalar", 1, "avx2"},
        {"autovec", 3, 0.004, "vectorized", 4, "avx2"},
        {"xsimd", 7, 0.002, "vectorized", 4, "avx2"},
        {"dispatch", 8, 0.0013, "vectorized", 8, "avx512f"}}},
  };
}

// A results document of `builds` on `host`, at n = 1e6 and 1e7, 1 thread; the matrix lists the builds in
// `matrix_order` (their order when empty). Each cell is named as the harness names it ("…/build:ID").
inline nlohmann::json crafted_builds_run(const std::string& host, const std::vector<CraftedBuild>& builds,
                                         std::vector<std::string> matrix_order = {}) {
  nlohmann::json cards = nlohmann::json::array(), cells = nlohmann::json::array();
  std::map<std::string, bool> carded;
  for (const auto& build : builds)
    for (const auto& tier : build.tiers) {
      if (!carded[tier.tier])
        cards.push_back(crafted_card(
            tier.tier, tier.rung,
            tier.tier == "xsimd" ? std::vector<std::string>{"xsimd"} : std::vector<std::string>{}, false,
            tier.tier == "naive" ? "hours" : "days", 20 + 10 * tier.rung));
      carded[tier.tier] = true;
      for (const std::int64_t n : {1000000, 10000000}) {
        const double seconds = n == 10000000 ? tier.seconds : tier.seconds / 10;
        CellResult record = measured_record({tier.tier, tier.rung, n, 1, around(seconds)});
        record.build = build.id;
        record.name += "/build:" + build.id;
        record.measurement->instruction_set = tier.instruction_set;  // what the worker saw the tier use
        record.build_record = BuildRecord{build.id,
                                          build.compiler,
                                          build.target,
                                          "-O3 -march=" + build.target,
                                          tier.instruction_set,
                                          tier.vectorization,
                                          tier.lanes,
                                          "main loop at 0x401000: vfmadd231pd"};
        cells.push_back(record);
      }
    }
  nlohmann::json document = crafted_results(host, cards, cells);
  nlohmann::json& context = document["context"];
  if (matrix_order.empty())
    for (const auto& build : builds) matrix_order.push_back(build.id);
  context["matrix"]["builds"] = matrix_order;
  context["matrix"]["sizes"] = {1000000, 10000000};
  for (const auto& build : builds) {
    const bool built = build.state.starts_with("built");
    context["run"]["builds"].push_back({{"id", build.id},
                                        {"compiler", build.compiler},
                                        {"target", build.target},
                                        {"common_flags", "-O3 -DNDEBUG -march=" + build.target},
                                        {"state", build.state},
                                        {"configure_seconds", built ? 12.0 : 0.0},
                                        {"compile_seconds", built ? 200.0 : 0.0}});
  }
  return document;
}

}  // namespace ladder::testing
