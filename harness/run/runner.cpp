#include "runner.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "atomic_file.hpp"
#include "build_info.hpp"
#include "builds.hpp"
#include "calibration.hpp"
#include "cards.hpp"
#include "clock.hpp"
#include "context.hpp"
#include "distributed.hpp"
#include "errors.hpp"
#include "journal.hpp"
#include "machine_topology.hpp"
#include "peers.hpp"
#include "plan.hpp"
#include "process.hpp"
#include "process_stats.hpp"
#include "progress.hpp"
#include "quote.hpp"
#include "reference.hpp"
#include "registry.hpp"
#include "remeasure.hpp"
#include "results.hpp"
#include "rounds.hpp"
#include "run_header.hpp"
#include "run_limits.hpp"
#include "summary.hpp"
#include "text.hpp"
#include "thread_binding.hpp"
#include "worker_process.hpp"

namespace ladder {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// One `ladder run`, in the phases google/benchmark's BenchmarkRunner would name: admit (arguments, matrix,
// output directory, journal), plan (the estimate), start (the journal's first line, the run record),
// measure (each cell, journaled at once), finish (the run record's end), each a member below.
class MatrixRunner {
 public:
  explicit MatrixRunner(const RunRequest& args) : args_(args), resuming_(args.resume.has_value()) {}

  // A run that stops before its journal's first line leaves no directory it made behind.
  RunOutcome run() try { return run_admitted(); } catch (...) {
    if (!journal_.header) remove_created_directory(created_);
    throw;
  }

 private:
  RunOutcome run_admitted() {
    admit();
    plan();
    started_ = Clock::now();
    // From here every write can fail (a full disk): what is written stays whole, and the run can resume.
    try {
      start();
      measure();
      finish();
    } catch (const WriteError& failure) {
      return stopped_by(failure);
    }
    print_summary(journal_, run_, outcome_.paths);
    outcome_.cells_done = done_.size();
    if (!outcome_.complete) {
      outcome_.exit_code = exit_interrupted;
      return outcome_;
    }
    const bool failed_cells = std::any_of(journal_.cells.begin(), journal_.cells.end(),
                                          [](const CellResult& record) { return is_failure(record.status); });
    outcome_.exit_code = failed_cells ? exit_failed : exit_ok;
    return outcome_;
  }

  // The arguments, the machine, the matrix and the output directory, checked before anything is written;
  // when resuming, the journal too.
  void admit() {
    if (resuming_ && args_.force)
      throw InputError("--resume and --force do not go together: resume keeps the results");
    if (!(args_.cell_timeout > 0)) throw InputError("--cell-timeout must be a number of seconds above 0");
    outcome_.paths = paths_in(resuming_ ? *args_.resume : args_.out);
    if (!cpu_runs_this_build())
      throw InputError("this binary's kernels use " + build_info().instruction_set +
                       ", which this CPU lacks (it has " + best_instruction_set() +
                       "): rebuild here, or with -DLADDER_ARCH=x86-64-v3 (or lower) for a portable binary");
    topology_ = read_topology();
    require_this_system(topology_, "ladder run");
    if (resuming_ && args_.budget)
      throw InputError(
          "--resume and --budget do not go together: a resumed run keeps its matrix (a budgeted "
          "one, as it was fitted when it started)");
    executable_ = self_path();
    calibration_ = load_calibration(executable_);
    if (resuming_)
      admit_resumed();
    else
      admit_new();
    cells_ = matrix_.cells();
    admit_journaled();
    outcome_.cells_total = cells_.size();
    if (resuming_)
      calibrate(executable_, calibration_, matrix_.tiers, matrix_.integrands, args_.cell_timeout);
  }

  void admit_resumed() {
    const Paths& paths = outcome_.paths;
    if (!fs::is_directory(paths.dir)) throw InputError("--resume '" + paths.dir + "' is not a directory");
    journal_ = read_journal(paths.journal, false);
    check_resumable(*journal_.header, paths.journal, paths.dir);
    const Matrix recorded = journal_.header->matrix;
    matrix_ = requested_matrix(args_, &recorded, topology_);
    if (const auto difference = Matrix::difference(matrix_, recorded); !difference.empty())
      throw InputError("--resume '" + paths.dir + "' holds another matrix (" + difference +
                       "); resume it without matrix options, or start a new run in another --out");
    admit_builds();
    prepare_directory(paths.dir, true, false);
    journal_ = read_journal(paths.journal, true);
  }

  void admit_new() {
    matrix_ = requested_matrix(args_, nullptr, topology_);
    matrix_.cells();  // checks every tier id before anything is written
    // A budget too small is bad input, refused before anything is written.
    budget_ = calibrate_and_fit(matrix_, args_, topology_, calibration_, executable_);
    admit_builds();
    created_ = prepare_directory(outcome_.paths.dir, false, args_.force);
  }

  // Each build of the matrix configured and compiled, or found up to date, before the output directory is
  // touched: a build that cannot be made is bad input (exit 2), and no cell has run. In a run of the build
  // at hand alone, that build is the one every cell records.
  void admit_builds() {
    std::vector<BuildSpec> specs;
    for (const auto& id : matrix_.builds) specs.push_back(parse_build_id(id));
    if (specs.empty()) {
      builds_[""] = PreparedBuild{build_at_hand(), executable_, describe_this_build(), "the build at hand"};
      builds_[""].at_hand = true;
      return;
    }
    for (auto& build : prepare_builds(specs)) {
      run_builds_.push_back({build.description.build(), build.spec.id(), build.state, build.configure_seconds,
                             build.compile_seconds});
      if (build.at_hand) build.executable = executable_;
      builds_[build.spec.id()] = std::move(build);
    }
  }

  // The journal's cells are the matrix's, each once.
  void admit_journaled() {
    std::set<std::string> in_matrix;
    for (const auto& cell : cells_) in_matrix.insert(cell_name(cell));
    for (const auto& record : journal_.cells) {
      // A record that is not one of the matrix's cells, names another cell than it describes, or repeats
      // one would make the run's count wrong (more cells done than there are); the journal is damaged, not
      // resumable.
      const auto damaged = [&](const std::string& why) {
        return InputError("journal '" + outcome_.paths.journal + "' is damaged: its record of cell '" +
                          record.name + "' " + why + "; start a new run in another --out");
      };
      if (!in_matrix.count(record.name)) throw damaged("names no cell of the run's matrix");
      if (cell_name(record) != record.name)
        throw damaged("describes another cell ('" + cell_name(record) + "')");
      if (!done_.insert(record.name).second) throw damaged("comes twice");
    }
  }

  // The estimate, before the first cell (and the ETA's base): the cells still to run.
  void plan() {
    // The cells not yet done or with rounds left (counted whole: the estimate errs long).
    std::vector<CellKey> remaining;
    for (const auto& cell : cells_)
      if (!done_.count(cell_name(cell)) || rounds_left(journal_.cells, cell_name(cell), matrix_.rounds))
        remaining.push_back(cell);
    PlanSettings settings = plan_settings(args_, topology_, matrix_);
    settings.instructions = settings.instructions && !resuming_;
    estimated_ = estimate(matrix_, remaining, calibration_, settings);
    if (budget_) {
      std::printf("budget %s: %s\n", budget_->budget_text.c_str(),
                  budget_->dropped.empty() ? "the matrix fits as it is" : "to fit it, dropped:");
      for (const auto& line : budget_->dropped) std::printf("  %s\n", line.c_str());
    }
    std::printf("%zu cells; estimated wall time %s\n", remaining.size(), describe(estimated_).c_str());
    std::fflush(stdout);
    for (const auto& planned : estimated_.cells) cell_estimates_[planned.name] = planned.seconds;
  }

  // The journal's first line (or a resumption's), the run record, and results files with no cell yet.
  void start() {
    const Paths& paths = outcome_.paths;
    if (resuming_) {
      char host[256] = {};
      gethostname(host, sizeof host - 1);
      const ResumeRecord resume{now_utc(), host, args_.command_line};
      append_journal(paths.journal, resume);
      journal_.resumptions.push_back(resume);
    } else {
      const JournalHeader header = run_header(args_, matrix_, topology_, budget_, executable_);
      write_file_atomically(paths.journal, dump_json(json(header)) + "\n");
      journal_.header = header;
    }
    std::error_code error;
    fs::create_directories(paths.work, error);
    run_ = run_record(args_, *journal_.header, cells_.size(), done_.size(), estimated_.seconds, run_cpus_);
    run_.builds = run_builds_;
    write_results_files(paths, journal_, run_, resuming_);
  }

  // Each round of each cell not yet done, round by round in the schedule's orders (rounds.hpp), until the
  // last or an interrupt; then the disturbed rounds (or, in a run of one round, cells) again.
  void measure() {
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
  bool measure_round(const RunFiles& files, const CellKey& cell, int round, Progress& progress) {
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
  std::optional<CellResult> run_later_round(const CellKey& cell, std::int64_t iterations) {
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
  std::optional<WorkerOutcome> run_worker(const CellKey& cell,
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
  std::optional<CellResult> run_cell_in_worker(const CellKey& cell, Progress& progress) {
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
  void compute_reference(const CellKey& cell) {
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

  // The run record's end, and the results files once more.
  void finish() {
    if (matrix_.rounds > 1)
      judge_rounds(journal_.cells, matrix_.rounds, matrix_.cpus);  // as a resumed run's would be
    sample_limits_after_cells(args_, topology_, journal_, cells_.size());
    const double wall = std::chrono::duration<double>(Clock::now() - started_).count();
    run_.status = outcome_.complete ? "complete" : "interrupted";
    run_.updated = now_utc();
    run_.finished = outcome_.complete ? std::optional<std::string>(now_utc()) : std::nullopt;
    run_.load_average_after = load_average();
    run_.this_session = RunRecord::Session{
        wall, measured_seconds_, wall - measured_seconds_,
        "measured: the time Google Benchmark spent in its timed repetitions; the rest is process start, "
        "warm-up, iteration sizing, the memory pass and the references"};
    write_results_files(outcome_.paths, journal_, run_, resuming_);
    std::error_code error;
    fs::remove_all(outcome_.paths.work, error);
  }

  // A write failed: what is finished is safe, and the message says how to go on.
  RunOutcome stopped_by(const WriteError& failure) {
    outcome_.exit_code = exit_cannot_write;
    outcome_.cells_done = journal_.cells.size();
    if (!journal_.header) remove_created_directory(created_);  // not even its first line: nothing to resume
    report_write_failure(failure, journal_, cells_.size(), outcome_.paths);
    return outcome_;
  }

  const RunRequest& args_;
  const bool resuming_;
  RunOutcome outcome_;
  std::string created_;  // the directory the run made (prepare_directory), removed if it stops before a line
  Topology topology_;
  std::string executable_;
  Calibration calibration_;
  std::optional<Budgeted> budget_;
  Journal journal_;
  Matrix matrix_;
  std::vector<CellKey> cells_;
  std::map<std::string, PreparedBuild> builds_;  // by id; "" in a run of the build at hand alone
  std::vector<RunRecord::BuildUsed> run_builds_;
  std::set<std::string> done_;
  Estimate estimated_;
  std::map<std::string, double> cell_estimates_;
  const cpu_set_t run_cpus_ = ThreadBinding::run_cpus();
  RunRecord run_;
  Clock::time_point started_, results_written_ = Clock::now();
  double measured_seconds_ = 0, worker_seconds_ = 0;
  std::size_t workers_ = 0;
  long last_pid_ = 0;  // the last worker's process id, for its round's record
  std::map<std::pair<std::string, std::int64_t>, Reference> references_;      // one interval a run
  std::map<std::pair<std::string, std::int64_t>, std::string> no_reference_;  // why, where one failed
};

}  // namespace

RunOutcome run_matrix(const RunRequest& args) { return MatrixRunner(args).run(); }

}  // namespace ladder
