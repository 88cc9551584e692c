#include "decision.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

#include "disturbance.hpp"
#include "errors.hpp"
#include "optional_json.hpp"
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

namespace {

// "  from 1.2 million calls a day (the break-even within the noise: 1.1 million–1.4 million): openmp-tuned ≈
// tbb-tuned", and why a step holds several tiers.
void print_step(const UsageStep& step) {
  const std::string range =
      step.from > 0 ? " (the break-even within the noise: " + calls_range_text(step.from_range) + ")" : "";
  if (std::isfinite(step.to))
    std::printf("  %s to %s calls a day%s: %s\n", calls_text(step.from).c_str(), calls_text(step.to).c_str(),
                range.c_str(), step_tiers_text(step).c_str());
  else
    std::printf("  from %s calls a day%s: %s\n", calls_text(step.from).c_str(), range.c_str(),
                step_tiers_text(step).c_str());
  if (step.merged())
    std::printf(
        "    %s: their core-seconds a call are within this machine's noise; %s is the cheapest to "
        "keep\n",
        step_tiers_text(step).c_str(), step.tier.c_str());
}

// "never (…)", "the current rung", or "1.2 million calls a day (1.1 million–1.4 million)".
std::string pays_text(const Decision& decision, const TierChoice& each) {
  if (each.card->id == decision.current) return "(the current rung)";
  if (!each.pays_from) return "never (it holds as many core-seconds a call or more)";
  std::string text = calls_text(*each.pays_from) + " calls a day";
  if (each.pays_from_range && *each.pays_from > 0)
    text += " (" + calls_range_text(*each.pays_from_range) + ")";
  return text;
}

nlohmann::json interval_json(const CellInterval& interval) {
  return {{"median_seconds", interval.median},     {"low_seconds", interval.low},
          {"high_seconds", interval.high},         {"noise_percent", interval.noise.percent},
          {"noise_source", interval.noise.source}, {"noise_measured", interval.noise.measured}};
}

nlohmann::json range_json(const std::optional<CallsRange>& range) {
  if (!range) return nullptr;
  return {{"low", range->low}, {"high", std::isfinite(range->high) ? nlohmann::json(range->high) : nullptr}};
}

nlohmann::json tier_json(const Decision& decision, const TierChoice& each) {
  const CostFigures& f = decision.figures;
  const auto& money = each.money;
  nlohmann::json entry = {{"tier", each.card->id},
                          {"threads", each.thrifty->threads},
                          {"ranks", each.thrifty->ranks},
                          {"cores", money.cores},
                          {"wall_seconds", money.wall_seconds},
                          {"interval", interval_json(each.thrifty_interval)},
                          {"core_seconds", money.core_seconds()},
                          {"fastest_wall_seconds", each.fastest->median()},
                          {"fastest_threads", each.fastest->threads},
                          {"fastest_ranks", each.fastest->ranks},
                          {"fastest_interval", interval_json(each.fastest_interval)},
                          {"only_disturbed", each.only_disturbed()},
                          {"disturbed", each.disturbed},
                          {"engineer_days", money.days},
                          {"adoption_dollars", money.days.adoption * f.bus_factor * f.engineer_day},
                          {"upkeep_dollars_a_year", money.days.upkeep * f.engineer_day},
                          {"compute_dollars_a_year_per_call_a_day", money.compute / f.horizon_years},
                          {"people_dollars", money.people},
                          {"compute_dollars_per_call_a_day", money.compute},
                          {"compute_dollars_per_call_a_day_low", money.compute_low},
                          {"compute_dollars_per_call_a_day_high", money.compute_high},
                          {"pays_from_calls_a_day", optional_json(each.pays_from)},
                          {"pays_from_range", range_json(each.pays_from_range)}};
  if (decision.usage.calls_per_day) entry["total_dollars"] = money.total(*decision.usage.calls_per_day);
  return entry;
}

}  // namespace

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
  if (!decision.current_why.empty()) std::printf("%s\n", decision.current_why.c_str());
  std::printf("usage map (the cheapest tier over %g years, by calls a day; ≈: within the noise):\n",
              f.horizon_years);
  for (const auto& step : decision.usage_map) print_step(step);
  if (decision.money_tier)
    std::printf("for %s calls a day: %s, $%s over %g years\n",
                calls_text(*decision.usage.calls_per_day).c_str(), decision.money_tier->c_str(),
                format_amount(decision.tier(*decision.money_tier)->money.total(*decision.usage.calls_per_day))
                    .c_str(),
                f.horizon_years);
  std::printf("latency: %s\n", decision.latency_tier
                                   ? (*decision.latency_tier + ", " + decision.latency_why).c_str()
                                   : decision.latency_why.c_str());
  if (!decision.deadline_within_noise.empty())
    std::printf("within the noise of the deadline: %s\n", join(decision.deadline_within_noise).c_str());
  std::printf("  %-16s %24s %9s %9s %11s %12s  %s\n", "tier", "a call (interval)", "adopt d", "upkeep d",
              "core-s/call", "$ people", ("pays against " + decision.current + " from").c_str());
  for (const auto& each : decision.tiers)
    std::printf("  %-16s %24s %9s %9s %11.3g %12s  %s%s\n", each.card->id.c_str(),
                interval_text(each.thrifty_interval).c_str(),
                format_amount(each.money.days.adoption, 2).c_str(),
                format_amount(each.money.days.upkeep, 2).c_str(), each.money.core_seconds(),
                format_amount(each.money.people).c_str(), pays_text(decision, each).c_str(),
                each.only_disturbed() ? ("; disturbed: " + join(each.disturbed)).c_str() : "");
  std::printf("intervals: each cell's repetitions, widened by this machine's noise (%s)\n",
              noise_text(decision).c_str());
}

nlohmann::json decision_json(const Decision& decision) {
  const CostFigures& f = decision.figures;
  nlohmann::json tiers = nlohmann::json::array();
  for (const auto& each : decision.tiers) tiers.push_back(tier_json(decision, each));
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& step : decision.usage_map)
    steps.push_back(
        {{"tier", step.tier},
         {"tiers", step.tiers},
         {"merged", step.merged()},
         {"from_calls_a_day", step.from},
         {"from_range", step.from > 0 ? range_json(step.from_range) : nlohmann::json()},
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
          {"current_why", decision.current_why},
          {"usage_map", steps},
          {"usage_map_tie_break",
           "a step of tiers within the noise of each other goes to the one cheapest to "
           "keep (engineer-days over the horizon at the default figures, then libraries)"},
          {"money_tier", optional_json(decision.money_tier)},
          {"latency_tier", optional_json(decision.latency_tier)},
          {"latency_why", decision.latency_why},
          {"latency_tied", decision.latency_tied},
          {"latency_tie_break", decision.latency_tie_break},
          {"deadline_within_noise", decision.deadline_within_noise},
          {"tiers", tiers}};
}

}  // namespace ladder::report
