// `ladder history check` on the noise model (common/noise/noise.hpp): the newest run of a series against the
// runs before it, measured apart, and the series' noise floor from its runs of one clean commit.
#include <cmath>
#include <map>

#include "detect_support.hpp"
#include "history_detect.hpp"
#include "text.hpp"

namespace ladder::history {
namespace {

using namespace detail;

// A run of a known commit without uncommitted changes: its code is the commit's.
bool clean_commit(const CellRun& run) { return !run.dirty && !run.commit.empty() && run.commit != "unknown"; }
// A median to compare (a run that failed the cell has none).
bool measured(double seconds) { return std::isfinite(seconds) && seconds > 0; }

// Two runs of one clean commit ran the same code: a change in time between them is the machine's.
bool same_code(const CellRun& a, const CellRun& b) {
  return clean_commit(a) && clean_commit(b) && a.commit == b.commit;
}
const std::string same_code_note =
    "; both of one clean commit: the machine or its load changed, not the code (its noise on this cell is "
    "more than the threshold allows: `ladder ab --base HEAD --head HEAD` measures it)";

std::string percent_text(double percent) { return format_number("%.3g %%", percent); }

// The newest run's median against an earlier one (the previous run's, or the baseline's), measured apart.
struct Apart {
  double before = 0, ratio = 1;
  RatioInterval interval{};
  Verdict verdict = Verdict::undecided;
  bool fails = false;  // slower, and more than --fail-above when that is given
};

Apart judged(double before, double after, double floor, const Threshold& threshold,
             const DetectOptions& options) {
  Apart apart;
  apart.before = before;
  apart.ratio = after / before;
  apart.interval = apart_interval(apart.ratio, floor);
  apart.verdict = judge(apart.interval, threshold.percent);
  apart.fails = apart.verdict == Verdict::slower &&
                (!options.fail_above_percent || (apart.ratio - 1) * 100 > *options.fail_above_percent);
  return apart;
}

// "new/old 1.302, 95 % interval 1.240–1.367 (± the noise floor either side), wholly above the threshold
// +5 %: the documented default 5 %, not this machine's noise floor (…)".
std::string figures(const Apart& apart, const Threshold& floor, const Threshold& threshold) {
  const std::string text = "new/old " + format_number("%.3f", apart.ratio) + ", 95 % interval " +
                           format_number("%.3f", apart.interval.low) + "–" +
                           format_number("%.3f", apart.interval.high);
  const std::string edge = "wholly above the threshold +" + percent_text(threshold.percent);
  if (threshold.source == floor.source)
    return text + " (± the noise floor either side), " + edge + ": " + threshold.source;
  return text + " (± the noise floor either side: " + floor.source + "), " + edge + " (" + threshold.source +
         ")";
}

// The baseline's runs [first, second) in the series: the runs before a recent slower step, else the
// `baseline_runs` runs before the newest, within one level.
std::pair<std::size_t, std::size_t> baseline_of(const HistorySeries& series, const DetectOptions& options) {
  const std::size_t count = series.runs.size();
  const auto window = static_cast<std::size_t>(std::max(1, options.baseline_runs));
  const auto steps = detect_steps(series, options);
  std::size_t end = count - 1, level_start = 0;
  for (const auto& step : steps)
    if (step.worse() && step.index + window >= count) end = step.index;
  for (const auto& step : steps)  // the baseline stays within one level
    if (step.index < end) level_start = step.index;
  return {std::max(level_start, end >= window ? end - window : 0), end};
}

// The series' verdict row: its newest run against the earlier median `apart` was judged on.
VerdictRow row_of(const HistorySeries& series, const Apart& apart, const Threshold& threshold,
                  const std::string& note) {
  VerdictRow row;
  row.coordinates() = series.coordinates();
  row.cell = coordinates_name(row, series.cell_build);
  row.interval = apart.interval;
  row.verdict = apart.verdict;
  row.threshold = threshold;
  row.base_seconds = apart.before;
  row.head_seconds = series.runs.back().median;
  row.note = note;
  return row;
}

// The reasons the newest run's instruction count or FLOPs a node gives: more than `instructions_percent`
// above the previous count.
void check_counts(const HistorySeries& series, const DetectOptions& options, const std::string& subject,
                  std::vector<std::string>& reasons) {
  const CellRun& newest = series.runs.back();
  const std::pair<Count, const char*> counts[] = {{&CellRun::instructions_per_node, "instructions"},
                                                  {&CellRun::flops_per_node, "FLOPs"}};
  for (const auto& [member, words] : counts) {
    const CellRun* before = previous_with_count(series, series.runs.size() - 1, member);
    if (!before || !(newest.*member) || *(newest.*member) <= 0) continue;
    const double ratio = *(newest.*member) / *(before->*member);
    if ((ratio - 1) * 100 > options.instructions_percent)
      reasons.push_back(subject + " counts " + format_number("%.2f %%", (ratio - 1) * 100) + " more " +
                        words + " per node than " + run_name(*before) + ": " +
                        format_number("%.4g", *(newest.*member)) + " against " +
                        format_number("%.4g", *(before->*member)) + ", more than " +
                        format_number("%g %%", options.instructions_percent));
  }
}

}  // namespace

std::optional<SameCommitNoise> same_commit_noise(const HistorySeries& series) {
  // Each clean commit's runs with a median, in the series' (time) order; the last index breaks a tie.
  std::map<std::string, std::vector<std::size_t>> by_commit;
  for (std::size_t i = 0; i < series.runs.size(); ++i)
    if (clean_commit(series.runs[i]) && measured(series.runs[i].median))
      by_commit[series.runs[i].commit].push_back(i);
  const std::vector<std::size_t>* most = nullptr;
  for (const auto& [commit, indices] : by_commit)
    if (!most || indices.size() > most->size() ||
        (indices.size() == most->size() && indices.back() > most->back()))
      most = &indices;
  if (!most) return std::nullopt;
  std::vector<double> log_ratios;
  for (std::size_t k = 1; k < most->size(); ++k)
    log_ratios.push_back(std::log(series.runs[(*most)[k]].median / series.runs[(*most)[k - 1]].median));
  const auto percent = apart_noise_floor_percent(log_ratios);  // runs apart: their tail counts
  if (!percent) return std::nullopt;
  return SameCommitNoise{*percent, static_cast<int>(most->size()), series.runs[most->front()].commit,
                         series.runs[most->back()].time};
}

std::optional<double> same_commit_noise_percent(const HistorySeries& series) {
  const auto noise = same_commit_noise(series);
  return noise ? std::optional<double>(noise->percent) : std::nullopt;
}

Threshold noise_floor_of(const HistorySeries& series) {
  if (const auto own = same_commit_noise(series))
    return {own->percent,
            "this machine's noise floor, " + percent_text(own->percent) + " (history: " +
                counted(own->runs, "run", "runs") + " of clean commit " + short_commit(own->commit) + ")",
            true};
  return default_threshold();
}

NewestCheck check_newest_run(const HistorySeries& series, const DetectOptions& options) {
  validate(options);
  NewestCheck check;
  const std::size_t count = series.runs.size();
  if (count < 2) return check;
  const CellRun& newest = series.runs.back();
  const CellRun& previous = series.runs[count - 2];
  const std::string subject = describe(series) + ": the newest " + run_name(newest);
  const Threshold floor = noise_floor_of(series);
  const Threshold threshold = options.min_change_percent
                                  ? Threshold{*options.min_change_percent, "--min-change", false}
                              : floor.measured ? floor_threshold(floor.percent, floor.source)
                                               : floor;
  const std::string over =
      options.fail_above_percent
          ? ", more than --fail-above " + format_number("%g %%", *options.fail_above_percent)
          : std::string();
  const auto reason = [&](const Apart& apart, const std::string& than, const std::string& against,
                          bool same) {
    return subject + " is " + percent_more(apart.ratio) + " slower than " + than + ": median " +
           format_seconds(newest.median) + " against " + against + format_seconds(apart.before) + "; " +
           figures(apart, floor, threshold) + over + (same ? same_code_note : std::string());
  };
  if (!measured(newest.median)) {  // a run without a time: its counts alone
    check_counts(series, options, subject, check.reasons);
    return check;
  }

  std::optional<Apart> pairwise;
  if (measured(previous.median)) {
    pairwise = judged(previous.median, newest.median, floor.percent, threshold, options);
    if (pairwise->fails)
      check.reasons.push_back(
          reason(*pairwise, "the previous " + run_name(previous), "", same_code(newest, previous)));
    check.row =
        row_of(series, *pairwise, threshold, "measured apart: the newest run against the previous one");
  }
  const auto [begin, end] = baseline_of(series, options);
  std::vector<double> medians;
  bool all_same_code = true;
  for (std::size_t i = begin; i < end; ++i)
    if (measured(series.runs[i].median)) {
      all_same_code = all_same_code && same_code(newest, series.runs[i]);
      medians.push_back(series.runs[i].median);
    }
  // The baseline of the previous run alone is the pairwise comparison again.
  if (!medians.empty() && !(begin == count - 2 && end == count - 1)) {
    const Apart baseline = judged(median_of(medians), newest.median, floor.percent, threshold, options);
    const std::string runs = counted(static_cast<int>(medians.size()), "run", "runs");
    if (baseline.fails)
      check.reasons.push_back(reason(
          baseline,
          "the " + runs + " from " + run_name(series.runs[begin]) + " to " + run_name(series.runs[end - 1]),
          "their median ", all_same_code));
    if (baseline.fails || !pairwise || !pairwise->fails)
      check.row = row_of(series, baseline, threshold,
                         "measured apart: the newest run against the median of its baseline's " + runs);
  }
  check_counts(series, options, subject, check.reasons);
  return check;
}

std::vector<std::string> check_newest(const HistorySeries& series, const DetectOptions& options) {
  return check_newest_run(series, options).reasons;
}

}  // namespace ladder::history
