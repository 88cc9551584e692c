// The report read in one minute (issue 17): the one-screen answer of crafted runs (the pick, what it buys
// against naive and the current rung, its time, cost in words, error, the cheaper runner-up; "stay where
// you are"; a pick that helps only one integrand), `ladder report --current`, the main table's columns, the
// tiers' details, columns folded into a sentence, and Markdown with the page's structure.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "command.hpp"
#include "crafted_results.hpp"
#include "document_text.hpp"
#include "report.hpp"
#include "sections.hpp"

namespace ladder::report {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;
using testing::around;
using testing::CraftedCell;
using testing::TempDir;

// Costs (1 + 0.7 × days over 3 years): naive 1.4, inlined 1.4, eigen 3.2, xsimd 5.1, tbb 6.6 (2 libraries
// → 8 days, 3 days to learn, 80 lines → 0.8 days: its largest parts). Rel. errors and peak memory differ from
// tier to tier.
json cards() {
  using testing::crafted_card;
  return json::array({crafted_card("naive", 0, {}, false, "minutes", 27),
                      crafted_card("inlined", 2, {}, false, "minutes", 27),
                      crafted_card("eigen", 4, {"Eigen 3.4"}, false, "hours", 33),
                      crafted_card("xsimd", 6, {"xsimd 8.1"}, false, "days", 60),
                      crafted_card("tbb", 9, {"xsimd 8.1", "oneTBB"}, true, "days", 80)});
}

// The counters' reason, the same in every cell (as on a VM without perf events).
const std::string no_counters = "unavailable: perf_event_open: No such file or directory";

// At n = 1e6: naive 1 s, inlined 0.5 s (the likely current rung: plain, single-threaded, no library), eigen
// 0.2 s, xsimd 0.1 s (error 1e-11), tbb 0.12 s on 1 thread and `tbb_two` on 2. With tbb_two = 0.05 the pick
// is tbb on 2 threads: 20× naive, 10× inlined, 50 ms, error 1e-14; the runner-up that costs less is xsimd,
// 2× slower.
json ladder_run(double inlined = 0.5, double tbb_two = 0.05) {
  json benchmarks = json::array();
  const std::int64_t n = 1000000;
  int memory = 1;
  for (CraftedCell cell : std::vector<CraftedCell>{{"naive", 0, n, 1, around(1.0), 1e-13},
                                                   {"inlined", 2, n, 1, around(inlined), 2e-13},
                                                   {"eigen", 4, n, 1, around(0.2), 1e-15},
                                                   {"xsimd", 6, n, 1, around(0.1), 1e-11},
                                                   {"tbb", 9, n, 1, around(0.12), 1e-14},
                                                   {"tbb", 9, n, 2, around(tbb_two), 1e-14}}) {
    cell.extra = {{"counters", {{"available", false}, {"reason", no_counters}}},
                  {"peak_rss_bytes", (memory++) << 20}};
    testing::add_cell(benchmarks, cell);
  }
  return testing::crafted_results("crafted", cards(), benchmarks);
}

fs::path write(const fs::path& dir, const json& document) { return testing::write_results(dir, document); }

const Block* find_block(const Document& doc, Block::Kind kind, const std::string& text) {
  const Block* found = nullptr;
  visit_blocks(doc, [&](const Block& block) {
    if (!found && block.kind == kind && block.text == text) found = &block;
  });
  return found;
}

const auto text_of = testing::document_text;

std::string answer_text(const Document& doc) {
  const Block* answer = find_block(doc, Block::Kind::section, "answer");
  return answer ? text_of(answer->blocks) : "";
}

TEST(Answer, SaysThePickWhatItBuysCostsItsErrorAndTheCheaperRunnerUp) {
  TempDir dir;
  const Document doc = build({load_run(write(dir / "run", ladder_run()).string())});
  ASSERT_GE(doc.size(), 3u);
  EXPECT_EQ(doc[2].kind, Block::Kind::section) << "right after the title and the intro";
  const std::string text = answer_text(doc);
  for (const std::string expected :
       {"At n = 1e6 on 2 threads: use **tbb**.",
        // Each speedup with its range: each cell's interval is its fastest to slowest repetition (0.99 to
        // 1.02 × its median) widened to the default noise band, median × or ÷ √1.05: naive 0.9759–1.0247 s,
        // inlined 0.4880–0.5123 s, tbb 48.80–51.23 ms; 0.9759 / 0.05123 = 19, 1.0247 / 0.04880 = 21.
        "**Buys** **20×** naive (19–21×), **10×** inlined (9.52–11×; the likely current rung): 50 ms a call.",
        // tbb's days by the README's figures: adoption 3 (days to learn) + 0.25 (1 concept) + 2 × 0.5 (2
        // libraries) + 0.8 × 0.25 (80 lines) = 4.45; upkeep 2 × 0.5 + 0.8 × 0.25 = 1.2 a year.
        "**Costs** 4.5 engineer-days to adopt a person, 1.2 a year to keep (score 6.6 of 10 — 2 libraries).",
        "**Error** 1.0e-14 relative to the exact integral.",
        "**Cheaper runner-up** xsimd (cost 5.1), 2.00× slower (+100 %).",
        // Ahead beyond the default band: tbb's 48.8–51.2 ms against xsimd's 97.6–102 ms.
        "**How sure**: ahead of every other tier beyond the noise (±2.5 % a cell, the documented default, "
        "not "
        "this machine's)."})
    EXPECT_NE(text.find(expected), std::string::npos) << expected << "\n" << text;
  // The rule, in full, under how far to trust the numbers: the first screen holds the answer alone.
  const std::string all = text_of(doc);
  for (const std::string expected :
       {"The pick: for one call, the fastest tier within this machine's noise, a tie going to the cheapest "
        "to keep (--deadline: the cheapest that meets a wall time), answered for 2 threads, all this "
        "machine has.",
        "The likely current rung: the fastest plain single-threaded C++ rung (no library, no hand-written "
        "maths) within the noise"}) {
    EXPECT_EQ(text.find(expected), std::string::npos) << expected << "\n" << text;
    EXPECT_NE(all.find(expected), std::string::npos) << expected << "\n" << all;
  }
  EXPECT_EQ(text.find("**stay where you are**"), std::string::npos) << text;
  EXPECT_EQ(text.find("Trust:"), std::string::npos) << "the run has no warnings\n" << text;
  // The rule once on the page, and no second section saying the width again.
  EXPECT_EQ(all.find("for one call, the fastest tier"), all.rfind("for one call, the fastest tier")) << all;
  EXPECT_EQ(find_block(doc, Block::Kind::heading, "Why this answer"), nullptr);
}

TEST(Answer, StayWhereYouAreWhenNoTierBeatsTheCurrentRungByTenPercent) {
  TempDir dir;
  // inlined 0.105 s; the fastest, xsimd and tbb on 2 threads, 0.1 s: 1.05× faster, inside the 10 % and
  // within the default noise (5 %: the two intervals, 0.1025–0.1076 s and 0.0976–0.1025 s, touch).
  const Document doc = build({load_run(write(dir / "run", ladder_run(0.105, 0.1)).string())});
  const std::string text = answer_text(doc);
  EXPECT_NE(
      text.find(
          "At n = 1e6: **stay where you are** — inlined, the likely current rung, takes 105 ms a call."),
      std::string::npos)
      << text;
  EXPECT_NE(
      text.find("**Why**: no tier beats it beyond the noise and by more than 10 %; the fastest, **xsimd**, "
                "is within the noise of it (≈ 1 (1.00–1.10×))"),
      std::string::npos)
      << text;
  EXPECT_EQ(text.find(": use **"), std::string::npos) << text;
  // inlined 0.108 s: xsimd is faster beyond the noise (0.1054–0.1107 s against 0.0976–0.1025 s), but by
  // less than 10 %: still stay, and the ratio is printed with its range.
  const std::string beyond =
      answer_text(build({load_run(write(dir / "beyond", ladder_run(0.108, 0.1)).string())}));
  EXPECT_NE(beyond.find("**stay where you are** — inlined"), std::string::npos) << beyond;
  EXPECT_NE(beyond.find("the fastest, **xsimd**, is 1.08× (1.03–1.13×) faster and costs 5.1"),
            std::string::npos)
      << beyond;
}

// Three integrands: "tuned" (hand-written maths) runs gauss only and is its pick; rational's and log-atan's
// pick is xsimd.
json three_integrands(const std::string& host = "crafted") {
  json card_list = cards();
  card_list.push_back(testing::crafted_card("tuned", 13, {"xsimd 8.1"}, false, "days", 60));
  card_list.back()["max_ulp_error"] = 1.3;
  json benchmarks = json::array();
  const std::int64_t n = 1000000;
  for (const std::string integrand : {"gauss", "rational", "log-atan"})
    for (const CraftedCell& cell : std::vector<CraftedCell>{{"naive", 0, n, 1, around(1.0)},
                                                            {"inlined", 2, n, 1, around(0.5)},
                                                            {"xsimd", 6, n, 1, around(0.1)}}) {
      CraftedCell each = cell;
      each.integrand = integrand;
      testing::add_cell(benchmarks, each);
    }
  testing::add_cell(benchmarks, {"tuned", 13, n, 1, around(0.04)});
  for (const std::string integrand : {"rational", "log-atan"})
    testing::add_cell_not_run(benchmarks, {"tuned", 13, n, 1, {}, 0, nullptr, integrand}, "unavailable",
                              "tier 'tuned' cannot run integrand '" + integrand + "': its exp is for gauss");
  return testing::crafted_results(host, card_list, benchmarks);
}

TEST(Answer, SaysWhenThePickHelpsOnlyOneIntegrand) {
  TempDir dir;
  const fs::path path = write(dir / "run", three_integrands());
  const Document doc = build({load_run(path.string())});
  const std::string text = answer_text(doc);
  EXPECT_NE(
      text.find("**tuned** (the pick for gauss) helps only gauss: it does not run rational, log-atan; a "
                "team that takes it keeps another tier for those."),
      std::string::npos)
      << text;
  // One row an integrand: the pick, × naive, × the current rung, and its cost in words.
  // tuned's cost: 1 + 0.7 × (3 days to learn + 0.25 + 1 library × 2 + 0.6 × 1 for its 60 lines) = 5.1.
  // Each speedup with the range the cells' intervals allow.
  EXPECT_NE(text.find("gauss | **tuned** | 25× (24–26×) | 12× (12–13×) inlined | 40 ms | 5.1 — hand-written "
                      "maths (1.3 ulp) your team must own; days to learn; 1 library (xsimd 8.1)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("rational | **xsimd** | 10× (9.52–11×) | 5.00× (4.76–5.25×) inlined | 100 ms"),
            std::string::npos)
      << text;
  // Where the answers differ: the same refusal on two integrands is one sentence.
  const report::Run run = load_run(path.string());
  const auto sentences = integrand_differences(run, answer_each_integrand(run));
  EXPECT_NE(std::find(sentences.begin(), sentences.end(),
                      "For **rational**, **log-atan**, tuned is unavailable (its exp is for gauss)."),
            sentences.end())
      << ::testing::PrintToString(sentences);
  // The width once, for each integrand, under how far to trust the numbers; the picks and their speedups only
  // in the answer's table.
  EXPECT_EQ(text.find("answered for 1 thread"), std::string::npos) << text;
  EXPECT_NE(text_of(doc).find("answered for 1 thread, the widest measured, for each integrand."),
            std::string::npos);
  const std::string all = text_of(doc);
  EXPECT_EQ(all.find("The pick differs"), std::string::npos) << all;
  EXPECT_NE(all.find("Where the answers differ (a tier that cannot run an integrand, a speedup over naive 2× "
                     "or more apart):"),
            std::string::npos)
      << all;
  // The table after "The answer for each integrand": no pick, no speedup (source, the same for all, folded).
  const auto heading_at = std::find_if(doc.begin(), doc.end(), [](const Block& block) {
    return block.kind == Block::Kind::heading && block.text == "The answer for each integrand";
  });
  const auto sources = std::find_if(heading_at, doc.end(),
                                    [](const Block& block) { return block.kind == Block::Kind::table; });
  ASSERT_NE(sources, doc.end());
  EXPECT_EQ(sources->table.header, (std::vector<std::string>{"integrand", "note"}));
}

// The blocks of the answer section of kind `kind`.
std::vector<const Block*> answer_blocks(const Document& doc, Block::Kind kind) {
  std::vector<const Block*> found;
  const Block* answer = find_block(doc, Block::Kind::section, "answer");
  if (answer)
    visit_blocks(answer->blocks, [&](const Block& block) {
      if (block.kind == kind) found.push_back(&block);
    });
  return found;
}

TEST(Answer, SeveralMachinesOfSeveralIntegrandsShareOneTableToldApartByLabel) {
  TempDir dir;
  // The same host twice (labels "first" and "second"), three integrands each.
  json first = three_integrands("vm"), second = three_integrands("vm");
  first["context"]["run"]["label"] = "first";
  second["context"]["run"]["label"] = "second";
  const Document doc =
      build({load_run(write(dir / "a", first).string()), load_run(write(dir / "b", second).string())});
  const auto tables = answer_blocks(doc, Block::Kind::table);
  ASSERT_EQ(tables.size(), 1u) << answer_text(doc);
  const Table& rows = tables.front()->table;
  EXPECT_EQ(rows.header.front(), "machine");
  ASSERT_EQ(rows.rows.size(), 6u);
  // The cost is its score and largest part without its parenthesis; a ratio whose range is the two cells'
  // noise band (said once above the table) bare; the machines told apart by their labels.
  EXPECT_EQ(rows.rows.front(),
            (std::vector<std::string>{"vm (first)", "gauss", "**tuned**", "25×", "12× inlined", "40 ms",
                                      "5.1 — hand-written maths", "1.0e-15", "inlined, 12× slower"}));
  const auto paragraphs = answer_blocks(doc, Block::Kind::paragraph);
  EXPECT_TRUE(std::any_of(paragraphs.begin(), paragraphs.end(), [](const Block* block) {
    return block->text.find("a ratio without ± is within ±5 %") != std::string::npos;
  })) << answer_text(doc);
  EXPECT_EQ(rows.rows[3][0], "vm (second)");
  const std::string text = answer_text(doc);
  // The rule once, for both machines, under how far to trust the numbers; the integrand a pick helps only
  // once, not once a machine.
  const std::string whole = text_of(doc);
  EXPECT_NE(whole.find("the fastest tier within this machine's noise, a tie"), std::string::npos) << whole;
  EXPECT_EQ(whole.find("the fastest tier within this machine's noise, a tie"),
            whole.rfind("the fastest tier within this machine's noise, a tie"))
      << whole;
  EXPECT_NE(whole.find("answered for 1 thread, the widest measured, for each integrand."), std::string::npos)
      << whole;
  EXPECT_EQ(text.find("helps only gauss"), text.rfind("helps only gauss")) << text;
  EXPECT_NE(text.find("helps only gauss"), std::string::npos) << text;
  const std::string all = text_of(doc);
  EXPECT_EQ(all.find("On **vm**"), std::string::npos) << all;
  EXPECT_NE(all.find("On **vm (second)**"), std::string::npos) << all;
  // Without labels, by their start.
  first["context"]["run"]["label"] = "";
  second["context"]["run"]["label"] = "";
  second["context"]["run"]["started"] = "2026-12-01T06:09:30Z";
  const Document unlabelled =
      build({load_run(write(dir / "c", first).string()), load_run(write(dir / "d", second).string())});
  const auto unlabelled_tables = answer_blocks(unlabelled, Block::Kind::table);
  ASSERT_EQ(unlabelled_tables.size(), 1u);
  EXPECT_EQ(unlabelled_tables.front()->table.rows[3][0], "vm (run 2026-12-01T06:09)");
}

TEST(Answer, TrustLineWhenTheRunsWarningsNameThePickOrTheRunnerUp) {
  TempDir dir;
  json run = ladder_run();
  run["context"]["warnings"] = json::array({{{"kind", "noisy"},
                                             {"message", "cells whose repetitions vary"},
                                             {"cells", {"tbb/gauss/n:1000000/threads:2 (cv 9 %)"}}},
                                            {{"kind", "load during the run"},
                                             {"message", "other processes"},
                                             {"cells", {"xsimd/gauss/n:1000000/threads:1 (0.5 cores busy)"}}},
                                            {{"kind", "one core"},
                                             {"message", "a silent fallback"},
                                             {"cells", {"eigen/gauss/n:1000000/threads:1 (CPU/wall 1)"}}}});
  const Document doc = build({load_run(write(dir / "run", run).string())});
  const std::string trust =
      "Trust: the pick's cell is flagged noisy; the runner-up's load during the run: read "
      "these figures with the run's warnings below.";
  EXPECT_EQ(answer_text(doc).find(trust), std::string::npos) << "not on the first screen";
  const std::string text = text_of(doc);
  EXPECT_NE(text.find(trust), std::string::npos) << text;
  EXPECT_EQ(text.find("flagged one core"), std::string::npos) << "eigen is neither\n" << text;
}

TEST(Answer, BuysSaysNaiveOnceAndWhenNoPlainRungWasMeasured) {
  TempDir dir;
  const fs::path path = write(dir / "run", ladder_run());
  const std::string naive = answer_text(build({load_run(path.string())}, "", "naive"));
  EXPECT_NE(naive.find("**Buys** **20×** naive (19–21×; naive is your current rung): 50 ms a call."),
            std::string::npos)
      << naive;
  // No plain single-threaded rung: only libraries and threads.
  json benchmarks = json::array();
  for (const CraftedCell& cell : std::vector<CraftedCell>{{"eigen", 4, 1000000, 1, around(0.2), 1e-15},
                                                          {"tbb", 9, 1000000, 2, around(0.05), 1e-14}})
    testing::add_cell(benchmarks, cell);
  const fs::path libraries =
      write(dir / "libraries", testing::crafted_results("crafted", cards(), benchmarks));
  const std::string text = answer_text(build({load_run(libraries.string())}));
  EXPECT_NE(text.find("**Buys** – naive (no plain single-threaded rung to compare with)"), std::string::npos)
      << text;
}

TEST(Answer, CurrentSetsTheRungAndABadTierIsRefusedNamingTheAcceptedOnes) {
  TempDir dir;
  const fs::path run = write(dir / "run", ladder_run());
  const auto good = testing::run_command(
      LADDER_BINARY, "report " + run.string() + " --current eigen --out " + (dir / "good").string());
  ASSERT_EQ(good.exit_code, 0) << good.output;
  const std::string html = testing::read_text(dir / "good/report.html");
  EXPECT_NE(html.find("<strong>4.00×</strong> eigen (3.81–4.20×; your current rung)"), std::string::npos)
      << html.substr(0, 4000);
  const auto bad = testing::run_command(
      LADDER_BINARY, "report " + run.string() + " --current nope --out " + (dir / "bad").string());
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("--current 'nope' is not a tier of '" + (run / "results.json").string() +
                            "'; it has: naive, inlined, eigen, xsimd, tbb"),
            std::string::npos)
      << bad.output;
  EXPECT_FALSE(fs::exists(dir / "bad/report.html"));
  // A tier of the run not measured at the report's n: refused, with why and what was measured.
  json gpu = ladder_run();
  gpu["tiers"].push_back(testing::crafted_card("gpu", 14, {"CUDA"}, true, "days", 90));
  testing::add_cell_not_run(gpu["cells"], {"gpu", 14, 1000000, 1, {}}, "unavailable", "no CUDA device");
  const fs::path with_gpu = write(dir / "gpu", gpu);
  const auto unmeasured = testing::run_command(
      LADDER_BINARY, "report " + with_gpu.string() + " --current gpu --out " + (dir / "unmeasured").string());
  EXPECT_EQ(unmeasured.exit_code, 2) << unmeasured.output;
  EXPECT_NE(unmeasured.output.find("--current 'gpu' has no measurement at n = 1e6 in '" +
                                   (with_gpu / "results.json").string() +
                                   "' (unavailable: no CUDA device); measured there: naive, inlined, eigen, "
                                   "xsimd, tbb"),
            std::string::npos)
      << unmeasured.output;
  EXPECT_FALSE(fs::exists(dir / "unmeasured/report.html"));
}

// The tiers' details: one table, a tier a row (<details> in HTML).
const Table* details_table(const Document& doc) {
  const Table* found = nullptr;
  visit_blocks(doc, [&](const Block& block) {
    if (!found && block.kind == Block::Kind::table && block.table.details) found = &block.table;
  });
  return found;
}

// A details row as "header: cell; …", found by its tier.
std::string row_text(const Table& rows, const std::string& tier) {
  for (const auto& row : rows.rows)
    if (row.front() == tier) {
      std::vector<std::string> said;
      for (std::size_t i = 1; i < row.size(); ++i) said.push_back(rows.header[i] + ": " + row[i]);
      return join(said, "; ");
    }
  return "";
}

TEST(LadderTable, ShowsWhatDecidesAndEachTierHasTheRestInItsDetails) {
  TempDir dir;
  const Document doc = build({load_run(write(dir / "run", ladder_run()).string())});
  const Block* ladder = nullptr;
  visit_blocks(doc, [&](const Block& block) {
    if (block.kind == Block::Kind::table && block.table.name == "ladder") ladder = &block;
  });
  ASSERT_NE(ladder, nullptr);
  EXPECT_EQ(ladder->table.header,
            (std::vector<std::string>{"rung", "tier", "configuration", "time", "× naive", "× rung below",
                                      "error", "peak memory", "cost"}));
  ASSERT_EQ(ladder->table.rows.size(), 5u);
  // Speedups with their ranges; tbb's rung below is xsimd (0.0976–0.1025 s): 0.0976 / 0.05123 = 1.90.
  EXPECT_EQ(ladder->table.rows.back(),
            (std::vector<std::string>{"9", "**tbb**", "2 threads", "50 ms", "20× (19–21×)",
                                      "2.00× (1.90–2.10×)", "1.0e-14", "6.0 MiB", "6.6"}));
  EXPECT_EQ(ladder->table.rows.front()[4], "1×") << "naive against itself";
  EXPECT_EQ(ladder->table.rows.front()[2], "1 thread");
  const Table* details = details_table(doc);
  ASSERT_NE(details, nullptr);
  ASSERT_EQ(details->rows.size(), 5u);
  const std::string tbb = row_text(*details, "tbb");
  // What differs between the tiers is in each one's details; what does not, once above them.
  for (const std::string moved :
       {"min – max: 49.5 ms – 51 ms", "nodes/s: 2e+07", "of fastest: 100 %", "rounding error: 5.0e-15"})
    EXPECT_NE(tbb.find(moved), std::string::npos) << moved << "\n" << tbb;
  const std::string all = text_of(doc);
  // around() spreads every tier's repetitions alike (0.99, 1 and 1.02 × its median): one cv, 1.5 %.
  EXPECT_NE(all.find(". The same for every tier — cv: 2 %; peak heap: 0 B; minor faults: 0; instr/node: –; "
                     "vector: –; counters: " +
                     no_counters + "; reproducible: –."),
            std::string::npos)
      << all;
  write_report({load_run((dir / "run").string())}, (dir / "out").string());
  const std::string html = testing::read_text(dir / "out/report.html");
  EXPECT_NE(html.find("<table data-table=\"ladder\">"), std::string::npos);
  EXPECT_NE(html.find("<details><summary>tier tbb</summary>\n<ul>\n<li>min – max: 49.5 ms – 51 ms</li>"),
            std::string::npos);
  EXPECT_NE(html.find("<details><summary>tier naive</summary>"), std::string::npos);
  // In Markdown one sub-table, a tier a row, not a heading a tier.
  const std::string md = testing::read_text(dir / "out/report.md");
  EXPECT_NE(md.find("| tier | min – max | nodes/s | of fastest | rounding error |"), std::string::npos) << md;
  EXPECT_EQ(md.find("# tier "), std::string::npos) << md;
}

TEST(FoldedColumns, AColumnTheSameInEveryRowIsOneSentenceAndOneThatDiffersStays) {
  Table rows{{"tier", "counters", "vector"},
             {{"a", "unavailable: x", "scalar"}, {"b", "unavailable: x", "4 × f64"}}};
  EXPECT_EQ(fold_constant_columns(rows), "counters: unavailable: x");
  EXPECT_EQ(rows.header, (std::vector<std::string>{"tier", "vector"}));
  EXPECT_EQ(rows.rows, (std::vector<std::vector<std::string>>{{"a", "scalar"}, {"b", "4 × f64"}}));
  // One row that differs keeps the column.
  Table differs{{"tier", "counters"}, {{"a", "x"}, {"b", "x"}, {"c", "y"}}};
  EXPECT_EQ(fold_constant_columns(differs), "");
  EXPECT_EQ(differs.header.size(), 2u);
  // In a report: the counters' reason once, above the tiers' details, in none of them.
  TempDir dir;
  const Document doc = build({load_run(write(dir / "run", ladder_run()).string())});
  const std::string all = text_of(doc);
  EXPECT_NE(all.find("; counters: " + no_counters + "; "), std::string::npos) << all;
  const Table* details = details_table(doc);
  ASSERT_NE(details, nullptr);
  EXPECT_EQ(std::find(details->header.begin(), details->header.end(), "counters"), details->header.end());
  // A column empty in every row goes without a word.
  Table empty{{"tier", "label", "counters"}, {{"a", "", "x"}, {"b", "", "x"}}};
  EXPECT_EQ(fold_constant_columns(empty), "counters: x");
  EXPECT_EQ(empty.header, (std::vector<std::string>{"tier"}));
  // The every-cell table too: its machine (the first column) stays, its placement (not recorded in
  // any cell) is a sentence.
  const Block* cells = nullptr;
  visit_blocks(doc, [&](const Block& block) {
    if (block.kind == Block::Kind::details && block.text.starts_with("all ")) cells = &block;
  });
  ASSERT_NE(cells, nullptr);
  ASSERT_EQ(cells->blocks.size(), 2u);
  EXPECT_NE(cells->blocks.front().text.find("placement: not recorded"), std::string::npos)
      << cells->blocks.front().text;
  EXPECT_EQ(cells->blocks.back().table.header.front(), "machine");
}

// The headings and summaries, in order: <h2>…</h2>, <summary>…</summary> in the page; #… in Markdown.
std::vector<std::string> outline(const std::string& text, const std::regex& pattern) {
  std::vector<std::string> found;
  for (std::sregex_iterator it(text.begin(), text.end(), pattern), end; it != end; ++it) {
    std::string title = (*it)[1].str();
    for (const std::string mark : {"<strong>", "</strong>", "**"})
      for (auto at = title.find(mark); at != std::string::npos; at = title.find(mark))
        title.erase(at, mark.size());
    found.push_back(title);
  }
  return found;
}

TEST(Markdown, HasThePagesStructure) {
  TempDir dir;
  const fs::path run = write(dir / "run", ladder_run());
  write_report({load_run(run.string())}, (dir / "out").string());
  const std::string html = testing::read_text(dir / "out/report.html"),
                    md = testing::read_text(dir / "out/report.md");
  const auto page =
      outline(html, std::regex("<(?:h[1-6]|summary)>([^<]*(?:<strong>[^<]*</strong>[^<]*)*)</"));
  const auto markdown = outline(md, std::regex("(?:^|\n)#+ ([^\n]*)"));
  // The tiers' details are a sub-table in Markdown, <details> a tier in the page.
  auto sections = page;
  std::erase_if(sections, [](const std::string& title) { return title.starts_with("tier "); });
  EXPECT_EQ(sections.size() + 5, page.size()) << "a <details> a tier";
  EXPECT_EQ(sections, markdown);
  EXPECT_GT(sections.size(), 10u);
  EXPECT_EQ(md.find("## The answer"), md.find("## ")) << "the first section";
}

}  // namespace
}  // namespace ladder::report
