// The cell's records read back from JSON (cell_result.hpp): each read_TYPE checks every field and names the
// path of a bad one; the from_json hooks read through them. Their to_json, and the statuses both ways
// beside their names, are cell_result.cpp's.
#include <limits>

#include "cell_result.hpp"
#include "remeasured_checks.hpp"

namespace ladder {

using nlohmann::json;

namespace {

// The members of `in` not named in `typed`: carried verbatim.
json extra_members(const JsonReader& in, std::initializer_list<const char*> typed) {
  json extra = in.object();
  for (const char* key : typed) extra.erase(key);
  return extra;
}

// Members that are always written, null where there is no figure: each must be there (an older file's
// absent ones were filled in by its migration, schema_v2.hpp).
void require(const JsonReader& in, std::initializer_list<const char*> keys) {
  for (const char* key : keys) (void)in.at(key);
}

Timing read_timing(const JsonReader& in) { return {in.at("real_time").number(), in.at("cpu_time").number()}; }

Memory read_memory(const JsonReader& in) {
  Memory memory;
  require(in, {"peak_heap_bytes", "allocations", "peak_rss_bytes", "peak_rss_growth_bytes", "minor_faults",
               "major_faults"});
  read_memory_figures(in, memory);
  if (const auto timeline = in.find("timeline")) memory.timeline = read_timeline(*timeline);
  memory.extra =
      extra_members(in, {"peak_heap_bytes", "allocations", "peak_rss_bytes", "peak_rss_growth_bytes",
                         "minor_faults", "major_faults", "thread_placement", "timeline"});
  return memory;
}

}  // namespace

CellKey read_cell_key(const JsonReader& in) {
  CellKey cell{{in.at("tier").string(), in.at("integrand").string(), in.at("n").integer(),
                in.at("threads").small_integer(), in.at("ranks").small_integer()},
               in.at("a").number(),
               in.at("b").number(),
               in.at("reproducible_requested").boolean(),
               in.string_or("build", "")};
  if (cell.n < 1) in.at("n").fail("a cell has at least one node");
  if (cell.threads < 1 || cell.ranks < 1) in.fail("a cell has at least one thread and one rank");
  return cell;
}

MemoryTimeline read_timeline(const JsonReader& in) {
  MemoryTimeline timeline{in.at("seconds").numbers(), in.at("rss_bytes").numbers(),
                          in.at("cpu_seconds").numbers(),
                          extra_members(in, {"seconds", "rss_bytes", "cpu_seconds"})};
  if (timeline.rss_bytes.size() != timeline.seconds.size() ||
      timeline.cpu_seconds.size() != timeline.seconds.size())
    in.fail("its series (seconds, rss_bytes, cpu_seconds) differ in length");
  return timeline;
}

Counters read_counters(const JsonReader& in) {
  Counters counters;
  counters.all = in.object();
  counters.available = in.at("available").boolean();
  if (!counters.available) {
    counters.reason = in.string_or("reason", counters.reason);
    return counters;
  }
  counters.reason.clear();
  counters.ipc = in.optional_number("ipc");
  counters.instructions_per_node = in.optional_number("instructions_per_node");
  counters.cache_misses = in.optional_number("cache_misses");
  counters.branch_misses = in.optional_number("branch_misses");
  return counters;
}

ThreadPlacement read_thread_placement(const JsonReader& in) {
  const auto cpus = [](const JsonReader& list) {
    std::vector<int> read;
    for (const auto& cpu : list.elements()) read.push_back(cpu.small_integer());
    return read;
  };
  ThreadPlacement placement{cpus(in.at("union_of_cpus")), {}};
  for (const auto& thread : in.at("per_thread").elements()) placement.per_thread.push_back(cpus(thread));
  return placement;
}

void read_memory_figures(const JsonReader& in, Memory& memory) {
  memory.peak_heap_bytes = in.optional_number("peak_heap_bytes");
  memory.allocations = in.optional_number("allocations");
  memory.peak_rss_bytes = in.optional_number("peak_rss_bytes");
  memory.peak_rss_growth_bytes = in.optional_number("peak_rss_growth_bytes");
  memory.minor_faults = in.optional_number("minor_faults");
  memory.major_faults = in.optional_number("major_faults");
  if (const auto placement = in.find("thread_placement"))
    memory.thread_placement = read_thread_placement(*placement);
}

void read_reference_fields(const JsonReader& in, std::string& exact_method,
                           std::optional<double>& exact_error_estimate, std::vector<std::string>& notes) {
  exact_method = in.string_or("exact_method", "");
  exact_error_estimate = in.optional_number("exact_error_estimate");
  const auto listed = in.find("reference_notes");
  notes = listed ? listed->strings() : std::vector<std::string>();
}

Measurement read_measurement(const JsonReader& in) {
  Measurement measurement;
  measurement.repetitions = read_repetitions(in.at("repetitions"));
  if (measurement.repetitions.empty()) in.at("repetitions").fail("an ok cell has at least one repetition");
  const JsonReader aggregates = in.at("aggregates");
  measurement.aggregates = {read_timing(aggregates.at("mean")),   read_timing(aggregates.at("median")),
                            read_timing(aggregates.at("stddev")), read_timing(aggregates.at("cv")),
                            read_timing(aggregates.at("min")),    read_timing(aggregates.at("max"))};
  measurement.measured_seconds = in.at("measured_seconds").number();
  // A result that is not finite was written null (JSON has no NaN): it reads back as NaN.
  measurement.result =
      in.at("result").is_null() ? std::numeric_limits<double>::quiet_NaN() : in.at("result").number();
  measurement.bit_identical = in.at("bit_identical").boolean();
  require(in, {"exact", "midpoint", "rel_error", "rounding_error", "rounding_bound"});
  measurement.exact = in.optional_number("exact");
  measurement.midpoint = in.optional_number("midpoint");
  read_reference_fields(in, measurement.exact_method, measurement.exact_error_estimate,
                        measurement.reference_notes);
  measurement.rel_error = in.optional_number("rel_error");
  measurement.rounding_error = in.optional_number("rounding_error");
  measurement.rounding_bound = in.optional_number("rounding_bound");
  measurement.within_rounding_bound = in.at("within_rounding_bound").boolean();
  measurement.memory = read_memory(in.at("memory"));
  if (const auto counters = in.find("counters")) measurement.counters = read_counters(*counters);
  measurement.instruction_set = in.at("instruction_set").string();
  measurement.extra = extra_members(
      in, {"repetitions", "aggregates", "measured_seconds", "result", "bit_identical", "exact", "midpoint",
           "exact_method", "exact_error_estimate", "reference_notes", "rel_error", "rounding_error",
           "rounding_bound", "within_rounding_bound", "memory", "counters", "instruction_set", "status"});
  return measurement;
}

WorkerReport read_worker_report(const JsonReader& in) {
  WorkerReport worker;
  worker.wall_seconds = in.optional_number("wall_seconds");
  worker.cpu_seconds = in.optional_number("cpu_seconds");
  worker.other_load_cores = in.at("other_load_cores").number();
  worker.steal_fraction = in.at("steal_fraction").number();
  worker.ended = in.string_or("ended", "");
  worker.launcher = in.string_or("launcher", "");
  if (const auto environment = in.find("environment")) worker.environment = environment->object();
  return worker;
}

Placement read_placement(const JsonReader& in) {
  Placement placement;
  for (const auto& pu : in.at("pus").elements()) placement.pus.push_back(pu.small_integer());
  placement.cores = in.at("cores").small_integer();
  placement.l3_groups = in.at("l3_groups").small_integer();
  placement.numa_nodes = in.at("numa_nodes").small_integer();
  placement.packages = in.at("packages").small_integer();
  placement.shares_cores = in.at("smt").boolean();
  return placement;
}

BuildRecord read_build_record(const JsonReader& in) {
  return {in.at("id").string(),           in.at("compiler").string(),        in.at("target").string(),
          in.at("flags").string(),        in.at("instruction_set").string(), in.at("vectorization").string(),
          in.at("lanes").small_integer(), in.at("evidence").string()};
}

// Its values are checked by read_cell_result, which knows the cell's status (remeasured_checks.hpp).
Remeasured read_remeasured(const JsonReader& in) {
  return {in.at("attempts").small_integer(), in.at("first_median_ns").number(),
          in.at("first_reasons").strings(), in.at("still_disturbed").boolean()};
}

CellResult read_cell_result(const JsonReader& in) {
  CellResult record;
  record.name = in.at("name").string();
  static_cast<CellKey&>(record) = read_cell_key(in.at("cell"));
  record.rung = in.at("rung").small_integer();
  record.oversubscribed = in.at("oversubscribed").boolean();
  record.status = read_cell_status(in.at("status"));
  record.reason = in.string_or("reason", "");
  if (record.status == CellStatus::ok) record.measurement = read_measurement(in.at("measurement"));
  if (const auto placement = in.find("placement"); placement && !placement->is_null())
    record.placement = read_placement(*placement);
  if (const auto build = in.find("build"); build && !build->is_null())
    record.build_record = read_build_record(*build);
  record.worker = read_worker_report(in.at("worker"));
  record.finished = in.at("finished").string();
  if (const auto reproducible = in.find("reproducible"); reproducible && !reproducible->is_null())
    record.reproducible = reproducible->boolean();
  if (const auto remeasured = in.find("remeasured"); remeasured && !remeasured->is_null()) {
    record.remeasured = read_remeasured(*remeasured);
    check_remeasured(*remeasured, *record.remeasured, record.status);
  }
  if (const auto rounds = in.find("rounds"))
    for (const auto& round : rounds->elements()) record.rounds.push_back(read_round(round));
  return record;
}

void from_json(const json& in, CellKey& cell) { cell = read_cell_key(JsonReader(in)); }
void from_json(const json& in, Measurement& measurement) { measurement = read_measurement(JsonReader(in)); }
void from_json(const json& in, CellResult& record) { record = read_cell_result(JsonReader(in)); }

}  // namespace ladder
