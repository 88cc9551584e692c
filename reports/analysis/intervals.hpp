// How sure a figure is: each cell's interval, and the ties they make. One run's cells are not compared
// on their medians alone: two runs of the same code here differ by the machine's run-to-run noise
// (common/noise/noise.hpp; RunNoise gives a cell's), so a tier faster by less than that is tied with the
// other, and a tie is broken by the cost to keep (economics.hpp's cheaper_to_keep), not by the noise. The
// report's answer, its current rung, the usage map, `--deadline` and `ladder pick` all decide with these
// (docs/reading-the-report.md).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "cell_result.hpp"
#include "noise.hpp"

namespace ladder::report {

// report.hpp includes this header (a Row carries its cell's interval), so these two are only named here.
struct Card;
struct Run;

// A cell's median and the interval around it, in seconds a call: the hull of
// - its repetitions' interval on the median (the sign test's rank interval at 95 % where there are 6 or
//   more; none under 6, where no 95 % interval exists): the spread inside the run;
// - the noise band: median / (1 + h) to median × (1 + h), h = √(1 + F) − 1 for the machine's noise floor
//   F (two cells' bands then overlap exactly when their ratio is within 1 + F, the floor of a ratio).
struct CellInterval {
  double median = 0, low = 0, high = 0;
  Threshold noise;  // F and where it came from
  int runs = 1;     // the runs it pools (cell_interval(run, cell)): 1, this run alone
};
CellInterval cell_interval(const CellResult& cell, const Threshold& noise);
// With run.noise.of(cell); or, where the history holds pooled_min_other_runs or more other runs of this same
// code and build here (run.noise.other_runs), the runs' interval: the median of their medians and this
// cell's, and the sign test's 95 % rank interval over them. Runs measured apart are the independent samples
// a run's repetitions are not (pyperf's worker processes; research/user-needs.md §1): what moves between runs
// is in them, so no noise band is added, and a tier 12 % behind another on a machine whose runs move 20 %
// is no longer tied in one run and apart in the next.
inline constexpr std::size_t pooled_min_other_runs = 5;
CellInterval cell_interval(const Run& run, const CellResult& cell);

// Whether two intervals overlap: neither tier is faster beyond the noise.
bool tied(const CellInterval& a, const CellInterval& b);

// A ratio of two intervals' medians (x / y) and its range (x.low / y.high to x.high / y.low).
struct RatioRange {
  double ratio = 1, low = 1, high = 1;
  bool about_one() const { return low <= 1 && 1 <= high; }  // within the noise of 1: "≈ 1"
};
RatioRange ratio_range(const CellInterval& x, const CellInterval& y);
// "179× (170–188×)", or "≈ 1 (0.97–1.04×)" when the range holds 1 (a ratio within the noise of 1).
std::string ratio_text(const RatioRange& range);
std::string range_text(const RatioRange& range);  // its range alone: "170–188×"

// One contender for a place: a tier and its interval, and why its cell's measurement was disturbed
// (common/noise/disturbance.hpp; empty when it was not).
struct Contender {
  const Card* card = nullptr;
  CellInterval interval;
  std::vector<std::string> disturbed{};
};
// The fastest of the contenders within the noise: every contender that no other beats beyond the noise
// (no other's interval lies wholly below its own), the fastest by median always among them (each of them
// overlaps it); among those the one cheapest to keep is chosen. `why` says so when more than
// one was tied: "openmp-tuned or tbb-tuned: 1.6 % apart, closer than this machine's noise (±3 %, …);
// openmp-tuned is the cheaper to keep (4.2 engineer-days against 5.0)". Empty contenders: chosen = npos.
struct TieOutcome {
  std::size_t chosen = static_cast<std::size_t>(-1);
  std::size_t fastest = static_cast<std::size_t>(-1);  // by median alone
  std::vector<std::size_t> tied;                       // the contenders tied with the fastest, it included
  std::string why;                                     // empty when no other was tied
};
TieOutcome fastest_within_noise(const std::vector<Contender>& contenders);

// The choice of one place (the answer, the current rung, `ladder pick`) among contenders, disturbed ones
// kept out (but for one whose interval pools several runs: one disturbed run of them does not decide it):
// fastest_within_noise over the undisturbed contenders, or over every contender when all were disturbed (then
// `note` says the choice rests on a disturbed measurement). A disturbed contender kept out that is not slower
// than the chosen one beyond the noise could be the fastest: the place is then not decided (chosen = npos,
// `undecided` says why), since a disturbed figure never decides silently. One kept out and slower beyond the
// noise is named in `note`.
struct Choice {
  std::size_t chosen = static_cast<std::size_t>(-1);
  TieOutcome tie;                     // over the contenders that competed, as indices into the contenders
  std::vector<std::size_t> kept_out;  // disturbed contenders that did not compete
  std::string undecided;              // "could not decide: …"; empty when decided
  std::string note;                   // what the disturbed contenders did to the choice; empty when nothing
};
Choice choose_within_noise(const std::vector<Contender>& contenders);

// "±2.5 %": the half of the noise band a cell's interval has (h of cell_interval, in per cent).
std::string band_text(const Threshold& noise);

}  // namespace ladder::report
