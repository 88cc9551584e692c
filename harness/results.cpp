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
#include "registry.hpp"

namespace ladder {
namespace {

using nlohmann::json;

// Cells that differ only in their thread count: a reproducible tier gives the same bits in all of them.
using Group = std::tuple<std::string, std::string, double, double, std::int64_t, bool>;

Group group_of(const json& cell) {
  return {cell.at("tier"), cell.at("integrand"), cell.at("a"),
          cell.at("b"),    cell.at("n"),         cell.at("reproducible_requested")};
}

struct GroupResults {
  std::map<int, double> by_threads;
  bool all_bit_identical = true;
};

std::map<Group, GroupResults> results_by_group(const Journal& journal) {
  std::map<Group, GroupResults> groups;
  for (const auto& event : journal.events) {
    if (event.at("kind") != "cell" || event.at("status") != "ok") continue;
    auto& group = groups[group_of(event.at("cell"))];
    const auto& measurement = event.at("measurement");
    group.by_threads[event.at("cell").at("threads")] = measurement.at("result");
    group.all_bit_identical = group.all_bit_identical && measurement.at("bit_identical").get<bool>();
  }
  return groups;
}

// Same bits at every thread count measured (and in every repetition); null when only one thread count
// was measured for a parallel tier.
json reproducible(const json& event, const std::map<Group, GroupResults>& groups) {
  if (event.at("status") != "ok") return nullptr;
  const auto& group = groups.at(group_of(event.at("cell")));
  const bool parallel = find_tier(event.at("cell").at("tier").get<std::string>()).card.parallel;
  if (parallel && group.by_threads.size() < 2) return nullptr;
  bool same = group.all_bit_identical;
  const double first = group.by_threads.begin()->second;
  for (const auto& [threads, result] : group.by_threads)
    same = same && std::memcmp(&first, &result, sizeof first) == 0;
  return same;
}

json stat(const json& measurement, const char* aggregate, const char* field) {
  const auto& aggregates = measurement.at("aggregates");
  return aggregates.contains(aggregate) ? aggregates.at(aggregate).at(field) : json(nullptr);
}

// Ladder's fields, beside Google Benchmark's in every entry of a cell.
json ladder_fields(const json& event, const json& reproducible_value) {
  const auto& cell = event.at("cell");
  json fields = {{"cell", event.at("name")},
                 {"tier", cell.at("tier")},
                 {"rung", event.at("rung")},
                 {"integrand", cell.at("integrand")},
                 {"a", cell.at("a")},
                 {"b", cell.at("b")},
                 {"n", cell.at("n")},
                 {"threads", cell.at("threads")},
                 {"ranks", cell.value("ranks", 1)},
                 {"oversubscribed", event.value("oversubscribed", false)},
                 {"reproducible_requested", cell.at("reproducible_requested")},
                 {"status", event.at("status")},
                 {"reproducible", reproducible_value}};
  if (event.contains("reason")) fields["reason"] = event.at("reason");
  if (event.at("status") != "ok") return fields;
  const auto& measurement = event.at("measurement");
  const auto& memory = measurement.at("memory");
  for (const char* key : {"result", "exact", "midpoint", "rel_error", "rounding_error", "rounding_bound",
                          "within_rounding_bound", "bit_identical", "instruction_set"})
    fields[key] = measurement.at(key);
  for (const char* key : {"peak_heap_bytes", "allocations", "peak_rss_bytes", "peak_rss_growth_bytes",
                          "minor_faults", "major_faults"})
    fields[key] = memory.at(key);
  // Hardware counters over one call: figures, or why there are none.
  fields["counters"] = measurement.value(
      "counters",
      json{{"available", false}, {"reason", "unavailable: not recorded by this version of Ladder"}});
  fields["other_load_cores"] = event.at("worker").at("other_load_cores");
  if (memory.contains("thread_placement")) fields["thread_placement"] = memory.at("thread_placement");
  fields["environment"] = event.at("worker").value("environment", json::object());
  if (event.at("worker").contains("launcher")) fields["launcher"] = event.at("worker").at("launcher");
  return fields;
}

// Per-entry rates from that entry's times: nanoseconds a node, nodes a second, CPU per wall per thread.
void add_rates(json& entry, double real_ns, double cpu_ns, std::int64_t n, int threads) {
  entry["ns_per_node"] = real_ns / static_cast<double>(n);
  entry["nodes_per_second"] = real_ns > 0 ? json(static_cast<double>(n) / (real_ns * 1e-9)) : json(nullptr);
  entry["parallel_efficiency"] = real_ns > 0 ? json(cpu_ns / (real_ns * threads)) : json(nullptr);
}

void add_entries(json& benchmarks, const json& event, const json& reproducible_value, int family) {
  const json fields = ladder_fields(event, reproducible_value);
  const std::string name = event.at("name");
  const std::int64_t n = event.at("cell").at("n");
  const int threads = event.at("cell").at("threads");
  auto base = [&](const char* run_type) {
    json entry = {{"name", name},
                  {"family_index", family},
                  {"per_family_instance_index", 0},
                  {"run_name", name},
                  {"run_type", run_type}};
    return entry;
  };
  if (event.at("status") != "ok") {
    json entry = base("iteration");
    entry.update({{"repetitions", 0},
                  {"iterations", 0},
                  {"error_occurred", true},
                  {"error_message", event.value("reason", std::string())}});
    entry.update(fields);
    benchmarks.push_back(entry);
    return;
  }
  const auto& measurement = event.at("measurement");
  const auto& repetitions = measurement.at("repetitions");
  const auto count = static_cast<int>(repetitions.size());
  for (const auto& repetition : repetitions) {
    json entry = base("iteration");
    entry.update({{"repetitions", count},
                  {"repetition_index", repetition.at("repetition_index")},
                  {"iterations", repetition.at("iterations")},
                  {"real_time", repetition.at("real_time")},
                  {"cpu_time", repetition.at("cpu_time")},
                  {"time_unit", "ns"}});
    entry.update(fields);
    add_rates(entry, repetition.at("real_time"), repetition.at("cpu_time"), n, threads);
    benchmarks.push_back(entry);
  }
  for (const char* aggregate : {"mean", "median", "stddev", "cv", "min", "max"}) {
    const bool percentage = std::string(aggregate) == "cv";
    json entry = base("aggregate");
    entry["name"] = name + "_" + aggregate;
    entry.update({{"repetitions", count},
                  {"threads", threads},
                  {"aggregate_name", aggregate},
                  {"aggregate_unit", percentage ? "percentage" : "time"},
                  {"iterations", repetitions.at(0).at("iterations")},
                  {"real_time", stat(measurement, aggregate, "real_time")},
                  {"cpu_time", stat(measurement, aggregate, "cpu_time")},
                  {"time_unit", "ns"}});
    entry.update(fields);
    // Memory and CPU time over one call: on the median entry only, not repeated on every entry.
    if (std::string(aggregate) == "median" && measurement.at("memory").contains("timeline"))
      entry["memory_timeline"] = measurement.at("memory").at("timeline");
    if (!percentage && std::string(aggregate) != "stddev")
      add_rates(entry, entry["real_time"], entry["cpu_time"], n, threads);
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
      throw std::runtime_error("cannot repair " + path + ": " + std::strerror(errno));
  }
  Journal journal;
  std::istringstream lines(contents.substr(0, complete));
  std::string line;
  while (std::getline(lines, line)) {
    json parsed = json::parse(line, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object())
      throw InputError("'" + path + "' is not a Ladder journal (a line is not JSON)");
    if (journal.header.is_null()) {
      if (parsed.value("kind", "") != "run")
        throw InputError("'" + path + "' is not a Ladder journal (its first line does not describe a run)");
      if (parsed.value("schema_version", 0) != results_schema_version)
        throw InputError("'" + path + "' has results schema version " +
                         std::to_string(parsed.value("schema_version", 0)) + "; this Ladder reads version " +
                         std::to_string(results_schema_version) + " only");
      journal.header = std::move(parsed);
    } else {
      journal.events.push_back(std::move(parsed));
    }
  }
  if (journal.header.is_null()) throw InputError("'" + path + "' is empty: not a Ladder journal");
  return journal;
}

void append_journal(const std::string& path, const json& line) {
  const std::string text = line.dump() + "\n";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot append to " + path + ": " + std::strerror(errno));
  const ssize_t written = ::write(fd, text.data(), text.size());
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (written != static_cast<ssize_t>(text.size()) || !synced)
    throw std::runtime_error("cannot append to " + path + ": " + std::strerror(errno));
}

json results_document(const Journal& journal, const json& run) {
  const auto groups = results_by_group(journal);
  json benchmarks = json::array();
  int family = 0;
  for (const auto& event : journal.events)
    if (event.at("kind") == "cell") add_entries(benchmarks, event, reproducible(event, groups), family++);
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
