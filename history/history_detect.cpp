#include "history_detect.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "detect_support.hpp"
#include "errors.hpp"
#include "text.hpp"

namespace ladder::history {
namespace {

using namespace detail;

// The mean absolute deviation from the median: the L1 noise of a level.
double deviation_of(const std::vector<double>& values) {
  const double centre = median_of(values);
  double sum = 0;
  for (const double value : values) sum += std::fabs(value - centre);
  return sum / static_cast<double>(values.size());
}

// The noise of one run's median, robustly: consecutive differences hold the noise twice and a step or an
// outlier only once or twice, so their median absolute value (as a normal standard deviation, / √2)
// ignores both.
double series_noise(const std::vector<double>& logs) {
  std::vector<double> differences;
  for (std::size_t i = 1; i < logs.size(); ++i) differences.push_back(std::fabs(logs[i] - logs[i - 1]));
  const double noise = 1.4826 * median_of(differences) / std::sqrt(2.0);
  return std::max(noise, 1e-9);  // identical runs: any split costs the penalty and gains nothing
}

// cost[s][t - s - 1]: the L1 cost of one level over logs[s, t), Σ |y − median|.
std::vector<std::vector<double>> segment_costs(const std::vector<double>& logs) {
  const std::size_t count = logs.size();
  std::vector<std::vector<double>> cost(count);
  for (std::size_t start = 0; start < count; ++start) {
    std::vector<double> sorted;
    for (std::size_t end = start + 1; end <= count; ++end) {
      sorted.insert(std::upper_bound(sorted.begin(), sorted.end(), logs[end - 1]), logs[end - 1]);
      // Σ |y − median| is the sum of the upper half less the sum of the lower half.
      const std::size_t half = sorted.size() / 2;
      double sum = 0;
      for (std::size_t i = 0; i < half; ++i) sum += sorted[sorted.size() - 1 - i] - sorted[i];
      cost[start].push_back(sum);
    }
  }
  return cost;
}

// Optimal partitioning: the starts of the levels (0 first) minimizing Σ cost / noise + penalty × levels,
// each level at least `shortest` runs.
std::vector<std::size_t> optimal_starts(const std::vector<double>& logs, std::size_t shortest,
                                        double penalty) {
  const std::size_t count = logs.size();
  const auto cost = segment_costs(logs);
  const double noise = series_noise(logs);
  const double infinite = std::numeric_limits<double>::infinity();
  std::vector<double> best(count + 1, infinite);
  std::vector<std::size_t> last_start(count + 1, 0);
  best[0] = 0;
  for (std::size_t end = shortest; end <= count; ++end)
    for (std::size_t start = 0; start + shortest <= end; ++start) {
      if (best[start] == infinite) continue;
      const double total = best[start] + cost[start][end - start - 1] / noise + penalty;
      if (total < best[end]) best[end] = total, last_start[end] = start;
    }
  std::vector<std::size_t> starts;
  for (std::size_t end = count; end > 0; end = last_start[end]) starts.push_back(last_start[end]);
  std::reverse(starts.begin(), starts.end());
  return starts;
}

std::vector<double> slice(const std::vector<double>& values, std::size_t begin, std::size_t end) {
  return {values.begin() + static_cast<std::ptrdiff_t>(begin),
          values.begin() + static_cast<std::ptrdiff_t>(end)};
}

std::vector<DetectedChange> count_changes(const HistorySeries& series, const DetectOptions& options,
                                          Count count, ChangeKind kind) {
  validate(options);
  std::vector<DetectedChange> changes;
  for (std::size_t i = 1; i < series.runs.size(); ++i) {
    const CellRun& run = series.runs[i];
    const CellRun* previous = previous_with_count(series, i, count);
    if (!(run.*count) || *(run.*count) <= 0 || !previous) continue;
    const double ratio = *(run.*count) / *(previous->*count);
    if (std::fabs(ratio - 1) * 100 <= options.instructions_percent) continue;
    DetectedChange change{kind, i, run.run_id, run.commit, run.time};
    change.before = *(previous->*count);
    change.after = *(run.*count);
    change.ratio = ratio;
    changes.push_back(change);
  }
  return changes;
}

}  // namespace

void validate(const DetectOptions& options) {
  const auto refuse = [](const std::string& name, double value, const std::string& accepted) {
    throw InputError("history detection: " + name + " " + format_number("%g", value) + " is out of range (" +
                     accepted + ")");
  };
  const std::pair<const char*, std::optional<double>> non_negative[] = {
      {"min-change", options.min_change_percent},
      {"step threshold", options.step_threshold_percent},
      {"penalty", options.penalty},
      {"instructions threshold", options.instructions_percent},
      {"fail-above", options.fail_above_percent}};
  for (const auto& [name, value] : non_negative)
    if (value && !(*value >= 0 && std::isfinite(*value))) refuse(name, *value, "a number, 0 or more");
  if (options.min_segment_runs < 1) refuse("min segment runs", options.min_segment_runs, "1 or more");
  if (options.baseline_runs < 1) refuse("baseline runs", options.baseline_runs, "1 or more");
}

std::string direction(const DetectedChange& change) {
  if (change.kind == ChangeKind::time) return change.worse() ? "slower" : "faster";
  if (change.kind == ChangeKind::flops) return change.worse() ? "more FLOPs" : "fewer FLOPs";
  return change.worse() ? "more instructions" : "fewer instructions";
}

std::string describe(const HistorySeries& series) {
  if (is_repository_benchmark(series.coordinates()))
    return "benchmark '" + series.integrand + "' of " + series.tier_id + " on '" + series.machine + "'";
  return "tier '" + series.tier + "' at n = " + format_count(static_cast<double>(series.n)) + ", " +
         counted(series.threads, "thread", "threads") + " on '" + series.machine + "'";
}

std::vector<DetectedChange> detect_steps(const HistorySeries& series, const DetectOptions& options) {
  validate(options);
  // The runs with a median to fit (a failed run has none), by their index in the series.
  std::vector<std::size_t> indices;
  std::vector<double> logs;
  for (std::size_t i = 0; i < series.runs.size(); ++i)
    if (const double median = series.runs[i].median; std::isfinite(median) && median > 0)
      indices.push_back(i), logs.push_back(std::log(median));
  const auto shortest = static_cast<std::size_t>(std::max(1, options.min_segment_runs));
  if (logs.size() < 2 * shortest) return {};

  // Logs: a step is relative, whatever the cell's time.
  std::vector<std::size_t> starts =
      optimal_starts(logs, shortest, options.penalty * std::log(static_cast<double>(logs.size())));
  starts.push_back(logs.size());
  const double threshold = options.step_threshold_percent / 100;
  // Merge away the smallest step that is not a change until every step left is one.
  for (;;) {
    std::size_t weakest = 0;
    double weakest_step = std::numeric_limits<double>::infinity();
    for (std::size_t k = 1; k + 1 < starts.size(); ++k) {
      const auto before = slice(logs, starts[k - 1], starts[k]),
                 after = slice(logs, starts[k], starts[k + 1]);
      const double step = median_of(after) - median_of(before);
      const double noise = std::max(deviation_of(before), deviation_of(after));
      const bool change = std::fabs(std::exp(step) - 1) > threshold && std::fabs(step) > noise;
      if (!change && std::fabs(step) < weakest_step) weakest = k, weakest_step = std::fabs(step);
    }
    if (weakest == 0) break;
    starts.erase(starts.begin() + static_cast<std::ptrdiff_t>(weakest));
  }

  std::vector<DetectedChange> changes;
  for (std::size_t k = 1; k + 1 < starts.size(); ++k) {
    const CellRun& first = series.runs[indices[starts[k]]];
    DetectedChange change{ChangeKind::time, indices[starts[k]], first.run_id, first.commit, first.time};
    change.before = std::exp(median_of(slice(logs, starts[k - 1], starts[k])));
    change.after = std::exp(median_of(slice(logs, starts[k], starts[k + 1])));
    change.ratio = change.after / change.before;
    changes.push_back(change);
  }
  return changes;
}

std::vector<DetectedChange> detect_instruction_changes(const HistorySeries& series,
                                                       const DetectOptions& options) {
  return count_changes(series, options, &CellRun::instructions_per_node, ChangeKind::instructions);
}

std::vector<DetectedChange> detect_flops_changes(const HistorySeries& series, const DetectOptions& options) {
  return count_changes(series, options, &CellRun::flops_per_node, ChangeKind::flops);
}

std::vector<DetectedChange> detect_changes(const HistorySeries& series, const DetectOptions& options) {
  std::vector<DetectedChange> changes = detect_steps(series, options);
  for (const auto& change : detect_instruction_changes(series, options)) changes.push_back(change);
  for (const auto& change : detect_flops_changes(series, options)) changes.push_back(change);
  std::stable_sort(changes.begin(), changes.end(),
                   [](const DetectedChange& a, const DetectedChange& b) { return a.index < b.index; });
  return changes;
}

}  // namespace ladder::history
