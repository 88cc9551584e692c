#include "decision.hpp"

#include <algorithm>

#include "errors.hpp"
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
  decision.current = usage.current.empty() ? decision.tiers.front().card->id : usage.current;
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
  if (usage.calls_per_day)
    for (const auto& step : decision.usage_map)
      if (*usage.calls_per_day < step.to) {
        decision.money_tier = step.tier;
        break;
      }
  // Latency: the fewest days among the tiers that meet the deadline (ties: the faster); without one, the
  // fastest.
  const TierChoice* chosen = nullptr;
  for (const auto& each : decision.tiers) {
    const double wall = each.fastest->median();
    if (usage.deadline_seconds && wall > *usage.deadline_seconds) continue;
    const bool better =
        !chosen || (usage.deadline_seconds ? each.days_over_horizon < chosen->days_over_horizon ||
                                                 (each.days_over_horizon == chosen->days_over_horizon &&
                                                  wall < chosen->fastest->median())
                                           : wall < chosen->fastest->median());
    if (better) chosen = &each;
  }
  if (chosen) {
    decision.latency_tier = chosen->card->id;
    decision.latency_why =
        usage.deadline_seconds
            ? "the tier that meets " + format_seconds(*usage.deadline_seconds) + " a call (" +
                  format_seconds(chosen->fastest->median()) + ") at the fewest engineer-days (" +
                  format_number("%.1f", chosen->days_over_horizon) + " over " +
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

}  // namespace ladder::report
