// The cell's records written as JSON (cell_result.hpp): the status names, each type's to_json, the
// aggregates of its repetitions and the record's figures. Reading them back is cell_result_read.cpp.
#include "cell_result.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "optional_json.hpp"
#include "quote.hpp"
#include "text.hpp"

namespace ladder {

using nlohmann::json;

namespace {

constexpr std::array<std::pair<CellStatus, std::string_view>, 8> status_names = {{
    {CellStatus::ok, "ok"},
    {CellStatus::skipped, "skipped"},
    {CellStatus::unavailable, "unavailable"},
    {CellStatus::failed, "failed"},
    {CellStatus::crashed, "crashed"},
    {CellStatus::killed, "killed"},
    {CellStatus::timeout, "timeout"},
    {CellStatus::out_of_memory, "out_of_memory"},
}};

json timing_json(const Timing& timing) {
  return {{"real_time", timing.real_time}, {"cpu_time", timing.cpu_time}};
}

}  // namespace

std::string_view to_string(CellStatus status) {
  for (const auto& [each, name] : status_names)
    if (each == status) return name;
  return "unknown";
}

bool is_failure(CellStatus status) {
  return status != CellStatus::ok && status != CellStatus::skipped && status != CellStatus::unavailable;
}

void to_json(json& out, CellStatus status) { out = std::string(to_string(status)); }

CellStatus read_cell_status(const JsonReader& in) {
  const std::string text = in.string();
  std::vector<std::string> names;
  for (const auto& [each, name] : status_names) {
    if (name == text) return each;
    names.emplace_back(name);
  }
  in.fail("'" + quote_text(text) + "' is not a cell status; the statuses: " + join(names));
}

void from_json(const json& in, CellStatus& status) { status = read_cell_status(JsonReader(in)); }

void to_json(json& out, const CellKey& cell) {
  out = {{"tier", cell.tier},   {"integrand", cell.integrand},
         {"a", cell.a},         {"b", cell.b},
         {"n", cell.n},         {"threads", cell.threads},
         {"ranks", cell.ranks}, {"reproducible_requested", cell.reproducible_requested}};
  if (!cell.build.empty()) out["build"] = cell.build;
}

void to_json(json& out, const MemoryTimeline& timeline) {
  out = timeline.extra;
  out["seconds"] = timeline.seconds;
  out["rss_bytes"] = timeline.rss_bytes;
  out["cpu_seconds"] = timeline.cpu_seconds;
}

void to_json(json& out, const Counters& counters) {
  out = counters.all.is_object() ? counters.all
                                 : json{{"available", counters.available}, {"reason", counters.reason}};
}

Aggregates aggregate(const std::vector<Repetition>& repetitions) {
  if (repetitions.empty()) throw std::invalid_argument("no repetitions to aggregate");
  const auto statistics = [&](double Repetition::*time) {
    std::vector<double> values;
    for (const auto& repetition : repetitions) values.push_back(repetition.*time);
    std::sort(values.begin(), values.end());
    const std::size_t count = values.size(), half = count / 2;
    const double mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(count);
    double squares = 0;
    for (const double value : values) squares += (value - mean) * (value - mean);
    const double stddev = count > 1 ? std::sqrt(squares / static_cast<double>(count - 1)) : 0;
    const double median = count % 2 ? values[half] : (values[half - 1] + values[half]) / 2;
    return std::array<double, 6>{mean,           median,       stddev, mean != 0 ? stddev / mean : 0,
                                 values.front(), values.back()};
  };
  const auto real = statistics(&Repetition::real_time), cpu = statistics(&Repetition::cpu_time);
  return {{real[0], cpu[0]}, {real[1], cpu[1]}, {real[2], cpu[2]},
          {real[3], cpu[3]}, {real[4], cpu[4]}, {real[5], cpu[5]}};
}

void to_json(json& out, const ThreadPlacement& placement) {
  out = {{"threads", placement.threads()},
         {"union_of_cpus", placement.union_of_cpus},
         {"per_thread", placement.per_thread}};
}

void write_memory_figures(const Memory& memory, json& out) {
  for (const auto& [key, value] : {std::pair{"peak_heap_bytes", memory.peak_heap_bytes},
                                   {"allocations", memory.allocations},
                                   {"peak_rss_bytes", memory.peak_rss_bytes},
                                   {"peak_rss_growth_bytes", memory.peak_rss_growth_bytes},
                                   {"minor_faults", memory.minor_faults},
                                   {"major_faults", memory.major_faults}})
    out[key] = optional_json(value);
  if (memory.thread_placement) out["thread_placement"] = *memory.thread_placement;
}

namespace {

json memory_json(const Memory& memory) {
  json out = memory.extra;
  write_memory_figures(memory, out);
  if (memory.timeline) out["timeline"] = *memory.timeline;
  return out;
}

}  // namespace

void to_json(json& out, const Measurement& measurement) {
  const json repetitions = repetitions_json(measurement.repetitions);
  const auto& aggregates = measurement.aggregates;
  out = measurement.extra;
  out.update({{"repetitions", repetitions},
              {"aggregates",
               {{"mean", timing_json(aggregates.mean)},
                {"median", timing_json(aggregates.median)},
                {"stddev", timing_json(aggregates.stddev)},
                {"cv", timing_json(aggregates.cv)},
                {"min", timing_json(aggregates.min)},
                {"max", timing_json(aggregates.max)}}},
              {"measured_seconds", measurement.measured_seconds},
              {"result", std::isfinite(measurement.result) ? json(measurement.result) : json(nullptr)},
              {"bit_identical", measurement.bit_identical},
              {"exact", optional_json(measurement.exact)},
              {"midpoint", optional_json(measurement.midpoint)},
              {"rel_error", optional_json(measurement.rel_error)},
              {"rounding_error", optional_json(measurement.rounding_error)},
              {"rounding_bound", optional_json(measurement.rounding_bound)},
              {"within_rounding_bound", measurement.within_rounding_bound},
              {"memory", memory_json(measurement.memory)},
              {"instruction_set", measurement.instruction_set}});
  if (measurement.counters) out["counters"] = *measurement.counters;
  // What only a reference from Boost.Math has (a journal written before them has none of these).
  if (!measurement.exact_method.empty()) out["exact_method"] = measurement.exact_method;
  if (measurement.exact_error_estimate) out["exact_error_estimate"] = *measurement.exact_error_estimate;
  if (!measurement.reference_notes.empty()) out["reference_notes"] = measurement.reference_notes;
}

void to_json(json& out, const WorkerReport& worker) {
  out = {{"other_load_cores", worker.other_load_cores}, {"steal_fraction", worker.steal_fraction}};
  if (worker.wall_seconds) out["wall_seconds"] = *worker.wall_seconds;
  if (worker.cpu_seconds) out["cpu_seconds"] = *worker.cpu_seconds;
  if (!worker.ended.empty()) out["ended"] = worker.ended;
  if (!worker.launcher.empty()) out["launcher"] = worker.launcher;
  if (!worker.environment.empty()) out["environment"] = worker.environment;
}

void to_json(json& out, const Placement& placement) {
  out = {{"pus", placement.pus},
         {"cores", placement.cores},
         {"l3_groups", placement.l3_groups},
         {"numa_nodes", placement.numa_nodes},
         {"packages", placement.packages},
         {"smt", placement.shares_cores},
         {"crosses_numa", placement.crosses_numa()}};
}

void to_json(json& out, const BuildRecord& build) {
  out = {{"id", build.id},
         {"compiler", build.compiler},
         {"target", build.target},
         {"flags", build.flags},
         {"instruction_set", build.instruction_set},
         {"vectorization", build.vectorization},
         {"lanes", build.lanes},
         {"evidence", build.evidence}};
}

void to_json(json& out, const CellResult& record) {
  out = {{"kind", "cell"},
         {"name", record.name},
         {"cell", record.key()},
         {"rung", record.rung},
         {"oversubscribed", record.oversubscribed},
         {"status", record.status},
         {"worker", record.worker},
         {"finished", record.finished}};
  if (!record.reason.empty()) out["reason"] = record.reason;
  if (record.measurement) out["measurement"] = *record.measurement;
  if (record.placement) out["placement"] = *record.placement;
  if (record.build_record) out["build"] = *record.build_record;
  if (record.reproducible) out["reproducible"] = *record.reproducible;
  if (record.remeasured) out["remeasured"] = *record.remeasured;
  if (!record.rounds.empty()) out["rounds"] = record.rounds;
}

void to_json(json& out, const Remeasured& again) {
  out = {{"attempts", again.attempts},
         {"first_median_ns", again.first_median_ns},
         {"first_reasons", again.first_reasons},
         {"still_disturbed", again.still_disturbed}};
}

std::vector<double> CellResult::repetition_seconds() const {
  std::vector<double> seconds;
  if (ok())
    for (const auto& repetition : measurement->repetitions) seconds.push_back(repetition.real_time * 1e-9);
  return seconds;
}

double CellResult::efficiency() const {
  if (!ok() || measurement->aggregates.median.real_time <= 0) return 0;
  const Timing& median = measurement->aggregates.median;
  return median.cpu_time / (median.real_time * threads);
}

std::vector<std::string> CellResult::reference_notes() const {
  return ok() ? measurement->reference_notes : std::vector<std::string>();
}

const MemoryTimeline& CellResult::timeline() const {
  static const MemoryTimeline none;
  return ok() && measurement->memory.timeline ? *measurement->memory.timeline : none;
}

std::optional<double> CellResult::counter(std::optional<double> Counters::*figure) const {
  if (!ok() || !measurement->counters || !measurement->counters->available) return std::nullopt;
  return (*measurement->counters).*figure;
}

std::string CellResult::counters_unavailable() const {
  if (!ok()) return {};
  const Counters counters = measurement->counters.value_or(Counters{});
  return counters.available ? std::string() : counters.reason;
}

double CellResult::ns_per_node() const {
  return ok() ? measurement->aggregates.median.real_time / static_cast<double>(n) : 0;
}

}  // namespace ladder
