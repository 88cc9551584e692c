// The money model (reports/analysis/economics.hpp), each figure recomputed here by hand from the formula the
// header and the README document, on cards and times chosen so that the arithmetic can be followed:
// engineer-days from a card's parts, a tier's line over calls a day, the break-even of two tiers, the usage
// map (the lower envelope) and the costs file's checks.
#include "economics.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "command.hpp"
#include "decision.hpp"
#include "errors.hpp"

namespace ladder::report {
namespace {

CardRecord card(const std::string& id, std::vector<std::string> concepts, std::vector<std::string> libraries,
                std::vector<std::string> flags, const std::string& learning, int lines, int shared) {
  CardRecord made;
  made.id = id;
  made.concepts = std::move(concepts);
  made.libraries = std::move(libraries);
  made.flags = std::move(flags);
  made.learning_time = learning;
  made.source_lines = lines;
  made.shared_lines = shared;
  return made;
}

// Shaped like the ladder's own: a loop, a vectorized library tier, a parallel one.
const CardRecord loop = card("loop", {"loops", "function templates"}, {}, {}, "minutes", 23, 0);
const CardRecord simd =
    card("simd", {"SIMD batch types", "loop remainders"}, {"xsimd 8.1"}, {}, "days", 28, 42);
const CardRecord threads = card("threads", {"SIMD batch types", "OpenMP reductions"},
                                {"xsimd 8.1", "OpenMP (libgomp)"}, {"-fopenmp"}, "days", 37, 42);

TEST(Economics, NameKeysDropVersionsAndParentheses) {
  EXPECT_EQ(name_key("OpenMP (libgomp)"), "openmp");
  EXPECT_EQ(name_key("xsimd 8.1"), "xsimd");
  EXPECT_EQ(name_key("Eigen 3.4"), "eigen");
  EXPECT_EQ(name_key("SIMD batch types"), "simd-batch-types");
  EXPECT_EQ(name_key("Open MPI"), "open-mpi");
  EXPECT_EQ(name_key("std::vector"), "std::vector");
  EXPECT_EQ(knowable_names({loop, simd}), (std::vector<std::string>{"function-templates", "loop-remainders",
                                                                    "loops", "simd-batch-types", "xsimd"}));
}

TEST(Economics, EngineerDaysAreTheSumOfTheDocumentedParts) {
  const CostFigures figures;  // the defaults
  // simd: learning "days" 3 + 2 concepts × 0.25 + 1 library × 0.5 + 0 flags + 70 lines × 0.25/100.
  const EngineerDays days = engineer_days(simd, figures);
  EXPECT_DOUBLE_EQ(days.adoption, 3 + 2 * 0.25 + 0.5 + 0.7 * 0.25);
  // Upkeep: 1 library × 0.5 + 0 flags + 70 lines × 0.25/100, a year.
  EXPECT_DOUBLE_EQ(days.upkeep, 0.5 + 0.7 * 0.25);
  double sum = 0;
  for (const auto& part : days.adoption_parts) sum += part.days;
  EXPECT_DOUBLE_EQ(sum, days.adoption) << "the parts the report prints add up to the figure";
  // threads: the flag counts in both.
  const EngineerDays parallel = engineer_days(threads, figures);
  EXPECT_DOUBLE_EQ(parallel.adoption, 3 + 2 * 0.25 + 2 * 0.5 + 0.25 + 0.79 * 0.25);
  EXPECT_DOUBLE_EQ(parallel.upkeep, 2 * 0.5 + 0.25 + 0.79 * 0.25);
}

TEST(Economics, WhatTheTeamKnowsCostsItNoLearning) {
  CostFigures figures;
  figures.team_knows = {"openmp", "openmp-reductions"};
  const EngineerDays part = engineer_days(threads, figures);
  // One library and one concept known: learning stays (the rest is new), their parts go.
  EXPECT_DOUBLE_EQ(part.adoption, 3 + 1 * 0.25 + 1 * 0.5 + 0.25 + 0.79 * 0.25);
  figures.team_knows = {"openmp", "openmp-reductions", "xsimd", "simd-batch-types"};
  const EngineerDays all = engineer_days(threads, figures);
  // Everything known: only the flag and reading the code are left; upkeep does not change.
  EXPECT_DOUBLE_EQ(all.adoption, 0.25 + 0.79 * 0.25);
  EXPECT_DOUBLE_EQ(all.upkeep, engineer_days(threads, CostFigures{}).upkeep);
}

// The team may name what it knows as `ladder list` prints it ("SIMD batch types", "xsimd 8.1", "OpenMP") or
// by its key (simd-batch-types, xsimd, openmp): the same names, the same days, and the check accepts both.
TEST(Economics, WhatTheTeamKnowsIsTakenAsListPrintsItOrByItsKey) {
  CostFigures keys, printed;
  keys.team_knows = {"openmp", "openmp-reductions", "xsimd", "simd-batch-types"};
  printed.team_knows = {"OpenMP", "OpenMP reductions", "xsimd 8.1", "SIMD batch types"};
  EXPECT_DOUBLE_EQ(engineer_days(threads, printed).adoption, engineer_days(threads, keys).adoption);
  EXPECT_LT(engineer_days(threads, printed).adoption, engineer_days(threads, CostFigures{}).adoption);
  EXPECT_NO_THROW(check_team_knows(printed.team_knows, {threads}));
  EXPECT_NO_THROW(check_team_knows(keys.team_knows, {threads}));
}

TEST(Economics, ATiersLineIsPeopleAndComputeOverTheHorizon) {
  CostFigures figures;
  figures.bus_factor = 2;
  // 2 cores for 20 ms a call.
  const TierMoney money = tier_money(threads, 2, 0.020, figures);
  const EngineerDays days = engineer_days(threads, figures);
  EXPECT_DOUBLE_EQ(money.people, (days.adoption * 2 + days.upkeep * 3) * 800);
  EXPECT_DOUBLE_EQ(money.compute, 2 * 0.020 / 3600 * 0.0425 * 365 * 3);
  EXPECT_DOUBLE_EQ(money.total(1e6), money.people + 1e6 * money.compute);
  // The same core-seconds on one core cost the same compute: threads buy latency, not money.
  EXPECT_DOUBLE_EQ(tier_money(threads, 1, 0.040, figures).compute, money.compute);
}

TEST(Economics, BreakEvenIsWhereTheLinesCross) {
  const CostFigures figures;
  const TierMoney slow = tier_money(loop, 1, 0.004, figures), fast = tier_money(simd, 1, 0.0004, figures);
  const auto at = break_even(fast, slow);
  ASSERT_TRUE(at);
  EXPECT_NEAR(*at, (fast.people - slow.people) / (slow.compute - fast.compute), 1e-9 * *at);
  EXPECT_NEAR(fast.total(*at), slow.total(*at), 1e-9 * slow.total(*at));
  // Slower and dearer: never. Cheaper and faster: from the first call.
  EXPECT_EQ(break_even(slow, fast), std::nullopt);
  EXPECT_EQ(break_even(tier_money(simd, 1, 0.01, figures), slow), std::nullopt);
  EXPECT_EQ(break_even(tier_money(loop, 1, 0.001, figures), slow), 0.0);
}

TEST(Economics, TheUsageMapIsTheLowerEnvelope) {
  const CostFigures figures;
  const std::vector<TierMoney> tiers = {tier_money(loop, 1, 0.004, figures),
                                        tier_money(simd, 1, 0.0004, figures),
                                        tier_money(threads, 2, 0.0003, figures)};
  const auto steps = usage_map(tiers);
  // loop at first, then simd from its break-even; threads holds more core-seconds than simd, so it never
  // becomes the cheapest.
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].tier, "loop");
  EXPECT_EQ(steps[0].from, 0);
  EXPECT_EQ(steps[1].tier, "simd");
  EXPECT_NEAR(steps[1].from, *break_even(tiers[1], tiers[0]), 1e-9 * steps[1].from);
  EXPECT_EQ(steps[1].to, std::numeric_limits<double>::infinity());
  // At every usage, the step's tier is the cheapest (checked on a grid, independently of the envelope).
  for (double calls = 1; calls < 1e12; calls *= 3.7) {
    const auto step = std::find_if(steps.begin(), steps.end(), [&](const auto& s) { return calls < s.to; });
    for (const auto& tier : tiers)
      EXPECT_LE(std::find_if(tiers.begin(), tiers.end(), [&](const auto& t) { return t.tier == step->tier; })
                    ->total(calls),
                tier.total(calls) * (1 + 1e-12))
          << calls << " calls a day: " << tier.tier << " is cheaper than " << step->tier;
  }
}

// What read_cost_figures says of a costs file of this text at `path` (its name says TOML or JSON):
// "accepted", or the InputError's message.
std::string refusal_of(const std::filesystem::path& path, const std::string& text) {
  ladder::testing::write_text(path, text);
  try {
    read_cost_figures(path.string());
  } catch (const InputError& error) {
    return error.what();
  }
  return "accepted";
}

TEST(Economics, BadFiguresAndUnknownNamesAreRefusedNamingTheValue) {
  ladder::testing::TempDir dir;
  const auto message_of = [&](const std::string& json) { return refusal_of(dir / "costs.json", json); };
  EXPECT_EQ(
      message_of(R"({"core_hour": 0.01, "horizon_years": 5, "team_knows": ["xsimd"], "bus_factor": 2})"),
      "accepted");
  EXPECT_NE(message_of(R"({"core_hour": -1})").find("core_hour = -1 is out of range"), std::string::npos);
  EXPECT_NE(message_of(R"({"horizon_years": 0})").find("a number of years above 0"), std::string::npos);
  EXPECT_NE(message_of(R"({"engineer_day": "800"})").find("engineer_day is \"800\"; it must be a number"),
            std::string::npos);
  const std::string unknown = message_of(R"({"core_hours": 1})");
  EXPECT_NE(unknown.find("'core_hours' is not a cost figure; accepted: "), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("core_hour,"), std::string::npos) << unknown;
  EXPECT_NE(message_of("[1]").find("is not a JSON object"), std::string::npos);
  EXPECT_NE(message_of(R"({"bus_factor": 0})").find("at least 1"), std::string::npos);
  try {
    check_team_knows({"xsimd", "cobol"}, {loop, simd});
    ADD_FAILURE() << "cobol accepted";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("'cobol' is no concept or library"), std::string::npos);
    EXPECT_NE(std::string(error.what()).find("simd-batch-types"), std::string::npos) << "the accepted ones";
  }
}

// A costs file named *.toml is TOML (toml++): the same figures as the same JSON, and the same refusals, a
// TOML syntax error with its line and column.
TEST(Economics, ATomlCostsFileGivesTheSameFiguresAndRefusalsAsJson) {
  ladder::testing::TempDir dir;
  ladder::testing::write_text(dir / "costs.toml",
                              "# a team's own prices\ncore_hour = 0.01\nhorizon_years = 5\nbus_factor = 2\n"
                              "team_knows = [\"xsimd\", \"openmp\"]\nlearning_days = 4\n");
  ladder::testing::write_text(dir / "costs.json",
                              R"({"core_hour": 0.01, "horizon_years": 5, "bus_factor": 2, )"
                              R"("team_knows": ["xsimd", "openmp"], "learning_days": 4})");
  const CostFigures toml = read_cost_figures((dir / "costs.toml").string()),
                    json = read_cost_figures((dir / "costs.json").string());
  EXPECT_EQ(toml.core_hour, 0.01);
  EXPECT_EQ(toml.horizon_years, 5);
  EXPECT_EQ(toml.bus_factor, 2);
  EXPECT_EQ(toml.learning_days, 4);
  EXPECT_EQ(toml.team_knows, (std::vector<std::string>{"xsimd", "openmp"}));
  EXPECT_EQ(toml.engineer_day, CostFigures{}.engineer_day) << "what the file does not name keeps its default";
  EXPECT_EQ(json.core_hour, toml.core_hour);
  EXPECT_EQ(json.horizon_years, toml.horizon_years);
  EXPECT_EQ(json.bus_factor, toml.bus_factor);
  EXPECT_EQ(json.team_knows, toml.team_knows);
  // simd's days with xsimd known and days to learn at 4: the library costs nothing to adopt.
  EXPECT_DOUBLE_EQ(engineer_days(simd, toml).adoption, engineer_days(simd, json).adoption);
  EXPECT_DOUBLE_EQ(engineer_days(simd, toml).adoption, 4 + 2 * 0.25 + 0.7 * 0.25);
  const auto message_of = [&](const std::string& text) { return refusal_of(dir / "bad.toml", text); };
  EXPECT_NE(message_of("core_hour = -1\n").find("core_hour = -1 is out of range"), std::string::npos);
  EXPECT_NE(message_of("engineer_day = \"800\"\n").find("engineer_day is \"800\"; it must be a number"),
            std::string::npos);
  EXPECT_NE(message_of("bus_factor = 1.5\n").find("bus_factor is 1.5; it must be a whole number"),
            std::string::npos);
  EXPECT_NE(message_of("core_hours = 1\n").find("'core_hours' is not a cost figure; accepted: "),
            std::string::npos);
  const std::string syntax = message_of("core_hour = 0.01\nengineer_day =\n");
  EXPECT_NE(syntax.find("is not TOML: "), std::string::npos) << syntax;
  EXPECT_NE(syntax.find("(line 2, column"), std::string::npos) << syntax;
}

// The default run of this project's 2-core VM (a fixture), decided with the default figures: the usage map
// is the cheapest tier at every usage, break-even is where each tier's line crosses the current rung's, and
// the latency answers meet their deadline at the fewest engineer-days.
TEST(Decision, OnTheDefaultRunFixture) {
  ladder::testing::TempDir dir;
  const auto unpacked = ladder::testing::run_command("gzip", "-dc " + std::string(LADDER_FIXTURES_DIR) +
                                                                 "/default_run_results.json.gz > " +
                                                                 (dir / "results.json").string());
  ASSERT_EQ(unpacked.exit_code, 0) << unpacked.output;
  const report::Run run = load_run(dir.str());
  const std::int64_t n = 1'000'000;
  Usage usage;
  usage.current = "std-algorithms";
  const Decision decision = decide(run, n, "gauss", CostFigures{}, usage);
  ASSERT_GE(decision.tiers.size(), 10u);
  ASSERT_FALSE(decision.usage_map.empty());
  EXPECT_EQ(decision.usage_map.front().from, 0);
  for (std::size_t i = 1; i < decision.usage_map.size(); ++i)
    EXPECT_EQ(decision.usage_map[i].from, decision.usage_map[i - 1].to) << "steps meet";
  std::printf("usage map at n = 1e6:");
  for (const auto& step : decision.usage_map)
    std::printf(" %s from %.3g;", step_tiers_text(step).c_str(), step.from);
  std::printf("\n");
  // At every usage the step's tier is the cheapest there within the noise: a tier cheaper at the medians is
  // one of the step's tiers (shown "≈"), and the step's tier at its least compute costs no more than any
  // tier at its most.
  for (double calls = 10; calls < 1e13; calls *= 10) {
    const auto step = std::find_if(decision.usage_map.begin(), decision.usage_map.end(),
                                   [&](const auto& s) { return calls < s.to; });
    const TierMoney& stepped = decision.tier(step->tier)->money;
    for (const auto& each : decision.tiers) {
      if (each.money.total(calls) < stepped.total(calls) * (1 - 1e-12)) {
        EXPECT_NE(std::find(step->tiers.begin(), step->tiers.end(), each.card->id), step->tiers.end())
            << calls << ": " << each.card->id << " is cheaper than " << step->tier
            << " and not within its step";
      }
      EXPECT_LE(stepped.people + calls * stepped.compute_low,
                (each.money.people + calls * each.money.compute_high) * (1 + 1e-12))
          << calls << ": " << each.card->id;
    }
  }
  // The default run's two thriftiest lines at n = 1e6, tuned-exp and openmp-tuned on one thread, hold 346
  // and 343 µs of core time a call, 0.6 % apart, within the documented 5 %: their step is one, "≈", and
  // goes to tuned-exp, the cheaper to keep, though openmp-tuned's median is the lower.
  const UsageStep& last = decision.usage_map.back();
  EXPECT_EQ(last.tier, "tuned-exp");
  EXPECT_EQ(last.tiers, (std::vector<std::string>{"tuned-exp", "openmp-tuned"}));
  EXPECT_LT(decision.tier("openmp-tuned")->money.compute, decision.tier("tuned-exp")->money.compute);
  EXPECT_LE(last.from_range.low, last.from);
  EXPECT_GE(last.from_range.high, last.from);
  const TierChoice* current = decision.tier("std-algorithms");
  ASSERT_NE(current, nullptr);
  for (const auto& each : decision.tiers) {
    // Recomputed from the cell: cores held × median wall time, the documented prices, 365 days, 3 years.
    const double core_seconds = each.thrifty->threads * each.thrifty->ranks * each.thrifty->median();
    EXPECT_DOUBLE_EQ(each.money.compute, core_seconds / 3600 * 0.0425 * 365 * 3) << each.card->id;
    if (each.pays_from && *each.pays_from > 0) {
      EXPECT_NEAR(each.money.total(*each.pays_from), current->money.total(*each.pays_from),
                  1e-9 * current->money.total(*each.pays_from))
          << each.card->id;
      std::printf("%s pays from %.3g calls a day against std-algorithms\n", each.card->id.c_str(),
                  *each.pays_from);
    } else {
      std::printf("%s: %s\n", each.card->id.c_str(),
                  each.pays_from ? "pays from the first call" : "never pays");
    }
  }
  // A deadline: the chosen tier meets it, and none that meets it costs fewer days.
  usage.deadline_seconds = 0.030;
  const Decision latency = decide(run, n, "gauss", CostFigures{}, usage);
  ASSERT_TRUE(latency.latency_tier) << latency.latency_why;
  const TierChoice* chosen = latency.tier(*latency.latency_tier);
  EXPECT_LE(chosen->fastest->median(), 0.030);
  for (const auto& each : latency.tiers) {
    if (each.fastest->median() <= 0.030) {
      EXPECT_GE(each.days_over_horizon, chosen->days_over_horizon) << each.card->id;
    }
  }
  std::printf("deadline 30 ms: %s, %s\n", latency.latency_tier->c_str(), latency.latency_why.c_str());
  // With calls a day, one tier: the lowest total there.
  usage.calls_per_day = 1e6;
  CostFigures knows;
  knows.team_knows = {"openmp"};
  const Decision money = decide(run, n, "gauss", knows, usage);
  ASSERT_TRUE(money.money_tier);
  for (const auto& each : money.tiers)
    EXPECT_LE(money.tier(*money.money_tier)->money.total(1e6), each.money.total(1e6) * (1 + 1e-12));
  std::printf("1e6 calls a day, the team knows openmp: %s\n", money.money_tier->c_str());
  // A deadline nothing meets says so.
  usage.deadline_seconds = 1e-9;
  const Decision none = decide(run, n, "gauss", CostFigures{}, usage);
  EXPECT_FALSE(none.latency_tier);
  EXPECT_NE(none.latency_why.find("no tier meets"), std::string::npos) << none.latency_why;
  usage.current = "no-such-tier";
  EXPECT_THROW(decide(run, n, "gauss", CostFigures{}, usage), InputError);
}

}  // namespace
}  // namespace ladder::report

namespace ladder::report {
namespace {

// `ladder pick --json` on the default-run fixture: every tier's figures recomputed here from the
// documented formula and the cells' medians, and the options' bad values refused by name.
TEST(PickJson, EveryTiersFiguresFollowFromTheFormula) {
  ladder::testing::TempDir dir;
  ASSERT_EQ(ladder::testing::run_command("gzip", "-dc " + std::string(LADDER_FIXTURES_DIR) +
                                                     "/default_run_results.json.gz > " +
                                                     (dir / "results.json").string())
                .exit_code,
            0);
  const auto picked = ladder::testing::run_command(
      LADDER_BINARY, "pick " + dir.str() +
                         " --json --n 1e6 --current std-algorithms --calls-per-day 1e6 --team-knows openmp "
                         "--core-hour 0.05 --engineer-day 1000 --horizon 2 --bus-factor 2");
  ASSERT_EQ(picked.exit_code, 0) << picked.output;
  const nlohmann::json answer = nlohmann::json::parse(picked.output);
  const report::Run run = load_run(dir.str());
  const nlohmann::json* current = nullptr;
  for (const auto& tier : answer.at("tiers"))
    if (tier.at("tier") == "std-algorithms") current = &tier;
  ASSERT_NE(current, nullptr);
  for (const auto& tier : answer.at("tiers")) {
    const std::string id = tier.at("tier");
    SCOPED_TRACE(id);
    // The cell it names is the run's, and holds the fewest core-seconds of the tier's cells at n.
    const CellResult* cell = nullptr;
    for (const auto& each : run.cells)
      if (each.tier == id && each.n == 1'000'000 && each.ok() && each.threads == tier.at("threads") &&
          each.ranks == tier.at("ranks"))
        cell = &each;
    ASSERT_NE(cell, nullptr);
    EXPECT_DOUBLE_EQ(tier.at("wall_seconds").get<double>(), cell->median());
    const double core_seconds = cell->threads * cell->ranks * cell->median();
    EXPECT_DOUBLE_EQ(tier.at("compute_dollars_per_call_a_day").get<double>(),
                     core_seconds / 3600 * 0.05 * 365 * 2);
    const double adoption = tier.at("engineer_days").at("adoption"),
                 upkeep = tier.at("engineer_days").at("upkeep_per_year");
    EXPECT_DOUBLE_EQ(tier.at("people_dollars").get<double>(), (adoption * 2 + upkeep * 2) * 1000);
    EXPECT_DOUBLE_EQ(tier.at("total_dollars").get<double>(),
                     tier.at("people_dollars").get<double>() +
                         1e6 * tier.at("compute_dollars_per_call_a_day").get<double>());
    const double slope = tier.at("compute_dollars_per_call_a_day"),
                 base = current->at("compute_dollars_per_call_a_day");
    const double people = tier.at("people_dollars"), base_people = current->at("people_dollars");
    const nlohmann::json& pays = tier.at("pays_from_calls_a_day");
    if (pays.is_null()) {
      EXPECT_GE(slope, base) << "never pays: it holds as many core-seconds a call or more";
    } else if (pays.get<double>() > 0) {
      EXPECT_NEAR(pays.get<double>(), (people - base_people) / (base - slope), 1e-9 * pays.get<double>());
    } else {
      EXPECT_LE(people, base_people) << "pays from the first call: no dearer in people";
      EXPECT_LE(slope, base);
    }
  }
  // The money tier is the lowest total at 1e6 calls a day.
  double lowest = std::numeric_limits<double>::infinity();
  std::string cheapest;
  for (const auto& tier : answer.at("tiers"))
    if (tier.at("total_dollars").get<double>() < lowest) {
      lowest = tier.at("total_dollars");
      cheapest = tier.at("tier");
    }
  EXPECT_EQ(answer.at("money_tier"), cheapest);

  for (const auto& [option, expected] : std::vector<std::pair<std::string, std::string>>{
           {"--team-knows cobol", "'cobol' is no concept or library"},
           {"--deadline 30", "--deadline '30' is not a wall time"},
           {"--horizon 0", "horizon_years = 0 is out of range"},
           {"--core-hour -1", "core_hour = -1 is out of range"},
           {"--core-hour cheap", "cheap"},
           {"--calls-per-day -5", "--calls-per-day -5 is out of range"},
           {"--current nowhere", "--current 'nowhere' has no measured cell"}}) {
    const auto refused =
        ladder::testing::run_command(LADDER_BINARY, "pick " + dir.str() + " --json " + option);
    EXPECT_EQ(refused.exit_code, 2) << option << ": " << refused.output;
    EXPECT_NE(refused.output.find(expected), std::string::npos) << option << ": " << refused.output;
  }
}

}  // namespace
}  // namespace ladder::report
