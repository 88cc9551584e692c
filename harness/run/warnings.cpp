// When a number is doubtful, the results say so: these warnings travel in results.json and are printed
// at the end of a run.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "build_info.hpp"
#include "disturbance.hpp"
#include "peers.hpp"
#include "quote.hpp"
#include "remeasure.hpp"
#include "results.hpp"
#include "text.hpp"

namespace ladder {
namespace {

std::string fixed(double value) { return format_number("%.2f", value); }

// The CPUs a placed cell's threads were allowed (the worker's record, read while they were alive) that are
// not in its placement, "3,5"; empty when they kept to it or when either record is missing.
std::string outside_placement(const CellResult& record) {
  if (!record.placement || !record.ok() || !record.measurement->memory.thread_placement) return {};
  const auto& placed = record.placement->pus;
  std::vector<int> outside;
  for (const int cpu : record.measurement->memory.thread_placement->union_of_cpus)
    if (std::find(placed.begin(), placed.end(), cpu) == placed.end()) outside.push_back(cpu);
  return join_numbers(outside, ",");
}

class Warnings {
 public:
  // A warning about some cells; it is added only when there are any.
  void about_cells(const std::string& kind, const std::string& message,
                   const std::vector<std::string>& cells) {
    if (!cells.empty()) list_.push_back({kind, message, cells});
  }
  void about_run(const std::string& kind, const std::string& message) {
    list_.push_back({kind, message, {}});
  }
  std::vector<WarningRecord> list() const { return list_; }

 private:
  std::vector<WarningRecord> list_;
};

bool optimized_build(const BuildInfo& build) {
  const bool release = build.build_type == "Release" || build.build_type == "RelWithDebInfo" ||
                       build.build_type == "MinSizeRel";
  const bool o_flag = build.common_flags.find("-O1") != std::string::npos ||
                      build.common_flags.find("-O2") != std::string::npos ||
                      build.common_flags.find("-O3") != std::string::npos;
  return release && o_flag;
}

// The thresholds, each once: the messages quote them. A disturbed cell's (cv, spread, other load, steal)
// are common/noise/disturbance.hpp's, the rule the runner measures cells again by.
constexpr double one_core_ratio = 1.2;     // CPU time over wall time of a parallel cell
constexpr double busy_load_average = 0.5;  // the 1-minute load average before the run
constexpr int few_repetitions = 9;

// The Slurm job this process runs in, when it has reached its time limit: Slurm stops a job at its end time
// with SIGTERM, which interrupts the run as any other would, so the end time says which it was. Its job
// id; empty outside a job, or before its end. SLURM_JOB_END_TIME is seconds since the epoch
// (scripts/slurm-matrix.sbatch exports it where Slurm does not).
std::string slurm_job_past_its_time_limit() {
  const char* job = std::getenv("SLURM_JOB_ID");
  const char* end = std::getenv("SLURM_JOB_END_TIME");
  if (!job || !end) return {};
  char* rest = nullptr;
  const long long end_seconds = std::strtoll(end, &rest, 10);
  if (rest == end || *rest != '\0' || std::time(nullptr) < end_seconds) return {};
  return job;
}

// What is said of the whole run: interrupted, few repetitions, the build, the machine, its load.
void run_warnings(Warnings& found, const Journal& journal, const RunRecord& run, const BuildInfo& build) {
  const JournalHeader& header = journal.header.value();
  const int repetitions = header.matrix.repetitions;
  const std::string& host = header.context.host_name;
  // The context's own line, first among the run's warnings: every time in the file is the emulator's.
  if (const auto& emulation = header.context.emulation; emulation && emulation->is_emulated())
    found.about_run("emulated", emulation->text() + ": " + emulation->evidence);
  if (run.status == "interrupted" && run.cells_done < run.cells_total)
    found.about_run("incomplete", "the run was interrupted: " + std::to_string(run.cells_done) + " of " +
                                      std::to_string(run.cells_total) +
                                      " cells finished; `ladder run --resume DIR` completes it");
  else if (run.status == "interrupted")
    found.about_run("incomplete",
                    "the run was interrupted while it measured disturbed cells again: every "
                    "cell has a measurement, but some disturbed ones were not measured again; "
                    "`ladder run --resume DIR` completes it");
  if (run.status == "interrupted")
    if (const std::string job = slurm_job_past_its_time_limit(); !job.empty())
      found.about_run("time limit",
                      "Slurm job " + job +
                          " reached its time limit before the run finished; `ladder run --resume "
                          "DIR` completes it in a new allocation (sbatch --time longer)");
  if (repetitions < few_repetitions)
    found.about_run("few repetitions", std::to_string(repetitions) + " repetitions a cell: fewer than " +
                                           std::to_string(few_repetitions) + ", the spread is a rough guess");
  if (!optimized_build(build))
    found.about_run("unoptimized build", "Ladder itself was built as " + build.build_type + " with '" +
                                             build.common_flags +
                                             "': the times measure an unoptimized build");
  if (header.context.hypervisor.present)
    found.about_run("virtual machine",
                    "running under a hypervisor: other guests can steal time (see each cell's steal "
                    "figure) and hardware counters are usually unavailable");
  if (const auto& before = header.load_average_before; before && !before->empty()) {
    if (before->front() > busy_load_average)
      found.about_run("load before the run", "the 1-minute load average was " + fixed(before->front()) +
                                                 " before the run started: something else was running");
  }
  for (const auto& resume : journal.resumptions)
    if (resume.host_name != host)
      found.about_run("resumed elsewhere", "the run was resumed on '" + resume.host_name + "', not on '" +
                                               host +
                                               "' where it started: its cells measured different machines");
}

// The cells each warning about cells names, gathered in one pass over the journal.
struct CellFindings {
  std::vector<std::string> noisy, spread, loaded, stolen, oversubscribed, failed, skipped, outside_bound,
      one_core, not_identical, unpinned, nonfinite_result, slowed, remeasured, still_disturbed,
      test_disturbed;
  // Per integrand: what about its references cannot be trusted (the same notes for each of its cells).
  std::vector<std::pair<std::string, std::vector<std::string>>> reference_notes;

  void add(const CellResult& record, int cpus);
  void add_measured(const CellResult& record, const Measurement& measurement);
  void add_remeasured(const CellResult& record);
};

// A cell measured again: what its first measurement said and why it was doubted, and what was kept
// ("inlined/gauss/n:1e7/threads:1: 716 ms (1.01 cores of other load) → 455 ms"); and the cells whose kept
// measurement is disturbed still, with why, and those the test switch disturbed.
void CellFindings::add_remeasured(const CellResult& record) {
  const std::vector<std::string> none;
  const auto& first = record.remeasured ? record.remeasured->first_reasons : none;
  const bool tested = std::find(first.begin(), first.end(), test_disturbance_reason) != first.end();
  if (tested || record.measurement->extra.contains("test_disturbance")) test_disturbed.push_back(record.name);
  if (!record.remeasured) return;
  const Remeasured& again = *record.remeasured;
  const int tries = again.attempts + 1;
  remeasured.push_back(record.name + ": " + format_seconds(again.first_median_ns * 1e-9) + " (" +
                       join(again.first_reasons) + ") → " + format_seconds(record.median()) + " (" +
                       (record.rounds.empty() ? std::to_string(tries) + " measurements)"
                                              : std::to_string(record.clean_rounds()) + " of " +
                                                    std::to_string(record.rounds.size()) + " rounds clean)"));
  if (again.still_disturbed)
    still_disturbed.push_back(
        record.name + " (" + join(disturbance(record)) +
        (record.rounds.empty() ? ", the least slowed of " + std::to_string(tries) + " measurements)" : ")"));
}

void CellFindings::add(const CellResult& record, int cpus) {
  const std::string& name = record.name;
  if (record.threads * record.ranks > cpus) oversubscribed.push_back(name);
  if (record.status == CellStatus::skipped || record.status == CellStatus::unavailable)
    skipped.push_back(name + ": " + record.reason);
  else if (!record.measurement)
    failed.push_back(name + ": " + std::string(to_string(record.status)) + ": " + record.reason);
  else
    add_measured(record, *record.measurement);
}

void CellFindings::add_measured(const CellResult& record, const Measurement& measurement) {
  const std::string& name = record.name;
  if (measurement.extra.contains("test_slowdown"))
    slowed.push_back(name + " (× " + quote_value(measurement.extra.at("test_slowdown")) + ")");
  add_remeasured(record);
  const Aggregates& aggregates = measurement.aggregates;
  // A cell of rounds spans several processes: its spread is the run's noise, measured (round_noise.hpp).
  const bool one_process = record.rounds.size() < 2;
  if (one_process && aggregates.cv.real_time > disturbed_cv)
    noisy.push_back(name + " (cv " + percent(aggregates.cv.real_time, 1) + ")");
  const double low = aggregates.min.real_time, high = aggregates.max.real_time;
  if (one_process && low > 0 && high > disturbed_spread * low)
    spread.push_back(name + " (max/min " + fixed(high / low) + ")");
  if (record.worker.other_load_cores >= disturbed_other_cores)
    loaded.push_back(name + " (" + fixed(record.worker.other_load_cores) + " cores busy with other work)");
  if (record.worker.steal_fraction >= disturbed_steal)
    stolen.push_back(name + " (" + percent(record.worker.steal_fraction, 1) + " stolen)");
  // A cell without a finite result or midpoint sum has its own warning, not "a bug?".
  if (!measurement.within_rounding_bound && measurement.midpoint && std::isfinite(measurement.result))
    outside_bound.push_back(name);
  if (!std::isfinite(measurement.result)) nonfinite_result.push_back(name);
  for (const auto& note : measurement.reference_notes) {
    const std::string about = "integrand '" + record.integrand + "' on [" + format_number("%g", record.a) +
                              ", " + format_number("%g", record.b) + "]: " + note;
    auto found = std::find_if(reference_notes.begin(), reference_notes.end(),
                              [&](const auto& entry) { return entry.first == about; });
    if (found == reference_notes.end()) found = reference_notes.insert(reference_notes.end(), {about, {}});
    found->second.push_back(name);
  }
  const TierCard& card = find_card(record.tier);
  const double cores_used = record.efficiency() * record.threads;  // CPU time over wall time
  if (card.parallel && record.threads > 1 && cores_used < one_core_ratio)
    one_core.push_back(name + " (CPU/wall " + fixed(cores_used) + ")");
  if (card.reproducible == Reproducible::always && !measurement.bit_identical) not_identical.push_back(name);
  if (const auto outside = outside_placement(record); !outside.empty())
    unpinned.push_back(name + " (ran on CPUs " + outside + ", placed on " +
                       join_numbers(record.placement->pus, ",") + ")");
}

}  // namespace

std::vector<WarningRecord> warnings(const Journal& journal, const RunRecord& run, const BuildInfo& build) {
  Warnings found;
  run_warnings(found, journal, run, build);
  // The hardware threads the run had.
  const int cpus = journal.header.value().matrix.cpus;
  CellFindings cells;
  for (const auto& record : journal.cells) cells.add(record, cpus);
  found.about_cells(
      "test slowdown",
      "cells made slower on purpose by LADDER_TEST_SLOWDOWN, a switch for tests: each timed call "
      "made the kernel several times, so these times are not measurements of the tier",
      cells.slowed);
  found.about_cells(
      "test disturbance",
      "cells reported disturbed on purpose by LADDER_TEST_DISTURB, a switch for tests: one core "
      "of other load was added to what was measured, to make them measured again",
      cells.test_disturbed);
  found.about_cells(
      "re-measured",
      "cells measured again at the end of the run because a measurement was disturbed (a "
      "round: other processes' load of 0.25 cores or more, 2 % or more of the CPU time stolen, "
      "or a median beyond its cell's other rounds by the run's noise, each dropped and replaced; "
      "a cell measured once: " +
          disturbance_rule() +
          ", the first quiet measurement kept, else the least slowed): the first median, why "
          "it was doubted, and the median kept",
      cells.remeasured);
  found.about_cells("still disturbed",
                    "cells left with fewer than two clean rounds, or measured once and disturbed every "
                    "time, after --remeasure: the report keeps them out of the answer",
                    cells.still_disturbed);
  found.about_cells("failed cells", "cells that did not finish (each with its reason)", cells.failed);
  found.about_cells("skipped cells", "cells not attempted (each with its reason)", cells.skipped);
  found.about_cells(
      "noisy",
      "cells whose repetitions vary by more than " + percent(disturbed_cv, 0) + " (coefficient of variation)",
      cells.noisy);
  found.about_cells(
      "suspicious spread",
      "cells whose slowest repetition took over " + format_number("%.1f", disturbed_spread) + "x the fastest",
      cells.spread);
  found.about_cells(
      "load during the run",
      "cells measured while other processes kept " + fixed(disturbed_other_cores) + " cores or more busy",
      cells.loaded);
  found.about_cells("steal",
                    "cells that lost " + percent(disturbed_steal, 0) +
                        " or more of the machine's CPU time to the hypervisor",
                    cells.stolen);
  found.about_cells("threads over cores",
                    "oversubscribed cells: more threads (× ranks) than the machine's " +
                        std::to_string(cpus) + " hardware threads",
                    cells.oversubscribed);
  found.about_cells("outside the rounding bound",
                    "results further from the exact midpoint sum than rounding explains: a bug?",
                    cells.outside_bound);
  found.about_cells("result not finite",
                    "cells whose result is NaN or infinite (written null): no error can be measured",
                    cells.nonfinite_result);
  for (const auto& [about, named] : cells.reference_notes)
    found.about_cells("reference not trusted", about, named);
  found.about_cells("one core",
                    "parallel cells whose CPU time barely exceeds their wall time: a silent fallback "
                    "to one thread?",
                    cells.one_core);
  found.about_cells("not pinned as placed",
                    "cells whose threads were allowed CPUs outside the cell's placement: the pinning failed, "
                    "and the cell measured another placement than its entry says",
                    cells.unpinned);
  found.about_cells("not bit-identical",
                    "tiers that promise the same bits gave different results across "
                    "repetitions",
                    cells.not_identical);
  return found.list();
}

}  // namespace ladder
