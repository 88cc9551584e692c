#include "runner.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include "atomic_file.hpp"
#include "build_info.hpp"
#include "calibration.hpp"
#include "cards.hpp"
#include "context.hpp"
#include "distributed.hpp"
#include "errors.hpp"
#include "machine_topology.hpp"
#include "peers.hpp"
#include "plan.hpp"
#include "process_stats.hpp"
#include "profiling.hpp"
#include "progress.hpp"
#include "reference.hpp"
#include "registry.hpp"
#include "results.hpp"
#include "summary.hpp"
#include "text.hpp"
#include "thread_binding.hpp"
#include "worker_process.hpp"

namespace ladder {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::string now_iso() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

std::string executable_path() {
  std::error_code error;
  const auto path = fs::read_symlink("/proc/self/exe", error);
  if (error) throw Unavailable("cannot find this program's own path: " + error.message());
  return path.string();
}

void write_results(const Paths& paths, const Journal& journal, const json& run) {
  const json document = results_document(journal, run);
  write_file_atomically(paths.json, document.dump(2) + "\n");
  write_file_atomically(paths.csv, results_csv(document));
}

json run_header(const RunArguments& args, const Matrix& matrix, const Topology& topology,
                const std::optional<Budgeted>& budget, const std::string& executable) {
  json header = {{"kind", "run"},
                 {"schema_version", results_schema_version},
                 {"started", now_iso()},
                 {"label", args.label},
                 {"preset", args.preset.value_or("standard")},
                 {"command_line", args.command_line},
                 {"load_average_before", load_average()},
                 {"matrix", matrix.to_json()},
                 {"context", machine_context(topology)},
                 {"tiers", tier_cards(matrix.tiers)}};
  header["context"]["integrands"] = integrand_records(matrix.integrands, matrix.tiers);
  if (budget) header["budget"] = budget->to_json();
  if (args.instructions) {
    std::printf("counting instructions a node under callgrind%s (--no-instructions skips this) …\n",
                matrix.integrands.size() > 1 ? ", with each integrand" : "");
    std::fflush(stdout);
    const auto counting = Clock::now();
    // The first integrand's counts where a report has always read them, and every integrand's (the first
    // again) in by_integrand.
    json by_integrand = json::object();
    std::size_t counted = 0;
    for (const auto& integrand : matrix.integrands) {
      json counts = profiling::count_instructions(matrix.tiers, integrand, matrix.a, matrix.b);
      const json counted_tiers = counts.value("tiers", json::object());
      for (const auto& [id, tier] : counted_tiers.items()) counted += !tier.contains("unavailable");
      by_integrand[integrand] = std::move(counts);
      if (!by_integrand[integrand].value("available", false)) break;  // no valgrind: the same for every one
    }
    header["instructions"] = by_integrand[matrix.integrands.front()];
    if (header["instructions"].value("available", false))
      header["instructions"]["by_integrand"] = by_integrand;
    if (counted > 0)
      record_instructions(executable, counted,
                          std::max(1, static_cast<int>(std::thread::hardware_concurrency())),
                          std::chrono::duration<double>(Clock::now() - counting).count());
  } else {
    header["instructions"] = {{"available", false}, {"reason", "not counted: --no-instructions"}};
  }
  return header;
}

}  // namespace

RunOutcome run_matrix(const RunArguments& args) {
  const bool resuming = args.resume.has_value();
  if (resuming && args.force)
    throw InputError("--resume and --force do not go together: resume keeps the results");
  if (!(args.cell_timeout > 0)) throw InputError("--cell-timeout must be a number of seconds above 0");
  RunOutcome outcome;
  outcome.paths = paths_in(resuming ? *args.resume : args.out);
  const Paths& paths = outcome.paths;
  if (!cpu_runs_this_build())
    throw InputError("this binary's kernels use " + build_info().instruction_set +
                     ", which this CPU lacks (it has " + best_instruction_set() +
                     "): rebuild here, or with -DLADDER_ARCH=x86-64-v3 (or lower) for a portable binary");

  const Topology topology = read_topology();
  require_this_system(topology, "ladder run");
  if (resuming && args.budget)
    throw InputError(
        "--resume and --budget do not go together: a resumed run keeps its matrix (a budgeted "
        "one, as it was fitted when it started)");
  const std::string executable = executable_path();
  Calibration calibration = load_calibration(executable);
  std::optional<Budgeted> budget;
  Journal journal;
  Matrix matrix;
  if (resuming) {
    if (!fs::is_directory(paths.dir)) throw InputError("--resume '" + paths.dir + "' is not a directory");
    journal = read_journal(paths.journal, false);
    Matrix recorded;
    try {
      recorded = Matrix::from_json(JsonReader(journal.header, "journal line 1").at("matrix"));
    } catch (const SchemaError& problem) {
      throw InputError("journal '" + paths.journal + "' is damaged: " + problem.what());
    }
    matrix = requested_matrix(args, &recorded, topology);
    if (const auto difference = Matrix::difference(matrix, recorded); !difference.empty())
      throw InputError("--resume '" + paths.dir + "' holds another matrix (" + difference +
                       "); resume it without matrix options, or start a new run in another --out");
    prepare_directory(paths.dir, true, false);
    journal = read_journal(paths.journal, true);
  } else {
    matrix = requested_matrix(args, nullptr, topology);
    matrix.cells();  // checks every tier id before anything is written
    // A budget too small is bad input, refused before anything is written.
    budget = calibrate_and_fit(matrix, args, topology, calibration, executable);
    prepare_directory(paths.dir, false, args.force);
  }

  const std::vector<Cell> cells = matrix.cells();
  std::set<std::string> done;
  std::set<std::string> in_matrix;
  for (const auto& cell : cells) in_matrix.insert(cell_name(cell));
  for (const auto& record : journal.cells) {
    // A record that is not one of the matrix's cells, names another cell than it describes, or repeats one
    // would make the run's count wrong (more cells done than there are); the journal is damaged, not
    // resumable.
    const auto damaged = [&](const std::string& why) {
      return InputError("journal '" + paths.journal + "' is damaged: its record of cell '" + record.name +
                        "' " + why + "; start a new run in another --out");
    };
    if (!in_matrix.count(record.name)) throw damaged("names no cell of the run's matrix");
    if (cell_name(record.cell) != record.name)
      throw damaged("describes another cell ('" + cell_name(record.cell) + "')");
    if (!done.insert(record.name).second) throw damaged("comes twice");
  }
  outcome.cells_total = cells.size();
  if (resuming) calibrate(executable, calibration, matrix.tiers, matrix.integrands, args.cell_timeout);

  // The estimate, before the first cell (and the ETA's base): the cells still to run.
  std::vector<Cell> remaining;
  for (const auto& cell : cells)
    if (!done.count(cell_name(cell))) remaining.push_back(cell);
  PlanSettings settings = plan_settings(args, topology);
  settings.instructions = settings.instructions && !resuming;
  const Estimate estimated = estimate(matrix, remaining, calibration, settings);
  if (budget) {
    std::printf("budget %s: %s\n", budget->budget_text.c_str(),
                budget->dropped.empty() ? "the matrix fits as it is" : "to fit it, dropped:");
    for (const auto& line : budget->dropped) std::printf("  %s\n", line.c_str());
  }
  std::printf("%zu cells; estimated wall time %s\n", remaining.size(), describe(estimated).c_str());
  std::fflush(stdout);
  std::map<std::string, double> cell_estimates;
  for (const auto& planned : estimated.cells) cell_estimates[planned.name] = planned.seconds;
  const cpu_set_t run_cpus = ThreadBinding::run_cpus();
  json run;
  double measured_seconds = 0;
  const auto started = Clock::now();
  // From here every write can fail (a full disk): what is written stays whole, and the run can resume.
  try {
    if (resuming) {
      char host[256] = {};
      gethostname(host, sizeof host - 1);
      const ResumeRecord resume{now_iso(), host, args.command_line};
      append_journal(paths.journal, resume);
      journal.resumptions.push_back(resume);
    } else {
      const json header = run_header(args, matrix, topology, budget, executable);
      write_file_atomically(paths.journal, header.dump() + "\n");
      journal.header = header;
    }
    std::error_code error;
    fs::create_directories(paths.work, error);

    run = {{"label", journal.header.at("label")},
           {"preset", journal.header.at("preset")},
           {"started", journal.header.at("started")},
           {"status", "running"},
           {"cells_total", cells.size()},
           {"cells_done", done.size()},
           {"estimated_seconds", estimated.seconds},
           {"cell_timeout_seconds", args.cell_timeout},
           {"worker_cpus", cpu_list(run_cpus)},
           {"hostfile", args.hostfile.empty() ? json(nullptr) : json(args.hostfile)},
           {"thread_binding",
            "each cell's threads are placed compactly (one a core: an L3 group, then its NUMA node, then its "
            "socket; SMT siblings only past the physical cores) and its worker starts with exactly those "
            "CPUs (the entry's placement); OpenMP tiers: OMP_PROC_BIND=close and OMP_PLACES listing them, "
            "unless the environment sets them (each cell's environment is in its entry); oneTBB tiers (tbb, "
            "tbb-tuned, stdpar): arena slot i pinned to the i-th; mpi: the launcher binds each rank to its "
            "cores, the launcher starting with all of worker_cpus"},
           {"interleaving",
            "cells run in a shuffled order (matrix seed); each cell's repetitions run in "
            "its own worker, with Google Benchmark's random interleaving on"}};
    if (journal.header.contains("budget")) run["budget"] = journal.header.at("budget");
    write_results(paths, journal, run);

    catch_interrupts();
    Progress progress(cells.size(), done.size(), estimated.seconds - estimated.parts.front().second);
    std::map<std::pair<std::string, std::int64_t>, Reference> references;      // one interval a run
    std::map<std::pair<std::string, std::int64_t>, std::string> no_reference;  // why, where one failed
    // The runner's own time between the cells (results rewritten, the journal), for the plan: the run's
    // time less its workers' and references'.
    const auto cells_started = Clock::now();
    double worker_seconds = 0;
    std::size_t workers = 0;
    for (const auto& cell : cells) {
      if (interrupted()) break;
      const std::string name = cell_name(cell);
      if (done.count(name)) continue;
      CellRecord record;
      record.name = name;
      record.cell = cell;
      record.rung = find_card(cell.tier).rung;
      record.oversubscribed = distributed::oversubscribed(cell.ranks, cell.threads, matrix.cpus);
      const auto available = static_cast<double>(process::available_memory().value_or(0));
      const auto key = std::make_pair(cell.integrand, cell.n);
      auto verdict = not_attempted(cell, matrix, available);
      if (verdict.second.empty() && !references.count(key) && !no_reference.count(key)) {
        const auto computing = Clock::now();
        try {
          references[key] = reference(integrands()[find_integrand(cell.integrand)], {cell.a, cell.b}, cell.n);
        } catch (const std::exception& failure) {  // nothing to judge a result by: the worker is not started
          no_reference[key] = "no reference for integrand '" + cell.integrand +
                              "' at n = " + std::to_string(cell.n) + ": " + failure.what();
        }
        worker_seconds +=
            std::chrono::duration<double>(Clock::now() - computing).count();  // not the runner's
      }
      if (verdict.second.empty() && no_reference.count(key))
        verdict = {CellStatus::failed, no_reference.at(key)};
      if (!verdict.second.empty()) {
        record.status = verdict.first, record.reason = verdict.second;
      } else {
        progress.starting(cell);
        const auto limit = static_cast<std::int64_t>(0.9 * available) + (std::int64_t{512} << 20) +
                           (std::int64_t{16} << 20) * cell.threads;
        const ThreadBinding binding =
            ThreadBinding::for_cell(find_card(cell.tier), cell, topology, run_cpus, !args.hostfile.empty());
        WorkerOutcome worker =
            run_worker_process(executable, cell, matrix, references.at(key), binding, args.hostfile,
                               paths.work + "/cell-" + std::to_string(getpid()) + ".json", args.cell_timeout,
                               available > 0 ? limit : static_cast<std::int64_t>(RLIM_INFINITY));
        if (worker.interrupted) break;
        record.status = worker.status;
        record.reason = worker.reason;
        record.measurement = std::move(worker.measurement);
        if (record.measurement) measured_seconds += record.measurement->measured_seconds;
        record.worker = worker.worker;
        record.worker.environment = binding.describe();
        record.placement = binding.placement(topology);
        worker_seconds += record.worker.wall_seconds.value_or(0), ++workers;
        if (record.status == CellStatus::ok && record.worker.wall_seconds)
          record_cell(executable, cell, matrix, *record.worker.wall_seconds);
      }
      record.finished = now_iso();
      append_journal(paths.journal, record);
      journal.cells.push_back(record);
      done.insert(name);
      progress.finished(record, cell_estimates[name]);
      run["cells_done"] = done.size();
      run["updated"] = now_iso();
      write_results(paths, journal, run);
    }
    progress.clear();
    if (workers >= 8)  // fewer say little about the runner's time a cell
      record_runner(executable,
                    (std::chrono::duration<double>(Clock::now() - cells_started).count() - worker_seconds) /
                        static_cast<double>(workers));

    const double wall = std::chrono::duration<double>(Clock::now() - started).count();
    outcome.complete = done.size() == cells.size();
    run["status"] = outcome.complete ? "complete" : "interrupted";
    run["updated"] = now_iso();
    run["finished"] = outcome.complete ? json(now_iso()) : json(nullptr);
    run["load_average_after"] = load_average();
    run["this_session"] = {{"wall_seconds", wall},
                           {"measured_seconds", measured_seconds},
                           {"harness_seconds", wall - measured_seconds},
                           {"note",
                            "measured: the time Google Benchmark spent in its timed repetitions; the rest "
                            "is process start, warm-up, iteration sizing, the memory pass and the "
                            "references"}};
    write_results(paths, journal, run);
    fs::remove_all(paths.work, error);
  } catch (const WriteError& failure) {
    outcome.exit_code = exit_cannot_write;
    outcome.cells_done = journal.cells.size();
    if (journal.header.is_null()) {  // not even the journal's first line: nothing to resume
      std::fprintf(stderr, "\nladder: %s\nladder: nothing was measured; make room and start the run again\n",
                   failure.what());
      return outcome;
    }
    std::fprintf(
        stderr,
        "\nladder: %s\n"
        "ladder: the run stopped there. %zu of %zu cells are finished and safe in %s; %s is whole as "
        "last written (every results file is replaced in one step, never half-written).\n"
        "ladder: make room (or fix the directory), then `ladder run --resume %s` finishes the run.\n",
        failure.what(), journal.cells.size(), cells.size(), paths.journal.c_str(), paths.json.c_str(),
        paths.dir.c_str());
    return outcome;
  }
  print_summary(journal, run, paths);
  outcome.cells_done = done.size();
  if (!outcome.complete) {
    outcome.exit_code = exit_interrupted;
    return outcome;
  }
  const bool failed_cells = std::any_of(journal.cells.begin(), journal.cells.end(),
                                        [](const CellRecord& record) { return is_failure(record.status); });
  outcome.exit_code = failed_cells ? exit_failed : exit_ok;
  return outcome;
}

}  // namespace ladder
