// --budget (plan.hpp): a matrix cut down, phase by phase, until its estimate fits a share of the budget.
#include <algorithm>
#include <cmath>

#include "errors.hpp"
#include "plan.hpp"
#include "results_file.hpp"
#include "text.hpp"

namespace ladder {

using nlohmann::json;

BudgetRecord Budgeted::record() const {
  return {budget_text,
          budget_seconds,
          unbudgeted_seconds,
          estimate.seconds,
          dropped,
          {BudgetFloor::repetitions, BudgetFloor::min_time, BudgetFloor::min_warmup_time}};
}

namespace {

// The least a budget can buy: one repetition of each tier at the smallest size, at the floor's minimum
// times, with the fewest and the most threads.
Matrix least_matrix(const Matrix& matrix) {
  Matrix minimal = matrix;
  minimal.sizes = {matrix.sizes.front()};
  if (matrix.threads.size() > 2) minimal.threads = {matrix.threads.front(), matrix.threads.back()};
  minimal.repetitions = 1;
  minimal.min_time = std::min(matrix.min_time, BudgetFloor::min_time);
  minimal.min_warmup_time = std::min(matrix.min_warmup_time, BudgetFloor::min_warmup_time);
  return minimal;
}

// The seconds of the estimate's part named `name`; 0 when it has none.
double part_seconds(const Estimate& estimate, const std::string& name) {
  for (const auto& [part, seconds] : estimate.parts)
    if (part == name) return seconds;
  return 0;
}

// A fit under way: the matrix cut down phase by phase, the estimate after each cut, and each cut said in
// words with the estimate before and after it. A phase cuts only while the estimate is over the target.
class BudgetFit {
 public:
  BudgetFit(Budgeted& fitted, const Calibration& calibration, const PlanSettings& settings)
      : fitted_(fitted), m_(fitted.matrix), calibration_(calibration), settings_(settings) {}

  bool fits() const { return fitted_.estimate.seconds <= budget_share * fitted_.budget_seconds; }

  // Refuses a budget that even the least matrix overruns, naming the least budget that would do.
  void refuse_unreachable(const Matrix& minimal) const {
    const Estimate least_estimate = estimate(minimal, calibration_, settings_);
    const double least = least_estimate.seconds / budget_share;
    if (least <= fitted_.budget_seconds) return;
    const double counting = least_estimate.parts.front().second;  // instruction counting
    const double again = part_seconds(least_estimate, remeasure_part);
    throw InputError(
        "--budget " + fitted_.budget_text +
        " is too small: one repetition of each tier at the smallest size (n = " +
        format_count(static_cast<double>(minimal.sizes.front())) + ") needs about " +
        format_seconds(least, Rounding::up) +
        " here (its estimate, with a tenth kept for the estimate's error); give at least " +
        std::to_string(static_cast<long>(std::ceil(least))) + "s" +
        (counting > 0 ? " (--no-instructions saves about " +
                            format_seconds(counting / budget_share, Rounding::up) + ")"
                      : "") +
        (again > 0 ? " (--remeasure 0 saves about " + format_seconds(again / budget_share, Rounding::up) + ")"
                   : ""));
  }

  // 1. Fewer repetitions and a shorter minimum time, down to the floor.
  void shorten_repetitions() {
    const double before = fitted_.estimate.seconds;
    const int repetitions = m_.repetitions;
    const double min_time = m_.min_time;
    while (!fits() && (m_.repetitions > BudgetFloor::repetitions || m_.min_time > BudgetFloor::min_time)) {
      if (m_.repetitions > BudgetFloor::repetitions)
        m_.repetitions = std::max(BudgetFloor::repetitions, static_cast<int>(m_.repetitions * 0.7));
      if (m_.min_time > BudgetFloor::min_time)
        m_.min_time = std::max(BudgetFloor::min_time, m_.min_time * 0.5);
      m_.min_warmup_time =
          std::min(m_.min_warmup_time, std::max(BudgetFloor::min_warmup_time, m_.min_time * 0.5));
      reestimate();
    }
    if (m_.repetitions != repetitions || m_.min_time != min_time)
      cut("repetitions " + std::to_string(repetitions) + " → " + std::to_string(m_.repetitions) +
              ", minimum time a repetition " + format_seconds(min_time) + " → " +
              format_seconds(m_.min_time) + " (floor: " + std::to_string(BudgetFloor::repetitions) +
              " repetitions, " + format_seconds(BudgetFloor::min_time) + ")",
          before);
  }

  // 2. The intermediate thread counts: the powers of two first, then the topology's own steps, the largest
  // first; 1 and the most are kept. A count no cell ran at saves nothing, so it is neither dropped nor said
  // to be.
  void drop_thread_counts(const std::vector<ThreadStep>& threads) {
    if (fits() || m_.threads.size() <= 2) return;
    const double before = fitted_.estimate.seconds;
    std::vector<std::pair<bool, int>> order;  // (a step of the topology's own, count)
    for (const auto& step : threads) {
      if (step.threads == m_.threads.front() || step.threads == m_.threads.back()) continue;
      const bool own = std::any_of(step.reasons.begin(), step.reasons.end(),
                                   [](const std::string& reason) { return reason != "a power of two"; });
      order.push_back({own, step.threads});
    }
    std::sort(order.begin(), order.end(), [](const auto& x, const auto& y) {
      return x.first != y.first ? !x.first : x.second > y.second;
    });
    std::vector<std::string> gone;
    for (const auto& [own, count] : order) {
      if (fits()) break;
      const Matrix kept = m_;
      m_.threads.erase(std::remove(m_.threads.begin(), m_.threads.end(), count), m_.threads.end());
      const Estimate without = estimate(m_, calibration_, settings_);
      if (!(without.seconds < fitted_.estimate.seconds)) {
        m_ = kept;
        continue;
      }
      gone.push_back(std::to_string(count));
      fitted_.estimate = without;
    }
    if (!gone.empty())
      cut("thread counts " + join(gone) + " (intermediate; " + join_numbers(m_.threads) + " kept)", before);
  }

  // 3. The largest sizes; the smallest is kept.
  void drop_largest_sizes() {
    if (fits() || m_.sizes.size() <= 1) return;
    const double before = fitted_.estimate.seconds;
    std::vector<std::string> gone;
    while (!fits() && m_.sizes.size() > 1) {
      gone.push_back(format_count(static_cast<double>(m_.sizes.back())));
      m_.sizes.pop_back();
      reestimate();
    }
    std::vector<std::string> kept;
    for (const auto size : m_.sizes) kept.push_back(format_count(static_cast<double>(size)));
    cut("sizes n = " + join(gone) + " (the largest; n = " + join(kept) + " kept)", before);
  }

  // 4. Last, one repetition at the floor's minimum time (the least a run can say anything with).
  void last_resort(const Matrix& minimal) {
    if (fits()) return;
    const double before = fitted_.estimate.seconds;
    const int repetitions = m_.repetitions;
    m_.repetitions = 1;
    m_.min_time = minimal.min_time;
    m_.min_warmup_time = minimal.min_warmup_time;
    reestimate();
    cut("repetitions " + std::to_string(repetitions) + " → 1, below the floor: the last resort", before);
  }

 private:
  void reestimate() { fitted_.estimate = estimate(m_, calibration_, settings_); }

  // Records a cut, with the estimate before it and after.
  void cut(const std::string& what, double before) {
    fitted_.dropped.push_back(what + " (to fit --budget " + fitted_.budget_text +
                              ": the estimate goes from " + format_seconds(before, Rounding::up) + " to " +
                              format_seconds(fitted_.estimate.seconds, Rounding::up) + ")");
  }

  Budgeted& fitted_;
  Matrix& m_;  // the matrix being cut: fitted_.matrix
  const Calibration& calibration_;
  const PlanSettings& settings_;
};

}  // namespace

Budgeted fit_budget(const Matrix& matrix, const Budget& budget, const Calibration& calibration,
                    const PlanSettings& settings, const std::vector<ThreadStep>& threads) {
  Budgeted fitted;
  fitted.budget_text = budget.text;
  fitted.budget_seconds = budget.seconds;
  fitted.matrix = matrix;
  fitted.estimate = estimate(matrix, calibration, settings);
  fitted.unbudgeted_seconds = fitted.estimate.seconds;
  BudgetFit fit(fitted, calibration, settings);
  if (fit.fits()) return fitted;
  const Matrix minimal = least_matrix(matrix);
  fit.refuse_unreachable(minimal);
  fit.shorten_repetitions();
  fit.drop_thread_counts(threads);
  fit.drop_largest_sizes();
  fit.last_resort(minimal);
  return fitted;
}

}  // namespace ladder
