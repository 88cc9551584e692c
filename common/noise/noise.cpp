#include "noise.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "text.hpp"

namespace ladder {
namespace {

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t half = values.size() / 2;
  return values.size() % 2 ? values[half] : (values[half - 1] + values[half]) / 2;
}

// The largest k with P(B ≤ k − 1) ≤ tail for B ~ Binomial(n, ½): the number of pairs below the true
// median ratio. The interval is then the k-th smallest to the k-th largest log ratio (the sign test's).
std::size_t sign_test_depth(int n, double tail) {
  double term = std::pow(0.5, n);  // P(B = 0)
  double below = 0;                // P(B ≤ k − 1)
  std::size_t k = 0;
  while (static_cast<int>(k) <= n && below + term <= tail) {
    below += term, ++k;
    term *= static_cast<double>(n - static_cast<int>(k) + 1) / static_cast<double>(k);  // P(B = k)
  }
  return k;
}

}  // namespace

RatioInterval paired_interval(const std::vector<double>& log_ratios, double confidence) {
  RatioInterval interval;
  interval.pairs = static_cast<int>(log_ratios.size());
  if (log_ratios.empty()) return interval;
  std::vector<double> sorted = log_ratios;
  std::sort(sorted.begin(), sorted.end());
  interval.ratio = std::exp(median_of(sorted));
  if (interval.pairs < interval_min_pairs) return interval;
  const std::size_t depth = sign_test_depth(interval.pairs, (1 - confidence) / 2);
  if (depth == 0) return interval;  // a level this n cannot reach
  interval.low = std::exp(sorted[depth - 1]);
  interval.high = std::exp(sorted[sorted.size() - depth]);
  return interval;
}

RatioInterval apart_interval(double ratio, double noise_percent) {
  const double spread = 1 + noise_percent / 100;
  return {ratio, ratio / spread, ratio * spread, 1};
}

std::string to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::faster:
      return "faster";
    case Verdict::slower:
      return "slower";
    case Verdict::no_change:
      return "no change";
    case Verdict::undecided:
      break;
  }
  return "undecided";
}

Verdict judge(const RatioInterval& interval, double threshold_percent) {
  if (!interval.known()) return Verdict::undecided;
  const double edge = std::log1p(threshold_percent / 100);
  const double low = std::log(interval.low), high = std::log(interval.high);
  if (low > edge) return Verdict::slower;
  if (high < -edge) return Verdict::faster;
  if (low >= -edge && high <= edge) return Verdict::no_change;
  return Verdict::undecided;
}

std::optional<int> pairs_to_settle(const RatioInterval& interval, double threshold_percent) {
  if (interval.known() && judge(interval, threshold_percent) != Verdict::undecided) return 0;
  if (!interval.known()) return std::max(0, interval_min_pairs - interval.pairs);
  const double edge = std::log1p(threshold_percent / 100);
  const double centre = std::log(interval.ratio);
  const double half_width = (std::log(interval.high) - std::log(interval.low)) / 2;
  const double room = std::min(std::fabs(centre - edge), std::fabs(centre + edge));
  if (room < 1e-4) return std::nullopt;  // on an edge to 0.01 %: pairs would not settle it
  const double needed = interval.pairs * (half_width / room) * (half_width / room);
  if (needed > 1e6) return std::nullopt;
  return std::max(1, static_cast<int>(std::ceil(needed)) - interval.pairs);
}

std::optional<double> noise_floor_percent(const std::vector<double>& same_code_log_ratios) {
  if (static_cast<int>(same_code_log_ratios.size()) < noise_floor_min_pairs) return std::nullopt;
  const double centre = median_of(same_code_log_ratios);
  std::vector<double> deviations;
  for (const double value : same_code_log_ratios) deviations.push_back(std::fabs(value - centre));
  const double spread = 1.4826 * median_of(deviations);
  return 100 * std::expm1(1.96 * std::sqrt(centre * centre + spread * spread));
}

std::optional<double> apart_noise_floor_percent(const std::vector<double>& same_code_log_ratios) {
  const auto robust = noise_floor_percent(same_code_log_ratios);
  if (!robust) return std::nullopt;
  std::vector<double> sizes;
  for (const double value : same_code_log_ratios) sizes.push_back(std::fabs(value));
  std::sort(sizes.begin(), sizes.end());
  const double rank = 0.95 * static_cast<double>(sizes.size() - 1);
  const auto below = static_cast<std::size_t>(rank);
  const double upper = below + 1 < sizes.size() ? sizes[below + 1] : sizes[below];
  const double quantile = sizes[below] + (rank - static_cast<double>(below)) * (upper - sizes[below]);
  return std::max(*robust, 100 * std::expm1(quantile));
}

Threshold default_threshold() {
  return {default_noise_percent,
          "the documented default " + format_number("%g %%", default_noise_percent) +
              ", not this machine's noise floor (unknown here: `ladder ab --base HEAD --head HEAD` measures "
              "it)",
          false};
}

Threshold floor_threshold(double floor_percent, const std::string& source) {
  if (floor_percent >= min_threshold_percent) return {floor_percent, source, true};
  return {min_threshold_percent,
          source + ", raised to the least threshold, " + format_number("%g %%", min_threshold_percent), true};
}

void sort_worst_first(std::vector<VerdictRow>& rows) {
  std::stable_sort(rows.begin(), rows.end(), [](const VerdictRow& a, const VerdictRow& b) {
    if (a.interval.ratio != b.interval.ratio) return a.interval.ratio > b.interval.ratio;
    return a.cell < b.cell;
  });
}

}  // namespace ladder
