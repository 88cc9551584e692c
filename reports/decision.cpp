#include "decision.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

#include "errors.hpp"
#include "optional_json.hpp"
#include "text.hpp"

namespace ladder::report {

const TierChoice* Decision::tier(const std::string& id) const {
  for (const auto& each : tiers)
    if (each.card->id == id) return &each;
  return nullptr;
}

Decision decide(const Run& run, std::int64_t n, const std::string& integrand, const CostFigures& figures,
                const Usage& usage) {
  check_cost_figures(figures);
  Decision decision{n, integrand, figures, usage, {}, "", {}, {}, {}, ""};
  for (const Card* card : run.cards_by_rung()) {
    if (card->peer) continue;
    TierChoice choice;
    choice.card = card;
    for (const auto& cell : run.cells) {
      if (cell.tier != card->id || cell.n != n || cell.integrand != integrand || !cell.ok()) continue;
      const auto core_seconds = [](const CellResult* c) { return c->threads * c->ranks * c->median(); };
      if (!choice.thrifty || core_seconds(&cell) < core_seconds(choice.thrifty)) choice.thrifty = &cell;
      if (!choice.fastest || cell.median() < choice.fastest->median()) choice.fastest = &cell;
    }
    if (!choice.thrifty) continue;
    choice.money =
        tier_money(*card, choice.thrifty->threads * choice.thrifty->ranks, choice.thrifty->median(), figures);
    choice.days_over_horizon =
        choice.money.days.adoption * figures.bus_factor + choice.money.days.upkeep * figures.horizon_years;
    decision.tiers.push_back(choice);
  }
  if (decision.tiers.empty()) return decision;
  // Break-even against the team's rung, else the report's current rung (current_rung_rule), else the
  // lowest rung measured.
  decision.current = usage.current;
  if (decision.current.empty()) {
    const Analysis analysis = analyse(run, n);
    const Row* rung = current_rung(analysis);
    decision.current = rung ? rung->card->id : decision.tiers.front().card->id;
  }
  const TierChoice* current = decision.tier(decision.current);
  if (!current) {
    std::vector<std::string> measured;
    for (const auto& each : decision.tiers) measured.push_back(each.card->id);
    throw InputError("--current '" + decision.current + "' has no measured cell at n = " + std::to_string(n) +
                     "; measured: " + join(measured));
  }
  std::vector<TierMoney> lines;
  for (auto& each : decision.tiers) {
    each.pays_from = break_even(each.money, current->money);
    lines.push_back(each.money);
  }
  decision.usage_map = usage_map(lines);
  if (usage.core_hours_per_day && !usage.calls_per_day)
    decision.usage.calls_per_day = *usage.core_hours_per_day * 3600 / current->money.core_seconds();
  if (decision.usage.calls_per_day)
    for (const auto& step : decision.usage_map)
      if (*decision.usage.calls_per_day < step.to) {
        decision.money_tier = step.tier;
        break;
      }
  // Latency: the fewest days among the tiers that meet the deadline (ties: the faster); without one, the
  // fastest.
  const auto preferred = [&](const TierChoice& x, const TierChoice& y) {
    if (usage.deadline_seconds && x.days_over_horizon != y.days_over_horizon)
      return x.days_over_horizon < y.days_over_horizon;
    return x.fastest->median() < y.fastest->median();
  };
  const TierChoice* chosen = nullptr;
  for (const auto& each : decision.tiers) {
    if (usage.deadline_seconds && each.fastest->median() > *usage.deadline_seconds) continue;
    if (!chosen || preferred(each, *chosen)) chosen = &each;
  }
  if (chosen) {
    decision.latency_tier = chosen->card->id;
    decision.latency_why =
        usage.deadline_seconds
            ? "the tier that meets " + format_seconds(*usage.deadline_seconds) + " a call (" +
                  format_seconds(chosen->fastest->median()) + ") at the fewest engineer-days (" +
                  format_amount(chosen->days_over_horizon, 1) + " over " +
                  format_number("%g", figures.horizon_years) + " years)"
            : "the fastest tier (" + format_seconds(chosen->fastest->median()) + " a call)";
  } else {
    const auto fastest = std::min_element(
        decision.tiers.begin(), decision.tiers.end(),
        [](const auto& x, const auto& y) { return x.fastest->median() < y.fastest->median(); });
    decision.latency_why = "no tier meets " + format_seconds(*usage.deadline_seconds) +
                           " a call at n = " + std::to_string(n) + ": the fastest, " + fastest->card->id +
                           ", takes " + format_seconds(fastest->fastest->median());
  }
  return decision;
}

double parse_deadline(const std::string& text) {
  static const std::vector<std::pair<std::string, double>> units = {
      {"ns", 1e-9}, {"us", 1e-6}, {"\u00b5s", 1e-6}, {"ms", 1e-3}, {"s", 1}};
  for (const auto& [unit, scale] : units) {
    if (text.size() <= unit.size() || text.compare(text.size() - unit.size(), unit.size(), unit) != 0)
      continue;
    const std::string number = text.substr(0, text.size() - unit.size());
    char* end = nullptr;
    const double value = std::strtod(number.c_str(), &end);
    if (end == number.c_str() + number.size() && !number.empty() && value > 0 && std::isfinite(value))
      return value * scale;
    break;
  }
  throw InputError("--deadline '" + text +
                   "' is not a wall time; give a positive number and its unit: 30ms, 0.5s, 250us, 800ns");
}

std::string calls_text(double calls) {
  if (!std::isfinite(calls)) return "without end";
  if (calls < 1) return "0";
  if (calls < 1e4) return format_number("%.0f", calls);
  if (calls >= 1e15) return format_amount(calls);  // "1e+308", not "1e+296 trillion"
  static const std::pair<double, const char*> scales[] = {
      {1e12, "trillion"}, {1e9, "billion"}, {1e6, "million"}, {1e3, "thousand"}};
  for (const auto& [scale, word] : scales)
    if (calls >= scale) return format_number("%.3g", calls / scale) + " " + word;
  return format_number("%.0f", calls);
}

void print_decision(const Decision& decision) {
  const CostFigures& f = decision.figures;
  std::printf(
      "\nmoney and latency at n = %lld (%s): a core-hour $%g, an engineer-day $%g, %g years, bus factor "
      "%d%s\n",
      static_cast<long long>(decision.n), decision.integrand.c_str(), f.core_hour, f.engineer_day,
      f.horizon_years, f.bus_factor,
      f.team_knows.empty() ? "" : (", the team knows " + join(f.team_knows)).c_str());
  if (decision.tiers.empty()) {
    std::printf("  no C++ tier was measured at this n\n");
    return;
  }
  std::printf("usage map (the cheapest tier over %g years, by calls a day):\n", f.horizon_years);
  for (const auto& step : decision.usage_map)
    if (std::isfinite(step.to))
      std::printf("  %s to %s calls a day: %s\n", calls_text(step.from).c_str(), calls_text(step.to).c_str(),
                  step.tier.c_str());
    else
      std::printf("  from %s calls a day: %s\n", calls_text(step.from).c_str(), step.tier.c_str());
  if (decision.money_tier)
    std::printf("for %s calls a day: %s, $%s over %g years\n",
                calls_text(*decision.usage.calls_per_day).c_str(), decision.money_tier->c_str(),
                format_amount(decision.tier(*decision.money_tier)->money.total(*decision.usage.calls_per_day))
                    .c_str(),
                f.horizon_years);
  std::printf("latency: %s\n", decision.latency_tier
                                   ? (*decision.latency_tier + ", " + decision.latency_why).c_str()
                                   : decision.latency_why.c_str());
  std::printf("  %-16s %9s %9s %11s %12s  %s\n", "tier", "adopt d", "upkeep d", "core-s/call", "$ people",
              ("pays against " + decision.current + " from").c_str());
  for (const auto& each : decision.tiers)
    std::printf("  %-16s %9s %9s %11.3g %12s  %s\n", each.card->id.c_str(),
                format_amount(each.money.days.adoption, 2).c_str(),
                format_amount(each.money.days.upkeep, 2).c_str(), each.money.core_seconds(),
                format_amount(each.money.people).c_str(),
                each.card->id == decision.current ? "(the current rung)"
                : each.pays_from                  ? (calls_text(*each.pays_from) + " calls a day").c_str()
                                                  : "never (it holds as many core-seconds a call or more)");
}

nlohmann::json decision_json(const Decision& decision) {
  const CostFigures& f = decision.figures;
  nlohmann::json tiers = nlohmann::json::array();
  for (const auto& each : decision.tiers) {
    const auto& money = each.money;
    nlohmann::json entry = {{"tier", each.card->id},
                            {"threads", each.thrifty->threads},
                            {"ranks", each.thrifty->ranks},
                            {"cores", money.cores},
                            {"wall_seconds", money.wall_seconds},
                            {"core_seconds", money.core_seconds()},
                            {"fastest_wall_seconds", each.fastest->median()},
                            {"engineer_days", money.days},
                            {"adoption_dollars", money.days.adoption * f.bus_factor * f.engineer_day},
                            {"upkeep_dollars_a_year", money.days.upkeep * f.engineer_day},
                            {"compute_dollars_a_year_per_call_a_day", money.compute / f.horizon_years},
                            {"people_dollars", money.people},
                            {"compute_dollars_per_call_a_day", money.compute},
                            {"pays_from_calls_a_day", optional_json(each.pays_from)}};
    if (decision.usage.calls_per_day) entry["total_dollars"] = money.total(*decision.usage.calls_per_day);
    tiers.push_back(std::move(entry));
  }
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& step : decision.usage_map)
    steps.push_back(
        {{"tier", step.tier},
         {"from_calls_a_day", step.from},
         {"to_calls_a_day", std::isfinite(step.to) ? nlohmann::json(step.to) : nlohmann::json()}});
  return {{"n", decision.n},
          {"integrand", decision.integrand},
          {"figures",
           {{"core_hour", f.core_hour},
            {"engineer_day", f.engineer_day},
            {"horizon_years", f.horizon_years},
            {"bus_factor", f.bus_factor},
            {"team_knows", f.team_knows}}},
          {"calls_per_day", optional_json(decision.usage.calls_per_day)},
          {"core_hours_per_day", optional_json(decision.usage.core_hours_per_day)},
          {"deadline_seconds", optional_json(decision.usage.deadline_seconds)},
          {"current", decision.current},
          {"usage_map", steps},
          {"money_tier", optional_json(decision.money_tier)},
          {"latency_tier", optional_json(decision.latency_tier)},
          {"latency_why", decision.latency_why},
          {"tiers", tiers}};
}

}  // namespace ladder::report
