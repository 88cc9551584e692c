// A run's measure phase (matrix_runner.hpp): each round of each cell in its worker process, placed and
// limited as every cell's, journaled at once, then the disturbed ones again; the references the cells are
// judged by, once a run.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "cards.hpp"
#include "clock.hpp"
#include "distributed.hpp"
#include "matrix_runner.hpp"
#include "peers.hpp"
#include "process.hpp"
#include "process_stats.hpp"
#include "registry.hpp"
#include "rounds.hpp"
#include "run_limits.hpp"

namespace ladder {

// Each round of each cell not yet done, round by round in the schedule's orders (rounds.hpp), until the
// last or an interrupt; then the disturbed rounds (or, in a run of one round, cells) again.
void MatrixRunner::measure() {
  catch_interrupts();
  const int rounds = matrix_.rounds;
  std::size_t rounds_done = 0;
  for (const auto& record : journal_.cells)
    rounds_done += rounds > 1 && record.ok() ? scheduled_rounds_done(record, rounds) : rounds;
  Progress progress(cells_.size() * rounds, rounds_done,
                    estimated_.seconds - estimated_.parts.front().second);
  // The runner's own time between the cells (results rewritten, the journal), for the plan: the run's
  // time less its workers' and references'.
  const auto cells_started = Clock::now();
  const RunFiles files{outcome_.paths, journal_, run_, resuming_, &results_written_};
  bool stopped = false;
  const auto schedule = round_schedule(cells_, rounds, matrix_.seed);
  for (int round = 1; round <= rounds && !stopped; ++round) {
    for (const auto& cell : schedule[round - 1])
      if (interrupted() || !measure_round(files, cell, round, progress)) {
        stopped = true;
        break;
      }
    rewrite_results(files);  // the round's cells, kept once
  }
  // Complete: every cell measured, and each disturbed one measured again as --remeasure asks.
  outcome_.complete =
      !stopped && done_.size() == cells_.size() &&
      remeasure_disturbed(files, args_.remeasure, args_.test_disturbed, [&](const CellKey& cell) {
        if (rounds == 1) return run_cell_in_worker(cell, progress);
        return run_later_round(cell, first_round_iterations(journal_.cells, cell_name(cell)));
      });
  progress.clear();
  if (workers_ >= 8)  // fewer say little about the runner's time a cell
    record_runner(executable_,
                  (std::chrono::duration<double>(Clock::now() - cells_started).count() - worker_seconds_) /
                      static_cast<double>(workers_));
}

// One round of one cell, kept at once; false when the run was interrupted while it ran. Round 1 makes the
// cell's record (and, in a run of rounds, its first round); a later round of an ok cell is added to it.
bool MatrixRunner::measure_round(const RunFiles& files, const CellKey& cell, int round, Progress& progress) {
  const std::string name = cell_name(cell);
  const int rounds = matrix_.rounds;
  const double estimate = cell_estimates_[name] / rounds;
  if (round == 1) {
    if (done_.count(name)) return true;
    std::optional<CellResult> record = run_cell_in_worker(cell, progress);
    if (!record) return false;  // interrupted while it ran
    record->finished = now_utc();
    if (rounds > 1 && record->ok()) {
      record->rounds.push_back(round_of(*record, 1, last_pid_));
      disturb_round_for_test(*record, record->rounds.back(), args_.test_disturbed, matrix_.cpus);
    } else {
      disturb_for_test(*record, args_.test_disturbed, 0);
    }
    done_.insert(name);
    keep_cell(files, *record);
    progress.finished(*record, estimate);
    return true;
  }
  const auto kept = std::find_if(journal_.cells.begin(), journal_.cells.end(),
                                 [&](const CellResult& record) { return record.name == name; });
  if (!rounds_left(journal_.cells, name, rounds) || scheduled_rounds_done(*kept, rounds) >= round)
    return true;
  progress.starting(cell);
  std::optional<CellResult> again =
      run_later_round(cell, first_round_iterations(journal_.cells, cell_name(cell)));
  if (!again) return false;
  CellResult record = *kept;
  Round added = again->rounds.front();
  added.index = round;
  add_round(record, std::move(added));
  disturb_round_for_test(record, record.rounds.back(), args_.test_disturbed, matrix_.cpus);
  if (round == rounds && builds_.at(cell.build).at_hand)
    record_cell(executable_, cell, matrix_, rounds_wall_seconds(record));
  keep_cell(files, record, false);  // journaled at once; the results files once the round ends
  progress.finished(record, estimate);
  return true;
}

// A later round of an ok cell in its worker, timing only; nothing when the run was interrupted.
std::optional<CellResult> MatrixRunner::run_later_round(const CellKey& cell, std::int64_t iterations) {
  CellResult record;
  record.name = cell_name(cell);
  static_cast<CellKey&>(record) = cell;
  std::optional<WorkerOutcome> worker = run_worker(cell, iterations);
  if (!worker) return std::nullopt;
  record.status = worker->status;
  record.reason = worker->reason;
  record.measurement = std::move(worker->measurement);
  record.worker = worker->worker;
  record.finished = now_utc();
  record.rounds = {round_of(record, 0, worker->pid)};  // its index is the caller's to give
  return record;
}

// The cell's worker process, placed and limited as every cell's; nothing when the run was interrupted.
std::optional<WorkerOutcome> MatrixRunner::run_worker(const CellKey& cell,
                                                      const std::optional<std::int64_t>& iterations) {
  compute_reference(cell);  // once a run: a resumed run's later rounds need it too
  const auto available = static_cast<double>(process::available_memory().value_or(0));
  const auto limit = static_cast<std::int64_t>(0.9 * available) + (std::int64_t{512} << 20) +
                     (std::int64_t{16} << 20) * cell.threads;
  const ThreadBinding binding =
      ThreadBinding::for_cell(find_card(cell.tier), cell, topology_, run_cpus_, !args_.hostfile.empty());
  Matrix worker_matrix = matrix_;
  worker_matrix.repetitions = round_repetitions(matrix_);
  WorkerOutcome worker = run_worker_process(
      builds_.at(cell.build).executable, cell, worker_matrix,
      references_.at(std::make_pair(cell.integrand, cell.n)), binding, args_.hostfile,
      outcome_.paths.work + "/cell-" + std::to_string(getpid()) + ".json", args_.cell_timeout,
      available > 0 ? limit : static_cast<std::int64_t>(RLIM_INFINITY), iterations);
  if (worker.interrupted) return std::nullopt;
  if (worker.measurement) measured_seconds_ += worker.measurement->measured_seconds;
  worker_seconds_ += worker.worker.wall_seconds.value_or(0), ++workers_;
  worker.worker.environment = binding.describe();
  return worker;
}

// One cell: not attempted (with why), or run in its worker; nothing when the run was interrupted.
std::optional<CellResult> MatrixRunner::run_cell_in_worker(const CellKey& cell, Progress& progress) {
  CellResult record;
  record.name = cell_name(cell);
  static_cast<CellKey&>(record) = cell;
  record.rung = find_card(cell.tier).rung;
  record.oversubscribed = distributed::oversubscribed(cell.ranks, cell.threads, matrix_.cpus);
  const auto available = static_cast<double>(process::available_memory().value_or(0));
  const auto key = std::make_pair(cell.integrand, cell.n);
  auto verdict = not_attempted(cell, matrix_, available);
  const PreparedBuild& build = builds_.at(cell.build);
  const bool peer = find_peer(cell.tier) != nullptr;
  if (verdict.second.empty() && !peer && !build.description.tiers.count(cell.tier))
    verdict = {CellStatus::unavailable, missing_tier_reason(build.spec, cell.tier)};
  if (verdict.second.empty()) compute_reference(cell);
  if (verdict.second.empty() && no_reference_.count(key))
    verdict = {CellStatus::failed, no_reference_.at(key)};
  if (!verdict.second.empty()) {
    record.status = verdict.first, record.reason = verdict.second;
    return record;
  }
  progress.starting(cell);
  if (!peer) record.build_record = build_record(cell.build, build.description, cell.tier);
  std::optional<WorkerOutcome> worker = run_worker(cell, std::nullopt);
  if (!worker) return std::nullopt;
  record.status = worker->status;
  record.reason = worker->reason;
  record.measurement = std::move(worker->measurement);
  record.worker = worker->worker;
  last_pid_ = worker->pid;
  record.placement =
      ThreadBinding::for_cell(find_card(cell.tier), cell, topology_, run_cpus_, !args_.hostfile.empty())
          .placement(topology_);
  if (record.status == CellStatus::ok && record.worker.wall_seconds && build.at_hand && matrix_.rounds == 1)
    record_cell(executable_, cell, matrix_, *record.worker.wall_seconds);
  return record;
}

// The exact references of the cell's integrand and n, once a run (or why there are none).
void MatrixRunner::compute_reference(const CellKey& cell) {
  const auto key = std::make_pair(cell.integrand, cell.n);
  if (references_.count(key) || no_reference_.count(key)) return;
  const auto computing = Clock::now();
  try {
    references_[key] = reference(integrands()[find_integrand(cell.integrand)], {cell.a, cell.b}, cell.n);
  } catch (const std::exception& failure) {  // nothing to judge a result by: the worker is not started
    no_reference_[key] = "no reference for integrand '" + cell.integrand +
                         "' at n = " + std::to_string(cell.n) + ": " + failure.what();
  }
  worker_seconds_ += std::chrono::duration<double>(Clock::now() - computing).count();  // not the runner's
}

}  // namespace ladder
