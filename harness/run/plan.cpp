#include "plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "builds.hpp"
#include "errors.hpp"
#include "instruction_cache.hpp"
#include "machine_topology.hpp"
#include "peers.hpp"
#include "process_stats.hpp"
#include "profiling.hpp"
#include "registry.hpp"
#include "results_file.hpp"
#include "run_limits.hpp"
#include "text.hpp"

namespace ladder {

using nlohmann::json;

std::pair<CellStatus, std::string> not_attempted(const CellKey& cell, const Matrix& matrix,
                                                 double available) {
  const TierCard& card = find_card(cell.tier);
  if (const auto reason = unavailable_reason(cell.tier); !reason.empty())
    return {CellStatus::unavailable, "tier '" + cell.tier + "' cannot run here: " + reason};
  if (const auto reason = unsupported_reason(cell.tier, cell.integrand); !reason.empty())
    return {CellStatus::unavailable,
            "tier '" + cell.tier + "' cannot run integrand '" + cell.integrand + "': it " + reason};
  const double predicted = card.heap_bytes_per_node * static_cast<double>(cell.n);
  if (available > 0 && predicted > 0.9 * available)
    return {CellStatus::skipped, "not attempted: it needs about " + format_bytes(predicted) + " (" +
                                     format_number("%g", card.heap_bytes_per_node) + " bytes a node × " +
                                     std::to_string(cell.n) + " nodes) and the machine has " +
                                     format_bytes(available) + " available"};
  const PeerCard* peer = find_peer(cell.tier);
  if (peer && peer->size_limit && cell.n > std::min(peer->size_limit, matrix.python_limit))
    return {CellStatus::skipped, "not attempted: " + peer->language + " at n = " + std::to_string(cell.n) +
                                     " would take minutes; the limit is " +
                                     std::to_string(std::min(peer->size_limit, matrix.python_limit)) +
                                     " nodes (--python-limit)"};
  return {CellStatus::ok, ""};
}

PlanSettings plan_settings(const RunRequest& args, const Topology& topology, const Matrix& matrix) {
  PlanSettings settings;
  // Counts kept from an earlier run of this build here cost nothing (instruction_cache.hpp).
  settings.instructions =
      args.instructions && profiling::unavailable_reason().empty() &&
      !std::all_of(matrix.integrands.begin(), matrix.integrands.end(), [&](const auto& f) {
        return cached_instructions(matrix.tiers, f, matrix.a, matrix.b).has_value();
      });
  settings.parallel = topology.hardware_threads();
  settings.available_memory = static_cast<double>(process::available_memory().value_or(0));
  settings.described = topology.synthetic;
  settings.limits_seconds = run_limits_seconds(args, topology);
  settings.remeasure = args.remeasure;
  return settings;
}

namespace {

// Until a run has measured them here: a tier's two callgrind runs, and the runner's own time a cell (the
// journal, the results files every 10 s at most), as they took on a 2-core VM, rounded up.
constexpr double guessed_instructions_seconds_per_tier = 1, guessed_runner_seconds_per_cell = 0.03;
// A tier the calibration lacks (its worker failed) costs as the slowest calibrated one; with no
// calibration at all, these.
constexpr double uncalibrated_seconds_per_node = 1e-8, uncalibrated_worker_seconds = 0.3;
// The long double sum of the reference runs up to 2^22 nodes; above, Euler–Maclaurin (reference.hpp).
constexpr std::int64_t reference_sum_limit = std::int64_t{1} << 22;
// The share of cells a run finds disturbed (common/noise/disturbance.hpp), for the time measuring them again
// takes: 20 % of a standard run's cells on a 2-vCPU VM (tests/fixtures/default_run_results.json.gz) and 30 %
// of the reference runs on a 16-core Xeon (data/reference/h200-xeon-16c), mostly by their cv.
constexpr double expected_disturbed_share = 0.25;

Calibration::TierCost fallback_cost(const Calibration& calibration) {
  if (calibration.tiers.empty()) return {uncalibrated_seconds_per_node, uncalibrated_worker_seconds, 0};
  Calibration::TierCost slowest{0, 0, 0};
  for (const auto& [key, cost] : calibration.tiers) {
    slowest.seconds_per_node = std::max(slowest.seconds_per_node, cost.seconds_per_node);
    slowest.worker_seconds = std::max(slowest.worker_seconds, cost.worker_seconds);
    slowest.peak_rss_bytes = std::max(slowest.peak_rss_bytes, cost.peak_rss_bytes);
  }
  return slowest;
}

// The reference's cost a node for an integrand: its calibration's, else the dearest calibrated one's.
double reference_cost(const Calibration& calibration, const std::string& integrand) {
  if (const auto found = calibration.reference_seconds_per_node.find(integrand);
      found != calibration.reference_seconds_per_node.end())
    return found->second;
  double dearest = 0;
  for (const auto& [name, seconds] : calibration.reference_seconds_per_node)
    dearest = std::max(dearest, seconds);
  return dearest;
}

}  // namespace

namespace {

// What the cells add to the run's wall time, part by part, as they are planned.
struct CellTotals {
  double starts = 0, timed = 0, passes = 0, references = 0, earlier = 0, runner = 0;
  std::set<std::tuple<std::string, double, double, std::int64_t>> referenced;  // integrand, a, b, n
  std::set<std::pair<std::string, std::string>> uncalibrated;                  // tier, integrand
};

// One cell: why it is not attempted, or its parts, time (an earlier run's here, else the calibration's)
// and peak memory, added to `totals`.
PlannedCell plan_cell(const CellKey& cell, const Matrix& matrix, const Calibration& calibration,
                      const PlanSettings& settings, CellTotals& totals) {
  PlannedCell planned;
  planned.cell = cell;
  planned.name = cell_name(cell);
  std::tie(planned.status, planned.reason) = not_attempted(cell, matrix, settings.available_memory);
  if (planned.status != CellStatus::ok) return planned;
  const TierCard& card = find_card(cell.tier);
  const auto found = calibration.tiers.find(tier_key(cell.tier, cell.integrand));
  const Calibration::TierCost cost =
      found != calibration.tiers.end() ? found->second : fallback_cost(calibration);
  const int width = card.parallel ? cell.threads * cell.ranks : 1;
  const double call = cost.seconds_per_node * static_cast<double>(cell.n) / width;
  planned.parts = cell_parts(call, matrix.repetitions, matrix.min_time, matrix.min_warmup_time,
                             cost.worker_seconds, matrix.rounds);
  planned.peak_bytes =
      cell.ranks * cost.peak_rss_bytes + card.heap_bytes_per_node * static_cast<double>(cell.n);
  if (const auto measured =
          settings.described ? calibration.cells.end() : calibration.cells.find(cell_key(cell, matrix));
      measured != calibration.cells.end()) {
    planned.seconds = measured->second;
    planned.source = "an earlier run here";
    totals.earlier += planned.seconds;
  } else {
    planned.seconds = planned.parts.total();
    planned.source = found != calibration.tiers.end() ? "calibration" : "not calibrated";
    if (found == calibration.tiers.end()) totals.uncalibrated.insert({cell.tier, cell.integrand});
    totals.starts += planned.parts.start + planned.parts.warmup;
    totals.timed += planned.parts.timed;
    totals.passes += planned.parts.passes;
  }
  totals.runner += std::max(1, matrix.rounds) *  // a worker's share of the runner's time, each round
                   calibration.runner_seconds_per_cell.value_or(guessed_runner_seconds_per_cell);
  if (totals.referenced.insert({cell.integrand, cell.a, cell.b, cell.n}).second &&
      cell.n <= reference_sum_limit)
    totals.references += reference_cost(calibration, cell.integrand) * static_cast<double>(cell.n);
  return planned;
}

// The cells in the matrix's order of tiers and integrands, then by n, threads, ranks and build.
void sort_as_the_matrix(std::vector<PlannedCell>& cells, const Matrix& matrix) {
  const auto order = [&](const PlannedCell& planned) {
    const CellKey& cell = planned.cell;
    return std::make_tuple(
        std::find(matrix.tiers.begin(), matrix.tiers.end(), cell.tier) - matrix.tiers.begin(),
        std::find(matrix.integrands.begin(), matrix.integrands.end(), cell.integrand) -
            matrix.integrands.begin(),
        cell.n, cell.threads, cell.ranks, cell.build);
  };
  std::stable_sort(cells.begin(), cells.end(),
                   [&](const PlannedCell& x, const PlannedCell& y) { return order(x) < order(y); });
}

// Counting the instructions of each tier with each integrand it can run, shared out over the threads.
double instruction_seconds(const std::vector<CellKey>& cells, const Calibration& calibration,
                           const PlanSettings& settings, std::vector<std::string>& notes) {
  std::set<std::pair<std::string, std::string>> counted;
  for (const auto& cell : cells) {
    const TierCard& card = find_card(cell.tier);
    if (!find_peer(cell.tier) && !card.distributed && unavailable_reason(cell.tier).empty() &&
        unsupported_reason(cell.tier, cell.integrand).empty())
      counted.insert({cell.tier, cell.integrand});
  }
  const double rounds = std::ceil(static_cast<double>(counted.size()) / std::max(1, settings.parallel));
  const double seconds =
      rounds * calibration.instructions_seconds_per_tier.value_or(guessed_instructions_seconds_per_tier);
  if (!calibration.instructions_seconds_per_tier && !counted.empty())
    notes.push_back(
        "instruction counting: " + format_seconds(guessed_instructions_seconds_per_tier, Rounding::up) +
        " a tier is a guess until a run has counted them on this machine");
  return seconds;
}

// The builds the run configures and compiles first (or checks), each with a note saying how.
double building_seconds(const Matrix& matrix, std::vector<std::string>& notes) {
  double building = 0;
  for (const auto& id : matrix.builds) {
    std::string how;
    building += estimated_build_seconds(parse_build_id(id), matrix.tiers, &how);
    notes.push_back("build " + id + ": " + how);
  }
  return building;
}

// Measuring disturbed cells again (--remeasure N), allowed for as an expected share p of the cells each
// measured once more, a share p of those again, and so on up to N tries: p × (1 + p + … + p^(N-1)) of the
// cells' time. In a run of R rounds a try is one round, a 1/R of the cell's time.
double remeasure_seconds(const std::vector<PlannedCell>& cells, int times, int rounds,
                         std::vector<std::string>& notes) {
  if (times <= 0) return 0;
  double cells_seconds = 0, share = 0, tried = 1;
  for (const auto& planned : cells) cells_seconds += planned.seconds;
  for (int attempt = 0; attempt < times; ++attempt, tried *= expected_disturbed_share) share += tried;
  share *= expected_disturbed_share;
  const std::string expected = percent(expected_disturbed_share, 0);
  if (cells_seconds > 0)
    notes.push_back(std::string(remeasure_part) + " (--remeasure " + std::to_string(times) +
                    "): " + percent(share, 0) + " of the cells' time, allowing for " + expected +
                    " of the cells disturbed (the share in Ladder's reference runs), each measured again" +
                    (times > 1 ? ", and " + expected + " of those again each time, up to " +
                                     std::to_string(times) + " tries a cell"
                               : std::string()) +
                    "; --remeasure 0 measures each cell once");
  return share * cells_seconds / std::max(1, rounds);
}

// What the estimate assumed: the tiers it costed without a calibration, and a described machine.
void add_assumptions(Estimate& result, const std::set<std::pair<std::string, std::string>>& uncalibrated,
                     const Matrix& matrix, const Calibration& calibration, const PlanSettings& settings) {
  for (const auto& [tier, integrand] : uncalibrated) {
    const auto failed = calibration.failed.find(tier_key(tier, integrand));
    result.notes.push_back(
        "no calibration for '" + tier + "'" +
        (matrix.integrands.size() > 1 ? " with '" + integrand + "'" : std::string()) + " (" +
        (failed != calibration.failed.end() ? failed->second : std::string("not measured")) +
        "): costed as the slowest calibrated tier");
  }
  if (settings.described)
    result.notes.push_back(
        "planned for a described machine with this machine's calibration: a call's time is this machine's "
        "per core, scaled ideally to the threads; which tiers can run and what fits in memory are this "
        "machine's too");
}

}  // namespace

Estimate estimate(const Matrix& matrix, const std::vector<CellKey>& cells, const Calibration& calibration,
                  const PlanSettings& settings) {
  Estimate result;
  CellTotals totals;
  for (const auto& cell : cells) {
    result.cells.push_back(plan_cell(cell, matrix, calibration, settings, totals));
    result.peak_bytes = std::max(result.peak_bytes, result.cells.back().peak_bytes);
  }
  sort_as_the_matrix(result.cells, matrix);
  const double instructions =
      settings.instructions ? instruction_seconds(cells, calibration, settings, result.notes) : 0;
  result.parts = {
      {"instruction counting", instructions}, {"process starts, warm-up and iteration sizing", totals.starts},
      {"timed repetitions", totals.timed},    {"memory and counter passes", totals.passes},
      {"references", totals.references},      {"the runner's own work between cells", totals.runner}};
  if (totals.earlier > 0) result.parts.push_back({"cells as an earlier run here took them", totals.earlier});
  if (const double again = remeasure_seconds(result.cells, settings.remeasure, matrix.rounds, result.notes);
      again > 0)
    result.parts.push_back({remeasure_part, again});
  if (settings.limits_seconds > 0) result.parts.push_back({"the machine's limits", settings.limits_seconds});
  if (!matrix.builds.empty())
    result.parts.insert(result.parts.begin(), {"building", building_seconds(matrix, result.notes)});
  for (const auto& [name, seconds] : result.parts) result.seconds += seconds;
  add_assumptions(result, totals.uncalibrated, matrix, calibration, settings);
  return result;
}

std::string describe(const Estimate& estimate) {
  std::vector<std::string> parts;
  for (const auto& [name, seconds] : estimate.parts)
    if (seconds > 0) parts.push_back(name + " " + format_seconds(seconds, Rounding::up));
  return "about " + format_seconds(estimate.seconds, Rounding::up) + " (" + join(parts) +
         "); peak memory about " + format_bytes(estimate.peak_bytes);
}

json to_json(const Estimate& estimate) {
  json cells = json::array();
  for (const auto& planned : estimate.cells) {
    json cell = {{"name", planned.name},
                 {"tier", planned.cell.tier},
                 {"integrand", planned.cell.integrand},
                 {"n", planned.cell.n},
                 {"threads", planned.cell.threads},
                 {"status", std::string(to_string(planned.status))},
                 {"estimated_seconds", planned.seconds},
                 {"estimated_peak_bytes", planned.peak_bytes}};
    if (find_card(planned.cell.tier).distributed) cell["ranks"] = planned.cell.ranks;
    if (!planned.reason.empty()) cell["reason"] = planned.reason;
    if (!planned.source.empty()) cell["source"] = planned.source;
    cells.push_back(cell);
  }
  json parts = json::object();
  for (const auto& [name, seconds] : estimate.parts) parts[name] = seconds;
  return {{"cells", cells},
          {"estimated_seconds", estimate.seconds},
          {"estimated_peak_bytes", estimate.peak_bytes},
          {"parts", parts},
          {"notes", estimate.notes}};
}

std::vector<ThreadStep> thread_reasons(const Matrix& matrix, const Topology& topology, bool given) {
  std::map<int, std::vector<std::string>> ladder;
  for (const auto& step : thread_ladder(topology)) ladder[step.threads] = step.reasons;
  std::vector<ThreadStep> steps;
  for (const int threads : matrix.threads)
    steps.push_back({threads, given || !ladder.count(threads)
                                  ? std::vector<std::string>{"given with --threads"}
                                  : ladder.at(threads)});
  return steps;
}

json Plan::to_json() const {
  json out = {{"topology", topology.to_json()}, {"topology_line", topology.describe()}};
  json steps = json::array();
  for (const auto& step : threads) steps.push_back({{"threads", step.threads}, {"reasons", step.reasons}});
  out["threads"] = matrix.threads;
  out["thread_reasons"] = steps;
  out["matrix"] = matrix.to_json();
  out.update(ladder::to_json(estimate));
  if (budget) out["budget"] = budget->record();
  return out;
}

std::string Plan::text() const {
  std::string out = "topology: " + topology.describe() + " (" + topology.source + ")\n";
  out += "thread counts of the parallel tiers:\n";
  for (const auto& step : threads)
    out += "  " + std::to_string(step.threads) + ": " + join(step.reasons) + "\n";
  out += "integrands: " + join(matrix.integrands) + "\n";
  out += "sizes: ";
  std::vector<std::string> sizes;
  for (const auto n : matrix.sizes) sizes.push_back(format_count(static_cast<double>(n)));
  out += join(sizes) + "; " + std::to_string(matrix.repetitions) + " repetitions of at least " +
         format_seconds(matrix.min_time) +
         (matrix.rounds > 1
              ? ", shared among " + std::to_string(matrix.rounds) + " rounds (worker processes) a cell"
              : std::string()) +
         "\n";
  std::vector<std::string> per_call;  // a peer's per-call sizes (Matrix::cells): cells outside the sizes
  for (const auto& cell : estimate.cells) {
    const std::string at = cell.cell.tier + " at n = " + format_count(static_cast<double>(cell.cell.n));
    if (std::find(matrix.sizes.begin(), matrix.sizes.end(), cell.cell.n) == matrix.sizes.end() &&
        std::find(per_call.begin(), per_call.end(), at) == per_call.end())
      per_call.push_back(at);
  }
  if (!per_call.empty())
    out += "also, one thread, where a call costs more than its loop: " + join(per_call) + "\n";
  if (budget) {
    out += "budget " + budget->budget_text + ": " +
           (budget->dropped.empty() ? "the matrix fits as it is\n" : "to fit it, dropped:\n");
    for (const auto& line : budget->dropped) out += "  " + line + "\n";
  }
  std::size_t attempted = 0;
  out += "cells (" + std::to_string(estimate.cells.size()) + "):\n";
  for (const auto& cell : estimate.cells) {
    attempted += cell.status == CellStatus::ok;
    out +=
        "  " + cell.name + "  " +
        (cell.status == CellStatus::ok ? format_seconds(cell.seconds, Rounding::up) + " (" + cell.source + ")"
                                       : std::string(to_string(cell.status)) + ": " + cell.reason) +
        "\n";
  }
  out += "estimated wall time: " + describe(estimate) + "\n";
  for (const auto& note : estimate.notes) out += "note: " + note + "\n";
  out += std::to_string(attempted) + " of " + std::to_string(estimate.cells.size()) +
         " cells will be attempted; `ladder run` with the same options runs them\n";
  return out;
}

std::optional<Budgeted> calibrate_and_fit(Matrix& matrix, const RunRequest& args, const Topology& topology,
                                          Calibration& calibration, const std::string& executable) {
  calibrate(executable, calibration, matrix.tiers, matrix.integrands, args.cell_timeout);
  if (!args.budget) return std::nullopt;
  Budgeted fitted = fit_budget(matrix, *args.budget, calibration, plan_settings(args, topology, matrix),
                               thread_reasons(matrix, topology, !args.threads.empty()));
  matrix = fitted.matrix;
  return fitted;
}

Plan make_plan(const RunRequest& args, const std::string& executable) {
  Plan plan;
  plan.topology = read_topology();
  plan.matrix = requested_matrix(args, nullptr, plan.topology);
  Calibration calibration = load_calibration(executable);
  plan.budget = calibrate_and_fit(plan.matrix, args, plan.topology, calibration, executable);
  plan.threads = thread_reasons(plan.matrix, plan.topology, !args.threads.empty());
  plan.estimate = plan.budget
                      ? plan.budget->estimate
                      : estimate(plan.matrix, calibration, plan_settings(args, plan.topology, plan.matrix));
  return plan;
}

}  // namespace ladder
