#include "intervals.hpp"

#include <algorithm>
#include <cmath>

#include "economics.hpp"
#include "noise.hpp"
#include "report.hpp"
#include "text.hpp"

namespace ladder::report {
namespace {

// The noise band's half, as a fraction: (1 + h)² = 1 + F.
double half_band(const Threshold& noise) { return std::sqrt(1 + noise.percent / 100) - 1; }

// The repetitions' 95 % interval on their median: the sign test's rank interval, common/noise/noise.hpp's
// paired_interval over the log times (the k-th fastest to the k-th slowest). Under interval_min_pairs (6)
// repetitions there is none, and the noise band stands alone. Their fastest to slowest would let one slow
// repetition of three tie a tier with one 2.4× slower (seen on a busy 2-vCPU run: 4.07, 4.29 and 12.25 ms
// against 10.5 ms); a spread that wide is a disturbed cell's (common/noise/disturbance.hpp), measured again
// and kept out of the answer instead.
RatioInterval repetition_interval(const std::vector<double>& times) {
  std::vector<double> logs;
  for (const double time : times) logs.push_back(std::log(time));
  return paired_interval(logs);
}

}  // namespace

CellInterval cell_interval(const CellResult& cell, const Threshold& noise) {
  CellInterval interval;
  interval.noise = noise;
  interval.median = cell.median();
  const double h = half_band(noise);
  interval.low = interval.median / (1 + h);
  interval.high = interval.median * (1 + h);
  if (const RatioInterval repetitions = repetition_interval(cell.repetition_seconds()); repetitions.known()) {
    interval.low = std::min(interval.low, repetitions.low);
    interval.high = std::max(interval.high, repetitions.high);
  }
  return interval;
}

CellInterval cell_interval(const Run& run, const CellResult& cell) {
  const auto others = run.noise.other_runs.find(RunNoise::pooled_key(cell));
  if (others == run.noise.other_runs.end() || others->second.size() < pooled_min_other_runs ||
      !(cell.median() > 0))
    return cell_interval(cell, run.noise.of(cell));
  std::vector<double> medians = others->second;
  medians.push_back(cell.median());
  const RatioInterval runs = repetition_interval(medians);
  CellInterval interval;
  interval.noise = run.noise.of(cell);
  interval.noise.source = "the median of " + std::to_string(medians.size()) +
                          " runs of this build here, this one and " + std::to_string(others->second.size()) +
                          " in the history, and their 95 % interval";
  interval.runs = static_cast<int>(medians.size());
  interval.median = runs.ratio;  // the median of the runs' medians (the geometric mean of the middle two)
  interval.low = runs.low;
  interval.high = runs.high;
  return interval;
}

bool tied(const CellInterval& a, const CellInterval& b) { return a.low <= b.high && b.low <= a.high; }

RatioRange ratio_range(const CellInterval& x, const CellInterval& y) {
  return {x.median / y.median, x.low / y.high, x.high / y.low};
}

namespace {

// As the report writes a ratio (document.hpp's times): whole from 10 up, else two decimals.
std::string ratio_number(double value) { return format_number(value >= 10 ? "%.0f" : "%.2f", value); }

}  // namespace

std::string range_text(const RatioRange& range) {
  return ratio_number(range.low) + "–" + ratio_number(range.high) + "×";
}

std::string ratio_text(const RatioRange& range) {
  const std::string spread = " (" + range_text(range) + ")";
  if (range.about_one()) return "≈ 1" + spread;
  return ratio_number(range.ratio) + "×" + spread;
}

std::string band_text(const Threshold& noise) { return format_number("±%.1f %%", 100 * half_band(noise)); }

TieOutcome fastest_within_noise(const std::vector<Contender>& contenders) {
  TieOutcome outcome;
  for (std::size_t i = 0; i < contenders.size(); ++i)
    if (outcome.fastest == static_cast<std::size_t>(-1) ||
        contenders[i].interval.median < contenders[outcome.fastest].interval.median)
      outcome.fastest = i;
  if (outcome.fastest == static_cast<std::size_t>(-1)) return outcome;
  const CellInterval& fastest = contenders[outcome.fastest].interval;
  // Tied: every contender that no other beats beyond the noise (whose interval lies wholly below its own).
  // Not "every one that overlaps the fastest": which tier is fastest moves from run to run, and a tie set
  // anchored on it moved with it (a wide-banded fastest took in a tier that a tight-banded one beats).
  // The fastest by median is never beaten, so it is always in.
  const auto beaten = [&](std::size_t i) {
    return std::any_of(contenders.begin(), contenders.end(), [&](const Contender& other) {
      return other.interval.high < contenders[i].interval.low;
    });
  };
  for (std::size_t i = 0; i < contenders.size(); ++i)
    if (i == outcome.fastest || !beaten(i)) outcome.tied.push_back(i);
  // In rung order, whatever order the contenders came in: the sentence is the same from every caller.
  std::sort(outcome.tied.begin(), outcome.tied.end(), [&](std::size_t x, std::size_t y) {
    const Card &a = *contenders[x].card, &b = *contenders[y].card;
    return a.rung != b.rung ? a.rung < b.rung : a.id < b.id;
  });
  outcome.chosen = outcome.fastest;
  for (const std::size_t i : outcome.tied)
    if (cheaper_to_keep(*contenders[i].card, *contenders[outcome.chosen].card)) outcome.chosen = i;
  if (outcome.tied.size() < 2) return outcome;
  std::vector<std::string> names;
  double slowest = fastest.median;
  for (const std::size_t i : outcome.tied) {
    names.push_back(contenders[i].card->id);
    slowest = std::max(slowest, contenders[i].interval.median);
  }
  std::string listed;
  for (std::size_t i = 0; i < names.size(); ++i)
    listed += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  const Card& chosen = *contenders[outcome.chosen].card;
  // Within the noise band the noise is why; past it, a tier's own repetitions spread wide enough to reach
  // the fastest's interval (the sentence must not call 100 % apart "closer than the noise").
  const double apart = slowest / fastest.median - 1;
  // Pooled over runs, an interval is the runs' own spread: no band, and the source says whose runs.
  const std::string because =
      fastest.runs > 1
          ? ", within each other's intervals over the runs of this build here (" + fastest.noise.source + ")"
      : apart <= fastest.noise.percent / 100
          ? ", closer than this machine's noise (" + band_text(fastest.noise) + " a cell, " +
                fastest.noise.source + ")"
          : ", yet within each other's intervals: the repetitions of the slower spread into the faster's "
            "(past this machine's noise, " +
                band_text(fastest.noise) + " a cell)";
  outcome.why = listed + ": " + format_number("%.1f %% apart", 100 * apart) + because + "; " + chosen.id +
                " is the cheapest to keep (" + format_number("%.1f engineer-days", days_to_keep(chosen)) +
                " over " + format_number("%g years", CostFigures{}.horizon_years) + ")";
  return outcome;
}

namespace {

constexpr std::size_t none = static_cast<std::size_t>(-1);

// fastest_within_noise over some of the contenders (`competing`, indices into them), its indices mapped
// back to the contenders'.
TieOutcome fastest_among(const std::vector<Contender>& contenders,
                         const std::vector<std::size_t>& competing) {
  std::vector<Contender> those;
  for (const std::size_t i : competing) those.push_back(contenders[i]);
  TieOutcome outcome = fastest_within_noise(those);
  if (outcome.chosen == none) return outcome;
  outcome.chosen = competing[outcome.chosen];
  outcome.fastest = competing[outcome.fastest];
  for (auto& i : outcome.tied) i = competing[i];
  return outcome;
}

// "openmp-tuned (1.01 cores of other load)"
std::string disturbed_text(const Contender& contender) {
  return contender.card->id + " (" + join(contender.disturbed) + ")";
}

}  // namespace

Choice choose_within_noise(const std::vector<Contender>& contenders) {
  Choice choice;
  std::vector<std::size_t> quiet;
  for (std::size_t i = 0; i < contenders.size(); ++i)
    (contenders[i].disturbed.empty() || contenders[i].interval.runs > 1 ? quiet : choice.kept_out)
        .push_back(i);
  if (quiet.empty()) {  // every contender was disturbed: they compete, and the answer says so
    std::swap(quiet, choice.kept_out);
    choice.tie = fastest_among(contenders, quiet);
    choice.chosen = choice.tie.chosen;
    if (choice.chosen != none)
      choice.note = contenders[choice.chosen].card->id +
                    "'s only measurement was disturbed: " + join(contenders[choice.chosen].disturbed);
    return choice;
  }
  choice.tie = fastest_among(contenders, quiet);
  const Contender& fastest = contenders[choice.tie.fastest];
  std::vector<std::string> could_be_faster, slower, also_faster;  // also_faster: ids past the third
  for (const std::size_t i : choice.kept_out) {
    const Contender& kept = contenders[i];
    // Slower beyond the noise as measured: had it been quiet, it would not have changed the choice.
    if (kept.interval.low > fastest.interval.high)
      slower.push_back(disturbed_text(kept));
    else if (could_be_faster.size() == 3)  // a busy run disturbs every tier: three say why, the rest by name
      also_faster.push_back(kept.card->id);
    else
      could_be_faster.push_back(disturbed_text(kept) + ", " + format_seconds(kept.interval.median) +
                                " a call against " + fastest.card->id + "'s " +
                                format_seconds(fastest.interval.median));
  }
  if (!could_be_faster.empty()) {
    const std::string more = also_faster.empty() ? ""
                                                 : "; and " + std::to_string(also_faster.size()) + " more (" +
                                                       join(also_faster) + ")";
    choice.undecided = "could not decide: the only measurement of " + join(could_be_faster, "; ") + more +
                       " was disturbed, and not slower than the fastest undisturbed tier beyond the noise " +
                       "(measure again on a quiet machine)";
    return choice;
  }
  choice.chosen = choice.tie.chosen;
  if (!slower.empty())
    choice.note = "kept out of the answer, its only measurement disturbed: " + join(slower) +
                  "; as measured, slower than " + fastest.card->id + " beyond the noise";
  return choice;
}

}  // namespace ladder::report
