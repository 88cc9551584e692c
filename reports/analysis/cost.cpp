// The maintenance-cost score of a tier and its parts, its formula in words, and a cost's largest parts in
// words (declared in report.hpp).
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "report.hpp"
#include "text.hpp"

namespace ladder::report {

// The cost score. Each part is capped so no single one dominates; the report prints every part.
std::string cost_formula() {
  return "score = 1 + 0.7 × the engineer-days one person spends on the tier over 3 years (adoption + 3 × "
         "upkeep a year, at the money model's default figures: Money and latency), at most 10; each part "
         "below is its days × 0.7, learning and concepts at adoption only, libraries, flags and code at "
         "adoption and upkeep";
}

Cost maintenance_cost(const Card& card) {
  constexpr double points_a_day = 0.7;
  const CostFigures defaults;
  const EngineerDays days = engineer_days(card, defaults);
  const auto upkeep_of = [&](const std::string& name) {
    for (const auto& part : days.upkeep_parts)
      if (part.name == name) return part.days * defaults.horizon_years;
    return 0.0;
  };
  Cost cost;
  // In the order the costs table shows them: code, concepts, libraries, flags, learning.
  for (const char* name : {"code", "concepts", "libraries", "flags", "learning"})
    for (const auto& part : days.adoption_parts)
      if (part.name == name)
        cost.parts.push_back({part.name, part.value, points_a_day * (part.days + upkeep_of(part.name))});
  cost.score = 1;
  for (const auto& part : cost.parts) cost.score += part.points;
  cost.score = std::min(10.0, std::round(cost.score * 10) / 10);
  return cost;
}

std::vector<std::string> cost_in_words(const Card& card, std::size_t count) {
  std::vector<std::string> words;
  if (card.max_ulp_error)
    words.push_back(format_number("hand-written maths (%.1f ulp) your team must own", *card.max_ulp_error));
  const auto listed = [](std::size_t number, const char* one, const char* many,
                         const std::vector<std::string>& names) {
    return counted(static_cast<int>(number), one, many) + (names.empty() ? "" : " (" + join(names) + ")");
  };
  std::vector<std::pair<double, std::string>> parts;  // points, words
  const Cost cost = maintenance_cost(card);
  for (const auto& part : cost.parts) {
    std::string said;
    if (part.name == "code")
      said = part.value + " of code to keep";
    else if (part.name == "concepts")
      said = counted(static_cast<int>(card.concepts.size()), "concept", "concepts") + " to learn";
    else if (part.name == "libraries")
      said = listed(card.libraries.size(), "library", "libraries", card.libraries);
    else if (part.name == "flags")
      said = listed(card.flags.size(), "compiler flag", "compiler flags", card.flags);
    else
      said = part.value + " to learn";
    if (part.points > 0) parts.emplace_back(part.points, said);
  }
  std::stable_sort(parts.begin(), parts.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = 0; i < parts.size() && i < count; ++i) words.push_back(parts[i].second);
  return words;
}

}  // namespace ladder::report
