// Reading a results file, strictly: a report must never be made from a file it misunderstands. The file
// is read into the typed schema (common/results_file.hpp), which checks every field; here its entries
// become one Cell a cell, with the repetitions and the statistics gathered.
#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "errors.hpp"
#include "json_reader.hpp"
#include "report.hpp"
#include "results_file.hpp"
#include "text.hpp"

namespace ladder::report {
namespace {

double seconds(double nanoseconds) { return nanoseconds * 1e-9; }

Card card_of(const CardRecord& record) {
  Card card{record};
  if (record.max_ulp_error)
    card.accuracy = "its own exp: at most " + format_number("%.2f", *record.max_ulp_error) + " ulp";
  return card;
}

std::string warning_text(const WarningRecord& warning) {
  return warning.kind + ": " + warning.message +
         (warning.cells.empty() ? "" : " (" + std::to_string(warning.cells.size()) + " cells)");
}

// The first entry of a cell: what every entry of it shares.
Cell cell_of(const BenchmarkEntry& entry) {
  Cell cell;
  cell.name = entry.cell;
  cell.tier = entry.coordinates.tier;
  cell.rung = entry.rung;
  cell.integrand = entry.coordinates.integrand;
  cell.n = entry.coordinates.n;
  cell.threads = entry.coordinates.threads;
  cell.ranks = entry.coordinates.ranks;
  cell.oversubscribed = entry.oversubscribed;
  cell.status = entry.status;
  cell.reason = entry.reason;
  return cell;
}

// The median entry carries the figures of one call: error, memory, counters, the timeline.
void add_median(Cell& cell, const BenchmarkEntry& entry) {
  cell.median = seconds(entry.real_time);
  cell.cpu_median = seconds(entry.cpu_time);
  cell.rel_error = entry.rel_error;
  cell.rounding_error = entry.rounding_error;
  cell.exact = entry.exact;
  cell.midpoint = entry.midpoint;
  cell.rounding_bound = entry.rounding_bound;
  // A figure a peer cannot count (Python has no malloc count) is null: 0 here.
  cell.peak_heap = entry.memory.peak_heap_bytes.value_or(0);
  cell.peak_rss = entry.memory.peak_rss_bytes.value_or(0);
  cell.minor_faults = entry.memory.minor_faults.value_or(0);
  cell.major_faults = entry.memory.major_faults.value_or(0);
  cell.allocations = entry.memory.allocations.value_or(0);
  cell.instruction_set = entry.instruction_set;
  cell.reproducible = entry.reproducible;
  const Counters counters = entry.counters.value_or(Counters{});
  if (counters.available) {
    cell.ipc = counters.ipc;
    cell.hw_instructions_per_node = counters.instructions_per_node;
    cell.cache_misses = counters.cache_misses;
    cell.branch_misses = counters.branch_misses;
  } else {
    cell.counters_unavailable = counters.reason;
  }
  if (entry.memory.timeline) {
    cell.timeline_seconds = entry.memory.timeline->seconds;
    cell.timeline_rss = entry.memory.timeline->rss_bytes;
    cell.timeline_cpu = entry.memory.timeline->cpu_seconds;
  }
}

}  // namespace

const Card* Run::card(const std::string& tier) const {
  for (const auto& each : cards)
    if (each.id == tier) return &each;
  return nullptr;
}

std::vector<const Card*> Run::cards_by_rung() const {
  std::vector<const Card*> sorted;
  for (const auto& each : cards) sorted.push_back(&each);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Card* x, const Card* y) { return x->rung < y->rung; });
  return sorted;
}

std::vector<std::int64_t> Run::sizes() const {
  std::set<std::int64_t> all;
  for (const auto& cell : cells)
    if (cell.ok()) all.insert(cell.n);
  return {all.begin(), all.end()};
}

std::vector<std::string> Run::integrand_names() const {
  std::vector<std::string> names;
  for (const auto& cell : cells)
    if (std::find(names.begin(), names.end(), cell.integrand) == names.end()) names.push_back(cell.integrand);
  return names;
}

const Integrand* Run::integrand(const std::string& name) const {
  for (const auto& each : integrands)
    if (each.name == name) return &each;
  return nullptr;
}

Run load_run(const std::string& where) {
  const ResultsFile file = read_results_file(where);
  const std::string& path = file.path;
  auto reject = [&](const std::string& problem) {
    return InputError("results file '" + path + "': " + problem);
  };

  Run run;
  run.path = path;
  run.machine = run.host = file.context.host_name;
  run.cpu = file.context.cpu_model;
  run.cpus = file.context.logical_cpus;
  run.instruction_set = file.context.kernels_use;
  run.label = file.context.label;
  run.started = file.context.started;
  run.status = file.context.status;
  run.budget = file.context.budget;
  run.repetitions = file.context.repetitions;
  run.memory_total_bytes = file.context.memory_total_bytes.value_or(0);
  run.hypervisor = file.context.hypervisor;
  run.build = file.context.compiler + " " + file.context.common_flags;
  run.topology = file.context.topology;
  for (const auto& warning : file.context.warnings) run.warnings.push_back(warning_text(warning));
  run.warning_records = file.context.warnings;
  for (const auto& record : file.tiers) run.cards.push_back(card_of(record));

  const InstructionCounts& instructions = file.instructions;
  if (instructions.available) {
    std::string sizes = "[";
    for (std::size_t i = 0; i < instructions.n.size(); ++i)
      sizes += (i ? "," : "") + std::to_string(instructions.n[i]);
    run.instructions_method = instructions.tool + " on the -march=" + instructions.target +
                              " profiling build, " + instructions.integrand + ", n = " + sizes +
                              "], 1 thread";
    for (auto& card : run.cards) {
      card.instructions_unavailable = card.peer ? "not a C++ tier" : "not counted";
      for (const auto& counted : instructions.tiers) {
        if (counted.id != card.id) continue;
        if (counted.per_node)
          card.instructions_per_node = *counted.per_node, card.instructions_unavailable.clear();
        else if (!counted.unavailable.empty())
          card.instructions_unavailable = counted.unavailable;
      }
    }
  } else {
    run.instructions_unavailable = instructions.reason;
  }

  for (const auto& record : file.context.integrands) {
    Integrand integrand{record.name, record.formula, record.source, record.antiderivative, {}};
    for (const auto& [tier, reason] : record.unsupported) integrand.unsupported.emplace_back(tier, reason);
    run.integrands.push_back(std::move(integrand));
  }

  std::vector<Cell> cells;  // in the order they appear
  auto find = [&](const std::string& name) -> Cell* {
    for (auto& cell : cells)
      if (cell.name == name) return &cell;
    return nullptr;
  };
  for (std::size_t index = 0; index < file.benchmarks.size(); ++index) {
    const BenchmarkEntry& entry = file.benchmarks[index];
    Cell* cell = find(entry.cell);
    if (!cell) {
      if (!run.card(entry.coordinates.tier))
        throw reject("cell '" + entry.cell + "' is of tier '" + entry.coordinates.tier +
                     "', which has no card");
      cells.push_back(cell_of(entry));
      cell = &cells.back();
    }
    if (!cell->placement) cell->placement = entry.placement;
    for (const auto& note : entry.reference_notes)
      if (std::find(cell->reference_notes.begin(), cell->reference_notes.end(), note) ==
          cell->reference_notes.end())
        cell->reference_notes.push_back(note);
    if (cell->exact_method.empty()) cell->exact_method = entry.exact_method;
    if (!cell->exact_error_estimate) cell->exact_error_estimate = entry.exact_error_estimate;
    if (!cell->ok()) continue;
    if (entry.run_type == "iteration") {
      cell->repetitions.push_back(seconds(entry.real_time));
      continue;
    }
    const std::string& aggregate = entry.aggregate_name;
    if (aggregate == "cv") cell->cv = entry.real_time;
    if (aggregate == "mean") cell->mean = seconds(entry.real_time);
    if (aggregate == "stddev") cell->stddev = seconds(entry.real_time);
    if (aggregate == "min") cell->min = seconds(entry.real_time);
    if (aggregate == "max") cell->max = seconds(entry.real_time);
    if (aggregate == "median") add_median(*cell, entry);
  }
  for (const auto& cell : cells) {
    if (cell.ok() && (cell.median <= 0 || cell.repetitions.empty()))
      throw reject("cell '" + cell.name +
                   "' is ok but has no median or no repetitions: the file is incomplete");
    run.cells.push_back(cell);
  }
  return run;
}

}  // namespace ladder::report
