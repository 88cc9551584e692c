// The answer per integrand, on crafted results files of two and three integrands whose answers are known:
// the pick and speedup over naive for each (in the answer), where the answers differ (a different pick, a
// tier unavailable for one integrand with its reason, a speedup over naive 2× or more apart) and the absence
// of those sentences when nothing differs, the size they share, and single-integrand files as before
// (`ladder pick --integrand`: pick_integrands_test.cpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "browser_check.hpp"
#include "choose.hpp"
#include "report.hpp"
#include "report_integrands_support.hpp"

namespace ladder::report {
namespace {

using namespace ladder::report::test;  // json, fs, TempDir and the crafted files

TEST(IntegrandAnswers, EachIntegrandGetsThePickTheReportRulesGiveItsOwnCells) {
  const WrittenRun written(three_integrands());
  const ladder::report::Run& run = written.run;
  EXPECT_EQ(run.integrand_names(), (std::vector<std::string>{"gauss", "piecewise-branch", "normal-cdf"}));
  const IntegrandAnswers answers = answer_each_integrand(run);
  ASSERT_EQ(answers.analyses.size(), 3u);
  ASSERT_EQ(answers.n, std::optional<std::int64_t>(1000000));
  const std::vector<std::pair<std::string, double>> expected = {
      {"tbb", 20.0}, {"autovec", 1.25}, {"tbb", 20.0}};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const Analysis& analysis = answers.analyses[i];
    ASSERT_NE(analysis.recommended, nullptr) << i;
    EXPECT_EQ(analysis.recommended->card->id, expected[i].first) << run.integrand_names()[i];
    EXPECT_NEAR(*analysis.recommended->speedup, expected[i].second, 1e-9) << run.integrand_names()[i];
    for (const auto& row : analysis.rows)
      EXPECT_EQ(row.cell->integrand, run.integrand_names()[i]) << "another integrand's cell in its analysis";
  }
}

using Reasons = std::vector<std::tuple<std::string, std::string, std::string>>;  // tier, what, why

Reasons not_running(const ladder::report::Run& run, const std::string& integrand) {
  Reasons reasons;
  for (const NotRunning& each : tiers_not_running(run, integrand))
    reasons.emplace_back(each.tier, each.what(), each.reason);
  return reasons;
}

TEST(IntegrandAnswers, UnavailableTiersComeFromTheCellsAndTheContext) {
  const WrittenRun written(three_integrands());
  const ladder::report::Run& run = written.run;
  EXPECT_EQ(not_running(run, "piecewise-branch"), (Reasons{{"eigen", "is unavailable", eigen_branch_reason},
                                                           {"xsimd", "is unavailable", xsimd_reason},
                                                           {"tbb", "is unavailable", tbb_reason}}));
  EXPECT_EQ(not_running(run, "normal-cdf"), (Reasons{{"eigen", "is unavailable", eigen_cdf_reason}}));
  EXPECT_EQ(not_running(run, "gauss"), Reasons{});
}

// two_alike(), but tbb's rational cell failed, xsimd's timed out, and cuda (no GPU) ran neither.
json with_failures() {
  json document = two_alike();
  json kept = json::array();
  for (const auto& entry : document["cells"])
    if (entry["cell"]["integrand"] != "rational" ||
        (entry["cell"]["tier"] != "tbb" && entry["cell"]["tier"] != "xsimd"))
      kept.push_back(entry);
  document["cells"] = kept;
  testing::add_cell_not_run(document["cells"], {"tbb", 9, 1000000, 2, {}, 0, nullptr, "rational"}, "failed",
                            "the worker exited with status 1: std::bad_alloc");
  testing::add_cell_not_run(document["cells"], {"xsimd", 6, 1000000, 1, {}, 0, nullptr, "rational"},
                            "timeout", "over the cell's 10 s limit");
  return document;
}

TEST(IntegrandAnswers, ATierThatFailedOnOneIntegrandWhileItRanAnotherIsSaidWithItsStatusAndReason) {
  const WrittenRun written(with_failures());
  const ladder::report::Run& run = written.run;
  EXPECT_EQ(not_running(run, "rational"),
            (Reasons{{"xsimd", "timed out", "over the cell's 10 s limit"},
                     {"tbb", "failed", "the worker exited with status 1: std::bad_alloc"}}));
  EXPECT_EQ(not_running(run, "gauss"), Reasons{});
  const auto sentences = integrand_differences(run, answer_each_integrand(run));
  EXPECT_TRUE(
      std::find(sentences.begin(), sentences.end(),
                "For **rational**, tbb failed (the worker exited with status 1: std::bad_alloc); the "
                "fastest tier that runs it is autovec at 4.00× naive, against tbb's 20× for gauss.") !=
      sentences.end())
      << ::testing::PrintToString(sentences);
  EXPECT_TRUE(
      std::find(sentences.begin(), sentences.end(),
                "For **rational**, xsimd timed out (over the cell's 10 s limit); the fastest tier that "
                "runs it is autovec at 4.00× naive, against xsimd's 10× for gauss.") != sentences.end())
      << ::testing::PrintToString(sentences);
  const std::string md = report_md(written.path);
  EXPECT_FALSE(has(md, "nowhere")) << md.substr(0, 3000);
  EXPECT_FALSE(has(md, "every tier runs every integrand"));
  // Every source is "not recorded": one sentence above the table, not a column.
  EXPECT_TRUE(has(md, "Same in every row below — source: not recorded.")) << md.substr(0, 3000);
  EXPECT_TRUE(has(md, "| rational | xsimd timed out, tbb failed (below) |")) << md.substr(0, 3000);
}

TEST(IntegrandAnswers, NowhereSaysWhatWasCheckedAndTheTiersThatRanNone) {
  TempDir dir;
  json document = two_alike();
  for (const std::string integrand : {"gauss", "rational"})
    testing::add_cell_not_run(document["cells"], {"cuda", 12, 1000000, 1, {}, 0, nullptr, integrand},
                              "unavailable", "no CUDA device on this machine");
  const std::string md = report_md(write(dir / "run", document));
  EXPECT_TRUE(
      has(md,
          "Where the answers differ: nowhere. The pick is **tbb** for every integrand; naive, autovec, "
          "xsimd, tbb ran every integrand; eigen, cuda (unavailable: no CUDA device on this machine) ran "
          "none; and no tier's speedup over naive differs by 2× or more between them (4 tiers "
          "compared)."))
      << md.substr(0, 3000);
}

TEST(IntegrandAnswers, WhereTheyDifferIsSaidInSentencesFromTheNumbers) {
  const WrittenRun written(three_integrands());
  const ladder::report::Run& run = written.run;
  const auto sentences = integrand_differences(run, answer_each_integrand(run));
  const std::vector<std::string> expected = {
      "The pick differs: **tbb** (20× naive) for gauss, **autovec** (1.25× naive) for piecewise-branch, "
      "**tbb** (20× naive) for normal-cdf.",
      "For **piecewise-branch**, eigen is unavailable (" + eigen_branch_why +
          "); the fastest tier that runs it is autovec at 1.25× naive, against eigen's 5.00× for gauss.",
      // Tiers refused for the same reason share one sentence.
      "For **piecewise-branch**, xsimd, tbb are unavailable (" + xsimd_why +
          "); the fastest tier that runs it is autovec at 1.25× naive.",
      "For **normal-cdf**, eigen is unavailable (" + eigen_cdf_reason +
          "); the fastest tier that runs it is tbb at 20× naive, against eigen's 5.00× for gauss.",
      "autovec over naive: 1.25× for piecewise-branch to 4.00× for gauss (3.20× apart)."};
  EXPECT_EQ(sentences, expected);
}

TEST(IntegrandAnswers, NothingIsSaidToDifferWhenNothingDoes) {
  TempDir dir;
  json document = two_alike();
  // Every built-in's exact integral is its antiderivative: no news for the note column.
  for (auto& entry : document["cells"]) entry["measurement"]["exact_method"] = "antiderivative";
  const ladder::report::Run run = load_run(write(dir / "run", document).string());
  EXPECT_EQ(integrand_differences(run, answer_each_integrand(run)), std::vector<std::string>{});
  const std::string md = report_md(dir / "run");
  EXPECT_TRUE(has(md, "Where the answers differ: nowhere.")) << md.substr(0, 3000);
  for (const std::string absent : {"The pick differs", "is unavailable (", "- naive over naive: ",
                                   "- autovec over naive: ", "- xsimd over naive: ", "- tbb over naive: "})
    EXPECT_FALSE(has(md, absent)) << absent;
  // The same source for both: a sentence above the table; no note for either: no column, no word.
  EXPECT_TRUE(has(md, "Same in every row below — source: not recorded.")) << md.substr(0, 3000);
  EXPECT_FALSE(has(md, "note: –")) << md.substr(0, 3000);
  // Each speedup with the range its cells' intervals allow (repetitions widened by the default 5 % noise).
  EXPECT_TRUE(has(md, "| gauss | **tbb** (2 threads) | 20× (19–21×) | 5.00× (4.76–5.25×) autovec | 50 ms |"))
      << md.substr(0, 3000);
  EXPECT_TRUE(
      has(md, "| rational | **tbb** (2 threads) | 20× (19–21×) | 5.00× (4.76–5.25×) autovec | 75 ms |"))
      << md.substr(0, 3000);
  EXPECT_FALSE(has(md, "exact integral: antiderivative"));
}

TEST(IntegrandReport, TheAntiderivativeIsNamedInTheNoteOnlyWithAnEstimateOrANote) {
  TempDir dir;
  json document = two_alike();
  for (auto& entry : document["cells"]) {
    entry["measurement"]["exact_method"] = "antiderivative";
    if (entry["cell"]["integrand"] == "rational") entry["measurement"]["exact_error_estimate"] = 1e-30;
  }
  const std::string md = report_md(write(dir / "run", document));
  EXPECT_TRUE(has(md, "Same in every row below — source: not recorded.")) << md.substr(0, 3000);
  EXPECT_TRUE(has(md, "| gauss | – |")) << md.substr(0, 3000);
  EXPECT_TRUE(has(md, "| rational | exact integral: antiderivative (error estimate 1.0e-30) |"))
      << md.substr(0, 3000);
}

TEST(IntegrandReport, RunsOfDifferentIntegrandsAreSaidToDifferBeforeTheDetailedSections) {
  TempDir dir;
  json gauss = two_alike(), rational = two_alike();
  json only_gauss = json::array(), only_rational = json::array();
  for (const auto& entry : gauss["cells"])
    (entry["cell"]["integrand"] == "gauss" ? only_gauss : only_rational).push_back(entry);
  gauss["cells"] = only_gauss;
  gauss["context"]["host_name"] = "left";
  rational["cells"] = only_rational;
  rational["context"]["host_name"] = "right";
  const std::vector<ladder::report::Run> runs = {load_run(write(dir / "left", gauss).string()),
                                                 load_run(write(dir / "right", rational).string())};
  write_report(runs, (dir / "out").string());
  const std::string md = testing::read_text(dir / "out" / "report.md");
  const std::string said = "These runs do not hold the same integrands: **left** (" +
                           (dir / "left" / "results.json").string() + ") holds gauss; **right** (" +
                           (dir / "right" / "results.json").string() +
                           ") holds rational. The sections below compare **gauss** on left, **rational** on "
                           "right: different functions";
  ASSERT_TRUE(has(md, said)) << md.substr(0, 3000);
  EXPECT_LT(md.find(said), md.find("## The machines")) << "before the detailed sections";

  const std::vector<ladder::report::Run> alike = {load_run(write(dir / "left2", gauss).string()),
                                                  load_run((dir / "left").string())};
  write_report(alike, (dir / "out2").string());
  EXPECT_FALSE(has(testing::read_text(dir / "out2" / "report.md"), "do not hold the same integrands"))
      << "the same integrand on both: nothing to say";
}

TEST(IntegrandAnswers, ShareTheSizeMeasuredForEveryIntegrand) {
  TempDir dir;
  const ladder::report::Run run = load_run(write(dir / "run", sizes_differ()).string());
  EXPECT_EQ(analyse(integrand_run(run, "gauss")).n, 10000000) << "alone, gauss is answered at its largest n";
  const IntegrandAnswers answers = answer_each_integrand(run);
  ASSERT_EQ(answers.n, std::optional<std::int64_t>(1000000)) << "the largest n measured for both";
  for (const auto& analysis : answers.analyses) EXPECT_EQ(analysis.n, 1000000);
  const std::string md = report_md(dir / "run");
  EXPECT_TRUE(has(md,
                  "At n = 1e6 (of the sizes measured for every integrand, the one with the most tiers). The "
                  "answer's × naive"))
      << md.substr(0, 3000);
  EXPECT_TRUE(has(md, "The ladder at n = 1e6")) << "the detailed sections at the same size";
}

TEST(IntegrandReport, AnswersEachIntegrandInASmallTableWithItsSourceAndNotes) {
  TempDir dir;
  const fs::path run = write(dir / "run", three_integrands());
  const std::string md = report_md(run);
  const std::size_t section = md.find("## The answer for each integrand");
  ASSERT_NE(section, std::string::npos) << md.substr(0, 3000);
  EXPECT_LT(md.find("## The answer\n"), section) << "after the one-screen answer";
  EXPECT_LT(section, md.find("## The machines")) << "before the detailed sections";
  // The picks are in the answer's table; this one says where each comes from.
  EXPECT_TRUE(has(md, "| integrand | source | note |"));
  EXPECT_TRUE(has(md, "| gauss | built-in | – |")) << md.substr(section, 3000);
  EXPECT_TRUE(has(md, "| gauss | **tbb** (2 threads) | 20× (19–21×) |")) << "in the answer";
  EXPECT_TRUE(
      has(md,
          "| piecewise-branch | examples/integrands/piecewise_branch.hpp | eigen, xsimd, tbb unavailable "
          "(below) |"))
      << md.substr(section, 3000);
  EXPECT_TRUE(has(md, "| normal-cdf | examples/integrands/normal_cdf.hpp | eigen unavailable (below); " +
                          cdf_note +
                          "; exact integral: tanh_sinh in cpp_bin_float_quad (error estimate 3.0e-12) |"))
      << md.substr(section, 3000);
  EXPECT_TRUE(has(md, "medians of 3 repetitions, from " + (run / "results.json").string()));
  EXPECT_TRUE(has(md, "- For **piecewise-branch**, xsimd, tbb are unavailable (" + xsimd_why));
  EXPECT_TRUE(has(md, "- autovec over naive: 1.25× for piecewise-branch to 4.00× for gauss (3.20× apart)."));
  EXPECT_TRUE(has(md, "The sections below are about **gauss** only"));
  // n (1e6 in every cell) is said once above the table.
  EXPECT_TRUE(has(md, "| machine | tier | integrand | threads |")) << "every cell says its integrand";
  EXPECT_TRUE(has(md, "| crafted | xsimd | normal-cdf | 1 |"));
  EXPECT_TRUE(has(md, "| " + cdf_note + " |\n")) << "the reference note beside each cell";
}

TEST(IntegrandReport, IntegrandOptionChoosesWhatTheDetailedSectionsAreAbout) {
  TempDir dir;
  const fs::path run = write(dir / "run", three_integrands());
  const std::string md = report_md(run, "--integrand piecewise-branch");
  EXPECT_TRUE(has(md, "The sections below are about **piecewise-branch** only"));
  EXPECT_TRUE(has(md, "| gauss | **tbb** (2 threads) | 20× (19–21×) |")) << "every integrand still answered";
  const auto unknown = ladder("report " + run.string() + " --integrand erfc-pricing");
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
  EXPECT_TRUE(has(unknown.output, "--integrand 'erfc-pricing' is not an integrand of '" +
                                      (run / "results.json").string() +
                                      "'; it holds: gauss, piecewise-branch, normal-cdf"))
      << unknown.output;
}

TEST(IntegrandReport, TheHtmlPageCarriesTheSameAnswersAndRendersInAHeadlessBrowser) {
  TempDir dir;
  const fs::path run = write(dir / "run", three_integrands());
  report_md(run);
  const std::string html = testing::read_text(run / "report.html");
  EXPECT_TRUE(has(html, "<h2>The answer for each integrand</h2>"));
  EXPECT_TRUE(
      has(html, "<td>piecewise-branch</td><td class=\"long\">examples/integrands/piecewise_branch.hpp</td>"))
      << html.substr(0, 4000);
  EXPECT_TRUE(has(html,
                  "<li>For <strong>normal-cdf</strong>, eigen is unavailable (Eigen 3.4 core arrays have "
                  "no erfc (it is in &lt;unsupported/Eigen/SpecialFunctions&gt;));"))
      << html.substr(0, 6000);
  testing::expect_browser_check(run / "report.html", dir / "report.png",
                                "--expect-text 'The answer for each integrand'"
                                " --expect-text 'the fastest tier that runs it is autovec at 1.25×'");
}

TEST(IntegrandReport, ASingleIntegrandFileIsReportedAsBefore) {
  TempDir dir;
  json document = three_integrands();
  json only_gauss = json::array();
  for (const auto& entry : document["cells"])
    if (entry["cell"]["integrand"] == "gauss") only_gauss.push_back(entry);
  document["cells"] = only_gauss;
  const std::string with_context = report_md(write(dir / "context", document));
  // As a version-1 file before integrands were recorded: its cells only as Google Benchmark's entries.
  json older = testing::as_schema_v1(document);
  older["context"].erase("integrands");
  const std::string without_context = report_md(write(dir / "older", older));
  for (const std::string& md : {with_context, without_context}) {
    for (const char* absent :
         {"The answer for each integrand", "Where the answers differ", "sections below are"})
      EXPECT_FALSE(has(md, absent)) << absent;
    EXPECT_TRUE(has(md, "| machine | tier | threads |")) << "no integrand column (and n, 1e6 in every cell, "
                                                            "said once)";
    EXPECT_TRUE(has(md, ": use **tbb**.")) << "the answer, as for any run";
  }
}

// three_integrands() and one-over-x, whose every cell failed (non-finite at a node).

}  // namespace
}  // namespace ladder::report
