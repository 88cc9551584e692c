#include "economics.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "errors.hpp"
#include "quote.hpp"
#include "text.hpp"

namespace ladder::report {
namespace {

// Whether the team knows `name` (a card's concept or library): by key, so that "SIMD batch types" as
// `ladder list` prints it, its key simd-batch-types, and "xsimd" or "xsimd 8.1" are each one name.
bool known(const std::string& name, const CostFigures& figures) {
  const std::string key = name_key(name);
  return std::any_of(figures.team_knows.begin(), figures.team_knows.end(),
                     [&](const std::string& knows) { return name_key(knows) == key; });
}

std::size_t count_known(const std::vector<std::string>& names, const CostFigures& figures) {
  return static_cast<std::size_t>(std::count_if(
      names.begin(), names.end(), [&](const std::string& name) { return known(name, figures); }));
}

std::string counted_known(std::size_t all, std::size_t known_ones) {
  return std::to_string(all) + (known_ones ? " (" + std::to_string(known_ones) + " known)" : "");
}

}  // namespace

std::string name_key(const std::string& name) {
  std::string key;
  bool gap = false;
  for (const char c : name.substr(0, name.find(" ("))) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == ':' || c == '+') {
      if (gap && !key.empty()) key += '-';
      key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      gap = false;
    } else {
      gap = true;
    }
  }
  // A trailing version ("xsimd-8-1", "eigen-3-4") is not part of the name.
  while (!key.empty()) {
    const auto dash = key.rfind('-');
    const std::string last = dash == std::string::npos ? key : key.substr(dash + 1);
    if (dash == std::string::npos || last.empty() || !std::all_of(last.begin(), last.end(), ::isdigit)) break;
    key.erase(dash);
  }
  return key;
}

std::vector<std::string> knowable_names(const std::vector<CardRecord>& cards) {
  std::set<std::string> names;
  for (const auto& card : cards) {
    for (const auto& concept_name : card.concepts) names.insert(name_key(concept_name));
    for (const auto& library : card.libraries) names.insert(name_key(library));
  }
  return {names.begin(), names.end()};
}

void check_team_knows(const std::vector<std::string>& names, const std::vector<CardRecord>& cards) {
  const auto accepted = knowable_names(cards);
  for (const auto& name : names)
    if (!std::binary_search(accepted.begin(), accepted.end(), name_key(name)))
      throw InputError("--team-knows '" + quote_text(name) +
                       "' is no concept or library of these tiers; accepted: " + join(accepted));
}

double days_to_keep(const CardRecord& card) {
  const CostFigures defaults;
  const EngineerDays days = engineer_days(card, defaults);
  return days.adoption + days.upkeep * defaults.horizon_years;
}

bool cheaper_to_keep(const CardRecord& x, const CardRecord& y) {
  const double x_days = days_to_keep(x), y_days = days_to_keep(y);
  if (std::abs(x_days - y_days) > 1e-9) return x_days < y_days;
  if (x.libraries.size() != y.libraries.size()) return x.libraries.size() < y.libraries.size();
  if (x.rung != y.rung) return x.rung < y.rung;
  return x.id < y.id;
}

EngineerDays engineer_days(const CardRecord& card, const CostFigures& figures) {
  EngineerDays days;
  const std::size_t concepts_known = count_known(card.concepts, figures);
  const std::size_t libraries_known = count_known(card.libraries, figures);
  const bool all_known = concepts_known == card.concepts.size() && libraries_known == card.libraries.size();
  const double learning = all_known                       ? 0
                          : card.learning_time == "days"  ? figures.learning_days
                          : card.learning_time == "hours" ? figures.learning_hours
                                                          : figures.learning_minutes;
  const int lines = card.source_lines + card.shared_lines;
  const auto flags = static_cast<double>(card.flags.size());
  days.adoption_parts = {
      {"learning", card.learning_time + (all_known && !card.concepts.empty() ? " (all known)" : ""),
       learning},
      {"concepts", counted_known(card.concepts.size(), concepts_known),
       figures.adopt_per_concept * static_cast<double>(card.concepts.size() - concepts_known)},
      {"libraries", counted_known(card.libraries.size(), libraries_known),
       figures.adopt_per_library * static_cast<double>(card.libraries.size() - libraries_known)},
      {"flags", std::to_string(card.flags.size()), figures.adopt_per_flag * flags},
      {"code", std::to_string(lines) + " lines", figures.adopt_per_100_lines * lines / 100.0}};
  days.upkeep_parts = {
      {"libraries", std::to_string(card.libraries.size()),
       figures.upkeep_per_library * static_cast<double>(card.libraries.size())},
      {"flags", std::to_string(card.flags.size()), figures.upkeep_per_flag * flags},
      {"code", std::to_string(lines) + " lines", figures.upkeep_per_100_lines * lines / 100.0}};
  for (const auto& part : days.adoption_parts) days.adoption += part.days;
  for (const auto& part : days.upkeep_parts) days.upkeep += part.days;
  return days;
}

void to_json(nlohmann::json& out, const EngineerDays& days) {
  const auto parts = [](const std::vector<DayPart>& all) {
    nlohmann::json listed = nlohmann::json::array();
    for (const auto& part : all)
      listed.push_back({{"name", part.name}, {"value", part.value}, {"days", part.days}});
    return listed;
  };
  out = {{"adoption", days.adoption},
         {"upkeep_per_year", days.upkeep},
         {"adoption_parts", parts(days.adoption_parts)},
         {"upkeep_parts", parts(days.upkeep_parts)}};
}

namespace {

// Dollars over the horizon for each call a day of `seconds` a call on `cores`.
double compute_dollars(int cores, double seconds, const CostFigures& figures) {
  return cores * seconds / 3600 * figures.core_hour * 365 * figures.horizon_years;
}

// One step of the lower envelope at the lines' medians: tiers[tier] from `from` calls a day to `to`.
struct Segment {
  std::size_t tier = 0;
  double from = 0, to = std::numeric_limits<double>::infinity();
};

std::vector<Segment> lower_envelope(const std::vector<TierMoney>& tiers) {
  std::vector<Segment> segments;
  // Lower at 0 calls a day: the fewest people; among equals the fewer core-seconds.
  const auto cheaper_at_zero = [](const TierMoney& x, const TierMoney& y) {
    return x.people != y.people ? x.people < y.people : x.compute < y.compute;
  };
  std::size_t current =
      static_cast<std::size_t>(std::min_element(tiers.begin(), tiers.end(), cheaper_at_zero) - tiers.begin());
  double from = 0;
  while (true) {
    // The next line to cross under the current one: the smallest crossing above `from`, among the lines
    // with less compute (ties: the least compute, which stays lowest from there on).
    std::optional<std::size_t> next;
    double at = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < tiers.size(); ++i) {
      if (tiers[i].compute >= tiers[current].compute) continue;
      const double crossing = std::max(
          from, (tiers[i].people - tiers[current].people) / (tiers[current].compute - tiers[i].compute));
      if (crossing < at || (crossing == at && next && tiers[i].compute < tiers[*next].compute)) {
        at = crossing;
        next = i;
      }
    }
    if (!next || !std::isfinite(at)) {
      segments.push_back({current, from, std::numeric_limits<double>::infinity()});
      return segments;
    }
    if (at > from) segments.push_back({current, from, at});
    current = *next;
    from = at;
  }
}

// Whether `other` may cost less than `tier` somewhere below `to` calls a day within the noise: their slopes
// overlap, and `other` at its least compute comes under `tier` at its most before `to`. Such a tier may be
// the cheapest in this step in another run of the same code, so it belongs to the step.
bool may_undercut(const TierMoney& other, const TierMoney& tier, double to) {
  if (!compute_tied(other, tier)) return false;
  if (other.people <= tier.people) return true;
  if (!std::isfinite(to)) return other.compute_low < tier.compute_high;
  return other.people + to * other.compute_low <= tier.people + to * tier.compute_high;
}

bool shares_a_tier(const std::vector<std::size_t>& x, const std::vector<std::size_t>& y) {
  return std::any_of(x.begin(), x.end(),
                     [&](std::size_t tier) { return std::find(y.begin(), y.end(), tier) != y.end(); });
}

// A step being built: its segments' span and every tier that belongs to one of them.
struct Group {
  double from = 0, to = 0;
  CallsRange from_range;
  std::vector<std::size_t> members;
};

}  // namespace

TierMoney tier_money(const CardRecord& card, int cores, double wall_seconds, const CostFigures& figures) {
  TierMoney money;
  money.tier = card.id;
  money.cores = cores;
  money.wall_seconds = wall_seconds;
  money.days = engineer_days(card, figures);
  money.people = (money.days.adoption * figures.bus_factor + money.days.upkeep * figures.horizon_years) *
                 figures.engineer_day;
  money.compute = compute_dollars(cores, wall_seconds, figures);
  money.compute_low = money.compute_high = money.compute;
  return money;
}

void set_compute_range(TierMoney& money, double low_seconds, double high_seconds,
                       const CostFigures& figures) {
  money.compute_low = std::min(money.compute, compute_dollars(money.cores, low_seconds, figures));
  money.compute_high = std::max(money.compute, compute_dollars(money.cores, high_seconds, figures));
}

bool compute_tied(const TierMoney& x, const TierMoney& y) {
  return x.compute_low <= y.compute_high && y.compute_low <= x.compute_high;
}

std::optional<double> break_even(const TierMoney& candidate, const TierMoney& current) {
  if (candidate.people <= current.people && candidate.compute <= current.compute) return 0.0;
  if (candidate.compute >= current.compute) return std::nullopt;
  return (candidate.people - current.people) / (current.compute - candidate.compute);
}

std::optional<CallsRange> break_even_range(const TierMoney& candidate, const TierMoney& current) {
  const auto point = break_even(candidate, current);
  if (!point) return std::nullopt;
  if (*point == 0) return CallsRange{0, 0};
  const double people = candidate.people - current.people;
  const double widest = current.compute_high - candidate.compute_low,
               narrowest = current.compute_low - candidate.compute_high;
  return CallsRange{people / widest,
                    narrowest > 0 ? people / narrowest : std::numeric_limits<double>::infinity()};
}

std::vector<UsageStep> usage_map(const std::vector<TierMoney>& tiers, const KeepOrder& cheaper_to_keep) {
  std::vector<UsageStep> steps;
  if (tiers.empty()) return steps;
  const std::vector<Segment> segments = lower_envelope(tiers);
  std::vector<Group> groups;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const Segment& segment = segments[i];
    Group group{segment.from, segment.to, {0, 0}, {segment.tier}};
    for (std::size_t other = 0; other < tiers.size(); ++other)
      if (other != segment.tier && may_undercut(tiers[other], tiers[segment.tier], segment.to))
        group.members.push_back(other);
    // The break-even where this step begins, unless it cannot be resolved: then the step joins the one
    // before it, and every step back to one that shares a tier with it (a tier within the noise of both).
    std::size_t join = groups.size();
    if (i > 0) {
      const TierMoney &before = tiers[segments[i - 1].tier], &here = tiers[segment.tier];
      if (compute_tied(before, here))
        join = groups.size() - 1;
      else
        group.from_range = break_even_range(here, before).value_or(CallsRange{segment.from, segment.from});
    }
    for (std::size_t k = 0; k < groups.size(); ++k)
      if (shares_a_tier(groups[k].members, group.members)) join = std::min(join, k);
    if (join < groups.size()) {
      Group merged = groups[join];
      for (std::size_t k = join + 1; k < groups.size(); ++k)
        merged.members.insert(merged.members.end(), groups[k].members.begin(), groups[k].members.end());
      merged.members.insert(merged.members.end(), group.members.begin(), group.members.end());
      merged.to = group.to;
      groups.resize(join);
      group = std::move(merged);
    }
    groups.push_back(std::move(group));
  }
  // Each step's tiers, the cheapest to keep first: an order the noise does not move.
  const KeepOrder order =
      cheaper_to_keep ? cheaper_to_keep : [&](const std::string& x, const std::string& y) {
        const auto people = [&](const std::string& id) {
          return std::find_if(tiers.begin(), tiers.end(), [&](const TierMoney& t) { return t.tier == id; })
              ->people;
        };
        return people(x) != people(y) ? people(x) < people(y) : x < y;
      };
  for (Group& group : groups) {
    std::sort(group.members.begin(), group.members.end());
    group.members.erase(std::unique(group.members.begin(), group.members.end()), group.members.end());
    std::vector<std::string> names;
    for (const std::size_t member : group.members) names.push_back(tiers[member].tier);
    std::sort(names.begin(), names.end(), order);
    steps.push_back({names.front(), group.from, group.to, names, group.from_range});
  }
  return steps;
}

}  // namespace ladder::report
