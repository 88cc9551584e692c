// One decision, in one place: from a run's cells at one size, the money answer (a throughput job) and the
// latency answer (one call that must be fast), with every tier's figures behind them. `ladder pick` and
// the report's "Money and latency" section both call decide(), so they say the same.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "economics.hpp"
#include "report.hpp"

namespace ladder::report {

struct TierChoice {
  const Card* card = nullptr;
  // The cell a throughput job would run (the fewest core-seconds a call) and the fastest one (the least
  // wall time, the latency answer's).
  const CellResult* thrifty = nullptr;
  const CellResult* fastest = nullptr;
  TierMoney money;                  // its line, from the thrifty cell
  std::optional<double> pays_from;  // calls a day from which it beats the current rung; null: never
  double days_over_horizon = 0;     // adoption × bus factor + upkeep × years
};

struct Decision {
  std::int64_t n = 0;
  std::string integrand;
  CostFigures figures;
  Usage usage;
  std::vector<TierChoice> tiers;  // rung order, the C++ tiers with a measured cell at n
  std::string current;            // the rung break-even is against
  std::vector<UsageStep> usage_map;
  std::optional<std::string> money_tier;    // with calls a day: the lowest total there
  std::optional<std::string> latency_tier;  // meets the deadline at the fewest days (or the fastest)
  std::string latency_why;                  // one sentence; why none, when none meets the deadline

  const TierChoice* tier(const std::string& id) const;
};

// A wall time as --deadline takes it: a positive number and its unit, "30ms", "0.5s", "250us" (or "µs"),
// "800ns". Throws InputError naming the text and the accepted forms.
double parse_deadline(const std::string& text);

// Calls a day in words: "0", "3000", "21.5 thousand", "2.14 million", "1e+20", "without end".
std::string calls_text(double calls);

// The decision in words (the figures it used first) and as JSON (every tier's compute, upkeep, adoption,
// total and break-even; `ladder pick --json`).
void print_decision(const Decision& decision);
nlohmann::json decision_json(const Decision& decision);

// Throws InputError when `usage.current` is not a measured tier at n (naming the measured ones), or a
// figure is out of range.
Decision decide(const Run& run, std::int64_t n, const std::string& integrand, const CostFigures& figures,
                const Usage& usage);

}  // namespace ladder::report
