#include "ab.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

#include "calibration.hpp"
#include "machine_topology.hpp"
#include "peers.hpp"
#include "plan.hpp"
#include "process_stats.hpp"
#include "reference.hpp"
#include "registry.hpp"
#include "text.hpp"
#include "thread_binding.hpp"
#include "worker_process.hpp"

namespace ladder {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// The cells' shared setting: this machine, its CPUs, the workers' memory limit and result file.
struct Machine {
  Topology topology = read_topology();
  cpu_set_t cpus = ThreadBinding::run_cpus();
  std::int64_t memory_limit = static_cast<std::int64_t>(RLIM_INFINITY);
  std::string result_file = "/tmp/ladder-ab-cell-" + std::to_string(::getpid()) + ".json";
  Machine() {
    if (const auto available = process::available_memory())
      memory_limit =
          static_cast<std::int64_t>(0.9 * static_cast<double>(*available)) + (std::int64_t{512} << 20);
  }
  ~Machine() { std::remove(result_file.c_str()); }
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;
};

AbSample measure(const std::string& executable, const CellKey& cell, const AbSettings& settings,
                 const Reference& ref, const Machine& machine) {
  const ThreadBinding binding =
      ThreadBinding::for_cell(find_card(cell.tier), cell, machine.topology, machine.cpus, false);
  const WorkerOutcome outcome =
      run_worker_process(executable, cell, settings.matrix, ref, binding, "", machine.result_file,
                         settings.process_timeout, machine.memory_limit);
  AbSample sample;
  sample.interrupted = outcome.interrupted;
  if (outcome.status != CellStatus::ok || !outcome.measurement)
    sample.failure = std::string(to_string(outcome.status)) + ": " + outcome.reason;
  else
    sample.seconds = outcome.measurement->aggregates.median.real_time * 1e-9;
  return sample;
}

// Whether the cell has what it needs: its verdict is clear after the fewest pairs (or it has the fixed
// number of an A/A run).
bool settled(const AbCell& cell, const AbSettings& settings) {
  const int pairs = static_cast<int>(cell.pairs.size());
  if (settings.fixed_pairs > 0) return pairs >= settings.fixed_pairs;
  if (pairs >= settings.max_pairs) return true;
  if (pairs < settings.min_pairs) return false;
  return judge(paired_interval(balanced_log_ratios(cell.pairs)), cell.threshold.percent) !=
         Verdict::undecided;
}

// One cell: pairs of processes in ABBA order until it is settled or its share of the budget is spent.
AbCell measure_ab_cell(const CellKey& key, const AbSettings& settings, const std::string& base,
                       const std::string& head, double share, const Machine& machine) {
  AbCell cell;
  cell.cell = key;
  cell.name = cell_name(key);
  cell.threshold = settings.threshold_of(key);
  const Reference ref = reference(integrands()[find_integrand(key.integrand)], {key.a, key.b}, key.n);
  return measure_pairs(std::move(cell), settings, share, [&](bool base_side) {
    return measure(base_side ? base : head, key, settings, ref, machine);
  });
}

}  // namespace

AbCell measure_pairs(AbCell cell, const AbSettings& settings, double share, const AbSide& side) {
  const auto started = Clock::now();
  while (!settled(cell, settings)) {
    AbPair pair;
    pair.base_first = base_runs_first(static_cast<int>(cell.pairs.size()));
    const AbSample first = side(pair.base_first);
    const AbSample second = first.failure.empty() && !first.interrupted ? side(!pair.base_first) : AbSample{};
    if (first.interrupted || second.interrupted) {
      cell.interrupted = true;
      break;
    }
    if (!first.failure.empty() || !second.failure.empty()) {
      const bool first_failed = !first.failure.empty();
      cell.failure = std::string(first_failed == pair.base_first ? "base" : "head") + ": " +
                     (first_failed ? first.failure : second.failure);
      break;
    }
    pair.base_seconds = pair.base_first ? first.seconds : second.seconds;
    pair.head_seconds = pair.base_first ? second.seconds : first.seconds;
    cell.pairs.push_back(pair);
    if (interrupted()) {  // between two processes: the pair is whole
      cell.interrupted = !settled(cell, settings);
      break;
    }
    // A further pair takes about as long as the average one so far: stop before it would overrun.
    const double elapsed = since(started);
    const double per_pair = elapsed / static_cast<double>(cell.pairs.size());
    if (elapsed + per_pair > share && !settled(cell, settings)) {
      cell.budget_spent = true;
      break;
    }
  }
  cell.seconds = since(started);
  return cell;
}

bool base_runs_first(int index) { return index % 2 == 0; }

double AbPair::log_ratio() const { return std::log(head_seconds / base_seconds); }

std::vector<double> balanced_log_ratios(const std::vector<AbPair>& pairs) {
  std::vector<double> out;
  for (std::size_t k = 0; k + 1 < pairs.size(); k += 2)
    out.push_back(0.5 * (pairs[k].log_ratio() + pairs[k + 1].log_ratio()));
  return out;
}

VerdictRow AbCell::row() const {
  VerdictRow row;
  row.coordinates() = cell;
  row.cell = name;
  row.threshold = threshold;
  if (!failure.empty()) {
    row.note = "failed: " + failure;
    row.failed = true;
    return row;
  }
  row.interval = paired_interval(balanced_log_ratios(pairs));
  row.verdict = judge(row.interval, threshold.percent);
  row.interval.pairs = static_cast<int>(pairs.size());
  std::vector<double> bases, heads;
  for (const auto& pair : pairs) bases.push_back(pair.base_seconds), heads.push_back(pair.head_seconds);
  if (!pairs.empty()) {
    std::sort(bases.begin(), bases.end()), std::sort(heads.begin(), heads.end());
    row.base_seconds = bases[bases.size() / 2], row.head_seconds = heads[heads.size() / 2];
  }
  row.note = counted(static_cast<int>(pairs.size()), "pair", "pairs");
  if (row.verdict == Verdict::undecided) {
    // Unknown below the fewest pairs; above, the interval's half-width shrinks as 1/√pairs as it does with
    // √units, two pairs a unit.
    const auto more = row.interval.known()
                          ? pairs_to_settle(row.interval, threshold.percent)
                          : std::optional<int>(std::max(0, ab_min_pairs - static_cast<int>(pairs.size())));
    row.note += more ? "; about " + counted(*more, "more pair", "more pairs") + " would likely settle it"
                     : "; its change sits on the threshold: more pairs would not likely settle it";
    if (budget_spent) row.note += " (its share of --budget was spent)";
  }
  if (interrupted) row.note += " (interrupted)";
  return row;
}

std::vector<AbCell> run_ab(const AbSettings& settings, const std::string& base, const std::string& head) {
  const std::vector<CellKey> keys = settings.matrix.cells();
  const Machine machine;
  std::vector<AbCell> cells;
  const auto started = Clock::now();
  for (std::size_t i = 0; i < keys.size() && !interrupted(); ++i) {
    const double left = std::max(0.0, settings.budget_seconds - since(started));
    const double share = left / static_cast<double>(keys.size() - i);
    const auto available = process::available_memory();
    const auto [status, reason] =
        not_attempted(keys[i], settings.matrix, available ? static_cast<double>(*available) : 0);
    if (!reason.empty()) {  // a tier that cannot run the integrand here, a cell too large for the memory
      AbCell skipped;
      skipped.cell = keys[i], skipped.name = cell_name(keys[i]);
      skipped.threshold = settings.threshold_of(keys[i]);
      skipped.failure = std::string(to_string(status)) + ": " + reason;
      cells.push_back(skipped);
    } else {
      cells.push_back(measure_ab_cell(keys[i], settings, base, head, share, machine));
      if (cells.back().interrupted && cells.back().pairs.empty()) {  // nothing of it was measured
        cells.pop_back();
        break;
      }
    }
    print_cell_line(cells.back(), i + 1, keys.size());
  }
  return cells;
}

void print_cell_line(const AbCell& cell, std::size_t index, std::size_t count) {
  const VerdictRow row = cell.row();
  std::printf("  [%zu/%zu] %-40s %s (%s, %s)\n", index, count, row.cell.c_str(),
              row.failed ? "no verdict" : to_string(row.verdict).c_str(), row.note.c_str(),
              format_seconds(cell.seconds).c_str());
  std::fflush(stdout);
}

double estimated_ab_seconds(const AbSettings& settings, const std::string& executable) {
  const Calibration calibration = load_calibration(executable);
  PlanSettings plan;
  plan.instructions = false;
  const Estimate each = estimate(settings.matrix, calibration, plan);
  const int pairs = settings.fixed_pairs > 0 ? settings.fixed_pairs : settings.min_pairs;
  double seconds = 0;
  for (const auto& cell : each.cells) seconds += 2.0 * pairs * cell.seconds;
  return std::min(seconds, settings.budget_seconds);
}

}  // namespace ladder
