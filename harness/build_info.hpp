// How this binary was built: what every measurement needs beside it.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace ladder {

struct BuildInfo {
  std::string compiler;         // e.g. "GNU 12.2.0"
  std::string build_type;       // e.g. "Release"
  std::string common_flags;     // the flags every tier is built with
  std::string instruction_set;  // what xsimd's batches use in this build, e.g. "avx512bw"
  int simd_width = 0;           // doubles per batch
  std::string ladder_version;
  std::string benchmark_version;  // Google Benchmark, as CMake found it
  std::string openmp_version;     // the OpenMP specification the compiler implements
  std::string cuda_flags;         // how nvcc compiles the .cu tiers (empty without CUDA)
  std::string target;             // the -march of every tier: "native", "x86-64-v3", … (LADDER_ARCH)
};

const BuildInfo& build_info();

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

const SourceState& source_state();

}  // namespace ladder
