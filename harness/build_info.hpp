// How this binary was built: what every measurement needs beside it.
#pragma once

#include <string>

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
};

const BuildInfo& build_info();

}  // namespace ladder
