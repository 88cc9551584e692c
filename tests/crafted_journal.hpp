// Journals made by hand, with known answers: the warnings, the results documents and the CSV are judged on
// figures the test chose, not on whatever a run on this machine happened to measure.
#pragma once

#include <string>
#include <vector>

#include "cell_result.hpp"
#include "journal.hpp"
#include "matrix.hpp"
#include "peers.hpp"

namespace ladder::testing {

// A run's first journal line: `repetitions` a cell, started on host "here" with 96 hardware threads
// (crafted_cpus), no hypervisor, an idle machine; everything else the types' defaults.
constexpr int crafted_cpus = 96;
inline JournalHeader crafted_header(int repetitions = 10) {
  JournalHeader header;
  header.started = "2026-01-01T00:00:00Z";
  header.label = "crafted";
  header.preset = "standard";
  header.load_average_before = std::vector<double>{0.1, 0.1, 0.1};
  header.matrix.tiers = {"naive"};
  header.matrix.integrands = {"gauss"};
  header.matrix.sizes = {100'000};
  header.matrix.threads = {1};
  header.matrix.repetitions = repetitions;
  header.matrix.cpus = crafted_cpus;
  header.context.host_name = "here";
  header.context.logical_cpus = crafted_cpus;
  header.context.hypervisor.present = false;
  header.instructions = InstructionCounts::not_counted("not counted: a crafted journal");
  return header;
}

// A measured cell nothing is wrong with: ten repetitions, `nanoseconds` the fastest and each next one 0.1 %
// slower (so the median and the mean are 1.0045 × `nanoseconds`, the slowest 1.009 ×), CPU time `threads`
// times the wall time (every thread busy), within the rounding bound, the same bits in every call, an idle
// machine.
inline CellResult measured_cell(const std::string& tier, int threads = 1, double nanoseconds = 2e6) {
  CellResult record;
  static_cast<CellKey&>(record) = {{tier, "gauss", 100'000, threads, 1}, 0, 1, false};
  record.name = cell_name(record);
  record.rung = find_card(tier).rung;
  record.finished = "2026-01-01T00:00:01Z";
  Measurement measurement;
  const double step = nanoseconds / 1000;
  for (int index = 0; index < 10; ++index) {
    const double time = nanoseconds + step * index;
    measurement.repetitions.push_back({index, 50, time, time * threads});
  }
  auto timing = [threads](double wall) { return Timing{wall, wall * threads}; };
  measurement.aggregates = {.mean = timing(nanoseconds + 4.5 * step),
                            .median = timing(nanoseconds + 4.5 * step),
                            .stddev = timing(3 * step),
                            .cv = {0.003, 0.003},
                            .min = timing(nanoseconds),
                            .max = timing(nanoseconds + 9 * step)};
  measurement.result = 0.74682413281242699;
  measurement.exact = 0.746824132812427;
  measurement.midpoint = 0.74682413281242699;
  measurement.rel_error = 2.1e-16;
  measurement.rounding_error = 0;
  measurement.rounding_bound = 1e-12;
  measurement.memory.peak_heap_bytes = 0;
  measurement.memory.minor_faults = 3;
  measurement.instruction_set = "avx2";
  record.measurement = measurement;
  return record;
}

// A cell whose worker reported that it failed, with `reason`.
inline CellResult failed_cell(const std::string& tier, const std::string& reason) {
  CellResult record = measured_cell(tier);
  record.measurement.reset();
  record.status = CellStatus::failed;
  record.reason = reason;
  return record;
}

inline Journal crafted_journal(std::vector<CellResult> cells, int repetitions = 10) {
  return {crafted_header(repetitions), std::move(cells), {}};
}

inline const RunRecord complete_run = [] {
  RunRecord run;
  run.label = "crafted";
  run.preset = "standard";
  run.started = "2026-01-01T00:00:00Z";
  run.status = "complete";
  run.cells_done = run.cells_total = 1;
  run.updated = run.started;
  run.finished = run.started;
  return run;
}();

}  // namespace ladder::testing
