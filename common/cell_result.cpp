#include "cell_result.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "optional_json.hpp"
#include "quote.hpp"
#include "remeasured_checks.hpp"
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

CellKey read_cell_key(const JsonReader& in) {
  CellKey cell{in.at("tier").string(),
               in.at("integrand").string(),
               in.at("a").number(),
               in.at("b").number(),
               in.at("n").integer(),
               in.at("threads").small_integer(),
               in.at("ranks").small_integer(),
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

void to_json(json& out, const MemoryTimeline& timeline) {
  out = timeline.extra;
  out["seconds"] = timeline.seconds;
  out["rss_bytes"] = timeline.rss_bytes;
  out["cpu_seconds"] = timeline.cpu_seconds;
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

namespace {

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

void to_json(json& out, const WorkerReport& worker) {
  out = {{"other_load_cores", worker.other_load_cores}, {"steal_fraction", worker.steal_fraction}};
  if (worker.wall_seconds) out["wall_seconds"] = *worker.wall_seconds;
  if (worker.cpu_seconds) out["cpu_seconds"] = *worker.cpu_seconds;
  if (!worker.ended.empty()) out["ended"] = worker.ended;
  if (!worker.launcher.empty()) out["launcher"] = worker.launcher;
  if (!worker.environment.empty()) out["environment"] = worker.environment;
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

void to_json(json& out, const Placement& placement) {
  out = {{"pus", placement.pus},
         {"cores", placement.cores},
         {"l3_groups", placement.l3_groups},
         {"numa_nodes", placement.numa_nodes},
         {"packages", placement.packages},
         {"smt", placement.shares_cores},
         {"crosses_numa", placement.crosses_numa()}};
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

BuildRecord read_build_record(const JsonReader& in) {
  return {in.at("id").string(),           in.at("compiler").string(),        in.at("target").string(),
          in.at("flags").string(),        in.at("instruction_set").string(), in.at("vectorization").string(),
          in.at("lanes").small_integer(), in.at("evidence").string()};
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

// Its values are checked by read_cell_result, which knows the cell's status (remeasured_checks.hpp).
Remeasured read_remeasured(const JsonReader& in) {
  return {in.at("attempts").small_integer(), in.at("first_median_ns").number(),
          in.at("first_reasons").strings(), in.at("still_disturbed").boolean()};
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
