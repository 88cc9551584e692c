// What an export is made of, once its request has been checked (export.cpp): the tier, the integrand, the
// kernel's headers and the options it takes. project.cpp and readme.cpp write the files from it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "export.hpp"
#include "integrand_source.hpp"
#include "registry.hpp"
#include "results_file.hpp"

namespace ladder::exporter {

struct CopiedHeader {
  std::string origin;  // "variants/kernels/xsimd.hpp", "variants/simd_kernel.hpp"
  std::string name;    // in include/NS/: "xsimd.hpp"
  std::string text;    // with the namespace renamed
};

struct ExportPlan {
  const ExportRequest* request = nullptr;
  const Tier* tier = nullptr;
  IntegrandSource integrand;
  std::string ns;
  std::string function;                                      // the kernel function: the kernel header's stem
  std::vector<CopiedHeader> kernel;                          // the kernel header first, then what it includes
  bool threads = false, cpus = false, reproducible = false;  // the options it takes
  std::optional<ResultsFile> run;
  std::vector<const CellResult*> measured;  // the run's cells of this tier and integrand
  // Whether the run measured the kernel text this export copies, file by file, in words: empty when every
  // copied header is the one the run recorded.
  std::vector<std::string> code_differences;
  std::vector<std::pair<std::int64_t, int>> bench_cells;  // (n, threads)
  double ulps = 0;                        // what the build measured the integrand to lose on its arguments
  std::string target;                     // -march the kernel was measured with
  bool device = false;                    // a CUDA kernel: src/kernel.cu, built by nvcc
  std::string cuda_architectures = "90";  // the GPUs Ladder built it for
};

// The integrand's type as the exported code names it.
std::string exported_type(const ExportPlan& plan);
// The Debian 12 packages the project needs, in words.
std::string debian_packages(const ExportPlan& plan);
// Every generated file except the README (project.cpp), then the README (readme.cpp).
std::vector<ExportedFile> generated_files(const ExportPlan& plan);
std::string readme(const ExportPlan& plan, const std::vector<ExportedFile>& files);

}  // namespace ladder::exporter
