// The money and latency answer, right under the answer: decide() (decision.hpp), the one `ladder pick`
// gives. For a throughput job, the tier at the team's calls a day, or the usage map; for one call that must
// be fast, the tier that meets the deadline at the fewest engineer-days (or the fastest); the figures it
// used; and every tier's figures behind it, folded.
#include <algorithm>
#include <cmath>

#include "charts.hpp"
#include "decision.hpp"
#include "sections.hpp"

namespace ladder::report {
namespace {

// "$12 345"; "$5.49e+302" past 1e15 (format_amount)
std::string dollars(double amount) {
  if (!(std::fabs(amount) < 1e15)) return "$" + format_amount(amount);
  std::string digits = format_number("%.0f", std::round(amount));
  for (auto at = static_cast<std::ptrdiff_t>(digits.size()) - 3; at > (digits[0] == '-' ? 1 : 0); at -= 3)
    digits.insert(static_cast<std::size_t>(at), " ");
  return "$" + digits;
}

// A step's tiers: its own in bold, and those within the noise of it after "≈".
std::string step_tiers(const UsageStep& step) {
  std::string text = "**" + step.tier + "**";
  for (const auto& other : step.tiers)
    if (other != step.tier) text += " ≈ " + other;
  return text;
}

// "below 3000 calls a day **inlined**; from 3000 to 2.1 million **autovec**; above 2.1 million
// **openmp-tuned** ≈ tbb-tuned", then what the noise leaves of each break-even and why a step holds two.
std::string usage_sentence(const Decision& decision) {
  const auto& map = decision.usage_map;
  std::vector<std::string> steps, ranges, merged;
  for (const auto& step : map) {
    const std::string tier = " " + step_tiers(step);
    if (map.size() == 1)
      steps.push_back("at any number of calls a day," + tier);
    else if (step.from <= 0)
      steps.push_back("below " + calls_text(step.to) + " calls a day" + tier);
    else if (std::isfinite(step.to))
      steps.push_back("from " + calls_text(step.from) + " to " + calls_text(step.to) + tier);
    else
      steps.push_back("above " + calls_text(step.from) + tier);
    if (step.from > 0)
      ranges.push_back(calls_text(step.from) + " (" + calls_range_text(step.from_range) + ")");
    if (step.merged())
      merged.push_back(
          step_tiers_text(step) + ": their core-seconds a call are within this machine's noise, " +
          "so the noise, not the lines, says which is cheaper; " + step.tier + " is the cheapest to keep");
  }
  std::string text = join(steps, "; ");
  if (!ranges.empty()) text += ". Each break-even within the noise: " + join(ranges, "; ");
  if (!merged.empty()) text += ". ≈ " + join(merged, ". ≈ ");
  // A tier the map names on disturbed figures alone says so: its line is as sure as they are.
  std::vector<std::string> disturbed;
  for (const auto& step : map)
    for (const auto& id : step.tiers)
      if (const TierChoice* each = decision.tier(id); each && each->only_disturbed())
        disturbed.push_back(id + " (" + join(each->disturbed) + ")");
  if (!disturbed.empty()) text += ". Measured only while disturbed: " + join(disturbed, "; ");
  return text;
}

// "; tbb-tuned costs as much within the noise, and openmp-tuned is the cheaper to keep" where the step at
// `calls` holds several tiers; else nothing.
std::string within_noise(const Decision& decision, double calls) {
  for (const auto& step : decision.usage_map)
    if (calls < step.to) {
      if (!step.merged()) return "";
      std::vector<std::string> others;
      for (const auto& other : step.tiers)
        if (other != step.tier) others.push_back(other);
      return "; " + join(others) + (others.size() > 1 ? " cost" : " costs") +
             " as much within the noise, and " + step.tier + " is the " +
             (others.size() > 1 ? "cheapest" : "cheaper") + " to keep";
    }
  return "";
}

std::string throughput(const Decision& decision) {
  const std::string lead =
      "**A throughput job** (a core held costs the same computing or waiting: threads "
      "buy latency, not money): ";
  if (!decision.money_tier)
    return lead + usage_sentence(decision) +
           ". --calls-per-day N (or --core-hours-per-day H) gives one tier and its money.";
  const double calls = *decision.usage.calls_per_day;
  const TierChoice& chosen = *decision.tier(*decision.money_tier);
  const std::string given =
      decision.usage.core_hours_per_day
          ? " (" + format_number("%g core-hours a day", *decision.usage.core_hours_per_day) + " on " +
                decision.current + ")"
          : "";
  std::string text = lead + "at " + calls_text(calls) + " calls a day" + given + ", **" + chosen.card->id +
                     "**: " + dollars(chosen.money.total(calls)) + " over " +
                     format_number("%g", decision.figures.horizon_years) + " years (" +
                     dollars(chosen.money.people) + " of people, " + dollars(calls * chosen.money.compute) +
                     " of compute)" + within_noise(decision, calls);
  if (chosen.card->id == decision.current) return text + "; it is the current rung.";
  const TierChoice& current = *decision.tier(decision.current);
  return text + "; " + decision.current + " costs " + dollars(current.money.total(calls)) + " there.";
}

// The steps up for latency: from the tier of the fewest engineer-days over the horizon, each next tier that
// is faster than every tier of fewer days, with its time and the days it adds: "inlined 329 ms (0.7 days)
// → eigen 76.5 ms (+3.4 days) → …".
std::string latency_steps(const Decision& decision) {
  std::vector<const TierChoice*> by_days;
  for (const auto& each : decision.tiers) by_days.push_back(&each);
  std::stable_sort(by_days.begin(), by_days.end(), [](const TierChoice* x, const TierChoice* y) {
    return x->days_over_horizon < y->days_over_horizon;
  });
  std::vector<std::string> steps;
  const TierChoice* last = nullptr;
  for (const TierChoice* each : by_days) {
    if (last && each->fastest->median() >= last->fastest->median()) continue;
    steps.push_back(each->card->id + " " + format_seconds(each->fastest->median()) + " (" +
                    (last
                         ? "+" + format_amount(each->days_over_horizon - last->days_over_horizon, 1) + " days"
                         : format_amount(each->days_over_horizon, 1) + " days") +
                    ")");
    last = each;
  }
  return join(steps, " → ");
}

std::string latency(const Decision& decision) {
  std::string text = "**One call that must be fast**: " +
                     (decision.latency_tier ? "**" + *decision.latency_tier + "**, " + decision.latency_why
                                            : decision.latency_why) +
                     ".";
  if (!decision.usage.deadline_seconds) text += " --deadline 30ms gives the cheapest tier that meets it.";
  return text + " Each step up, faster than every tier of fewer engineer-days over " +
         format_number("%g years", decision.figures.horizon_years) + ": " + latency_steps(decision) + ".";
}

std::string figures_line(const Decision& decision) {
  const CostFigures& f = decision.figures;
  return "Figures: a core-hour " + format_number("$%g", f.core_hour) + ", an engineer-day " +
         dollars(f.engineer_day) + ", " + format_number("%g years", f.horizon_years) + ", bus factor " +
         std::to_string(f.bus_factor) + ", the team knows " +
         (f.team_knows.empty() ? std::string("none of the tiers' concepts (--team-knows)")
                               : join(f.team_knows)) +
         "; break-even against **" + decision.current + "** (" +
         (!decision.current_why.empty()    ? decision.current_why
          : decision.usage.current.empty() ? "the current rung"
                                           : "--current") +
         "), at n = " + format_count(static_cast<double>(decision.n)) +
         ". Each time carries its interval: its repetitions, widened by this machine's noise (" +
         noise_text(decision) +
         "); ≈ joins tiers within it, and a tie goes to the tier cheapest to keep. The defaults and their "
         "sources: docs/reading-the-report.md; ladder pick --json gives every "
         "figure.";
}

// machine: " on NAME" where the report has several.
Block every_tier(const Decision& decision, const std::string& machine) {
  const CostFigures& f = decision.figures;
  Table rows{{"tier", "cores", "a call", "adoption (days)", "upkeep (days a year)",
              "people (" + format_number("%g", f.horizon_years) + " years)",
              "compute at a million calls a day", "pays against " + decision.current + " from"},
             {}};
  for (const auto& each : decision.tiers) {
    const TierMoney& money = each.money;
    std::string pays = each.card->id == decision.current ? "(the current rung)"
                       : each.pays_from                  ? calls_text(*each.pays_from) + " calls a day"
                                                         : "never (as many core-seconds a call or more)";
    if (each.pays_from && *each.pays_from > 0 && each.pays_from_range)
      pays += " (" + calls_range_text(*each.pays_from_range) + ")";
    // A tier measured only in disturbed cells says so beside its time, the figure the disturbance touched.
    const std::string time = interval_text(each.thrifty_interval) +
                             (each.only_disturbed() ? ", every cell disturbed: " + join(each.disturbed) : "");
    rows.rows.push_back({each.card->id, std::to_string(money.cores), time,
                         format_amount(money.days.adoption, 2), format_amount(money.days.upkeep, 2),
                         dollars(money.people), dollars(1e6 * money.compute), pays});
  }
  rows.fold = false;
  return details(3, "Every tier in days and dollars" + machine, {table(rows)});
}

}  // namespace

void money(Document& doc, const std::vector<Decision>& decisions, const std::vector<const Run*>& runs) {
  Document blocks;
  blocks.push_back(heading(2, "Money and latency"));
  Document tables;
  for (std::size_t i = 0; i < decisions.size(); ++i) {
    const Decision& decision = decisions[i];
    const std::string& machine = runs[i]->machine;
    const std::string on = decisions.size() > 1 ? "On **" + machine + "**: " : "";
    if (decision.tiers.empty()) {
      blocks.push_back(paragraph(
          on + "no C++ tier was measured at n = " + format_count(static_cast<double>(decision.n)) + "."));
      continue;
    }
    blocks.push_back(paragraph(on + throughput(decision)));
    blocks.push_back(paragraph(latency(decision)));
    blocks.push_back(paragraph(figures_line(decision)));
    tables.push_back(every_tier(decision, on.empty() ? "" : " on " + machine));
  }
  if (auto drawn = money_charts(decisions, runs); !drawn.empty()) blocks.push_back(charts(std::move(drawn)));
  for (auto& table : tables) blocks.push_back(std::move(table));
  doc.push_back(section("money", std::move(blocks)));
}

}  // namespace ladder::report
