// A run's own noise, measured from its cells' rounds (harness/run/rounds.hpp): the one rule the runner (which
// drops a round beyond it) and the readers (the report's bands, ties and usage map, `pick`, `compare`)
// share.
//
// Each cell runs in R rounds, fresh worker processes minutes apart, so two rounds of one cell are two runs
// of the same code measured apart, as a history's runs of one commit are. Every pair of a cell's clean
// rounds gives one log ratio (the later round's median over the earlier's); the pairs of all cells of one
// size class (one n) give that class's noise floor by the rule the history's runs use
// (noise.hpp's apart_noise_floor_percent: the larger of the robust 95 % spread and the 95th percentile of
// the |log ratios|). A class with fewer than noise_floor_min_pairs pairs takes the floor over every size;
// a run with fewer than that has none (a run of --rounds 1, or of one cell).
//
// That floor is how far two single rounds differ: the runner drops a round slower than its cell's others by
// more than it. A cell's figure is taken over its R rounds, and a median of R draws spreads √(π / 2R) as far
// as one draw (its asymptotic standard error; for R = 3 it is 0.72, where the exact figure for a normal
// spread is 0.67, so the band errs wide): two cells' figures differ by less than the floor with its log
// scaled so, and that is the band the readers widen a cell by.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cell_result.hpp"

namespace ladder {

struct RoundNoise {
  double percent = 0;         // the floor of a ratio of two rounds: 95 % of the pairs differ by less
  double figure_percent = 0;  // the floor of a ratio of two cells' figures, each over `rounds` rounds
  int pairs = 0;              // the pairs of rounds behind it
  int rounds = 0;             // the run's rounds a cell (the matrix's)
  std::int64_t n = 0;         // the size class; 0: every size pooled (too few pairs at n alone)
  // "measured in this run, 3 rounds a cell: 95 % of its 84 pairs of clean rounds at n = 1e6 differ by less
  // than 9.1 %, a cell's figure over 3 rounds by less than 6.5 %"
  std::string source() const;
};

// The pair floor (per cent) scaled to two figures of `rounds` rounds each, as above: its log × √(π / 2R), at
// most 1.
double figure_floor_percent(double pair_percent, int rounds);

// Which rounds of a cell count: a predicate over its rounds (the clean ones, for a reader; those free of
// outside load and steal, for the runner before it judges the rest against the band).
using RoundFilter = bool (*)(const Round& round);
bool clean_round(const Round& round);

// The log ratios of the pairs of counted rounds of every ok cell at n (every n when n is 0).
std::vector<double> round_log_ratios(const std::vector<CellResult>& cells, std::int64_t n,
                                     RoundFilter counted = clean_round);

// The run's noise floor for cells of size n, as above; nullopt when the run has too few pairs of rounds.
std::optional<RoundNoise> round_noise(const std::vector<CellResult>& cells, std::int64_t n, int rounds,
                                      RoundFilter counted = clean_round);

}  // namespace ladder
