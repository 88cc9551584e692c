// The money model: what a tier costs a team in engineer-days and in compute, and at what usage each rung
// pays for itself. Every figure is a member of CostFigures with its default and where it comes from; a
// costs file (read_cost_figures) changes any of them. Two questions are answered apart:
// - money, for a throughput job: a tier's total over the horizon is a line in the calls a day,
//     total(N) = people + N · compute_a_call_per_day,
//     people = (adoption days · bus factor + upkeep days a year · years) · engineer-day price,
//     compute = cores held · wall seconds a call / 3600 · core-hour price · 365 · years a call a day;
//   the cheapest tier at N is the lowest line there, and the usage map is their lower envelope;
// - latency, for one call that must be fast: the tier that meets the deadline and costs the fewest days.
// A core held by a waiting thread costs what a computing one does: threads buy latency, not money.
#pragma once

#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "results_file.hpp"

namespace ladder::report {

// The most people a bus factor may name: a team, not a headcount; a costs file or --bus-factor past it is
// refused rather than narrowed.
inline constexpr int max_bus_factor = 1000;

// Every figure of the model. The prices are public list figures (README, "Reading the report, picking a
// tier"); the day figures are Ladder's own estimates, stated so that a team can replace them with its own.
struct CostFigures {
  // Adoption: engineer-days for one person to take the tier on.
  double learning_minutes = 0, learning_hours = 0.5, learning_days = 3;  // the card's learning time
  double adopt_per_concept = 0.25;    // each concept the card names that the team does not know
  double adopt_per_library = 0.5;     // each library the team does not know: its API, its build
  double adopt_per_flag = 0.25;       // each compiler flag beyond the common set
  double adopt_per_100_lines = 0.25;  // reading and reviewing the tier's own and shared kernel lines
  // Upkeep: engineer-days a year to keep it.
  double upkeep_per_library = 0.5;     // upgrades of each library
  double upkeep_per_flag = 0.25;       // each flag, across compiler upgrades
  double upkeep_per_100_lines = 0.25;  // the code itself
  // Prices and the team.
  double core_hour = 0.0425;  // US dollars a vCPU-hour, on demand
  double engineer_day = 800;  // US dollars a loaded engineer-day
  double horizon_years = 3;
  int bus_factor = 1;                   // people who must know each tier's concepts (1 to max_bus_factor)
  std::vector<std::string> team_knows;  // names (name_key) of concepts and libraries the team knows
};

// One documented part of a day figure: "libraries", "2 (1 known)", 0.5 days.
struct DayPart {
  std::string name, value;
  double days = 0;
};
struct EngineerDays {
  double adoption = 0;  // for one person
  double upkeep = 0;    // a year
  std::vector<DayPart> adoption_parts, upkeep_parts;
};

// The key a concept or a library is known by: lower case, words joined by '-', without a version or a
// parenthesis ("OpenMP (libgomp)" -> "openmp", "xsimd 8.1" -> "xsimd", "SIMD batch types" ->
// "simd-batch-types").
std::string name_key(const std::string& name);
// Every key the cards' concepts and libraries have, sorted: what --team-knows accepts.
std::vector<std::string> knowable_names(const std::vector<CardRecord>& cards);
// Throws InputError naming the first of `names` no card knows, and listing the accepted ones.
void check_team_knows(const std::vector<std::string>& names, const std::vector<CardRecord>& cards);

EngineerDays engineer_days(const CardRecord& card, const CostFigures& figures);
// The cost to keep a tier, as a tie is broken (intervals.hpp): the engineer-days one person spends on it over
// the horizon at the default figures (adoption + upkeep a year × years), then its libraries; then its rung
// and id, so that the order is total and the same in every run.
bool cheaper_to_keep(const CardRecord& x, const CardRecord& y);
double days_to_keep(const CardRecord& card);
// {"adoption", "upkeep_per_year", "adoption_parts": [{"name", "value", "days"}, …], "upkeep_parts": […]}
void to_json(nlohmann::json& out, const EngineerDays& days);

// A tier's line: its total over the horizon at N calls a day is people + N · compute.
struct TierMoney {
  std::string tier;
  int cores = 1;            // threads × ranks: the cores a call holds
  double wall_seconds = 0;  // the median wall time of a call
  EngineerDays days;
  double people = 0;   // dollars over the horizon
  double compute = 0;  // dollars over the horizon for each call a day
  // The compute within the noise: at the low and the high end of the cell's interval
  // (reports/analysis/intervals.hpp). The people cost has no noise; the slope of the line does, so two lines
  // whose slopes overlap here may cross anywhere, or not at all.
  double compute_low = 0, compute_high = 0;
  double total(double calls_per_day) const { return people + calls_per_day * compute; }
  double core_seconds() const { return cores * wall_seconds; }
};
// The line at the median; its compute range is the median's alone until set_compute_range widens it.
TierMoney tier_money(const CardRecord& card, int cores, double wall_seconds, const CostFigures& figures);
// The compute range from the wall seconds a call at the low and the high end of the cell's interval.
void set_compute_range(TierMoney& money, double low_seconds, double high_seconds, const CostFigures& figures);
// Whether two lines' slopes are within the noise of each other: their compute ranges overlap.
bool compute_tied(const TierMoney& x, const TierMoney& y);

// The calls a day from which `candidate` costs less than `current` over the horizon: 0 when it costs
// no more at any usage, nullopt ("never") when it holds as many core-seconds a call or more and costs
// more people.
std::optional<double> break_even(const TierMoney& candidate, const TierMoney& current);

// Calls a day, from `low` to `high`: where a break-even lies within the noise.
struct CallsRange {
  double low = 0, high = 0;  // high infinite: at one end of the noise the lines never cross
};
// The range of break_even(candidate, current): the lines crossed at the ends of their compute ranges, the
// candidate at its least compute against the current at its most (low), then the other way (high; infinite
// when the ranges overlap: within the noise the candidate may never pay). Absent where break_even is; {0, 0}
// where it is 0.
std::optional<CallsRange> break_even_range(const TierMoney& candidate, const TierMoney& current);

// The cheapest tier from `from` calls a day up to `to` (infinity for the last step).
struct UsageStep {
  std::string tier;
  double from = 0, to = std::numeric_limits<double>::infinity();
  // Every tier of the step, `tier` first then by cost to keep: more than one when their lines' slopes are
  // within the noise of each other, so that which is the cheapest here is the noise's to say, not the
  // lines' ("openmp-tuned ≈ tbb-tuned"); `tier` is then the one cheapest to keep.
  std::vector<std::string> tiers;
  CallsRange from_range;  // where the step begins within the noise: its break-even's range ({0, 0} first)
  bool merged() const { return tiers.size() > 1; }
};
// Whether tier x is cheaper to keep than tier y: how a step of tiers within the noise is decided.
using KeepOrder = std::function<bool(const std::string& x, const std::string& y)>;
// The lower envelope of the tiers' lines over calls a day from 0 up: each step the tier whose total is the
// lowest there (ties to the fewer core-seconds, then the lower people cost, then the order given). A step
// whose break-even cannot be resolved, its tier's compute within the noise of a neighbour's (or of a tier
// that may undercut it there), is merged with that neighbour into one step of both; its tier is the first
// by `cheaper_to_keep` (default: the fewer people dollars, then the name), whatever the medians say.
std::vector<UsageStep> usage_map(const std::vector<TierMoney>& tiers, const KeepOrder& cheaper_to_keep = {});

// What the team says of its use: calls a day at the report's n (absent: answer with the usage map), the
// wall time one call must meet (absent: the fastest tier), and the rung it runs now (break-even is
// against it; empty: the report's current rung, by current_rung_rule()).
// The job may be given as core-hours a day instead: what it holds on the current rung today, from which
// decide() derives the calls a day (core-hours × 3600 ÷ the current rung's core-seconds a call).
struct Usage {
  std::optional<double> calls_per_day, deadline_seconds, core_hours_per_day;
  std::string current;
};
// Everything the money and latency answer takes from the team: the figures and the use.
struct MoneyInputs {
  CostFigures figures;
  Usage usage;
};

// The cost figures of `path` over `base` (economics_file.cpp): a TOML file (named *.toml, read with toml++)
// or a JSON object, whose keys are CostFigures' member names (core_hour = 0.0425, team_knows = ["openmp"]).
// Throws InputError naming the file and the problem: not TOML or JSON (TOML's line and column), an unknown
// key (listing the accepted ones), a value of the wrong type, or a figure out of range (check_cost_figures).
CostFigures read_cost_figures(const std::string& path, CostFigures base = {});
// Checks a figure set (what read_cost_figures and the command-line options give): every day figure and
// price at least 0, the horizon above 0, the bus factor at least 1; InputError naming the figure, its
// value and what is accepted.
void check_cost_figures(const CostFigures& figures);

}  // namespace ladder::report
