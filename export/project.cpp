// The exported project's files, from the templates in export/templates/ and the plan: the library, its
// test, benchmark and example, the CMakeLists.txt, and on request the Python module and its test.
#include <cmath>
#include <cstdio>
#include <set>
#include <stdexcept>

#include "embedded.hpp"
#include "export_plan.hpp"
#include "libraries.hpp"
#include "out_directory.hpp"
#include "template.hpp"
#include "text.hpp"

namespace ladder::exporter {
namespace {

// The tier's flags as the exported CMakeLists.txt gives them, so the project builds with GCC and Clang alike
// whichever compiler Ladder was built with: Clang's own flags (-fveclib, pass-failed) only under Clang, and a
// loop vectorized with libmvec (-fopenmp-simd) gets Clang's -fveclib=libmvec there too, without which Clang
// calls the scalar exp.
std::vector<std::string> portable_flags(const std::vector<std::string>& flags) {
  std::vector<std::string> out;
  bool veclib = false, simd = false;
  for (const auto& flag : flags) {
    const bool clang_only = flag.rfind("-fveclib", 0) == 0 || flag.find("pass-failed") != std::string::npos;
    veclib = veclib || flag.rfind("-fveclib", 0) == 0;
    simd = simd || flag == "-fopenmp-simd";
    out.push_back(clang_only ? "$<$<CXX_COMPILER_ID:Clang>:" + flag + ">" : flag);
  }
  if (simd && !veclib) out.push_back("$<$<CXX_COMPILER_ID:Clang>:-fveclib=libmvec>");
  return out;
}

std::string template_text(const std::string& name) {
  const auto text = embedded("export/templates/" + name);
  if (!text) throw std::logic_error("the build did not embed export/templates/" + name);
  return std::string(*text);
}

// The CMake lines that find what the card lists, the targets to link and Debian 12's packages: the rows of
// cmake/libraries.cmake.
struct Packages {
  std::string find, link, debian;
};

Packages packages(const ExportPlan& plan) {
  Packages out;
  auto add = [&](const std::string& find, const std::string& link, const std::string& debian) {
    out.find += find + "\n";
    out.link += (out.link.empty() ? "" : " ") + link;
    out.debian += (out.debian.empty() ? "" : ", ") + debian;
  };
  for (const auto& entry : plan.tier->card.libraries) {
    const Library& library = library_of(plan.tier->card.id, entry);
    add(with_namespace(library.find, plan.ns), with_namespace(library.link, plan.ns),
        std::string(library.packages));
  }
  if (out.find.empty()) out.find = "# none: the standard library only\n";
  out.find.pop_back();  // the template's line ends it
  out.debian = "cmake, g++" + std::string(out.debian.empty() ? "" : ", ") + out.debian +
               "; for the tests: libgtest-dev, libbenchmark-dev" +
               (plan.request->python ? "; for Python: pybind11-dev, python3-pybind11" : "");
  return out;
}

std::string kernel_call(const ExportPlan& plan) {
  std::string call = plan.ns + "::" + plan.function + "(" + exported_type(plan) + "{}, a, b, n";
  if (plan.threads) {
    call +=
        ",\n" + std::string(plan.ns.size() + plan.function.size() + 12, ' ') + "{.threads = options.threads";
    if (plan.cpus) call += ", .cpus = options.cpus";
    if (plan.reproducible) call += ", .reproducible = options.reproducible";
    call += "}";
  }
  return call + ")";
}

std::vector<int> thread_counts(const ExportPlan& plan) {
  return plan.threads ? std::vector<int>{1, 2, 3, 4} : std::vector<int>{1};
}

const std::vector<std::int64_t> test_sizes = {1, 2, 3, 7, 15, 1000, 1000003, std::int64_t{1} << 22};

std::string depth_table(const ExportPlan& plan) {
  std::string table;
  for (const std::int64_t n : test_sizes)
    for (const int threads : thread_counts(plan)) {
      const double depth = plan.tier->card.summation_depth ? plan.tier->card.summation_depth(n, threads)
                                                           : static_cast<double>(n);
      table += "      {{" + std::to_string(n) + ", " + std::to_string(threads) + "}, " +
               format_number("%.17g", depth) + "},\n";
    }
  table.pop_back();  // the template's line ends the last entry
  return table;
}

TemplateValues values_of(const ExportPlan& plan) {
  const TierCard& card = plan.tier->card;
  const auto found = packages(plan);
  TemplateValues v;
  auto& m = v.values;
  m["NS"] = plan.ns;
  m["TIER"] = card.id;
  m["RUNG"] = std::to_string(card.rung);
  m["SUMMARY"] = card.summary;
  m["INTEGRAND"] = plan.integrand.name;
  m["INTEGRAND_TEXT"] = "the integrand " + plan.integrand.name;
  m["INTEGRAND_FILE"] = plan.integrand.file_name;
  m["INTEGRAND_TYPE"] = exported_type(plan);
  m["KERNEL_FILE"] = plan.kernel.front().name;
  m["KERNEL_SOURCE"] = plan.device ? "kernel.cu" : "kernel.cpp";
  m["CUDA_ARCHITECTURES"] = plan.cuda_architectures;
  m["KERNEL_CALL"] = kernel_call(plan);
  m["LADDER_VERSION"] = plan.request->build.ladder_version;
  m["ARCH"] = plan.target;
  m["FIND_PACKAGES"] = found.find;
  m["LINK_LIBRARIES"] = found.link;
  m["PACKAGES"] = found.debian;
  // The test includes the integrand's header: an integrand written for Eigen arrays or xsimd batches needs
  // their headers to compile there too.
  m["TEST_LIBRARIES"] = found.link;
  m["SOURCE_FLAGS"] =
      card.flags.empty()
          ? "# the tier adds no flags of its own"
          : "set_source_files_properties(src/" + std::string(plan.device ? "kernel.cu" : "kernel.cpp") +
                " PROPERTIES COMPILE_OPTIONS \"" + join(portable_flags(card.flags), ";") + "\")";
  m["FLAGS_TEXT"] = card.flags.empty() ? "none of its own" : join(card.flags, " ");
  m["SUMMATION"] = card.summation;
  m["ULPS"] = format_number("%.17g", plan.ulps) + "L";
  m["ULPS_TEXT"] = format_number("%g", plan.ulps) +
                   " (what Ladder's build measured the integrand to lose on the kernel's arguments)";
  m["DEPTH_TABLE"] = depth_table(plan);
  std::vector<std::string> sizes;
  for (const auto n : test_sizes) sizes.push_back(std::to_string(n));
  m["SIZES"] = join(sizes);
  m["THREAD_COUNTS"] = join_numbers(thread_counts(plan));
  m["THREADS_TEXT"] = plan.threads ? " and thread counts" : "";
  m["THREADS_USAGE"] =
      std::string(plan.threads ? " THREADS" : "") + (plan.reproducible ? " [reproducible]" : "");
  m["REPRODUCIBLE_ARGC"] = plan.reproducible ? " && argc != 6" : "";
  m["ARGC"] = plan.threads ? "5" : "4";
  m["THREADS_ARGNAME"] = plan.threads ? ", \"threads\"" : "";
  m["A"] = format_number("%.17g", plan.run ? plan.run->context.matrix.a : 0.0);
  m["B"] = format_number("%.17g", plan.run ? plan.run->context.matrix.b : 1.0);
  std::string args;
  for (const auto& [n, t] : plan.bench_cells)
    args += "->Args({" + std::to_string(n) + (plan.threads ? ", " + std::to_string(t) : std::string()) + "})";
  m["BENCH_ARGS"] = args;
  m["BENCH_SOURCE"] = plan.run ? " and thread counts Ladder measured it at (" + plan.request->from_run + ")"
                               : " of Ladder's default matrix";
  m["PY_PARALLEL"] = plan.threads ? "True" : "False";
  m["PY_SIGNATURE_TEXT"] = std::string(plan.threads ? ", *, threads=1" : "") +
                           (plan.cpus ? ", cpus=[]" : "") + (plan.reproducible ? ", reproducible=False" : "");
  if (plan.threads) v.flags.insert("THREADS");
  if (plan.cpus) v.flags.insert("CPUS");
  if (plan.reproducible) v.flags.insert("REPRODUCIBLE");
  // Only an always-reproducible tier promises the same bits on every call by default: an on-request
  // one (parallel_reduce) joins its tasks in the order they finish unless asked for the deterministic
  // reduce, which REPRODUCIBLE's own test covers at every thread count.
  if (plan.threads && card.reproducible != Reproducible::always) v.flags.insert("UNREPRODUCIBLE");
  if (plan.request->python) v.flags.insert("PYTHON");
  if (plan.device) v.flags.insert("CUDA");
  return v;
}

}  // namespace

std::string debian_packages(const ExportPlan& plan) { return packages(plan).debian; }

std::vector<ExportedFile> generated_files(const ExportPlan& plan) {
  const TemplateValues values = values_of(plan);
  auto from = [&](const std::string& name) { return expand(name, template_text(name), values); };
  const std::string include = "include/" + plan.ns + "/";
  std::vector<ExportedFile> files;
  files.push_back({"CMakeLists.txt", from("CMakeLists.txt.in")});
  files.push_back({include + "midpoint.hpp", from("midpoint.hpp.in")});
  for (const auto& header : plan.kernel) files.push_back({include + header.name, header.text});
  std::string integrand_text = plan.integrand.text;
  if (plan.integrand.built_in && plan.ns != "ladder") {
    // A built-in integrand is in namespace ladder, renamed with the kernels.
    std::string renamed;
    std::size_t at = 0;
    for (std::size_t found; (found = integrand_text.find("namespace ladder", at)) != std::string::npos;
         at = found + 16)
      renamed += integrand_text.substr(at, found - at) + "namespace " + plan.ns;
    integrand_text = renamed + integrand_text.substr(at);
  }
  files.push_back({include + plan.integrand.file_name, integrand_text});
  if (plan.integrand.text.find("\"ladder/integrand.hpp\"") != std::string::npos) {
    const auto contract = embedded("variants/ladder/integrand.hpp");
    if (!contract) throw std::logic_error("the build did not embed variants/ladder/integrand.hpp");
    files.push_back({include + "ladder/integrand.hpp", std::string(*contract)});
  }
  files.push_back({"src/midpoint.cpp", from("midpoint.cpp.in")});
  files.push_back({"src/kernel.hpp", from("kernel.hpp.in")});
  files.push_back({plan.device ? "src/kernel.cu" : "src/kernel.cpp", from("kernel.cpp.in")});
  files.push_back({"tests/midpoint_test.cpp", from("midpoint_test.cpp.in")});
  files.push_back({"bench/midpoint_bench.cpp", from("midpoint_bench.cpp.in")});
  files.push_back({"example/integrate.cpp", from("integrate.cpp.in")});
  files.push_back({".github/workflows/ladder-ab.yml", from("ladder-ab.yml.in")});  // README: the guard
  if (plan.request->python) {
    files.push_back({"python/module.cpp", from("module.cpp.in")});
    files.push_back({"python/test_midpoint.py", from("test_midpoint.py.in")});
  }
  return files;
}

bool exported_path(const std::string& path, bool directory) {
  // As generated_files() writes them: NS and the integrand's header name vary, the rest does not.
  static const std::set<std::string> files = {"CMakeLists.txt",
                                              "README.md",
                                              marker_file,
                                              "src/midpoint.cpp",
                                              "src/kernel.hpp",
                                              "src/kernel.cpp",
                                              "src/kernel.cu",
                                              "tests/midpoint_test.cpp",
                                              "bench/midpoint_bench.cpp",
                                              "example/integrate.cpp",
                                              ".github/workflows/ladder-ab.yml",
                                              "python/module.cpp",
                                              "python/test_midpoint.py"};
  static const std::set<std::string> directories = {"include", "src",    "tests",   "bench",
                                                    "example", "python", ".github", ".github/workflows"};
  if (directory ? directories.count(path) : files.count(path)) return true;
  if (!path.starts_with("include/")) return false;
  const std::string below = path.substr(8);  // NS, NS/NAME, NS/ladder, NS/ladder/integrand.hpp
  const auto slash = below.find('/');
  const std::string ns = below.substr(0, slash);  // a C++ identifier (export.cpp checks it)
  if (ns.empty() ||
      ns.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != ns.npos)
    return false;
  if (slash == below.npos) return directory;
  const std::string rest = below.substr(slash + 1);
  if (rest.empty()) return false;
  if (rest.find('/') == rest.npos) return !directory || rest == "ladder";
  return !directory && rest == "ladder/integrand.hpp";
}

}  // namespace ladder::exporter
