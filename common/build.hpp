// A build of Ladder, described once: the compiler as it identifies itself, the -march target and the flags
// every tier is compiled with (`Build`). Every record of a build holds one: this binary's own (`BuildInfo`,
// harness/builds/build_info.hpp's build_info()), what a worker says of itself (harness/builds/builds.hpp's
// BuildDescription), the builds a run measured in (results.json's context.run.builds, run_context.hpp),
// `ladder list --builds`, and what `ladder export` writes of the binary that exported. "compiler" is always
// the compiler as it names itself ("GNU 12.2.0"), never the family a user asks for (`--compilers gcc`:
// harness/builds/builds.hpp's BuildSpec::compiler_family), and the -march value is always `target`
// (`--arch`).
//
// A cell's own record of its build (cell_result.hpp's BuildRecord) keeps its tier's full flags, not the
// build's common ones, and says which beside the compiler and target: see there.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "json_reader.hpp"

namespace ladder {

struct Build {
  std::string compiler;      // as it identifies itself: "GNU 12.2.0", "Clang 16.0.6"
  std::string target;        // the -march of every tier: "native", "x86-64-v3", … (`--arch`, LADDER_ARCH)
  std::string common_flags;  // the flags every tier is compiled with; a tier may add its own
  const Build& build() const { return *this; }
  bool operator==(const Build&) const = default;
};

// The three as JSON keys "compiler", "target" and "common_flags" of `out` (an object; its other keys are
// kept), and read back from them: a missing or mistyped one is a SchemaError naming it.
inline void write_build(nlohmann::json& out, const Build& build) {
  out["compiler"] = build.compiler;
  out["target"] = build.target;
  out["common_flags"] = build.common_flags;
}
inline Build read_build(const JsonReader& in) {
  return {in.at("compiler").string(), in.at("target").string(), in.at("common_flags").string()};
}

// How this binary was built: what every measurement needs beside it (harness/builds/build_info.hpp fills it
// in from CMake's configuration).
struct BuildInfo : Build {
  std::string build_type;       // e.g. "Release"
  std::string instruction_set;  // what xsimd's batches use in this build, e.g. "avx512bw"
  int simd_width = 0;           // doubles per batch
  std::string ladder_version;
  std::string benchmark_version;  // Google Benchmark, as CMake found it
  std::string openmp_version;     // the OpenMP specification the compiler implements
  std::string cuda_flags;         // how nvcc compiles the .cu tiers (empty without CUDA)
};

// The checkout the binary was built from, read at every build (cmake/source_state.cmake): not at configure
// time, so a tier edited or a commit made since is seen by the next build. "unknown" where the checkout is
// not a git repository of its own (a tarball) or git is not installed.
struct SourceState {
  std::string git_commit;  // the full hash of HEAD
  std::string git_branch;  // "(detached)" at a detached HEAD
  std::string git_dirty;   // "yes" (a tracked file differs from the commit), "no" or "unknown"
  // Each tier's source file (and the project headers it shares), relative to the checkout, with the SHA-256
  // of its text.
  std::vector<std::pair<std::string, std::string>> tier_sources;
};

}  // namespace ladder
