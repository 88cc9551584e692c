// The run's records before its first cell (run_header.hpp).
#include "run_header.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#include "calibration.hpp"
#include "cards.hpp"
#include "clock.hpp"
#include "context.hpp"
#include "instruction_cache.hpp"
#include "process_stats.hpp"
#include "profiling.hpp"
#include "run_limits.hpp"
#include "text.hpp"
#include "thread_binding.hpp"

namespace ladder {
namespace {

using Clock = std::chrono::steady_clock;

// Instructions a node of each of the matrix's integrands, before the first cell: kept from an earlier run of
// the profiling build here where there is one (instruction_cache.hpp), else counted and kept.
InstructionCounts count_run_instructions(const Matrix& matrix, const std::string& executable) {
  std::vector<InstructionCounts> by_integrand;
  for (const auto& integrand : matrix.integrands)
    if (auto kept = cached_instructions(matrix.tiers, integrand, matrix.a, matrix.b))
      by_integrand.push_back(std::move(*kept));
  if (by_integrand.size() == matrix.integrands.size()) {
    std::printf("instructions a node: kept from an earlier run of this build here (%s)\n",
                instructions_cache_file(matrix.tiers, matrix.integrands.front(), matrix.a, matrix.b).c_str());
  } else {
    by_integrand.clear();
    std::printf("counting instructions a node under callgrind%s (--no-instructions skips this) …\n",
                matrix.integrands.size() > 1 ? ", with each integrand" : "");
    std::fflush(stdout);
    const auto counting = Clock::now();
    std::size_t counted = 0;
    for (const auto& integrand : matrix.integrands) {
      by_integrand.push_back(profiling::count_instructions(matrix.tiers, integrand, matrix.a, matrix.b));
      for (const auto& tier : by_integrand.back().tiers) counted += tier.unavailable.empty();
      if (!by_integrand.back().available) break;  // no valgrind: the same for every one
      keep_instructions(matrix.tiers, by_integrand.back());
    }
    if (counted > 0)
      record_instructions(executable, counted,
                          std::max(1, static_cast<int>(std::thread::hardware_concurrency())),
                          std::chrono::duration<double>(Clock::now() - counting).count());
  }
  // The first integrand's counts where a report has always read them, and every integrand's (the first
  // again) in by_integrand.
  InstructionCounts counts = by_integrand.front();
  if (counts.available) counts.by_integrand = std::move(by_integrand);
  return counts;
}

}  // namespace

JournalHeader run_header(const RunRequest& args, const Matrix& matrix, const Topology& topology,
                         const std::optional<Budgeted>& budget, const std::string& executable) {
  JournalHeader header;
  header.started = now_utc();
  header.label = args.label;
  header.preset = args.preset.value_or("standard");
  header.command_line = args.command_line;
  header.load_average_before = load_average();
  header.matrix = matrix;
  header.context = machine_context(topology);
  header.context.integrands = integrand_records(matrix.integrands, matrix.tiers);
  header.tiers = tier_cards(matrix.tiers);
  if (budget) header.budget = budget->record();
  header.instructions = args.instructions ? count_run_instructions(matrix, executable)
                                          : InstructionCounts::not_counted("not counted: --no-instructions");
  header.limits = limits_before_cells(args, topology, header.context.emulation);
  return header;
}

// The run record (results.json's context.run) as it stands when the first cell starts.
RunRecord run_record(const RunRequest& args, const JournalHeader& header, std::size_t cells, std::size_t done,
                     double estimated_seconds, const cpu_set_t& run_cpus) {
  RunRecord run;
  run.label = header.label;
  run.preset = header.preset;
  run.started = header.started;
  run.status = "running";
  run.cells_total = static_cast<std::int64_t>(cells);
  run.cells_done = static_cast<std::int64_t>(done);
  run.estimated_seconds = estimated_seconds;
  run.cell_timeout_seconds = args.cell_timeout;
  run.worker_cpus = parse_cpu_list(cpu_list(run_cpus));
  if (!args.hostfile.empty()) run.hostfile = args.hostfile;
  run.thread_binding =
      "each cell's threads are placed compactly (one a core: an L3 group, then its NUMA node, then its "
      "socket; SMT siblings only past the physical cores) and its worker starts with exactly those "
      "CPUs (the entry's placement); OpenMP tiers: OMP_PROC_BIND=close and OMP_PLACES listing them, "
      "unless the environment sets them (each cell's environment is in its entry); oneTBB tiers (tbb, "
      "tbb-tuned, stdpar): arena slot i pinned to the i-th; mpi: the launcher binds each rank to its "
      "cores, the launcher starting with all of worker_cpus";
  run.interleaving =
      header.matrix.rounds > 1
          ? "each cell runs in " + std::to_string(header.matrix.rounds) +
                " rounds, each a fresh worker process: round 1 visits the cells in a shuffled order (matrix "
                "seed), each later round in a new one, so a cell's rounds lie apart in time; its repetitions "
                "are shared among them"
          : "cells run in a shuffled order (matrix seed); each cell's repetitions run in its own worker, "
            "with "
            "Google Benchmark's random interleaving on";
  run.budget = header.budget;
  run.updated = now_utc();
  return run;
}

void report_write_failure(const WriteError& failure, const Journal& journal, std::size_t cells,
                          const Paths& paths) {
  if (!journal.header) {
    std::fprintf(stderr, "\nladder: %s\nladder: nothing was measured; make room and start the run again\n",
                 failure.what());
    return;
  }
  std::fprintf(stderr,
               "\nladder: %s\n"
               "ladder: the run stopped there. %zu of %zu cells are finished and safe in %s; %s is whole as "
               "last written (every results file is replaced in one step, never half-written).\n"
               "ladder: make room (or fix the directory), then `ladder run --resume %s` finishes the run.\n",
               failure.what(), journal.cells.size(), cells, paths.journal.c_str(), paths.json.c_str(),
               paths.dir.c_str());
}

}  // namespace ladder
