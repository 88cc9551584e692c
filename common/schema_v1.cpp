#include "schema_v1.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "benchmark_entries.hpp"
#include "cell_result.hpp"
#include "instruction_counts.hpp"
#include "json_reader.hpp"
#include "quote.hpp"
#include "run_context.hpp"
#include "text.hpp"

namespace ladder {

using nlohmann::json;

namespace {

// Schema 1's thread placement ({"threads", "cpus", "union_of_cpus": "0,1", "per_thread": ["0-1", …]}) as
// schema 2's, whose CPU sets are lists ({"threads", "union_of_cpus": [0, 1], "per_thread": [[0, 1], …]}).
void placement_v2(json& holder) {
  if (!holder.is_object() || !holder.contains("thread_placement")) return;
  json& placement = holder.at("thread_placement");
  // A journal of schema 1 resumed by schema 2 has lines of both.
  if (placement.is_object() && placement.contains("union_of_cpus") &&
      placement.at("union_of_cpus").is_array())
    return;
  const JsonReader in(placement, "thread_placement");
  const auto cpus = [](const JsonReader& text) {
    try {
      return parse_cpu_list(text.string());
    } catch (const std::invalid_argument& problem) {
      text.fail(problem.what());
    }
  };
  json threads = json::array();
  for (const auto& thread : in.at("per_thread").elements()) threads.push_back(cpus(thread));
  placement = {
      {"threads", threads.size()}, {"union_of_cpus", cpus(in.at("union_of_cpus"))}, {"per_thread", threads}};
}

// What schema 2 always writes and a schema-1 file may lack, from the types' own defaults: every missing
// member of `target` is taken from `defaults`, objects member by member.
void fill_missing(json& target, const json& defaults) {
  if (!target.is_object() || !defaults.is_object()) return;
  for (const auto& [key, value] : defaults.items()) {
    if (!target.contains(key))
      target[key] = value;
    else
      fill_missing(target.at(key), value);
  }
}

// A matrix from before integrands were a dimension has one `integrand`.
void matrix_v2(json& matrix) {
  if (!matrix.is_object()) return;
  if (matrix.contains("integrand") && !matrix.contains("integrands"))
    matrix["integrands"] = json::array({matrix.at("integrand")});
  fill_missing(matrix, MatrixRecord{}.to_json());
}

// A machine context as schema 1 wrote it, with what its early versions did not record: what a reader then
// shows for it is the type's default (an empty text, no topology, git "unknown").
void machine_context_v2(json& context) {
  if (!context.is_object()) return;
  if (context.contains("matrix")) matrix_v2(context.at("matrix"));
  if (context.contains("run") && context.at("run").is_object()) {
    json& run = context.at("run");
    // Files written before the run had a status were of finished runs.
    if (!run.contains("status")) run["status"] = "complete";
    if (run.contains("worker_cpus") && run.at("worker_cpus").is_string())
      run["worker_cpus"] = parse_cpu_list(run.at("worker_cpus").get<std::string>());
  }
  fill_missing(context, ContextRecord{});
}

// Instruction counts of schema 1: absent from the earliest files, and without the toolchain in some.
json instructions_v2(const json& document) {
  if (!document.contains("instructions"))
    return InstructionCounts::not_counted("unavailable: not recorded by this version of Ladder");
  json counts = document.at("instructions");
  // json's value(key, default) throws on a field of another type: such a field is left for the reader to
  // refuse with its path.
  if (!counts.is_object() || !counts.contains("available") || counts.at("available") != true) {
    fill_missing(counts,
                 InstructionCounts::not_counted("unavailable: not recorded by this version of Ladder"));
    return counts;
  }
  InstructionCounts defaults;
  defaults.available = true;
  if (counts.contains("integrand") && counts.at("integrand").is_string())
    defaults.integrand = counts.at("integrand").get<std::string>();
  fill_missing(counts, defaults);
  if (counts.contains("by_integrand") && counts.at("by_integrand").is_object())
    for (auto& [integrand, each] : counts.at("by_integrand").items()) {
      InstructionCounts one;
      one.available = true;
      one.integrand = integrand;
      fill_missing(each, one);
    }
  return counts;
}

// An entry as schema 1 wrote it; its thread placement is already schema 2's (placement_v2).
BenchmarkEntry read_entry(const JsonReader& in) {
  BenchmarkEntry entry;
  entry.name = in.at("name").string();
  entry.run_type = in.at("run_type").string();
  if (entry.run_type != "iteration" && entry.run_type != "aggregate")
    in.at("run_type").fail("'" + quote_text(entry.run_type) + "' is neither \"iteration\" nor \"aggregate\"");
  entry.run_name = in.string_or("run_name", entry.name);
  entry.family_index = in.small_integer_or("family_index", 0);
  entry.per_family_instance_index = in.small_integer_or("per_family_instance_index", 0);
  entry.repetitions = in.small_integer_or("repetitions", 0);
  if (const auto index = in.find("repetition_index")) entry.repetition_index = index->small_integer();
  entry.iterations = in.integer_or("iterations", 0);
  entry.error_occurred = in.boolean_or("error_occurred", false);
  entry.error_message = in.string_or("error_message", "");
  entry.cell = in.at("cell").string();
  // A results file made by hand may leave out what a report does not need: the interval and whether
  // reproducibility was asked for.
  entry.coordinates = {{in.at("tier").string(), in.at("integrand").string(), in.at("n").integer(),
                        in.at("threads").small_integer(), in.small_integer_or("ranks", 1)},
                       in.number_or("a", 0),
                       in.number_or("b", 1),
                       in.boolean_or("reproducible_requested", false)};
  entry.rung = in.at("rung").small_integer();
  entry.oversubscribed = in.boolean_or("oversubscribed", false);
  entry.status = read_cell_status(in.at("status"));
  entry.reason = in.string_or("reason", "");
  entry.reproducible = in.optional_boolean("reproducible");
  if (const auto placement = in.find("placement"); placement && !placement->is_null())
    entry.placement = read_placement(*placement);
  const bool measured = entry.status == CellStatus::ok;
  // A cell that did not run may have no times (files before Google Benchmark's errored-run form).
  entry.real_time = measured ? in.at("real_time").number() : in.number_or("real_time", 0);
  entry.cpu_time = measured ? in.at("cpu_time").number() : in.number_or("cpu_time", 0);
  if (entry.run_type == "aggregate") {
    entry.aggregate_name = in.at("aggregate_name").string();
    entry.aggregate_unit = in.string_or("aggregate_unit", "time");
  }
  if (!measured) return entry;
  entry.result = in.optional_number("result");
  entry.exact = in.optional_number("exact");
  entry.midpoint = in.optional_number("midpoint");
  entry.rel_error = in.optional_number("rel_error");
  entry.rounding_error = in.optional_number("rounding_error");
  entry.rounding_bound = in.optional_number("rounding_bound");
  entry.ns_per_node = in.optional_number("ns_per_node");
  entry.nodes_per_second = in.optional_number("nodes_per_second");
  entry.parallel_efficiency = in.optional_number("parallel_efficiency");
  entry.other_load_cores = in.optional_number("other_load_cores");
  entry.within_rounding_bound = in.optional_boolean("within_rounding_bound");
  entry.bit_identical = in.optional_boolean("bit_identical");
  read_reference_fields(in, entry.exact_method, entry.exact_error_estimate, entry.reference_notes);
  entry.instruction_set = in.optional_string("instruction_set").value_or("");
  read_memory_figures(in, entry.memory);
  if (const auto timeline = in.find("memory_timeline")) entry.memory.timeline = read_timeline(*timeline);
  if (const auto counters = in.find("counters")) entry.counters = read_counters(*counters);
  for (const char* key : {"environment", "launcher"})
    if (const auto member = in.find(key)) entry.extra[key] = member->raw();
  return entry;
}

Measurement measurement_of(const std::vector<BenchmarkEntry>& entries, const JsonReader& where) {
  const BenchmarkEntry& first = entries.front();
  Measurement measurement;
  std::map<std::string, Timing> aggregates;
  const BenchmarkEntry* median = &first;
  for (const auto& entry : entries) {
    if (entry.run_type == "iteration") {
      measurement.repetitions.push_back(
          {entry.repetition_index.value_or(static_cast<int>(measurement.repetitions.size())),
           entry.iterations, entry.real_time, entry.cpu_time});
      measurement.measured_seconds += entry.real_time * 1e-9 * static_cast<double>(entry.iterations);
      continue;
    }
    aggregates[entry.aggregate_name] = {entry.real_time, entry.cpu_time};
    if (entry.aggregate_name == "median") median = &entry;
  }
  if (measurement.repetitions.empty())
    where.fail("cell '" + quote_text(first.cell) + "' is ok but has no repetitions: the file is incomplete");
  // Files that left some aggregates out: those from the repetitions.
  const Aggregates computed = aggregate(measurement.repetitions);
  const auto take = [&](const char* name, const Timing& otherwise) {
    return aggregates.count(name) ? aggregates.at(name) : otherwise;
  };
  measurement.aggregates = {take("mean", computed.mean),     take("median", computed.median),
                            take("stddev", computed.stddev), take("cv", computed.cv),
                            take("min", computed.min),       take("max", computed.max)};
  measurement.result = median->result.value_or(std::numeric_limits<double>::quiet_NaN());
  measurement.bit_identical = median->bit_identical.value_or(false);
  measurement.exact = median->exact;
  measurement.midpoint = median->midpoint;
  measurement.rel_error = median->rel_error;
  measurement.rounding_error = median->rounding_error;
  measurement.rounding_bound = median->rounding_bound;
  measurement.within_rounding_bound = median->within_rounding_bound.value_or(false);
  measurement.instruction_set = median->instruction_set;
  measurement.memory = median->memory;
  measurement.counters = median->counters;
  for (const auto& entry : entries) {  // what only some entries carry
    if (measurement.exact_method.empty()) measurement.exact_method = entry.exact_method;
    if (!measurement.exact_error_estimate) measurement.exact_error_estimate = entry.exact_error_estimate;
    for (const auto& note : entry.reference_notes)
      if (std::find(measurement.reference_notes.begin(), measurement.reference_notes.end(), note) ==
          measurement.reference_notes.end())
        measurement.reference_notes.push_back(note);
  }
  return measurement;
}

CellResult cell_of(const std::vector<BenchmarkEntry>& entries, const JsonReader& where) {
  const BenchmarkEntry& first = entries.front();
  CellResult cell;
  static_cast<CellKey&>(cell) = first.coordinates;
  cell.name = first.cell.empty() ? first.name : first.cell;
  cell.rung = first.rung;
  cell.oversubscribed = first.oversubscribed;
  cell.status = first.status;
  cell.reason = first.reason;
  cell.reproducible = first.reproducible;
  for (const auto& entry : entries)
    if (!cell.placement) cell.placement = entry.placement;
  if (cell.status == CellStatus::ok) cell.measurement = measurement_of(entries, where);
  cell.worker.other_load_cores = first.other_load_cores.value_or(0);
  if (first.extra.contains("environment")) cell.worker.environment = first.extra.at("environment");
  if (first.extra.contains("launcher") && first.extra.at("launcher").is_string())
    cell.worker.launcher = first.extra.at("launcher").get<std::string>();
  return cell;
}

}  // namespace

json migrate_results_v1(const json& document) {
  json migrated = document;
  migrated["schema_version"] = 2;
  const JsonReader root(migrated);
  std::vector<std::string> order;
  std::map<std::string, std::vector<BenchmarkEntry>> groups;
  for (std::size_t index = 0; index < migrated.at("benchmarks").size(); ++index) {
    json entry = migrated.at("benchmarks").at(index);
    placement_v2(entry);
    BenchmarkEntry read = read_entry(JsonReader(entry, "benchmarks[" + std::to_string(index) + "]"));
    const std::string name = read.cell.empty() ? read.name : read.cell;
    if (!groups.count(name)) order.push_back(name);
    groups[name].push_back(std::move(read));
  }
  json cells = json::array();
  for (const auto& name : order) cells.push_back(cell_of(groups.at(name), root.at("benchmarks")));
  migrated["cells"] = std::move(cells);
  if (migrated.contains("context")) machine_context_v2(migrated.at("context"));
  migrated["instructions"] = instructions_v2(migrated);
  return migrated;
}

void migrate_journal_line_v1(json& line) {
  if (line.value("kind", "") == "run") {
    line["schema_version"] = 2;
    if (line.contains("matrix")) matrix_v2(line.at("matrix"));
    if (line.contains("context") && line.at("context").is_object()) {
      // The header's context is the machine's alone (the run's record and the matrix are beside it).
      json& context = line.at("context");
      json defaults = MachineContext{};
      fill_missing(context, defaults);
    }
    line["instructions"] = instructions_v2(line);
  }
  if (line.contains("measurement") && line.at("measurement").contains("memory"))
    placement_v2(line.at("measurement").at("memory"));
}

}  // namespace ladder
