// The report's arithmetic and the decisions it states: the cost score, the recommendation, `ladder pick`
// on crafted results (each constraint, and the case where none is met), the U test, and strict loading.
#include "report.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "choose.hpp"
#include "command.hpp"
#include "registry.hpp"

namespace ladder::report {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;
using testing::TempDir;

json card(const std::string& id, int rung, std::vector<std::string> libraries, bool parallel,
          const std::string& learning, int lines) {
  return {{"id", id},
          {"rung", rung},
          {"summary", id + " tier"},
          {"learning_time", learning},
          {"reproducible", parallel ? "no" : "always"},
          {"source_lines", lines},
          {"shared_lines", 0},
          {"libraries", libraries},
          {"concepts", json::array({"loops"})},
          {"flags", json::array()},
          {"parallel", parallel},
          {"distributed", false}};
}

// One cell's entries: three repetitions around `seconds` and the median aggregate.
void add_cell(json& benchmarks, const std::string& tier, int rung, std::int64_t n, int threads,
              double seconds, double rel_error) {
  const std::string name = tier + "/gauss/n:" + std::to_string(n) + "/threads:" + std::to_string(threads);
  json common = {{"cell", name},
                 {"tier", tier},
                 {"rung", rung},
                 {"integrand", "gauss"},
                 {"n", n},
                 {"threads", threads},
                 {"ranks", 1},
                 {"status", "ok"},
                 {"name", name},
                 {"rel_error", rel_error},
                 {"rounding_error", rel_error / 2},
                 {"exact", 0.7468},
                 {"midpoint", 0.7468},
                 {"rounding_bound", 1e-16},
                 {"peak_heap_bytes", 0},
                 {"peak_rss_bytes", 1 << 20},
                 {"minor_faults", 0},
                 {"major_faults", 0},
                 {"allocations", 0}};
  for (const double factor : {0.99, 1.0, 1.02}) {
    json entry = common;
    entry.update({{"run_type", "iteration"},
                  {"real_time", seconds * factor * 1e9},
                  {"cpu_time", seconds * threads * 1e9}});
    benchmarks.push_back(entry);
  }
  for (const char* aggregate : {"median", "mean", "min", "max", "stddev", "cv"}) {
    json entry = common;
    const bool cv = std::string(aggregate) == "cv";
    entry.update({{"run_type", "aggregate"},
                  {"aggregate_name", aggregate},
                  {"real_time", cv ? 0.01 : seconds * 1e9},
                  {"cpu_time", seconds * threads * 1e9}});
    benchmarks.push_back(entry);
  }
}

// naive 1 s (cost 2.0); eigen 0.2 s (3.9); bloated 0.3 s (7.6: slower and dearer than eigen); xsimd 0.1 s,
// error 1e-11 (5.6); tbb 0.12 s on 1 thread, 0.05 s on 2 (7.4).
fs::path crafted_run(const fs::path& dir) {
  json benchmarks = json::array();
  add_cell(benchmarks, "naive", 0, 1000000, 1, 1.0, 1e-13);
  add_cell(benchmarks, "eigen", 4, 1000000, 1, 0.2, 1e-15);
  add_cell(benchmarks, "xsimd", 6, 1000000, 1, 0.1, 1e-11);
  add_cell(benchmarks, "bloated", 7, 1000000, 1, 0.3, 1e-15);
  add_cell(benchmarks, "tbb", 9, 1000000, 1, 0.12, 1e-14);
  add_cell(benchmarks, "tbb", 9, 1000000, 2, 0.05, 1e-14);
  const json document = {
      {"schema_version", 1},
      {"context",
       {{"host_name", "crafted"},
        {"cpu_model", "a test CPU"},
        {"logical_cpus", 2},
        {"simd", {{"kernels_use", "avx2"}}},
        {"matrix", {{"repetitions", 3}}},
        {"warnings", json::array()},
        {"run", {{"label", "crafted"}, {"status", "complete"}, {"started", "2026-11-30T00:00:00Z"}}}}},
      {"tiers", json::array({card("naive", 0, {}, false, "minutes", 27),
                             card("eigen", 4, {"Eigen 3.4"}, false, "hours", 33),
                             card("xsimd", 6, {"xsimd 8.1"}, false, "days", 60),
                             card("bloated", 7, {"a", "b", "c"}, false, "days", 80),
                             card("tbb", 9, {"xsimd 8.1", "oneTBB"}, true, "days", 80)})},
      {"benchmarks", benchmarks}};
  fs::create_directories(dir);
  std::ofstream(dir / "results.json") << document.dump(1);
  return dir;
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
  EXPECT_DOUBLE_EQ(low.score, 1.5) << "1 + 20 lines / 40";
  EXPECT_DOUBLE_EQ(high.score, 10.0) << "every part at its cap: 1 + 3 + 2.5 + 2 + 1 + 2 + 0.5";
  EXPECT_EQ(high.parts.size(), 6u);
}

TEST(Analysis, RecommendsTheCheapestTierWithinTenPercentOfTheFastest) {
  TempDir dir;
  const ladder::report::Run run = load_run(crafted_run(dir / "run").string());
  const Analysis analysis = analyse(run);
  EXPECT_EQ(analysis.n, 1000000);
  ASSERT_NE(analysis.recommended, nullptr);
  EXPECT_EQ(analysis.recommended->card->id, "tbb") << "only tbb on 2 threads is within 10 % of the fastest";
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
  EXPECT_NE(cost.output.find("xsimd            costs 5.6 (--max-cost 5)"), std::string::npos) << cost.output;
  const auto error = pick(run, "--max-error 1e-12");
  EXPECT_NE(error.output.find("pick: tbb"), std::string::npos) << error.output;
  EXPECT_NE(error.output.find("xsimd            its relative error is 1.0e-11 (--max-error 1e-12)"),
            std::string::npos)
      << error.output;
  const auto without = pick(run, "--without xsimd");
  EXPECT_NE(without.output.find("pick: eigen"), std::string::npos) << without.output;
  EXPECT_NE(without.output.find("needs xsimd 8.1 (--without xsimd)"), std::string::npos) << without.output;
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

TEST(MannWhitney, ExactForSmallSamplesAndSymmetric) {
  EXPECT_NEAR(mann_whitney_p({1, 2, 3}, {4, 5, 6}), 0.1, 1e-12) << "2 × 1/20";
  EXPECT_NEAR(mann_whitney_p({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}), 2.0 / 252, 1e-12);
  EXPECT_NEAR(mann_whitney_p({6, 7, 8, 9, 10}, {1, 2, 3, 4, 5}), 2.0 / 252, 1e-12);
  EXPECT_DOUBLE_EQ(mann_whitney_p({1, 3, 5}, {2, 4, 6}), mann_whitney_p({2, 4, 6}, {1, 3, 5}));
  EXPECT_GT(mann_whitney_p({1, 3, 5, 7}, {2, 4, 6, 8}), 0.5) << "interleaved: no difference";
  std::vector<double> low(12, 1.0), high(12, 2.0);
  low[0] = 1.5, high[0] = 1.5;  // ties: the normal approximation
  EXPECT_LT(mann_whitney_p(low, high), 1e-3);
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
  EXPECT_NE(future.output.find("has schema version 7; this Ladder reads version 1"), std::string::npos)
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
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg")) << "no link but the SVG namespace";
  EXPECT_EQ(md.find("<script"), std::string::npos);
  for (const char* chart : {"speedup-1", "scaling-1", "pareto-1", "memory-1", "error-1"}) {
    EXPECT_NE(html.find(std::string("data-chart=\"") + chart + "\""), std::string::npos) << chart;
    EXPECT_TRUE(fs::exists(run / "charts" / (std::string(chart) + ".svg"))) << chart;
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
  for (const char* text : {"On <strong>crafted</strong>: use", "On <strong>big-server</strong>: use",
                           "The ladder at n = 1e6 on crafted", "The ladder at n = 1e6 on big-server",
                           "data-chart=\"speedup-1\"", "data-chart=\"speedup-2\""})
    EXPECT_NE(html.find(text), std::string::npos) << text;
}

}  // namespace
}  // namespace ladder::report
