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

// The usage map as a small table: calls a day, the cheapest tier there (tiers within the noise of it after
// "≈", the cheapest to keep first and in bold), and the break-even it starts from with what the noise leaves
// of it. A tier named on disturbed figures alone says so in its cell.
Table usage_table(const Decision& decision) {
  Table rows{{"calls a day", "the cheapest tier (≈: within the noise; the first is the cheapest to keep)",
              "from (within the noise)"},
             {}};
  const auto& map = decision.usage_map;
  for (const auto& step : map) {
    std::string calls = map.size() == 1          ? std::string("any number")
                        : step.from <= 0         ? "below " + calls_text(step.to)
                        : std::isfinite(step.to) ? calls_text(step.from) + " to " + calls_text(step.to)
                                                 : "above " + calls_text(step.from);
    std::string tiers = step_tiers(step);
    std::vector<std::string> disturbed;
    for (const auto& id : step.tiers)
      if (const TierChoice* each = decision.tier(id); each && each->only_disturbed())
        disturbed.push_back((step.tiers.size() > 1 ? id + ": " : "") + join(each->disturbed));
    if (!disturbed.empty()) tiers += " (measured only while disturbed: " + join(disturbed, "; ") + ")";
    rows.rows.push_back({calls, tiers,
                         step.from > 0
                             ? calls_text(step.from) + " (" + calls_range_text(step.from_range) + ")"
                             : std::string("–")});
  }
  rows.fold = false;
  return rows;
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

// The throughput answer: with --calls-per-day (or --core-hours-per-day) one tier and its money; without, the
// usage map's table and two sentences.
void throughput(Document& blocks, const Decision& decision, const std::string& on) {
  const std::string why =
      "A core held costs the same computing or waiting, so threads buy latency, not money.";
  if (!decision.money_tier) {
    if (!on.empty()) blocks.push_back(paragraph(on));
    blocks.push_back(table(usage_table(decision)));
    blocks.push_back(paragraph("**A throughput job** pays least with the tier of its calls a day. " + why +
                               " --calls-per-day N gives one tier and its money."));
    return;
  }
  const double calls = *decision.usage.calls_per_day;
  const TierChoice& chosen = *decision.tier(*decision.money_tier);
  const std::string given =
      decision.usage.core_hours_per_day
          ? " (" + format_number("%g core-hours a day", *decision.usage.core_hours_per_day) + " on " +
                decision.current + ")"
          : "";
  std::string text = on + "**A throughput job** at " + calls_text(calls) + " calls a day" + given + ", **" +
                     chosen.card->id + "**: " + dollars(chosen.money.total(calls)) + " over " +
                     format_number("%g", decision.figures.horizon_years) + " years (" +
                     dollars(chosen.money.people) + " of people, " + dollars(calls * chosen.money.compute) +
                     " of compute)" + within_noise(decision, calls);
  if (chosen.card->id == decision.current)
    text += "; it is the current rung.";
  else
    text += "; " + decision.current + " costs " +
            dollars(decision.tier(decision.current)->money.total(calls)) + " there.";
  blocks.push_back(paragraph(text + " " + why));
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

// One call that must be fast. Without a deadline the pick is the answer's: its tie and disturbed cells are
// told once, under how far to trust the numbers, so here only its time.
std::string latency(const Decision& decision) {
  std::string why = decision.latency_why;
  if (!decision.usage.deadline_seconds && decision.latency_tier)
    why = "the fastest tier within the noise (" +
          interval_text(decision.tier(*decision.latency_tier)->fastest_interval) +
          " a call), as the answer says";
  std::string text = "**One call that must be fast**: " +
                     (decision.latency_tier ? "**" + *decision.latency_tier + "**, " + why : why) + ".";
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
    throughput(blocks, decision, on);
    blocks.push_back(paragraph(latency(decision)));
    blocks.push_back(paragraph(figures_line(decision)));
    tables.push_back(every_tier(decision, on.empty() ? "" : " on " + machine));
  }
  if (auto drawn = money_charts(decisions, runs); !drawn.empty()) blocks.push_back(charts(std::move(drawn)));
  for (auto& table : tables) blocks.push_back(std::move(table));
  doc.push_back(section("money", std::move(blocks)));
}

}  // namespace ladder::report
