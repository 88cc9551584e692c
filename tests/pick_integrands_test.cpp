// `ladder pick` on files of several integrands (report_integrands_support.hpp): an integrand with nothing
// measured, --integrand naming one, one not in the file, and without it an answer for each.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "choose.hpp"
#include "report.hpp"
#include "report_integrands_support.hpp"

namespace ladder::report {
namespace {

using namespace ladder::report::test;  // json, fs, TempDir and the crafted files

json with_nothing_measured() {
  json document = three_integrands();
  for (const auto& [tier, rung] : std::vector<std::pair<std::string, int>>{{"naive", 0}, {"autovec", 2}})
    testing::add_cell_not_run(document["cells"], {tier, rung, 1000000, 1, {}, 0, nullptr, "one-over-x"},
                              "failed", "the result is not finite: f(0) is inf");
  return document;
}

TEST(IntegrandAnswers, AnIntegrandWithNothingMeasuredIsSaidSoAndTheOthersStillAnswered) {
  const WrittenRun written(with_nothing_measured());
  const ladder::report::Run& run = written.run;
  const IntegrandAnswers answers = answer_each_integrand(run);
  EXPECT_EQ(answers.n, std::optional<std::int64_t>(1000000)) << "still a size for the integrands measured";
  const std::string md = report_md(written.path);
  EXPECT_TRUE(
      has(md,
          "| one-over-x | not recorded | no tier was measured at n = 1000000; naive, autovec failed, eigen, "
          "xsimd, tbb skipped (below) |"))
      << md.substr(0, 3000);
  // In the answer: none for it, the others answered.
  EXPECT_TRUE(has(md, "| one-over-x | none: no tier was measured at n = 1000000 | – |"))
      << md.substr(0, 3000);
  EXPECT_TRUE(has(md, "| piecewise-branch | stay: **autovec** | 1.25× (1.19–1.31×) |"));
  const auto all = ladder("pick " + written.path.string());
  EXPECT_EQ(all.exit_code, 1) << all.output;
  EXPECT_TRUE(has(all.output, "== one-over-x ==\nno cell of one-over-x was measured")) << all.output;
  EXPECT_TRUE(has(all.output, "pick: autovec (1 thread)")) << all.output;
}

testing::Outcome pick(const fs::path& run, const std::string& options) {
  return ladder("pick " + run.string() + " " + options);
}

TEST(PickIntegrand, AnswersForTheNamedIntegrand) {
  TempDir dir;
  const fs::path run = write(dir / "run", three_integrands());
  const auto branch = pick(run, "--integrand piecewise-branch");
  EXPECT_EQ(branch.exit_code, 0) << branch.output;
  EXPECT_TRUE(has(branch.output, "integrand: piecewise-branch (examples/integrands/piecewise_branch.hpp)"))
      << branch.output;
  EXPECT_TRUE(has(branch.output, "pick: autovec (1 thread)")) << branch.output;
  EXPECT_TRUE(has(branch.output, "xsimd            unavailable at n = 1000000: " + xsimd_reason))
      << branch.output;
  EXPECT_TRUE(has(branch.output, "eigen            unavailable: " + eigen_branch_reason))
      << "not run, and the context says why\n"
      << branch.output;
  EXPECT_FALSE(has(branch.output, "tbb (2 threads)")) << "gauss's cells are not piecewise-branch's";
  const auto gauss = pick(run, "--integrand gauss");
  EXPECT_TRUE(has(gauss.output, "pick: tbb (2 threads)")) << gauss.output;
  EXPECT_TRUE(has(gauss.output, "runner-up: xsimd (1 thread)")) << gauss.output;
  const auto cdf = pick(run, "--integrand normal-cdf");
  EXPECT_TRUE(has(cdf.output, "pick: tbb (2 threads)")) << cdf.output;
  EXPECT_TRUE(has(cdf.output, "reference note: " + cdf_note)) << "beside the pick, never silently\n"
                                                              << cdf.output;
}

TEST(PickIntegrand, AnIntegrandNotInTheFileIsRefusedNamingTheOnesItHolds) {
  TempDir dir;
  const fs::path run = write(dir / "run", three_integrands());
  const auto outcome = pick(run, "--integrand erfc-pricing");
  EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
  EXPECT_TRUE(has(outcome.output, "--integrand 'erfc-pricing' is not an integrand of '" +
                                      (run / "results.json").string() +
                                      "'; it holds: gauss, piecewise-branch, normal-cdf"))
      << outcome.output;
  json document = three_integrands();
  json only_gauss = json::array();
  for (const auto& entry : document["cells"])
    if (entry["cell"]["integrand"] == "gauss") only_gauss.push_back(entry);
  document["cells"] = only_gauss;
  const fs::path single = write(dir / "single", document);
  const auto named = pick(single, "--integrand gauss");
  EXPECT_EQ(named.exit_code, 0) << named.output;
  EXPECT_TRUE(has(named.output, "pick: tbb (2 threads)")) << named.output;
  const auto other = pick(single, "--integrand pi");
  EXPECT_EQ(other.exit_code, 2) << other.output;
  EXPECT_TRUE(has(other.output, "it holds: gauss")) << other.output;
}

TEST(PickIntegrand, WithoutItAFileOfSeveralIsAnsweredForEach) {
  TempDir dir;
  const fs::path run = write(dir / "run", three_integrands());
  const auto all = pick(run, "");
  EXPECT_EQ(all.exit_code, 0) << all.output;
  EXPECT_TRUE(has(all.output,
                  "3 integrands in this file (gauss, piecewise-branch, normal-cdf): an answer for "
                  "each; --integrand NAME answers for one"))
      << all.output;
  const std::size_t gauss = all.output.find("== gauss =="),
                    branch = all.output.find("== piecewise-branch =="),
                    cdf = all.output.find("== normal-cdf ==");
  ASSERT_NE(gauss, std::string::npos) << all.output;
  ASSERT_NE(branch, std::string::npos) << all.output;
  ASSERT_NE(cdf, std::string::npos) << all.output;
  EXPECT_TRUE(has(all.output.substr(gauss, branch - gauss), "pick: tbb (2 threads)")) << all.output;
  EXPECT_TRUE(has(all.output.substr(branch, cdf - branch), "pick: autovec (1 thread)")) << all.output;
  EXPECT_TRUE(has(all.output.substr(cdf), "pick: tbb (2 threads)")) << all.output;
  // piecewise-branch's tiers all err by 1e-13: under --max-error 1e-14 it has none, the others do.
  const auto strict = pick(run, "--max-error 1e-14");
  EXPECT_EQ(strict.exit_code, 1) << strict.output;
  const std::size_t strict_branch = strict.output.find("== piecewise-branch ==");
  ASSERT_NE(strict_branch, std::string::npos) << strict.output;
  EXPECT_TRUE(has(strict.output.substr(strict_branch), "no tier meets the constraints")) << strict.output;
  EXPECT_TRUE(has(strict.output.substr(0, strict_branch), "pick: tbb (2 threads)")) << strict.output;
}

}  // namespace
}  // namespace ladder::report
