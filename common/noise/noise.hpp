// Run-to-run noise, and the verdicts that beat it: the one model `ladder ab`, `ladder compare` and
// `ladder history check` share (docs/did-my-change-make-a-difference.md).
//
// The repetitions inside one worker process share its frequency, placement, page layout and neighbours:
// they are not independent samples of a tier's speed, and what moves between two runs moves all of them
// together. So the unit of evidence here is a process (a run), never a repetition:
// - `ladder ab` runs the two versions' processes alternately (ABBA …): each pair of adjacent processes
//   gives one log ratio head/base, and paired_interval() turns the pairs into a 95 % interval on the ratio;
// - two runs measured apart (`compare`, `history check`) are one pair: their ratio's interval is the
//   machine's noise floor either side (apart_interval());
// - the noise floor is what two runs of the same code differ by: 95 % of such pairs differ by less. It is
//   measured from same-code pairs (an A/A `ladder ab`, or consecutive runs of one clean commit in the
//   history) by noise_floor_percent(), and it is the default threshold of every verdict.
// A verdict compares the whole interval with ± the threshold (judge()): slower or faster only when the
// interval lies wholly beyond it, no change when it lies wholly within, undecided when it straddles it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cell_coordinates.hpp"

namespace ladder {

// The threshold when this machine's noise floor is unknown, in per cent: the run-to-run noise of cells on
// a shared 2-vCPU VM (docs/did-my-change-make-a-difference.md), not any other machine's.
inline constexpr double default_noise_percent = 5;
// Fewer same-code pairs than this give no noise floor.
inline constexpr int noise_floor_min_pairs = 5;
// Fewer pairs than this give no rank interval at 95 % (with 5 the smallest two-sided level is 6.25 %).
inline constexpr int interval_min_pairs = 6;

// A ratio (head/base, or new/old) and its 95 % interval.
struct RatioInterval {
  double ratio = 1, low = 0, high = 0;  // low = 0, high = 0: no interval (too few pairs)
  int pairs = 0;                        // the pairs of processes (runs) behind it
  bool known() const { return high > 0; }
};

// The median of the pairs' log ratios and the sign test's interval around it, exact at every n, as ratios:
// the k-th smallest to the k-th largest log ratio, k the largest with P(Binomial(n, ½) < k) ≤ 2.5 %. It
// assumes only that each pair is as likely to fall above the true ratio as below it, so it holds whatever
// the shape of the noise; it is deterministic (the same pairs give the same interval); and an outlier pair
// moves it by one rank, not by its size (a process disturbed by a neighbour is common on a shared VM, and
// the Wilcoxon signed-rank interval, whose ends are averages of two pairs, stretches half-way to it).
// Under interval_min_pairs log ratios: the estimate, and no interval.
RatioInterval paired_interval(const std::vector<double>& log_ratios, double confidence = 0.95);

// Two runs measured apart: the ratio, and the noise floor either side of it in log terms
// ([ratio / (1 + f), ratio × (1 + f)]), 95 % of the runs of the same code differing by less.
RatioInterval apart_interval(double ratio, double noise_percent);

enum class Verdict { faster, slower, no_change, undecided };
// "faster", "slower", "no change", "undecided"
std::string to_string(Verdict verdict);

// The interval against ± threshold_percent (in log terms, so 5 % up and 1/1.05 down): slower when its low
// end is above 1 + t, faster when its high end is below 1 / (1 + t), no change when it lies wholly within,
// undecided otherwise (and without an interval).
Verdict judge(const RatioInterval& interval, double threshold_percent);

// How many more pairs would likely settle an undecided interval: its half-width shrinks as 1/√pairs until
// it clears the nearer edge of ± the threshold from its centre. 0 for a decided one; nullopt when the
// centre sits on an edge (no number of pairs is likely to settle it).
std::optional<int> pairs_to_settle(const RatioInterval& interval, double threshold_percent);

// The noise floor of same-code pairs' log ratios (A/A pairs, or consecutive runs of one commit): the
// change 95 % of them stay under, 100 × (exp(1.96 s) − 1) with s the robust spread √(m² + (1.4826 MAD)²)
// (m their median, MAD the median absolute deviation from it). nullopt under noise_floor_min_pairs.
std::optional<double> noise_floor_percent(const std::vector<double>& same_code_log_ratios);
// The same for runs measured apart (consecutive runs of one commit in the history): the larger of that and
// the 95th percentile of the |log ratios| themselves (linearly interpolated). Runs apart drift and jump
// (a memory-bound cell here ran 43 ms, then 78 ms, of one commit), and a few pairs' MAD does not see a
// heavy tail, so a check of runs of one commit would flag the machine's own jumps.
std::optional<double> apart_noise_floor_percent(const std::vector<double>& same_code_log_ratios);

// Where a verdict's threshold came from.
struct Threshold {
  double percent = default_noise_percent;
  // "this machine's noise floor (A/A, 12 pairs, 2026-12-03)", "--min-change", or
  // "the documented default 5 %, not this machine's noise floor (unknown: `ladder ab --base HEAD --head
  // HEAD` measures it)"
  std::string source;
  bool measured = false;  // this machine's own figure
};
// The documented default, saying it is not this machine's.
Threshold default_threshold();

// The least threshold a measured noise floor gives, in per cent: on a quiet machine adjacent processes of
// one tier may differ by 0.2 %, and a change that small is the binary's layout as often as the code's.
// criterion.rs's default noise threshold is 1 % as well.
inline constexpr double min_threshold_percent = 1;
// A measured noise floor as a threshold: at least min_threshold_percent, its source saying when it was
// raised to it.
Threshold floor_threshold(double floor_percent, const std::string& source);

// One cell's verdict, as every output shows it (reports/outputs/verdict_outputs.hpp: the table, Markdown,
// GitHub annotations, Bencher's metric format).
struct VerdictRow : CellCoordinates {
  std::string cell;        // "inlined/gauss/n:1e7/threads:1"
  RatioInterval interval;  // head/base (new/old)
  Verdict verdict = Verdict::undecided;
  Threshold threshold;
  std::optional<double> base_seconds, head_seconds;  // medians of the processes
  std::string note;     // "12 pairs", "4 more pairs would likely settle it", "measured apart"
  bool failed = false;  // nothing was measured (a process failed, or the cell was not attempted): see note
};
// Worst first: the highest ratio first (the slowest change leads), ties by cell name.
void sort_worst_first(std::vector<VerdictRow>& rows);

}  // namespace ladder
