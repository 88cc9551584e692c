// A decision as `ladder pick` prints it (print_decision) and writes it with --json (decision_json): the usage
// map's steps, each tier's figures and intervals.
#include <cmath>
#include <cstdio>

#include "decision.hpp"
#include "optional_json.hpp"
#include "text.hpp"

namespace ladder::report {
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
