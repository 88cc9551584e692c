#include "results.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "build_info.hpp"
#include "errors.hpp"
#include "json_reader.hpp"
#include "peers.hpp"
#include "text.hpp"

namespace ladder {
namespace {

using nlohmann::json;

// Cells that differ only in their thread count: a reproducible tier gives the same bits in all of them.
using Group = std::tuple<std::string, std::string, double, double, std::int64_t, bool>;

Group group_of(const Cell& cell) {
  return {cell.tier, cell.integrand, cell.a, cell.b, cell.n, cell.reproducible};
}

struct GroupResults {
  std::map<int, double> by_threads;
  bool all_bit_identical = true;
};

std::map<Group, GroupResults> results_by_group(const Journal& journal) {
  std::map<Group, GroupResults> groups;
  for (const auto& record : journal.cells) {
    if (!record.measurement) continue;
    auto& group = groups[group_of(record.cell)];
    group.by_threads[record.cell.threads] = record.measurement->result;
    group.all_bit_identical = group.all_bit_identical && record.measurement->bit_identical;
  }
  return groups;
}

// Same bits at every thread count measured (and in every repetition); unknown when only one thread count
// was measured for a parallel tier.
std::optional<bool> reproducible(const CellRecord& record, const std::map<Group, GroupResults>& groups) {
  if (!record.measurement) return std::nullopt;
  const auto& group = groups.at(group_of(record.cell));
  if (find_card(record.cell.tier).parallel && group.by_threads.size() < 2) return std::nullopt;
  bool same = group.all_bit_identical;
  const double first = group.by_threads.begin()->second;
  for (const auto& [threads, result] : group.by_threads)
    same = same && std::memcmp(&first, &result, sizeof first) == 0;
  return same;
}

// The fields every entry of a cell shares: Ladder's, beside Google Benchmark's.
BenchmarkEntry cell_entry(const CellRecord& record, std::optional<bool> reproducible_value, int family) {
  BenchmarkEntry entry;
  entry.name = entry.run_name = entry.cell = record.name;
  entry.family_index = family;
  entry.run_type = "iteration";
  entry.coordinates = record.cell;
  entry.rung = record.rung;
  entry.oversubscribed = record.oversubscribed;
  entry.status = record.status;
  entry.reason = record.reason;
  entry.reproducible = reproducible_value;
  entry.placement = record.placement;
  if (!record.measurement) return entry;
  const Measurement& measurement = *record.measurement;
  entry.result = measurement.result;
  entry.exact = measurement.exact;
  entry.midpoint = measurement.midpoint;
  entry.exact_method = measurement.exact_method;
  entry.exact_error_estimate = measurement.exact_error_estimate;
  entry.reference_notes = measurement.reference_notes;
  entry.rel_error = measurement.rel_error;
  entry.rounding_error = measurement.rounding_error;
  entry.rounding_bound = measurement.rounding_bound;
  entry.within_rounding_bound = measurement.within_rounding_bound;
  entry.bit_identical = measurement.bit_identical;
  entry.instruction_set = measurement.instruction_set;
  entry.memory = measurement.memory;
  entry.memory.timeline.reset();  // on the median entry only, not repeated on every entry
  // Hardware counters over one call: figures, or why there are none.
  entry.counters = measurement.counters.value_or(Counters{});
  entry.other_load_cores = record.worker.other_load_cores;
  entry.extra["environment"] = record.worker.environment;
  if (!record.worker.launcher.empty()) entry.extra["launcher"] = record.worker.launcher;
  return entry;
}

// Per-entry rates from that entry's times: nanoseconds a node, nodes a second, CPU per wall per thread.
void add_rates(BenchmarkEntry& entry) {
  const double real_ns = entry.real_time, n = static_cast<double>(entry.coordinates.n);
  entry.ns_per_node = real_ns / n;
  if (real_ns > 0) {
    entry.nodes_per_second = n / (real_ns * 1e-9);
    entry.parallel_efficiency = entry.cpu_time / (real_ns * entry.coordinates.threads);
  }
}

void add_entries(std::vector<BenchmarkEntry>& benchmarks, const CellRecord& record,
                 std::optional<bool> reproducible_value, int family) {
  const BenchmarkEntry common = cell_entry(record, reproducible_value, family);
  if (!record.measurement) {  // as Google Benchmark writes a run that stopped with an error
    BenchmarkEntry entry = common;
    entry.error_occurred = true;
    entry.error_message = record.reason;
    benchmarks.push_back(entry);
    return;
  }
  const Measurement& measurement = *record.measurement;
  const auto count = static_cast<int>(measurement.repetitions.size());
  for (const auto& repetition : measurement.repetitions) {
    BenchmarkEntry entry = common;
    entry.repetitions = count;
    entry.repetition_index = repetition.repetition_index;
    entry.iterations = repetition.iterations;
    entry.real_time = repetition.real_time;
    entry.cpu_time = repetition.cpu_time;
    add_rates(entry);
    benchmarks.push_back(entry);
  }
  const auto& aggregates = measurement.aggregates;
  for (const auto& [aggregate, timing] : {std::pair{"mean", aggregates.mean},
                                          {"median", aggregates.median},
                                          {"stddev", aggregates.stddev},
                                          {"cv", aggregates.cv},
                                          {"min", aggregates.min},
                                          {"max", aggregates.max}}) {
    const std::string name = aggregate;
    BenchmarkEntry entry = common;
    entry.name = record.name + "_" + name;
    entry.run_type = "aggregate";
    entry.repetitions = count;
    entry.aggregate_name = name;
    entry.aggregate_unit = name == "cv" ? "percentage" : "time";
    entry.iterations = measurement.repetitions.front().iterations;
    entry.real_time = timing.real_time;
    entry.cpu_time = timing.cpu_time;
    if (name == "median") entry.memory.timeline = measurement.memory.timeline;
    if (name != "cv" && name != "stddev") add_rates(entry);
    benchmarks.push_back(entry);
  }
}

std::string csv_field(const json& value) {
  if (value.is_null()) return "";
  if (value.is_string()) {
    std::string text = value.get<std::string>();
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
  }
  if (value.is_number_float()) {
    std::ostringstream out;
    out.precision(17);
    out << value.get<double>();
    return out.str();
  }
  return value.dump();
}

}  // namespace

Journal read_journal(const std::string& path, bool repair) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("'" + path + "' does not exist: the directory holds no Ladder run to resume");
  std::string contents((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // A kill while a line was being written leaves it without its newline: that cell did not finish.
  const auto complete = contents.rfind('\n') == std::string::npos ? 0 : contents.rfind('\n') + 1;
  if (complete < contents.size() && repair) {
    if (truncate(path.c_str(), static_cast<off_t>(complete)) != 0)
      throw WriteError("cannot repair " + path + ": " + std::strerror(errno));
  }
  Journal journal;
  std::istringstream lines(contents.substr(0, complete));
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    const std::string where = "line " + std::to_string(number);
    json parsed = json::parse(line, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object())
      throw InputError("'" + path + "' is not a Ladder journal (" + where + " is not a JSON object)");
    try {
      const JsonReader reader(parsed, where);
      if (journal.header.is_null()) {
        if (reader.string_or("kind", "") != "run")
          throw InputError("'" + path + "' is not a Ladder journal (its first line does not describe a run)");
        const auto version = reader.at("schema_version");
        if (!version.raw().is_number_integer() || version.integer() != results_schema_version)
          throw InputError("'" + path + "' has results schema version " + version.raw().dump() +
                           "; this Ladder reads version " + std::to_string(results_schema_version) + " only");
        for (const char* key : {"started", "label", "preset"}) reader.at(key).string();
        reader.at("matrix").object(), reader.at("context").object(), reader.at("tiers").elements();
        journal.header = std::move(parsed);
        continue;
      }
      const std::string kind = reader.at("kind").string();
      if (kind == "cell")
        journal.cells.push_back(read_cell_record(reader));
      else if (kind == "resume")
        journal.resumptions.push_back({reader.string_or("at", ""), reader.string_or("host_name", ""),
                                       reader.string_or("command_line", "")});
      else
        reader.at("kind").fail("'" + kind + "' is neither \"cell\" nor \"resume\"");
    } catch (const SchemaError& problem) {
      throw InputError("journal '" + path + "' is damaged: " + problem.what());
    }
  }
  if (journal.header.is_null()) throw InputError("'" + path + "' is empty: not a Ladder journal");
  return journal;
}

void append_journal(const std::string& path, const json& line) {
  const std::string text = line.dump() + "\n";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw WriteError("cannot append to " + path + ": " + std::strerror(errno));
  const ssize_t written = ::write(fd, text.data(), text.size());
  const int write_error = errno;
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (written != static_cast<ssize_t>(text.size()) || !synced) {
    // A line cut short is dropped by the next read_journal (and cut off by --resume): nothing is lost.
    throw WriteError(
        "cannot append to " + path + ": " +
        std::strerror(written < 0 || written == static_cast<ssize_t>(text.size()) ? write_error : ENOSPC));
  }
}

json results_document(const Journal& journal, const json& run) {
  const auto groups = results_by_group(journal);
  std::vector<BenchmarkEntry> benchmarks;
  int family = 0;
  for (const auto& record : journal.cells)
    add_entries(benchmarks, record, reproducible(record, groups), family++);
  json context = journal.header.at("context");
  context["date"] = run.value("updated", std::string());
  context["run"] = run;
  context["matrix"] = journal.header.at("matrix");
  context["warnings"] = warnings(journal, run);
  return {{"schema_version", results_schema_version},
          {"context", context},
          {"tiers", journal.header.value("tiers", json::array())},
          {"instructions", journal.header.value("instructions", json{{"available", false},
                                                                     {"reason", "not counted in this run"}})},
          {"benchmarks", benchmarks}};
}

std::string results_csv(const json& document) {
  static const std::vector<std::string> columns = {"tier",
                                                   "rung",
                                                   "integrand",
                                                   "a",
                                                   "b",
                                                   "n",
                                                   "threads",
                                                   "reproducible_requested",
                                                   "status",
                                                   "reason",
                                                   "repetitions",
                                                   "iterations",
                                                   "real_time_median_ns",
                                                   "real_time_min_ns",
                                                   "real_time_max_ns",
                                                   "real_time_mean_ns",
                                                   "real_time_stddev_ns",
                                                   "real_time_cv",
                                                   "cpu_time_median_ns",
                                                   "ns_per_node",
                                                   "nodes_per_second",
                                                   "parallel_efficiency",
                                                   "result",
                                                   "rel_error",
                                                   "rounding_error",
                                                   "within_rounding_bound",
                                                   "bit_identical",
                                                   "reproducible",
                                                   "peak_heap_bytes",
                                                   "allocations",
                                                   "peak_rss_bytes",
                                                   "peak_rss_growth_bytes",
                                                   "minor_faults",
                                                   "major_faults",
                                                   "instruction_set",
                                                   "ipc",
                                                   "cache_misses",
                                                   "branch_misses",
                                                   "counters_unavailable",
                                                   "other_load_cores"};
  std::map<std::string, json> rows;  // by cell, in the order cells finished
  std::vector<std::string> order;
  for (const auto& entry : document.at("benchmarks")) {
    const std::string cell = entry.at("cell");
    if (!rows.count(cell)) {
      order.push_back(cell), rows[cell] = entry;
      const json counters = entry.value("counters", json::object());
      if (counters.value("available", false)) {
        for (const char* key : {"ipc", "cache_misses", "branch_misses"})
          if (counters.contains(key) && counters.at(key).is_number()) rows[cell][key] = counters.at(key);
      } else if (counters.contains("reason")) {
        rows[cell]["counters_unavailable"] = counters.at("reason");
      }
    }
    json& row = rows[cell];
    if (entry.at("run_type") != "aggregate") continue;
    const std::string aggregate = entry.at("aggregate_name");
    row["real_time_" + aggregate + "_ns"] = entry.at("real_time");
    if (aggregate == "cv") row["real_time_cv"] = entry.at("real_time");
    if (aggregate == "median") {
      row["cpu_time_median_ns"] = entry.at("cpu_time");
      for (const char* key : {"ns_per_node", "nodes_per_second", "parallel_efficiency"})
        row[key] = entry.at(key);
    }
  }
  std::string csv = join(columns, ",") + "\n";
  for (const auto& cell : order) {
    const json& row = rows[cell];
    std::vector<std::string> fields;
    for (const auto& column : columns)
      fields.push_back(row.contains(column) ? csv_field(row.at(column)) : std::string());
    csv += join(fields, ",") + "\n";
  }
  return csv;
}

}  // namespace ladder
