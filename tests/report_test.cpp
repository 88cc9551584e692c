// The report's arithmetic and the decisions it states: the cost score, the recommendation, `ladder pick`
// on crafted results (each constraint, and the case where none is met), strict loading, and a report that
// references nothing outside itself. compare's U test is in compare_test.cpp.
#include "report.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "choose.hpp"
#include "command.hpp"
#include "crafted_results.hpp"
#include "registry.hpp"

namespace ladder::report {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;
using testing::TempDir;

// naive 1 s (cost 2.0); eigen 0.2 s (3.9); bloated 0.3 s (7.4: slower than eigen and dearer); xsimd 0.1 s,
// error 1e-11 (5.6); tbb 0.12 s on 1 thread, 0.05 s on 2 (7.4).
json crafted_benchmarks() {
  json benchmarks = json::array();
  using testing::around;
  for (const auto& cell : {testing::CraftedCell{"naive", 0, 1000000, 1, around(1.0), 1e-13},
                           {"eigen", 4, 1000000, 1, around(0.2), 1e-15},
                           {"xsimd", 6, 1000000, 1, around(0.1), 1e-11},
                           {"bloated", 7, 1000000, 1, around(0.3), 1e-15},
                           {"tbb", 9, 1000000, 1, around(0.12), 1e-14},
                           {"tbb", 9, 1000000, 2, around(0.05), 1e-14}})
    testing::add_cell(benchmarks, cell);
  return benchmarks;
}

json crafted_cards() {
  using testing::crafted_card;
  return json::array({crafted_card("naive", 0, {}, false, "minutes", 27),
                      crafted_card("eigen", 4, {"Eigen 3.4"}, false, "hours", 33),
                      crafted_card("xsimd", 6, {"xsimd 8.1"}, false, "days", 60),
                      crafted_card("bloated", 7, {"a", "b", "c"}, false, "days", 80),
                      crafted_card("tbb", 9, {"xsimd 8.1", "oneTBB"}, true, "days", 80)});
}

fs::path crafted_run(const fs::path& dir) {
  return testing::write_results(dir,
                                testing::crafted_results("crafted", crafted_cards(), crafted_benchmarks()));
}

// What in a page or chart would make a viewer fetch something: every http:// or https:// (any case,
// anywhere), and every attribute or rule that loads a resource (src, href, url(), @import). One is allowed:
// the SVG namespace in an xmlns attribute, a name that identifies the vocabulary and is never requested
// (Namespaces in XML 1.0, section 2; browser_check.py sees no request for it where Chromium is installed).
std::vector<std::string> external_references(const std::string& text) {
  std::string lower = text;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  const std::string svg_namespace = "xmlns=\"http://www.w3.org/2000/svg\"";
  const std::size_t before_url = std::string("xmlns=\"").size();
  std::vector<std::string> found;
  for (const std::string scheme : {"http://", "https://"})
    for (auto at = lower.find(scheme); at != std::string::npos; at = lower.find(scheme, at + 1)) {
      if (at >= before_url && text.compare(at - before_url, svg_namespace.size(), svg_namespace) == 0)
        continue;
      found.push_back(text.substr(at, text.find_first_of("\"' <>)", at) - at));
    }
  for (const std::string loads : {"src=", "href=", "url(", "@import"})
    for (auto at = lower.find(loads); at != std::string::npos; at = lower.find(loads, at + 1))
      found.push_back(text.substr(at, 40));
  return found;
}

TEST(ExternalReferences, FindsEveryOneButTheSvgNamespace) {
  const std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"a\">";
  EXPECT_EQ(external_references(svg + svg), std::vector<std::string>{});
  EXPECT_EQ(external_references(svg + "<p>see http://example.com/x</p>"),
            std::vector<std::string>{"http://example.com/x"})
      << "after the namespace";
  EXPECT_EQ(external_references("HTTPS://cdn.example/a.css"),
            std::vector<std::string>{"HTTPS://cdn.example/a.css"});
  EXPECT_EQ(external_references("<p>http://www.w3.org/2000/svg</p>").size(), 1u) << "outside an xmlns";
  EXPECT_EQ(external_references("<img src=\"//cdn.example/a.png\">").size(), 1u) << "no scheme";
  EXPECT_EQ(external_references("<style>@import 'a.css'; b { background: url(b.png) }</style>").size(), 2u);
}

testing::Outcome pick(const fs::path& run, const std::string& constraints) {
  return testing::run_command(LADDER_BINARY, "pick " + run.string() + " " + constraints);
}

TEST(Cost, IsOnePlusItsPartsAndGrowsUpTheLadder) {
  Card simple{{.id = "simple", .learning_time = "minutes", .reproducible = "always", .source_lines = 20}};
  Card hard{{.id = "hard", .learning_time = "days", .reproducible = "no", .source_lines = 200}};
  hard.libraries = {"a", "b", "c", "d"};
  hard.concepts = std::vector<std::string>(10, "concept");
  hard.flags = {"-fopenmp", "-ffast-math", "-funroll-loops"};
  const Cost low = maintenance_cost(simple), high = maintenance_cost(hard);
  // 1 + 0.7 × the days over 3 years: 20 lines are 0.05 days to adopt and 0.05 a year to keep.
  EXPECT_DOUBLE_EQ(low.score, 1.1) << "1 + 0.7 × (0.05 + 3 × 0.05) = 1.14";
  // 3 (days to learn) + 10 × 0.25 + 4 × (0.5 + 3 × 0.5) + 3 × (0.25 + 3 × 0.25) + 2 × (0.25 + 3 × 0.25)
  // = 18.5 days: 13.95 points, at most 10.
  EXPECT_DOUBLE_EQ(high.score, 10.0) << "1 + 0.7 × 18.5, at most 10";
  EXPECT_EQ(high.parts.size(), 5u) << "code, concepts, libraries, flags, learning";
  double days = 0;
  for (const auto& part : high.parts) days += part.points / 0.7;
  EXPECT_NEAR(days, 18.5, 1e-12);
}

// For one call, the fastest tier (decide()'s latency rule without a deadline); a cheaper tier within 10 % of
// it is the runner-up, not the pick (WhichTier.AnswersForTheMachinesWidthAndItsFastestTierThere).
TEST(Analysis, RecommendsTheFastestTierAndTheFastestOfThoseThatCostLess) {
  TempDir dir;
  const ladder::report::Run run = load_run(crafted_run(dir / "run").string());
  const Analysis analysis = analyse(run);
  EXPECT_EQ(analysis.n, 1000000);
  ASSERT_NE(analysis.recommended, nullptr);
  EXPECT_EQ(analysis.recommended->card->id, "tbb") << "tbb on 2 threads is the fastest";
  ASSERT_NE(analysis.cheaper, nullptr);
  EXPECT_EQ(analysis.cheaper->card->id, "xsimd") << "the fastest of the tiers that cost less";
  EXPECT_NEAR(*analysis.recommended->speedup, 20.0, 1e-9);
  for (const auto& row : analysis.rows)
    EXPECT_EQ(row.pareto, row.card->id != "bloated")
        << row.card->id << ": only bloated is dominated (by eigen)";
}

TEST(Pick, WithoutConstraintsTheFastestTierWins) {
  TempDir dir;
  const auto outcome = pick(crafted_run(dir / "run"), "");
  EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
  EXPECT_NE(outcome.output.find("pick: tbb (2 threads)"), std::string::npos) << outcome.output;
  EXPECT_NE(outcome.output.find("runner-up: xsimd"), std::string::npos) << outcome.output;
}

TEST(Pick, EachConstraintRulesOutWhatItShould) {
  TempDir dir;
  const fs::path run = crafted_run(dir / "run");
  const auto threads = pick(run, "--threads 1");
  EXPECT_NE(threads.output.find("pick: xsimd (1 thread)"), std::string::npos) << threads.output;
  EXPECT_NE(threads.output.find("runner-up: tbb (1 thread)"), std::string::npos) << threads.output;
  const auto cost = pick(run, "--max-cost 5");
  EXPECT_NE(cost.output.find("pick: eigen"), std::string::npos) << cost.output;
  EXPECT_NE(cost.output.find("xsimd            costs 5.1 (--max-cost 5)"), std::string::npos) << cost.output;
  const auto error = pick(run, "--max-error 1e-12");
  EXPECT_NE(error.output.find("pick: tbb"), std::string::npos) << error.output;
  EXPECT_NE(error.output.find("xsimd            its relative error is 1.0e-11 (--max-error 1e-12)"),
            std::string::npos)
      << error.output;
  const auto without = pick(run, "--without xsimd");
  EXPECT_NE(without.output.find("pick: eigen"), std::string::npos) << without.output;
  EXPECT_NE(without.output.find("needs xsimd 8.1 (--without xsimd)"), std::string::npos) << without.output;
}

// --without takes the names `ladder list` prints, whole ("xsimd 8.1", "xsimd"), and refuses a name that is
// no library or concept of the tiers: a typo or a fragment ("xs") would rule out nothing, or the wrong tier.
TEST(Pick, WithoutTakesTheListedNamesAndRefusesOneNoTierHas) {
  TempDir dir;
  const fs::path run = crafted_run(dir / "run");
  const auto versioned = pick(run, "--without 'xsimd 8.1'");
  EXPECT_EQ(versioned.exit_code, 0) << versioned.output;
  EXPECT_NE(versioned.output.find("pick: eigen"), std::string::npos) << versioned.output;
  EXPECT_NE(versioned.output.find("needs xsimd 8.1 (--without xsimd 8.1)"), std::string::npos)
      << versioned.output;
  const auto fragment = pick(run, "--without xs");
  EXPECT_EQ(fragment.exit_code, 2) << fragment.output;
  EXPECT_NE(fragment.output.find("--without 'xs' is no library or concept of these tiers; accepted: "),
            std::string::npos)
      << fragment.output;
  EXPECT_NE(fragment.output.find("xsimd"), std::string::npos) << fragment.output;
  EXPECT_EQ(fragment.output.find("pick:"), std::string::npos) << fragment.output;
}

TEST(Pick, SaysPlainlyWhenNoTierMeetsTheConstraintsAndWhy) {
  TempDir dir;
  const auto outcome = pick(crafted_run(dir / "run"), "--max-cost 1.5 --max-error 1e-20");
  EXPECT_EQ(outcome.exit_code, 1) << outcome.output;
  EXPECT_NE(outcome.output.find("no tier meets the constraints"), std::string::npos) << outcome.output;
  for (const char* tier : {"naive", "eigen", "bloated", "xsimd", "tbb"})
    EXPECT_NE(outcome.output.find(std::string("  ") + tier), std::string::npos) << tier << "\n"
                                                                                << outcome.output;
  const auto size = pick(crafted_run(dir / "run2"), "--n 1e9");
  EXPECT_EQ(size.exit_code, 2) << size.output;
  EXPECT_NE(size.output.find("measured: 1000000"), std::string::npos) << size.output;
}

TEST(Loading, ABrokenResultsFileIsRefusedWithItsNameAndTheProblem) {
  TempDir dir;
  const fs::path run = crafted_run(dir / "run");
  const std::string text = testing::read_text(run / "results.json");
  fs::create_directories(dir / "cut");
  std::ofstream(dir / "cut/results.json") << text.substr(0, text.size() / 2);
  EXPECT_THROW(
      {
        try {
          load_run((dir / "cut").string());
        } catch (const InputError& error) {
          EXPECT_NE(std::string(error.what()).find("cut/results.json': is not valid JSON"), std::string::npos)
              << error.what();
          throw;
        }
      },
      InputError);
  json document = json::parse(text);
  document["schema_version"] = 7;
  fs::create_directories(dir / "future");
  std::ofstream(dir / "future/results.json") << document.dump();
  const auto future = testing::run_command(LADDER_BINARY, "report " + (dir / "future").string());
  EXPECT_EQ(future.exit_code, 2) << future.output;
  EXPECT_NE(future.output.find("has schema version 7; this Ladder reads versions 1 to 3"), std::string::npos)
      << future.output;
  const auto missing = testing::run_command(LADDER_BINARY, "report " + (dir / "nothing").string());
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find("cannot be read"), std::string::npos) << missing.output;
}

TEST(Report, WritesMarkdownHtmlAndChartsWithEveryStringEscaped) {
  TempDir dir;
  const fs::path run = crafted_run(dir / "run");
  json document = testing::read_json(run / "results.json");
  document["context"]["run"]["label"] = "<script>alert(1)</script>";
  document["context"]["host_name"] = "host \"<b>\"";
  std::ofstream(run / "results.json") << document.dump();
  const auto outcome = testing::run_command(LADDER_BINARY, "report " + run.string());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  const std::string html = testing::read_text(run / "report.html"),
                    md = testing::read_text(run / "report.md");
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_EQ(html.find("<b>"), std::string::npos);
  EXPECT_EQ(external_references(html), std::vector<std::string>{}) << "report.html";
  EXPECT_EQ(external_references(md), std::vector<std::string>{}) << "report.md";
  EXPECT_EQ(md.find("<script"), std::string::npos);
  for (const char* chart : {"speedup-1", "scaling-1", "pareto-1", "memory-1", "error-1"}) {
    EXPECT_NE(html.find(std::string("data-chart=\"") + chart + "\""), std::string::npos) << chart;
    EXPECT_TRUE(fs::exists(run / "charts" / (std::string(chart) + ".svg"))) << chart;
    EXPECT_EQ(external_references(testing::read_text(run / "charts" / (std::string(chart) + ".svg"))),
              std::vector<std::string>{})
        << chart;
    EXPECT_NE(md.find(std::string("charts/") + chart + ".svg"), std::string::npos) << chart;
  }
  EXPECT_NE(md.find("use **tbb**"), std::string::npos) << md.substr(0, 1500);
}

TEST(Report, SeveralMachinesSitSideBySide) {
  TempDir dir;
  const fs::path first = crafted_run(dir / "first"), second = crafted_run(dir / "second");
  json document = testing::read_json(second / "results.json");
  document["context"]["host_name"] = "big-server";
  std::ofstream(second / "results.json") << document.dump();
  const auto outcome =
      testing::run_command(LADDER_BINARY, "report " + first.string() + " " + second.string() + " --out " +
                                              (dir / "both").string());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  const std::string html = testing::read_text(dir / "both/report.html");
  for (const char* text :
       {"On <strong>crafted</strong>, at n = 1e6 on 2 threads: use",
        "On <strong>big-server</strong>, at n = 1e6 on", "The ladder at n = 1e6 on crafted",
        "The ladder at n = 1e6 on big-server", "data-chart=\"speedup-1\"", "data-chart=\"speedup-2\""})
    EXPECT_NE(html.find(text), std::string::npos) << text;
}

}  // namespace
}  // namespace ladder::report
