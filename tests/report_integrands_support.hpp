// Crafted results files of two and three integrands whose answers are known, for the answer per
// integrand (report_integrands_test.cpp) and `ladder pick --integrand` (pick_integrands_test.cpp).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "command.hpp"
#include "crafted_results.hpp"
#include "report.hpp"

namespace ladder::report::test {

using nlohmann::json;
namespace fs = std::filesystem;
using ladder::testing::around;
using ladder::testing::CraftedCell;
using ladder::testing::TempDir;

// The reasons as the harness words them; the report's sentences name the tier and the integrand themselves
// and quote the rest (the "why" of each).
inline const std::string xsimd_why =
    "it does not work on xsimd batches: its value on xsimd batches at x = 0.6875 is 0.47, not 0.5";
inline const std::string xsimd_reason = "tier 'xsimd' cannot run integrand 'piecewise-branch': " + xsimd_why;
inline const std::string tbb_reason =
    "tier 'tbb' cannot run integrand 'piecewise-branch': it does not work on xsimd batches: its value on "
    "xsimd "
    "batches at x = 0.6875 is 0.47, not 0.5";
inline const std::string eigen_branch_why = "it does not compile for Eigen arrays";
inline const std::string eigen_branch_reason =
    "tier 'eigen' cannot run integrand 'piecewise-branch': " + eigen_branch_why;
// Worded otherwise: quoted whole (and escaped in the page).
inline const std::string eigen_cdf_reason =
    "Eigen 3.4 core arrays have no erfc (it is in <unsupported/Eigen/SpecialFunctions>)";
inline const std::string cdf_note = "the quadrature's error estimate (3e-12) is too large for the h² law";

// Costs: naive 2.0, autovec 2.1, eigen 3.9, xsimd 5.6, tbb 7.4; cuda never runs here (no GPU).
inline json cards() {
  using ladder::testing::crafted_card;
  return json::array({crafted_card("naive", 0, {}, false, "minutes", 27),
                      crafted_card("autovec", 2, {}, false, "minutes", 30),
                      crafted_card("eigen", 4, {"Eigen 3.4"}, false, "hours", 33),
                      crafted_card("xsimd", 6, {"xsimd 8.1"}, false, "days", 60),
                      crafted_card("tbb", 9, {"xsimd 8.1", "oneTBB"}, true, "days", 80),
                      crafted_card("cuda", 12, {"CUDA"}, true, "days", 90)});
}

inline json integrands_context() {
  return json::array(
      {{{"name", "gauss"},
        {"formula", "exp(-x²)"},
        {"source", "built-in"},
        {"antiderivative", true},
        {"unsupported", json::object()}},
       {{"name", "piecewise-branch"},
        {"formula", ""},
        {"source", "examples/integrands/piecewise_branch.hpp"},
        {"antiderivative", false},
        // eigen has no cell for it in the run below: only the context says why.
        {"unsupported", {{"eigen", eigen_branch_reason}, {"xsimd", xsimd_reason}, {"tbb", tbb_reason}}}},
       {{"name", "normal-cdf"},
        {"formula", ""},
        {"source", "examples/integrands/normal_cdf.hpp"},
        {"antiderivative", false},
        {"unsupported", {{"eigen", eigen_cdf_reason}}}}});
}

// At n = 1e6, medians against naive's 1 s:
//   gauss:            autovec 4×, eigen 5×, xsimd 10×, tbb 8.3× on 1 thread and 20× on 2: the pick is tbb;
//   piecewise-branch: autovec 1.25×; xsimd and tbb unavailable (cells), eigen not run (the context says
//                     why): the pick is autovec (naive is 80 % of the fastest, outside 10 %);
//   normal-cdf:       autovec 2×, xsimd 8×, tbb 20× on 2 threads, eigen unavailable: the pick is tbb; every
//                     cell carries a reference note and how the exact integral was found.
// autovec's speedups (4×, 1.25×, 2×) are 3.2× apart; xsimd's (10×, 8×) and tbb's (20×, 20×) are not 2× apart.
inline json three_integrands() {
  json benchmarks = json::array();
  const json cdf_reference = {{"reference_notes", {cdf_note}},
                              {"exact_method", "tanh_sinh in cpp_bin_float_quad"},
                              {"exact_error_estimate", 3e-12}};
  const std::int64_t n = 1000000;
  for (const CraftedCell& cell : std::vector<CraftedCell>{
           {"naive", 0, n, 1, around(1.0)},
           {"autovec", 2, n, 1, around(0.25)},
           {"eigen", 4, n, 1, around(0.2)},
           {"xsimd", 6, n, 1, around(0.1)},
           {"tbb", 9, n, 1, around(0.12)},
           {"tbb", 9, n, 2, around(0.05)},
           {"naive", 0, n, 1, around(1.0), 1e-13, nullptr, "piecewise-branch"},
           {"autovec", 2, n, 1, around(0.8), 1e-13, nullptr, "piecewise-branch"},
           {"naive", 0, n, 1, around(1.0), 1e-15, nullptr, "normal-cdf", cdf_reference},
           {"autovec", 2, n, 1, around(0.5), 1e-15, nullptr, "normal-cdf", cdf_reference},
           {"xsimd", 6, n, 1, around(0.125), 1e-15, nullptr, "normal-cdf", cdf_reference},
           {"tbb", 9, n, 2, around(0.05), 1e-15, nullptr, "normal-cdf", cdf_reference}})
    testing::add_cell(benchmarks, cell);
  testing::add_cell_not_run(benchmarks, {"xsimd", 6, n, 1, {}, 0, nullptr, "piecewise-branch"}, "unavailable",
                            xsimd_reason);
  testing::add_cell_not_run(benchmarks, {"tbb", 9, n, 2, {}, 0, nullptr, "piecewise-branch"}, "unavailable",
                            tbb_reason);
  testing::add_cell_not_run(benchmarks, {"eigen", 4, n, 1, {}, 0, nullptr, "normal-cdf"}, "unavailable",
                            eigen_cdf_reason);
  // No GPU here: unavailable for every integrand, which is no difference between them.
  for (const std::string integrand : {"gauss", "piecewise-branch", "normal-cdf"})
    testing::add_cell_not_run(benchmarks, {"cuda", 12, n, 1, {}, 0, nullptr, integrand}, "unavailable",
                              "no CUDA device on this machine");
  json document = testing::crafted_results("crafted", cards(), benchmarks);
  document["context"]["integrands"] = integrands_context();
  return document;
}

// Two integrands with the same answers: rational's every time is gauss's × 1.5, every tier runs both.
inline json two_alike() {
  json benchmarks = json::array();
  for (const std::string integrand : {"gauss", "rational"}) {
    const double scale = integrand == "gauss" ? 1 : 1.5;
    for (const CraftedCell& cell : std::vector<CraftedCell>{{"naive", 0, 1000000, 1, around(1.0 * scale)},
                                                            {"autovec", 2, 1000000, 1, around(0.25 * scale)},
                                                            {"xsimd", 6, 1000000, 1, around(0.1 * scale)},
                                                            {"tbb", 9, 1000000, 2, around(0.05 * scale)}}) {
      CraftedCell each = cell;
      each.integrand = integrand;
      testing::add_cell(benchmarks, each);
    }
  }
  return testing::crafted_results("alike", cards(), benchmarks);
}

// naive and xsimd for gauss at n = 1e4, 1e6 and 1e7 and for piecewise-select at 1e4 and 1e6; at 1e7, gauss
// has autovec, eigen and tbb too: the most tiers of any size, but not a size measured for both.
inline json sizes_differ() {
  json benchmarks = json::array();
  for (const std::int64_t n : {10000, 1000000, 10000000})
    for (const std::string integrand : {"gauss", "piecewise-select"}) {
      if (integrand == "piecewise-select" && n == 10000000) continue;
      const double scale = static_cast<double>(n) / 1e6;
      std::vector<CraftedCell> cells = {{"naive", 0, n, 1, around(1.0 * scale)},
                                        {"xsimd", 6, n, 1, around(0.1 * scale)}};
      if (n == 10000000)
        cells.insert(cells.end(), {{"autovec", 2, n, 1, around(0.25 * scale)},
                                   {"eigen", 4, n, 1, around(0.2 * scale)},
                                   {"tbb", 9, n, 2, around(0.05 * scale)}});
      for (CraftedCell& cell : cells) {
        cell.integrand = integrand;
        testing::add_cell(benchmarks, cell);
      }
    }
  return testing::crafted_results("sizes", cards(), benchmarks);
}

inline fs::path write(const fs::path& dir, const json& document) {
  return testing::write_results(dir, document);
}

// A crafted document written to a scratch directory, kept while this lives, and read back as the report
// reads a run.
struct WrittenRun {
  explicit WrittenRun(const json& document)
      : path(write(dir / "run", document)), run(load_run(path.string())) {}
  TempDir dir;
  fs::path path;
  ladder::report::Run run;
};

inline ladder::testing::Outcome ladder(const std::string& arguments) {
  return testing::run_command(LADDER_BINARY, arguments);
}

inline std::string report_md(const fs::path& run, const std::string& options = "") {
  const auto outcome = ladder("report " + run.string() + " " + options);
  EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
  return testing::read_text(run / "report.md");
}

inline bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace ladder::report::test
