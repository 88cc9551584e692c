// `ladder run` (runner.hpp) as a MatrixRunner (matrix_runner.hpp): its phases admit, plan, start and finish;
// measure, the cells themselves, is runner_measure.cpp.
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
#include "build_steps.hpp"
#include "builds.hpp"
#include "calibration.hpp"
#include "cards.hpp"
#include "clock.hpp"
#include "context.hpp"
#include "distributed.hpp"
#include "errors.hpp"
#include "journal.hpp"
#include "machine_topology.hpp"
#include "matrix_runner.hpp"
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

}  // namespace

// A run that stops before its journal's first line leaves no directory it made behind.
RunOutcome MatrixRunner::run() try { return run_admitted(); } catch (...) {
  if (!journal_.header) remove_created_directory(created_);
  throw;
}

RunOutcome MatrixRunner::run_admitted() {
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
void MatrixRunner::admit() {
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
  if (resuming_) calibrate(executable_, calibration_, matrix_.tiers, matrix_.integrands, args_.cell_timeout);
}

void MatrixRunner::admit_resumed() {
  const Paths& paths = outcome_.paths;
  if (!fs::is_directory(paths.dir)) throw InputError("--resume '" + paths.dir + "' is not a directory");
  journal_ = read_journal(paths.journal, false);
  check_resumable(*journal_.header, paths.journal, paths.dir);
  const Matrix recorded = journal_.header->matrix;
  if (!args_.peers.value_or(recorded.peers).empty()) build_peer_modules();
  matrix_ = requested_matrix(args_, &recorded, topology_);
  if (const auto difference = Matrix::difference(matrix_, recorded); !difference.empty())
    throw InputError("--resume '" + paths.dir + "' holds another matrix (" + difference +
                     "); resume it without matrix options, or start a new run in another --out");
  admit_builds();
  prepare_directory(paths.dir, true, false);
  journal_ = read_journal(paths.journal, true);
}

void MatrixRunner::admit_new() {
  if (args_.peers && !args_.peers->empty())
    build_peer_modules();  // before their cards: they read the modules
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
void MatrixRunner::admit_builds() {
  std::vector<BuildSpec> specs;
  for (const auto& id : matrix_.builds) specs.push_back(parse_build_id(id));
  if (specs.empty()) {
    builds_[""] = PreparedBuild{build_at_hand(), executable_, describe_this_build(), "the build at hand"};
    builds_[""].at_hand = true;
    return;
  }
  for (auto& build : prepare_builds(specs, matrix_.tiers)) {
    run_builds_.push_back({build.description.build(), build.spec.id(), build.state, build.configure_seconds,
                           build.compile_seconds});
    if (build.at_hand) build.executable = executable_;
    builds_[build.spec.id()] = std::move(build);
  }
}

// The journal's cells are the matrix's, each once.
void MatrixRunner::admit_journaled() {
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
void MatrixRunner::plan() {
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
void MatrixRunner::start() {
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

// The run record's end, and the results files once more.
void MatrixRunner::finish() {
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
RunOutcome MatrixRunner::stopped_by(const WriteError& failure) {
  outcome_.exit_code = exit_cannot_write;
  outcome_.cells_done = journal_.cells.size();
  if (!journal_.header) remove_created_directory(created_);  // not even its first line: nothing to resume
  report_write_failure(failure, journal_, cells_.size(), outcome_.paths);
  return outcome_;
}

RunOutcome run_matrix(const RunRequest& args) { return MatrixRunner(args).run(); }

}  // namespace ladder
