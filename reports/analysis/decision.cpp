#include "decision.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "disturbance.hpp"
#include "errors.hpp"
#include "text.hpp"

namespace ladder::report {

const TierChoice* Decision::tier(const std::string& id) const {
  for (const auto& each : tiers)
    if (each.card->id == id) return &each;
  return nullptr;
}

namespace {

double core_seconds(const CellResult& cell) { return cell.threads * cell.ranks * cell.median(); }

// The cell with the least `figure`; equal figures go to the fewer cores, then the name, so that the choice
// never depends on the order a results file lists its cells in.
template <class Figure>
const CellResult* least(const std::vector<const CellResult*>& cells, Figure figure) {
  const auto before = [&](const CellResult* x, const CellResult* y) {
    if (figure(*x) != figure(*y)) return figure(*x) < figure(*y);
    if (x->threads * x->ranks != y->threads * y->ranks) return x->threads * x->ranks < y->threads * y->ranks;
    return x->name < y->name;
  };
  return *std::min_element(cells.begin(), cells.end(), before);
}

// A tier's thrifty and fastest cells at n: among its undisturbed cells (or pooled over several runs), or,
// where every cell was disturbed, among those, saying why. Empty when it has no measured cell there.
std::optional<TierChoice> choose_cells(const Run& run, const Card& card, std::int64_t n,
                                       const std::string& integrand, const CostFigures& figures) {
  std::vector<const CellResult*> every, quiet;
  for (const auto& cell : run.cells) {
    if (cell.tier != card.id || cell.n != n || cell.integrand != integrand || !cell.ok()) continue;
    every.push_back(&cell);
    // A cell pooled with other runs of this build here is decided by them all, not by one disturbed run.
    if (!disturbed(cell) || cell_interval(run, cell).runs > 1) quiet.push_back(&cell);
  }
  if (every.empty()) return std::nullopt;
  const std::vector<const CellResult*>& pool = quiet.empty() ? every : quiet;
  TierChoice choice;
  choice.card = &card;
  choice.thrifty = least(pool, core_seconds);
  choice.fastest = least(pool, [](const CellResult& cell) { return cell.median(); });
  choice.thrifty_interval = cell_interval(run, *choice.thrifty);
  choice.fastest_interval = cell_interval(run, *choice.fastest);
  if (quiet.empty())
    for (const CellResult* cell : {choice.fastest, choice.thrifty})
      for (const auto& reason : disturbance(*cell))
        if (std::find(choice.disturbed.begin(), choice.disturbed.end(), reason) == choice.disturbed.end())
          choice.disturbed.push_back(reason);
  const int cores = choice.thrifty->threads * choice.thrifty->ranks;
  // The interval's median: the run's own, or the median over the runs it pools.
  choice.money = tier_money(card, cores, choice.thrifty_interval.median, figures);
  set_compute_range(choice.money, choice.thrifty_interval.low, choice.thrifty_interval.high, figures);
  choice.days_over_horizon =
      choice.money.days.adoption * figures.bus_factor + choice.money.days.upkeep * figures.horizon_years;
  return choice;
}

// "; its cells were all disturbed (1.01 cores of other load)": what an answer naming such a tier adds.
std::string disturbed_note(const TierChoice& choice) {
  return choice.only_disturbed() ? "; its cells were all disturbed (" + join(choice.disturbed) +
                                       "): its figure is theirs, measured again or not"
                                 : "";
}

// Without a deadline: the fastest within the noise, a tie broken by the cost to keep, tiers measured only
// while disturbed kept out as the report's answer keeps them (choose_within_noise): not decided when one
// of them might be the fastest.
void fastest_for_latency(Decision& decision) {
  std::vector<Contender> contenders;
  for (const auto& each : decision.tiers)
    contenders.push_back({each.card, each.fastest_interval, each.disturbed});
  const Choice choice = choose_within_noise(contenders);
  if (!choice.undecided.empty()) {
    decision.latency_why = choice.undecided;
    return;
  }
  const TierChoice& chosen = decision.tiers[choice.chosen];
  decision.latency_tier = chosen.card->id;
  const std::string note = choice.note.empty() ? "" : "; " + choice.note;
  if (choice.tie.tied.size() < 2) {
    decision.latency_why = "the fastest tier (" + interval_text(chosen.fastest_interval) + " a call)" + note;
    return;
  }
  for (const std::size_t i : choice.tie.tied) decision.latency_tied.push_back(decision.tiers[i].card->id);
  decision.latency_tie_break = choice.tie.why;
  decision.latency_why = "the fastest tier within the noise (" + interval_text(chosen.fastest_interval) +
                         " a call): " + choice.tie.why + note;
}

// Under a deadline: of the tiers whose median meets it, the fewest engineer-days over the horizon (then
// the faster, then the cheaper to keep). A tier whose interval holds the deadline meets it, or misses it,
// within the noise, and the answer says so.
void meet_deadline(Decision& decision, double deadline) {
  const TierChoice* chosen = nullptr;
  const auto preferred = [](const TierChoice& x, const TierChoice& y) {
    if (x.days_over_horizon != y.days_over_horizon) return x.days_over_horizon < y.days_over_horizon;
    if (x.fastest_interval.median != y.fastest_interval.median)
      return x.fastest_interval.median < y.fastest_interval.median;
    return cheaper_to_keep(*x.card, *y.card);
  };
  const auto within_noise = [&](const TierChoice& each) {
    return each.fastest_interval.low <= deadline && deadline <= each.fastest_interval.high;
  };
  for (const auto& each : decision.tiers) {
    if (within_noise(each)) decision.deadline_within_noise.push_back(each.card->id);
    if (each.fastest_interval.median > deadline) continue;
    if (!chosen || preferred(each, *chosen)) chosen = &each;
  }
  const std::string wall = format_seconds(deadline);
  if (chosen) {
    decision.latency_tier = chosen->card->id;
    decision.latency_why =
        "the tier that meets " + wall + " a call" + (within_noise(*chosen) ? " within the noise" : "") +
        " (" + interval_text(chosen->fastest_interval) + ") at the fewest engineer-days (" +
        format_amount(chosen->days_over_horizon, 1) + " over " +
        format_number("%g", decision.figures.horizon_years) + " years)" + disturbed_note(*chosen);
    return;
  }
  const auto fastest = std::min_element(decision.tiers.begin(), decision.tiers.end(),
                                        [](const TierChoice& x, const TierChoice& y) {
                                          if (x.fastest_interval.median != y.fastest_interval.median)
                                            return x.fastest_interval.median < y.fastest_interval.median;
                                          return cheaper_to_keep(*x.card, *y.card);
                                        });
  decision.latency_why = "no tier meets " + wall + " a call at n = " + std::to_string(decision.n) +
                         ": the fastest, " + fastest->card->id + ", takes " +
                         interval_text(fastest->fastest_interval) +
                         (within_noise(*fastest) ? ", which holds " + wall + " within the noise" : "") +
                         disturbed_note(*fastest);
}

}  // namespace

Decision decide(const Run& run, std::int64_t n, const std::string& integrand, const CostFigures& figures,
                const Usage& usage) {
  check_cost_figures(figures);
  Decision decision;
  decision.n = n;
  decision.integrand = integrand;
  decision.figures = figures;
  decision.usage = usage;
  for (const Card* card : run.cards_by_rung())
    if (!card->peer)
      if (auto choice = choose_cells(run, *card, n, integrand, figures)) decision.tiers.push_back(*choice);
  if (decision.tiers.empty()) return decision;
  // Break-even against the team's rung, else the report's current rung (current_rung_rule), else the
  // lowest rung measured.
  decision.current = usage.current;
  if (decision.current.empty()) {
    const Analysis analysis = analyse(run, n);
    const Decided rung = current_rung_choice(analysis);
    decision.current = rung.row ? rung.row->card->id : decision.tiers.front().card->id;
    if (!rung.row)  // never silently: the break-evens are then against another rung than the rule's
      decision.current_why = "the likely current rung: " +
                             (rung.undecided.empty() ? std::string("was not measured") : rung.undecided) +
                             "; break-evens are against the lowest rung measured, " + decision.current;
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
    each.pays_from_range = break_even_range(each.money, current->money);
    lines.push_back(each.money);
  }
  // A step the noise decides goes to the tier cheaper to keep, as every tie does.
  decision.usage_map = usage_map(lines, [&](const std::string& x, const std::string& y) {
    return cheaper_to_keep(*decision.tier(x)->card, *decision.tier(y)->card);
  });
  if (usage.core_hours_per_day && !usage.calls_per_day)
    decision.usage.calls_per_day = *usage.core_hours_per_day * 3600 / current->money.core_seconds();
  if (decision.usage.calls_per_day)
    for (const auto& step : decision.usage_map)
      if (*decision.usage.calls_per_day < step.to) {
        decision.money_tier = step.tier;
        break;
      }
  if (usage.deadline_seconds)
    meet_deadline(decision, *usage.deadline_seconds);
  else
    fastest_for_latency(decision);
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

std::string calls_range_text(const CallsRange& range) {
  return calls_text(range.low) + "–" + calls_text(range.high);
}

std::string step_tiers_text(const UsageStep& step) {
  return step.tiers.empty() ? step.tier : join(step.tiers, " ≈ ");
}

std::string interval_text(const CellInterval& interval) {
  std::string low = format_seconds(interval.low);
  const std::string high = format_seconds(interval.high);
  // "11.9–12.8 ms", the unit once where both ends share it.
  const auto unit = [](const std::string& text) {
    const auto space = text.rfind(' ');
    return space == std::string::npos ? std::string() : text.substr(space);
  };
  if (!unit(low).empty() && unit(low) == unit(high)) low.erase(low.size() - unit(low).size());
  return format_seconds(interval.median) + " (" + low + "–" + high + ")";
}

std::string noise_text(const Decision& decision) {
  std::vector<const Threshold*> noises;
  for (const auto& each : decision.tiers)
    for (const CellInterval* interval : {&each.thrifty_interval, &each.fastest_interval})
      noises.push_back(&interval->noise);
  if (noises.empty()) return "";
  const auto [least, most] =
      std::minmax_element(noises.begin(), noises.end(),
                          [](const Threshold* x, const Threshold* y) { return x->percent < y->percent; });
  const bool one = std::all_of(noises.begin(), noises.end(), [&](const Threshold* noise) {
    return noise->percent == noises.front()->percent && noise->source == noises.front()->source;
  });
  if (one) return band_text(*noises.front()) + " a cell, " + noises.front()->source;
  return band_text(**least) + " to " + band_text(**most) + " a cell, by cell: pick --json gives each";
}

}  // namespace ladder::report
