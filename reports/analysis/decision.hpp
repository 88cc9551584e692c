// One decision, in one place: from a run's cells at one size, the money answer (a throughput job) and the
// latency answer (one call that must be fast), with every tier's figures behind them. `ladder pick` and
// the report's "Money and latency" section both call decide(), so they say the same.
// Every figure carries its interval (reports/analysis/intervals.hpp): a tier faster or cheaper than another
// by less than this machine's noise is tied with it, and the tie is broken by the cost to keep, saying so.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "economics.hpp"
#include "intervals.hpp"
#include "report.hpp"

namespace ladder::report {

struct TierChoice {
  const Card* card = nullptr;
  // The cell a throughput job would run (the fewest core-seconds a call) and the fastest one (the least
  // wall time, the latency answer's), chosen among the tier's undisturbed cells where it has any
  // (common/noise/disturbance.hpp), and their intervals.
  const CellResult* thrifty = nullptr;
  const CellResult* fastest = nullptr;
  CellInterval thrifty_interval, fastest_interval;
  // Why the tier's cells were disturbed, when every cell it has at n was: its figures are then the
  // disturbed ones, and every answer that names it says so. Empty otherwise.
  std::vector<std::string> disturbed;
  TierMoney money;                  // its line, from the thrifty cell; its compute's range from its interval
  std::optional<double> pays_from;  // calls a day from which it beats the current rung; null: never
  std::optional<CallsRange> pays_from_range;  // the same within the noise (break_even_range)
  double days_over_horizon = 0;               // adoption × bus factor + upkeep × years
  bool only_disturbed() const { return !disturbed.empty(); }
};

struct Decision {
  std::int64_t n = 0;
  std::string integrand;
  CostFigures figures;
  Usage usage;
  std::vector<TierChoice> tiers;  // rung order, the C++ tiers with a measured cell at n
  std::string current;            // the rung break-even is against
  // Why `current` is the lowest rung measured: the likely current rung could not be decided (its
  // "could not decide: …"); empty when it was decided or given.
  std::string current_why;
  std::vector<UsageStep> usage_map;
  std::optional<std::string> money_tier;    // with calls a day: the lowest total there
  std::optional<std::string> latency_tier;  // meets the deadline at the fewest days (or the fastest)
  std::string latency_why;                  // one sentence; why none, when none meets the deadline
  // Without a deadline: the tiers tied with the fastest within the noise (the latency tier among them) and
  // why the latency tier was chosen of them (fastest_within_noise's `why`); empty when none was tied.
  std::vector<std::string> latency_tied;
  std::string latency_tie_break;
  // With a deadline: the tiers whose interval holds it, so that they meet it, or miss it, within the noise.
  std::vector<std::string> deadline_within_noise;

  const TierChoice* tier(const std::string& id) const;
};

// A wall time as --deadline takes it: a positive number and its unit, "30ms", "0.5s", "250us" (or "µs"),
// "800ns". Throws InputError naming the text and the accepted forms.
double parse_deadline(const std::string& text);

// Calls a day in words: "0", "3000", "21.5 thousand", "2.14 million", "1e+20", "without end".
std::string calls_text(double calls);
// A break-even's range in words: "1.1 million–1.4 million", "1.1 million–without end".
std::string calls_range_text(const CallsRange& range);
// A step's tiers: "openmp-tuned ≈ tbb-tuned", or its one tier.
std::string step_tiers_text(const UsageStep& step);
// A cell's median and interval: "12.3 ms (11.9–12.8 ms)".
std::string interval_text(const CellInterval& interval);
// The noise the decision's intervals were widened by: "±2.5 % a cell, the documented default 5 %, …", or
// its range where the cells' differ ("±0.5 % to ±2.5 % a cell, by cell: pick --json gives each").
std::string noise_text(const Decision& decision);

// The decision in words (the figures it used first) and as JSON (every tier's compute, upkeep, adoption,
// total and break-even; `ladder pick --json`), in decision_output.cpp.
void print_decision(const Decision& decision);
nlohmann::json decision_json(const Decision& decision);

// Throws InputError when `usage.current` is not a measured tier at n (naming the measured ones), or a
// figure is out of range.
Decision decide(const Run& run, std::int64_t n, const std::string& integrand, const CostFigures& figures,
                const Usage& usage);

}  // namespace ladder::report
