// One decision, in one place (issue 27): the report's answer and its "Money and latency" section say what
// `ladder pick --json` says on every results fixture, with the default figures and with the team's inputs:
// the usage map step by step, its steps of tiers within the noise ("≈") and its break-evens' ranges (issue
// 38), or the one tier at the team's calls a day, the latency tier, the rung break-even is against, and
// each tier's people cost in the folded table, which is the documented formula's.
// Bad inputs to `ladder report` and `ladder run` are refused by name before anything is written or run.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "command.hpp"
#include "decision.hpp"
#include "disturbance.hpp"

namespace ladder::report {
namespace {

using ladder::testing::read_text;
using ladder::testing::run_command;
using ladder::testing::TempDir;

const std::vector<std::string> fixtures = {"default_run_results", "quick_peers_results",
                                           "six_integrands_results"};
const std::vector<std::string> inputs = {"", "--calls-per-day 1e6 --team-knows openmp", "--deadline 30ms",
                                         "--core-hours-per-day 100 --team-knows xsimd",
                                         "--bus-factor 2 --horizon 5 --core-hour 0.1 --engineer-day 650"};

// The report's money section: from its heading to the next section's.
std::string money_section(const std::string& markdown) {
  const auto from = markdown.find("## Money and latency");
  if (from == std::string::npos) return "";
  return markdown.substr(from, markdown.find("\n## ", from + 1) - from);
}

// "$12 345", as the report writes dollars.
std::string dollars(double amount) {
  std::string digits = std::to_string(static_cast<long long>(std::llround(amount)));
  for (auto at = static_cast<long>(digits.size()) - 3; at > 0; at -= 3)
    digits.insert(static_cast<std::size_t>(at), " ");
  return "$" + digits;
}

// Every step of the usage map pick --json gives, in order, a row of the section's usage table: a step of
// tiers within the noise with its tier in bold and the others after "≈"; then each break-even with its range.
void expect_usage_map(const std::string& section, const nlohmann::json& decision) {
  std::size_t at = 0;
  for (const auto& step : decision.at("usage_map")) {
    // A step of tiers within the noise: its tier in bold, the others after "≈".
    std::string words = "**" + step.at("tier").get<std::string>() + "**";
    for (const auto& other : step.at("tiers"))
      if (other != step.at("tier")) words += " ≈ " + other.get<std::string>();
    // Its row of the usage table: "| below 3 million | **inlined** |", "| 3 million to 7 million | …",
    // "| above 7 million | …", or "| any number | …" for a map of one step.
    const bool first = step.at("from_calls_a_day").get<double>() <= 0;
    const std::string from = first ? "" : calls_text(step.at("from_calls_a_day").get<double>());
    if (decision.at("usage_map").size() == 1)
      words = "| any number | " + words;
    else if (step.at("to_calls_a_day").is_null())
      words = "| above " + from + " | " + words;
    else
      words = "| " + (first ? "below " : from + " to ") +
              calls_text(step.at("to_calls_a_day").get<double>()) + " | " + words;
    const auto found = section.find(words, at);
    ASSERT_NE(found, std::string::npos) << "the usage map's step '" << words << "' is not in\n" << section;
    at = found;
  }
  // Each break-even with its range within the noise, as pick --json gives it.
  for (const auto& step : decision.at("usage_map")) {
    if (step.at("from_range").is_null()) continue;
    const nlohmann::json& range = step.at("from_range");
    const CallsRange calls{range.at("low").get<double>(), range.at("high").is_null()
                                                              ? std::numeric_limits<double>::infinity()
                                                              : range.at("high").get<double>()};
    EXPECT_LE(calls.low, step.at("from_calls_a_day").get<double>());
    EXPECT_GE(calls.high, step.at("from_calls_a_day").get<double>());
    const std::string words =
        calls_text(step.at("from_calls_a_day").get<double>()) + " (" + calls_range_text(calls) + ")";
    EXPECT_NE(section.find(words), std::string::npos) << "the break-even '" << words << "' is not in\n"
                                                      << section;
  }
}

TEST(ReportMoney, TheReportSaysWhatPickSaysOnEveryFixture) {
  for (const auto& fixture : fixtures) {
    TempDir dir;
    ASSERT_EQ(run_command("gzip", "-dc " + std::string(LADDER_FIXTURES_DIR) + "/" + fixture + ".json.gz > " +
                                      (dir / "results.json").string())
                  .exit_code,
              0);
    for (const auto& options : inputs) {
      SCOPED_TRACE(fixture + " " + options);
      const auto picked = run_command(LADDER_BINARY, "pick " + dir.str() + " --json " + options);
      ASSERT_EQ(picked.exit_code, 0) << picked.output;
      const nlohmann::json decision = nlohmann::json::parse(picked.output);
      const auto reported = run_command(
          LADDER_BINARY, "report " + dir.str() + " --out " + (dir / "report").string() + " " + options);
      ASSERT_EQ(reported.exit_code, 0) << reported.output;
      const std::string section = money_section(read_text(dir / "report" / "report.md"));
      ASSERT_FALSE(section.empty()) << "no money section in the report";

      // The throughput answer: the one tier at the calls a day, else every step of the usage map in order.
      if (!decision.at("money_tier").is_null()) {
        EXPECT_NE(section.find(", **" + decision.at("money_tier").get<std::string>() + "**: $"),
                  std::string::npos)
            << section;
        // Core-hours a day size the job on the current rung: calls = core-hours × 3600 ÷ its core-seconds.
        if (!decision.at("core_hours_per_day").is_null())
          for (const auto& tier : decision.at("tiers"))
            if (tier.at("tier") == decision.at("current")) {
              const double calls = decision.at("core_hours_per_day").get<double>() * 3600 /
                                   tier.at("core_seconds").get<double>();
              EXPECT_NEAR(decision.at("calls_per_day").get<double>(), calls, 1e-12 * calls);
            }
      } else {
        expect_usage_map(section, decision);
      }
      // The answer on the first screen names the latency tier for the integrand pick answers for (a run of
      // several: its row), or says to stay, which only a latency tier within 10 % of the current rung allows.
      if (!decision.at("latency_tier").is_null()) {
        const std::string markdown = read_text(dir / "report" / "report.md");
        const auto from = markdown.find("## The answer");
        const std::string answer = markdown.substr(from, markdown.find("\n## ", from + 1) - from);
        const std::string tier = decision.at("latency_tier");
        if (answer.find("use **" + tier + "**") == std::string::npos &&
            answer.find("| " + decision.at("integrand").get<std::string>() + " | **" + tier + "**") ==
                std::string::npos) {
          EXPECT_NE(answer.find("**stay where you are**"), std::string::npos) << tier << "\n" << answer;
          double fastest = 0, current = 0;
          for (const auto& each : decision.at("tiers")) {
            if (each.at("tier") == tier) fastest = each.at("fastest_wall_seconds");
            if (each.at("tier") == decision.at("current")) current = each.at("fastest_wall_seconds");
          }
          EXPECT_GE(fastest, 0.9 * current)
              << "the answer stays, though " << tier << " beats the current rung";
        }
      }
      // The steps up for latency: fewer days first, each faster than all before it, ending at the fastest.
      {
        const auto from = section.find("fewer engineer-days over ");
        ASSERT_NE(from, std::string::npos) << section;
        std::string steps = section.substr(section.find(": ", from) + 2);
        steps = steps.substr(0, steps.find(".\n"));
        const auto& f = decision.at("figures");
        double last_time = std::numeric_limits<double>::infinity(), last_days = -1, fastest = last_time;
        std::string last_tier;
        for (const auto& tier : decision.at("tiers"))
          fastest = std::min(fastest, tier.at("fastest_wall_seconds").get<double>());
        for (std::size_t at = 0; at < steps.size();) {
          const std::string id = steps.substr(at, steps.find(' ', at) - at);
          const nlohmann::json* tier = nullptr;
          for (const auto& each : decision.at("tiers"))
            if (each.at("tier") == id) tier = &each;
          ASSERT_NE(tier, nullptr) << "'" << id << "' in the steps: " << steps;
          const double time = tier->at("fastest_wall_seconds"),
                       days = tier->at("engineer_days").at("adoption").get<double>() *
                                  f.at("bus_factor").get<int>() +
                              tier->at("engineer_days").at("upkeep_per_year").get<double>() *
                                  f.at("horizon_years").get<double>();
          EXPECT_LT(time, last_time) << id << " after " << last_tier << ": " << steps;
          EXPECT_GE(days, last_days) << id << " after " << last_tier << ": " << steps;
          last_time = time;
          last_days = days;
          last_tier = id;
          const auto next = steps.find(" → ", at);
          at = next == std::string::npos ? steps.size() : next + std::string(" → ").size();
        }
        EXPECT_EQ(last_time, fastest) << steps;
      }
      // The latency answer and the rung break-even is against.
      if (!decision.at("latency_tier").is_null()) {
        EXPECT_NE(section.find("fast**: **" + decision.at("latency_tier").get<std::string>() + "**"),
                  std::string::npos)
            << section;
      }
      EXPECT_NE(section.find("break-even against **" + decision.at("current").get<std::string>() + "**"),
                std::string::npos)
          << section;
      // Each tier's row: its people cost, the formula's (recomputed here from its days and the figures).
      const auto& figures = decision.at("figures");
      for (const auto& tier : decision.at("tiers")) {
        const double days =
            tier.at("engineer_days").at("adoption").get<double>() * figures.at("bus_factor").get<int>() +
            tier.at("engineer_days").at("upkeep_per_year").get<double>() *
                figures.at("horizon_years").get<double>();
        const double people = days * figures.at("engineer_day").get<double>();
        EXPECT_NEAR(tier.at("people_dollars").get<double>(), people, 1e-9 * people);
        const std::string row = "| " + tier.at("tier").get<std::string>() + " | ";
        const auto line = section.find(row);
        ASSERT_NE(line, std::string::npos) << row << "is not in the table";
        const std::string text = section.substr(line, section.find('\n', line) - line);
        // Shown as pick gives it: the recomputed figure can fall the other side of a half dollar.
        EXPECT_NE(text.find("| " + dollars(tier.at("people_dollars").get<double>()) + " |"),
                  std::string::npos)
            << text << " (the formula gives " << people << ")";
      }
    }
  }
}

// A real run, small: `ladder pick --json`'s figures for each tier recomputed here from the README's formula,
// the cards in results.json and the medians of its cells (the undisturbed cell with the fewest core-seconds
// a call).
TEST(ReportMoneyOfARealRun, EveryTiersFiguresFollowFromTheFormulaAndTheMedians) {
  TempDir dir;
  const auto ran = run_command(LADDER_BINARY,
                               "run --no-limits --tiers naive,inlined,xsimd,openmp --n 1e5 --threads 1,2 "
                               "--reps 3 --min-time 0.005 --no-history --no-instructions --out " +
                                   (dir / "run").string());
  ASSERT_EQ(ran.exit_code, 0) << ran.output;
  const auto picked =
      run_command(LADDER_BINARY, "pick " + (dir / "run").string() +
                                     " --json --calls-per-day 2e5 --bus-factor 2 --horizon 2");
  ASSERT_EQ(picked.exit_code, 0) << picked.output;
  const nlohmann::json decision = nlohmann::json::parse(picked.output);
  const report::Run run = load_run((dir / "run").string());
  ASSERT_EQ(decision.at("tiers").size(), 4u) << picked.output;
  for (const auto& tier : decision.at("tiers")) {
    const std::string id = tier.at("tier");
    SCOPED_TRACE(id);
    const Card* card = run.card(id);
    ASSERT_NE(card, nullptr);
    // Days, by the README: learning (minutes 0, hours 0.5, days 3), 0.25 a concept, 0.5 a library, 0.25 a
    // flag, 0.25 a hundred lines to adopt; 0.5 a library, 0.25 a flag, 0.25 a hundred lines a year to keep.
    const double learning = card->learning_time == "days" ? 3 : card->learning_time == "hours" ? 0.5 : 0;
    const double hundreds = (card->source_lines + card->shared_lines) / 100.0;
    const double adoption = learning + 0.25 * static_cast<double>(card->concepts.size()) +
                            0.5 * static_cast<double>(card->libraries.size()) +
                            0.25 * static_cast<double>(card->flags.size()) + 0.25 * hundreds;
    const double upkeep = 0.5 * static_cast<double>(card->libraries.size()) +
                          0.25 * static_cast<double>(card->flags.size()) + 0.25 * hundreds;
    EXPECT_NEAR(tier.at("engineer_days").at("adoption").get<double>(), adoption, 1e-12);
    EXPECT_NEAR(tier.at("engineer_days").at("upkeep_per_year").get<double>(), upkeep, 1e-12);
    const double people = (adoption * 2 + upkeep * 2) * 800;
    EXPECT_NEAR(tier.at("people_dollars").get<double>(), people, 1e-12 * people);
    // The cell: the fewest core-seconds a call at the run's n among the tier's undisturbed cells (all of
    // them when every one was disturbed), its median the run's.
    double core_seconds = std::numeric_limits<double>::infinity(), quiet_core_seconds = core_seconds;
    for (const auto& cell : run.cells)
      if (cell.tier == id && cell.ok() && cell.n == decision.at("n").get<std::int64_t>()) {
        core_seconds = std::min(core_seconds, cell.threads * cell.ranks * cell.median());
        if (!disturbed(cell))
          quiet_core_seconds = std::min(quiet_core_seconds, cell.threads * cell.ranks * cell.median());
      }
    if (std::isfinite(quiet_core_seconds)) core_seconds = quiet_core_seconds;
    EXPECT_EQ(tier.at("only_disturbed").get<bool>(), !std::isfinite(quiet_core_seconds));
    EXPECT_NEAR(tier.at("core_seconds").get<double>(), core_seconds, 1e-15);
    const double compute = core_seconds / 3600 * 0.0425 * 365 * 2;
    EXPECT_NEAR(tier.at("compute_dollars_per_call_a_day").get<double>(), compute, 1e-12 * compute);
    const double total = people + 2e5 * compute;
    EXPECT_NEAR(tier.at("total_dollars").get<double>(), total, 1e-12 * total);
  }
}

TEST(ReportMoney, BadInputsAreRefusedByNameAndNothingIsWrittenOrRun) {
  TempDir dir;
  ASSERT_EQ(run_command("gzip", "-dc " + std::string(LADDER_FIXTURES_DIR) +
                                    "/default_run_results.json.gz > " + (dir / "results.json").string())
                .exit_code,
            0);
  for (const auto& [options, said] : std::vector<std::pair<std::string, std::string>>{
           {"--team-knows openmp,cobol", "--team-knows 'cobol'"},
           {"--horizon 0", "horizon_years"},
           {"--core-hour -1", "core_hour"},
           {"--deadline soon", "--deadline 'soon'"},
           {"--calls-per-day many", "--calls-per-day"},
           {"--calls-per-day 5 --core-hours-per-day 1", "both size the job"},
           {"--core-hours-per-day -1", "--core-hours-per-day -1 is out of range"},
           {"--costs " + (dir / "missing.json").string(), "missing.json"}}) {
    SCOPED_TRACE(options);
    const auto reported = run_command(
        LADDER_BINARY, "report " + dir.str() + " --out " + (dir / "out").string() + " " + options);
    EXPECT_EQ(reported.exit_code, 2) << reported.output;
    EXPECT_NE(reported.output.find(said), std::string::npos) << reported.output;
    EXPECT_FALSE(std::filesystem::exists(dir / "out")) << "a refused report wrote " << (dir / "out").string();
    const auto ran =
        run_command(LADDER_BINARY, "run --no-limits --tiers naive --n 1e3 --reps 1 --no-history --out " +
                                       (dir / "run").string() + " " + options);
    EXPECT_EQ(ran.exit_code, 2) << ran.output;
    EXPECT_NE(ran.output.find(said), std::string::npos) << ran.output;
    EXPECT_FALSE(std::filesystem::exists(dir / "run")) << "a refused run made " << (dir / "run").string();
  }
}

}  // namespace
}  // namespace ladder::report
