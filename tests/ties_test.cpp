// How sure the answer is (issue 38), on crafted results whose every figure is the test's own: a cell's
// interval recomputed by hand from its repetitions and the noise band; two tiers 1.6 % apart tied and the
// one cheaper to keep chosen, 20 % apart not tied; the likely current rung's tie; a speedup within the noise
// of 1 printed "≈ 1"; disturbed cells kept out of the answer, or the answer not decided; and `ladder pick`
// (its words and its JSON) saying what the report says, on these runs and on every results fixture.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "choose.hpp"
#include "command.hpp"
#include "crafted_results.hpp"
#include "decision.hpp"
#include "document_text.hpp"
#include "economics.hpp"
#include "intervals.hpp"
#include "report.hpp"
#include "sections.hpp"

namespace ladder::report {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;
using testing::around;
using testing::CraftedCell;
using testing::TempDir;

// Plain rungs (streaming keeps fewer lines than inlined: cheaper to keep), a library, and two parallel
// tiers: openmp-tuned (no library, hours to learn) is cheaper to keep than tbb-tuned (oneTBB, days).
json cards() {
  using testing::crafted_card;
  return json::array({crafted_card("naive", 0, {}, false, "minutes", 27),
                      crafted_card("streaming", 1, {}, false, "minutes", 30),
                      crafted_card("inlined", 2, {}, false, "minutes", 40),
                      crafted_card("xsimd", 6, {"xsimd 8.1"}, false, "days", 60),
                      crafted_card("openmp-tuned", 10, {}, true, "hours", 40),
                      crafted_card("tbb-tuned", 11, {"oneTBB"}, true, "days", 60)});
}

// A cell's record whose worker saw `other_load` cores of other processes' work (0.25 or more: disturbed).
json loaded(const CraftedCell& cell, double other_load) {
  CellResult record = testing::measured_record(cell);
  record.worker.other_load_cores = other_load;
  return record;
}

// naive 1 s, streaming 0.5 s, inlined `inlined` s, xsimd 0.1 s, openmp-tuned `openmp` s and tbb-tuned 0.05 s
// on 2 threads; `extra` cells after them.
json ladder_run(double inlined, double openmp, const json& extra = json::array()) {
  json cells = json::array();
  const std::int64_t n = 1000000;
  for (const CraftedCell& cell : std::vector<CraftedCell>{{"naive", 0, n, 1, around(1.0)},
                                                          {"streaming", 1, n, 1, around(0.5)},
                                                          {"inlined", 2, n, 1, around(inlined)},
                                                          {"xsimd", 6, n, 1, around(0.1)},
                                                          {"openmp-tuned", 10, n, 2, around(openmp)},
                                                          {"tbb-tuned", 11, n, 2, around(0.05)}})
    testing::add_cell(cells, cell);
  for (const auto& cell : extra) cells.push_back(cell);
  return testing::crafted_results("crafted", cards(), cells);
}

fs::path write(const fs::path& dir, const json& document) { return testing::write_results(dir, document); }

std::string text_of(const Run& run) { return testing::document_text(build({run})); }

const Row* row_of(const Analysis& analysis, const std::string& tier) {
  for (const auto& row : analysis.rows)
    if (row.card->id == tier) return &row;
  return nullptr;
}

std::vector<std::string> ids(const std::vector<const Row*>& rows) {
  std::vector<std::string> said;
  for (const Row* row : rows) said.push_back(row->card->id);
  return said;
}

testing::Outcome ladder(const std::string& arguments) {
  return testing::run_command(LADDER_BINARY, arguments);
}

// The tier `ladder pick` names ("pick: xsimd (1 thread): …"), or "none".
std::string picked(const std::string& output) {
  const auto at = output.find("\npick: ");
  if (at == std::string::npos) return "";
  const auto from = at + 7;
  return output.substr(from, output.find_first_of(" :\n", from) - from);
}

TEST(Intervals, AreTheRepetitionsRankIntervalWidenedByTheNoiseBandRecomputedByHand) {
  // Twelve repetitions, out of order; sorted: 97, 98, 98.5, 99, 99.5, 100, 100, 100.5, 101, 101.2, 102,
  // 104 ms: median 100 ms. For 12 the sign test's 95 % interval is the 3rd smallest to the 3rd largest:
  // P(Binomial(12, ½) ≤ 2) = 79/4096 = 1.9 % ≤ 2.5 % < P(≤ 3) = 299/4096 = 7.3 %. So 98.5 to 101.2 ms.
  const std::vector<double> seconds = {0.1000, 0.1040, 0.0985, 0.0970, 0.1012, 0.0990,
                                       0.1005, 0.0980, 0.1020, 0.1000, 0.0995, 0.1010};
  CraftedCell crafted{"xsimd", 6, 1000000, 1, seconds};
  const CellResult cell = testing::measured_record(crafted);
  // A noise floor of 3 %: the band is median ÷ or × (1 + h), h = √1.03 − 1 = 1.49 %: 98.53 to 101.49 ms.
  const Threshold noise{3, "a test's figure", true};
  const double h = std::sqrt(1.03) - 1;
  const CellInterval interval = cell_interval(cell, noise);
  EXPECT_NEAR(interval.median, 0.1, 1e-15);
  EXPECT_NEAR(interval.low, 0.0985, 1e-15) << "the repetitions reach lower than the band (98.53 ms)";
  EXPECT_NEAR(interval.high, 0.1 * (1 + h), 1e-15) << "the band reaches higher than the repetitions";
  EXPECT_EQ(interval.noise.source, "a test's figure");
  // Under 6 repetitions, all of them; the default noise, 5 %: h = √1.05 − 1.
  const CellResult three = testing::measured_record({"xsimd", 6, 1000000, 1, {0.0995, 0.1, 0.1001}});
  const CellInterval plain = cell_interval(three, default_threshold());
  EXPECT_NEAR(plain.low, 0.1 / std::sqrt(1.05), 1e-15)
      << "the band (97.59 ms) reaches below the fastest, 99.5";
  EXPECT_NEAR(plain.high, 0.1 * std::sqrt(1.05), 1e-15);
  // A run's figure for the cell widens its row in the analysis.
  TempDir dir;
  json document = ladder_run(0.4, 0.06);
  document["cells"][3] = testing::measured_record(crafted);
  report::Run run = load_run(write(dir / "run", document).string());
  run.noise.by_cell[cell.name] = noise;
  const Analysis analysis = analyse(run);
  ASSERT_NE(row_of(analysis, "xsimd"), nullptr);
  EXPECT_NEAR(row_of(analysis, "xsimd")->interval.low, 0.0985, 1e-15);
  EXPECT_NEAR(row_of(analysis, "xsimd")->interval.high, 0.1 * (1 + h), 1e-15);
}

TEST(Ties, TwoTiersOnePointSixPercentApartTieAndTheCheaperToKeepWins) {
  TempDir dir;
  // tbb-tuned 50 ms, openmp-tuned 50.8 ms: 1.6 % apart, inside the default noise (5 %).
  const fs::path path = write(dir / "run", ladder_run(0.4, 0.0508));
  const report::Run run = load_run(path.string());
  const Analysis analysis = analyse(run);
  ASSERT_NE(analysis.recommended, nullptr);
  EXPECT_EQ(analysis.recommended->card->id, "openmp-tuned") << analysis.why;
  EXPECT_EQ(ids(analysis.decided.tied), (std::vector<std::string>{"openmp-tuned", "tbb-tuned"}));
  EXPECT_LT(days_to_keep(*run.card("openmp-tuned")), days_to_keep(*run.card("tbb-tuned")));
  const std::string tie =
      "openmp-tuned or tbb-tuned: 1.6 % apart, closer than this machine's noise (±2.5 % a cell";
  EXPECT_EQ(analysis.decided.tie_why.rfind(tie, 0), 0u) << analysis.decided.tie_why;
  EXPECT_NE(analysis.decided.tie_why.find("openmp-tuned is the cheapest to keep"), std::string::npos);
  // The sentence of why names the tie, never "tbb-tuned is 1.02× faster".
  EXPECT_NE(analysis.why.find(tie), std::string::npos) << analysis.why;
  EXPECT_EQ(analysis.why.find("faster but costs"), std::string::npos) << analysis.why;
  const std::string text = text_of(run);
  EXPECT_NE(text.find("At n = 1e6 on 2 threads: use **openmp-tuned**."), std::string::npos) << text;
  // The first screen says the tie in one line; how it was broken is under how far to trust the numbers.
  EXPECT_NE(text.find("**How sure**: openmp-tuned ≈ tbb-tuned within ±2.5 % a cell"), std::string::npos)
      << text;
  EXPECT_NE(text.find("the tie goes to the cheaper to keep."), std::string::npos) << text;
  EXPECT_NE(text.find("The pick within the noise: " + tie), std::string::npos) << text;
  // pick: the same tier, the tie and its break; its JSON carries them and each tier's interval.
  const auto said = ladder("pick " + path.string());
  EXPECT_EQ(said.exit_code, 0) << said.output;
  EXPECT_EQ(picked(said.output), "openmp-tuned") << said.output;
  EXPECT_NE(said.output.find("tie:  " + tie), std::string::npos) << said.output;
  EXPECT_NE(said.output.find("within the noise of the runner-up (≈ 1"), std::string::npos) << said.output;
  const auto as_json = ladder("pick " + path.string() + " --json");
  ASSERT_EQ(as_json.exit_code, 0) << as_json.output;
  const json answer = json::parse(as_json.output).at("answer");
  EXPECT_EQ(answer.at("recommended"), "openmp-tuned");
  EXPECT_EQ(answer.at("fastest_within_noise").at("tied"), json({"openmp-tuned", "tbb-tuned"}));
  EXPECT_EQ(answer.at("fastest_within_noise").at("tie_break"), analysis.decided.tie_why);
  ASSERT_EQ(answer.at("intervals").size(), analysis.rows.size());
  for (const auto& each : answer.at("intervals")) {
    const Row* row = row_of(analysis, each.at("tier"));
    ASSERT_NE(row, nullptr) << each;
    EXPECT_DOUBLE_EQ(each.at("median_seconds").get<double>(), row->interval.median);
    EXPECT_DOUBLE_EQ(each.at("low_seconds").get<double>(), row->interval.low);
    EXPECT_DOUBLE_EQ(each.at("high_seconds").get<double>(), row->interval.high);
    EXPECT_EQ(each.at("noise_percent"), 5);
    EXPECT_EQ(each.at("noise_source"), default_threshold().source);
  }
}

// The tie is every tier no other beats beyond the noise, not every tier that overlaps the fastest: a fast
// tier with a wide band (a noisy parallel cell) must not take in a tier that a tight-banded one beats, or the
// answer moves with whichever is fastest in a run. Cards alike but for their rungs: the lowest rung is the
// cheapest to keep, so the anchored rule would choose `beaten`.
TEST(Ties, ATierBeatenBeyondTheNoiseIsNoTieEvenWhereItOverlapsAWideFastest) {
  Card wide, tight, beaten;
  wide.id = "wide", wide.rung = 2;
  tight.id = "tight", tight.rung = 1;
  beaten.id = "beaten", beaten.rung = 0;
  const auto interval = [](double median, double low, double high) {
    CellInterval out;
    out.median = median, out.low = low, out.high = high;
    return out;
  };
  const std::vector<Contender> contenders = {{&wide, interval(1.0, 0.6, 1.4)},
                                             {&tight, interval(1.05, 1.02, 1.08)},
                                             {&beaten, interval(1.3, 1.2, 1.4)}};
  ASSERT_TRUE(tied(contenders[0].interval, contenders[2].interval));  // the old rule's tie
  const TieOutcome outcome = fastest_within_noise(contenders);
  EXPECT_EQ(outcome.fastest, 0u);
  EXPECT_EQ(outcome.tied, (std::vector<std::size_t>{1, 0}));  // rung order: tight, wide
  EXPECT_EQ(outcome.chosen, 1u) << outcome.why;
  EXPECT_EQ(outcome.why.find("beaten"), std::string::npos) << outcome.why;
}

TEST(Ties, TwentyPercentApartIsNoTie) {
  TempDir dir;
  // openmp-tuned 60 ms against tbb-tuned's 50 ms: their intervals (58.6–61.5 ms, 48.8–51.2 ms) are apart.
  const fs::path path = write(dir / "run", ladder_run(0.4, 0.06));
  const Analysis analysis = analyse(load_run(path.string()));
  ASSERT_NE(analysis.recommended, nullptr);
  EXPECT_EQ(analysis.recommended->card->id, "tbb-tuned");
  EXPECT_EQ(analysis.decided.tied.size(), 1u);
  EXPECT_EQ(analysis.decided.tie_why, "");
  ASSERT_NE(analysis.cheaper, nullptr);
  EXPECT_EQ(analysis.cheaper->card->id, "openmp-tuned");
  const auto said = ladder("pick " + path.string());
  EXPECT_EQ(picked(said.output), "tbb-tuned") << said.output;
  EXPECT_EQ(said.output.find("tie:"), std::string::npos) << said.output;
  EXPECT_NE(said.output.find("1.20× (1.14–1.26×) faster than the runner-up"), std::string::npos)
      << said.output;
}

TEST(Ties, TheLikelyCurrentRungIsTheCheapestToKeepOfThePlainRungsTied) {
  TempDir dir;
  // inlined 495 ms against streaming's 500 ms: 1 % apart; streaming keeps 30 lines to inlined's 40.
  json document = ladder_run(0.495, 0.06);
  const report::Run run = load_run(write(dir / "run", document).string());
  const Analysis analysis = analyse(run);
  const Decided current = current_rung_choice(analysis);
  ASSERT_NE(current.row, nullptr);
  EXPECT_EQ(current.row->card->id, "streaming");
  EXPECT_EQ(current_rung(analysis), current.row);
  EXPECT_EQ(current.tie_why.rfind("streaming or inlined: 1.0 % apart", 0), 0u) << current.tie_why;
  EXPECT_NE(current.tie_why.find("streaming is the cheapest to keep"), std::string::npos) << current.tie_why;
  const std::string text = text_of(run);
  EXPECT_NE(text.find("The likely current rung within the noise: streaming or inlined"), std::string::npos)
      << text;
  EXPECT_NE(text.find("naive (19–21×), **10×** streaming ("), std::string::npos) << text;
  // The table: inlined against the rung below, streaming, is within the noise of 1, not "1.01×".
  ASSERT_TRUE(row_of(analysis, "inlined")->below_range);
  EXPECT_TRUE(row_of(analysis, "inlined")->below_range->about_one());
  // naive 975.9–1024.7 ms, streaming 487.9–512.3 ms, inlined 483.1–507.2 ms: 975.9 / 507.2 = 1.92,
  // 1024.7 / 483.1 = 2.12; 487.9 / 507.2 = 0.96, 512.3 / 483.1 = 1.06.
  EXPECT_NE(text.find("inlined** | 1 thread | 495 ms | 2.02× (1.92–2.12×) | ≈ 1 (0.96–1.06×) |"),
            std::string::npos)
      << text;
  // The same answer whatever order the file lists its cells in.
  std::reverse(document["cells"].begin(), document["cells"].end());
  const report::Run reversed = load_run(write(dir / "reversed", document).string());
  EXPECT_EQ(current_rung(analyse(reversed))->card->id, "streaming");
}

TEST(Disturbed, ACellUnderLoadIsKeptOutOfTheCurrentRungAndItsRealRatioStillPrints) {
  TempDir dir;
  // The case: inlined at 0.64× streaming under 1.01 cores of other load.
  json document = ladder_run(0.4, 0.06);
  document["cells"][2] = loaded({"inlined", 2, 1000000, 1, around(0.78)}, 1.01);
  const report::Run run = load_run(write(dir / "run", document).string());
  const Analysis analysis = analyse(run);
  EXPECT_EQ(row_of(analysis, "inlined")->disturbed, std::vector<std::string>{"1.01 cores of other load"});
  const Decided current = current_rung_choice(analysis);
  ASSERT_NE(current.row, nullptr);
  EXPECT_EQ(current.row->card->id, "streaming");
  EXPECT_EQ(ids(current.kept_out), std::vector<std::string>{"inlined"});
  EXPECT_NE(current.note.find("inlined (1.01 cores of other load)"), std::string::npos) << current.note;
  const std::string text = text_of(run);
  EXPECT_NE(text.find("The likely current rung, disturbed cells: kept out of the answer"), std::string::npos)
      << text;
  EXPECT_NE(text.find("inlined: 1.01 cores of other load — kept out of the answer"), std::string::npos)
      << text;
  // 0.5 / 0.78 = 0.64, beyond the noise: a real ratio under 1, printed as it is (inlined 761.2–799.3 ms:
  // 487.9 / 799.3 = 0.61, 512.3 / 761.2 = 0.67).
  EXPECT_NE(text.find("| 0.64× (0.61–0.67×) |"), std::string::npos) << text;
}

TEST(Disturbed, AFasterDisturbedTierLeavesTheAnswerUndecidedAndPickSaysWhy) {
  TempDir dir;
  // tbb-tuned's only cell, 50 ms, was disturbed: faster than every quiet tier, so nothing is decided.
  json document = ladder_run(0.4, 0.06);
  document["cells"][5] = loaded({"tbb-tuned", 11, 1000000, 2, around(0.05)}, 1.01);
  const fs::path path = write(dir / "run", document);
  const Analysis analysis = analyse(load_run(path.string()));
  EXPECT_EQ(analysis.recommended, nullptr);
  EXPECT_EQ(
      analysis.why.rfind("could not decide: the only measurement of tbb-tuned (1.01 cores of other load), "
                         "50 ms a call against openmp-tuned's 60 ms",
                         0),
      0u)
      << analysis.why;
  EXPECT_NE(text_of(load_run(path.string())).find("At n = 1e6: could not decide: "), std::string::npos);
  const auto said = ladder("pick " + path.string() + " --without xsimd");
  EXPECT_EQ(said.exit_code, 1) << said.output;
  EXPECT_NE(said.output.find("pick: none: could not decide: the only measurement of tbb-tuned"),
            std::string::npos)
      << said.output;
  // Undecided, the tiers the constraints left out are still named, each with its reason.
  EXPECT_NE(said.output.find("ruled out:\n  xsimd            needs xsimd 8.1 (--without xsimd)\n"),
            std::string::npos)
      << said.output;
  const auto as_json = ladder("pick " + path.string() + " --json");
  ASSERT_EQ(as_json.exit_code, 0) << as_json.output;
  const json answer = json::parse(as_json.output).at("answer");
  EXPECT_TRUE(answer.at("recommended").is_null());
  EXPECT_EQ(answer.at("fastest_within_noise").at("undecided"), analysis.why);
}

// The money answer's break-evens fall back to the lowest rung measured when the likely current rung could
// not be decided (inlined, disturbed, faster than every quiet plain rung): never silently.
TEST(Disturbed, AnUndecidedCurrentRungIsSaidWhereTheBreakEvensFallBackToTheLowestRung) {
  TempDir dir;
  json document = ladder_run(0.4, 0.06);
  document["cells"][2] = loaded({"inlined", 2, 1000000, 1, around(0.3)}, 1.01);
  const report::Run run = load_run(write(dir / "run", document).string());
  ASSERT_EQ(current_rung_choice(analyse(run)).row, nullptr);
  const Decision decision = decide(run, 1000000, run.integrand_names().front(), CostFigures{}, Usage{});
  EXPECT_EQ(decision.current, "naive");
  EXPECT_EQ(decision.current_why.rfind("the likely current rung: could not decide: ", 0), 0u)
      << decision.current_why;
  EXPECT_NE(decision.current_why.find("against the lowest rung measured, naive"), std::string::npos)
      << decision.current_why;
  EXPECT_EQ(decision_json(decision).at("current_why"), decision.current_why);
}

TEST(Disturbed, ASlowerDisturbedTierIsKeptOutAndAQuietCellOfATierIsItsBest) {
  TempDir dir;
  json document = ladder_run(0.4, 0.06);
  // tbb-tuned: its 2-thread cell disturbed at 300 ms (slower beyond the noise), its 1-thread cell quiet.
  document["cells"][5] = loaded({"tbb-tuned", 11, 1000000, 2, around(0.3)}, 1.01);
  const Analysis kept_out = analyse(load_run(write(dir / "slower", document).string()));
  ASSERT_NE(kept_out.recommended, nullptr);
  EXPECT_EQ(kept_out.recommended->card->id, "openmp-tuned");
  EXPECT_EQ(ids(kept_out.decided.kept_out), std::vector<std::string>{"tbb-tuned"});
  EXPECT_NE(
      kept_out.why.find("kept out of the answer, its only measurement disturbed: tbb-tuned (1.01 cores"),
      std::string::npos)
      << kept_out.why;
  testing::add_cell(document["cells"], {"tbb-tuned", 11, 1000000, 1, around(0.07)});
  const Analysis quiet = analyse(load_run(write(dir / "quiet", document).string()));
  const Row* tbb = row_of(quiet, "tbb-tuned");
  ASSERT_NE(tbb, nullptr);
  EXPECT_EQ(tbb->cell->threads, 1) << "its undisturbed cell, though the disturbed one is faster";
  EXPECT_TRUE(tbb->disturbed.empty());
  EXPECT_TRUE(quiet.decided.kept_out.empty());
}

TEST(Disturbed, WhenEveryCellWasDisturbedTheyCompeteAndTheAnswerSaysSo) {
  TempDir dir;
  json cells = json::array({loaded({"naive", 0, 1000000, 1, around(1.0)}, 0.5),
                            loaded({"xsimd", 6, 1000000, 1, around(0.1)}, 0.5)});
  const report::Run run =
      load_run(write(dir / "run", testing::crafted_results("crafted", cards(), cells)).string());
  const Analysis analysis = analyse(run);
  ASSERT_NE(analysis.recommended, nullptr);
  EXPECT_EQ(analysis.recommended->card->id, "xsimd");
  EXPECT_NE(analysis.why.find("xsimd's only measurement was disturbed: 0.50 cores of other load"),
            std::string::npos)
      << analysis.why;
  const std::string text = text_of(run);
  EXPECT_NE(text.find("The pick, disturbed cells: xsimd's only measurement was disturbed"), std::string::npos)
      << text;
}

// The tier pick names for one integrand of a results file, in words and in its JSON's answer.
std::pair<std::string, json> pick_for(const fs::path& dir, const std::string& integrand) {
  const auto said = ladder("pick " + dir.string() + " --integrand " + integrand);
  const auto as_json = ladder("pick " + dir.string() + " --integrand " + integrand + " --json");
  EXPECT_EQ(as_json.exit_code, 0) << as_json.output;
  return {picked(said.output), json::parse(as_json.output).at("answer").at("recommended")};
}

TEST(PickAndReport, SayTheSameOnEveryFixtureAndCraftedRun) {
  TempDir dir;
  std::vector<fs::path> runs;
  for (const std::string fixture : {"default_run_results", "quick_peers_results", "six_integrands_results"}) {
    fs::create_directories(dir / fixture);
    ASSERT_EQ(testing::run_command("gzip", "-dc " + std::string(LADDER_FIXTURES_DIR) + "/" + fixture +
                                               ".json.gz > " + (dir / fixture / "results.json").string())
                  .exit_code,
              0);
    runs.push_back(dir / fixture);
  }
  runs.push_back(write(dir / "tie", ladder_run(0.495, 0.0508)));
  for (const auto& path : runs) {
    const report::Run run = load_run(path.string());
    const auto names = run.integrand_names();
    const IntegrandAnswers answers = answer_each_integrand(run);
    for (std::size_t k = 0; k < names.size(); ++k) {
      SCOPED_TRACE(path.string() + " " + names[k]);
      const Analysis single = names.size() < 2 ? analyse(run) : Analysis{};
      const Analysis& analysis = names.size() < 2 ? single : answers.analyses[k];
      const std::string expected = analysis.recommended ? analysis.recommended->card->id : "none";
      const auto [words, from_json] = pick_for(path, names[k]);
      EXPECT_EQ(words, expected);
      EXPECT_EQ(from_json.is_null() ? "none" : from_json.get<std::string>(), expected);
    }
  }
}

}  // namespace
}  // namespace ladder::report
