// One `ladder run` as an object, its phases the members (runner.hpp's run_matrix makes one): admit, plan,
// start and finish are runner.cpp's, measure (each round of each cell in its worker) runner_measure.cpp's.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "builds.hpp"
#include "calibration.hpp"
#include "errors.hpp"
#include "journal.hpp"
#include "plan.hpp"
#include "progress.hpp"
#include "reference.hpp"
#include "remeasure.hpp"
#include "run_context.hpp"
#include "runner.hpp"
#include "thread_binding.hpp"
#include "topology.hpp"
#include "worker_process.hpp"

namespace ladder {

// One `ladder run`, in the phases google/benchmark's BenchmarkRunner would name: admit (arguments, matrix,
// output directory, journal), plan (the estimate), start (the journal's first line, the run record),
// measure (each cell, journaled at once), finish (the run record's end), each a member below.
class MatrixRunner {
 public:
  explicit MatrixRunner(const RunRequest& args) : args_(args), resuming_(args.resume.has_value()) {}
  RunOutcome run();

 private:
  using Clock = std::chrono::steady_clock;

  // runner.cpp
  RunOutcome run_admitted();
  void admit();
  void admit_resumed();
  void admit_new();
  void admit_builds();
  void admit_journaled();
  void plan();
  void start();
  void finish();
  RunOutcome stopped_by(const WriteError& failure);
  // runner_measure.cpp
  void measure();
  bool measure_round(const RunFiles& files, const CellKey& cell, int round, Progress& progress);
  std::optional<CellResult> run_later_round(const CellKey& cell, std::int64_t iterations);
  std::optional<WorkerOutcome> run_worker(const CellKey& cell, const std::optional<std::int64_t>& iterations);
  std::optional<CellResult> run_cell_in_worker(const CellKey& cell, Progress& progress);
  void compute_reference(const CellKey& cell);

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

}  // namespace ladder
