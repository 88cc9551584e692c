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

#include "benchmark_entries.hpp"
#include "build_info.hpp"
#include "errors.hpp"
#include "json_reader.hpp"
#include "peers.hpp"
#include "schema_v1.hpp"
#include "text.hpp"

namespace ladder {
namespace {

using nlohmann::json;

// Cells that differ only in their thread count: a reproducible tier gives the same bits in all of them.
using Group = std::tuple<std::string, std::string, double, double, std::int64_t, bool>;

Group group_of(const CellKey& cell) {
  return {cell.tier, cell.integrand, cell.a, cell.b, cell.n, cell.reproducible_requested};
}

struct GroupResults {
  std::map<int, double> by_threads;
  bool all_bit_identical = true;
};

std::map<Group, GroupResults> results_by_group(const Journal& journal) {
  std::map<Group, GroupResults> groups;
  for (const auto& record : journal.cells) {
    if (!record.measurement) continue;
    auto& group = groups[group_of(record)];
    group.by_threads[record.threads] = record.measurement->result;
    group.all_bit_identical = group.all_bit_identical && record.measurement->bit_identical;
  }
  return groups;
}

// Same bits at every thread count measured (and in every repetition); unknown when only one thread count
// was measured for a parallel tier.
std::optional<bool> reproducible(const CellResult& record, const std::map<Group, GroupResults>& groups) {
  if (!record.measurement) return std::nullopt;
  const auto& group = groups.at(group_of(record));
  if (find_card(record.tier).parallel && group.by_threads.size() < 2) return std::nullopt;
  bool same = group.all_bit_identical;
  const double first = group.by_threads.begin()->second;
  for (const auto& [threads, result] : group.by_threads)
    same = same && std::memcmp(&first, &result, sizeof first) == 0;
  return same;
}

// results.csv: one row a cell, these columns.
const std::vector<std::string> csv_columns = {"tier",
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

json optional_json(const std::optional<double>& value) { return value ? json(*value) : json(nullptr); }

// A cell's row, by column; a column it has no value for is left empty.
json csv_row(const CellResult& cell) {
  json row = json(cell.key());
  row.update({{"rung", cell.rung},
              {"status", cell.status},
              {"reason", cell.reason},
              {"reproducible", cell.reproducible ? json(*cell.reproducible) : json(nullptr)}});
  if (!cell.ok()) {  // as Google Benchmark writes an errored run: no repetitions
    row.update({{"repetitions", 0}, {"iterations", 0}});
    return row;
  }
  const Measurement& measured = *cell.measurement;
  const Aggregates& times = measured.aggregates;
  const double n = static_cast<double>(cell.n), median = times.median.real_time;
  row.update({{"repetitions", measured.repetitions.size()},
              {"iterations", measured.repetitions.front().iterations},
              {"real_time_median_ns", median},
              {"real_time_min_ns", times.min.real_time},
              {"real_time_max_ns", times.max.real_time},
              {"real_time_mean_ns", times.mean.real_time},
              {"real_time_stddev_ns", times.stddev.real_time},
              {"real_time_cv", times.cv.real_time},
              {"cpu_time_median_ns", times.median.cpu_time},
              {"ns_per_node", median / n},
              {"result", std::isfinite(measured.result) ? json(measured.result) : json(nullptr)},
              {"rel_error", optional_json(measured.rel_error)},
              {"rounding_error", optional_json(measured.rounding_error)},
              {"within_rounding_bound", measured.within_rounding_bound},
              {"bit_identical", measured.bit_identical},
              {"instruction_set", measured.instruction_set},
              {"other_load_cores", cell.worker.other_load_cores}});
  if (median > 0)
    row.update({{"nodes_per_second", n / (median * 1e-9)}, {"parallel_efficiency", cell.efficiency()}});
  write_memory_figures(measured.memory, row);
  const Counters counters = measured.counters.value_or(Counters{});
  if (counters.available) {
    for (const auto& [key, value] : {std::pair{"ipc", counters.ipc},
                                     {"cache_misses", counters.cache_misses},
                                     {"branch_misses", counters.branch_misses}})
      if (value) row[key] = *value;
  } else {
    row["counters_unavailable"] = counters.reason;
  }
  return row;
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
  std::int64_t schema = 0;  // the header's, once read
  std::istringstream lines(contents.substr(0, complete));
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    const std::string where = "line " + std::to_string(number);
    json parsed = json::parse(line, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object())
      throw InputError("'" + path + "' is not a Ladder journal (" + where + " is not a JSON object)");
    if (schema == 1) migrate_journal_line_v1(parsed);
    try {
      const JsonReader reader(parsed, where);
      if (journal.header.is_null()) {
        if (reader.string_or("kind", "") != "run")
          throw InputError("'" + path + "' is not a Ladder journal (its first line does not describe a run)");
        const auto version = reader.at("schema_version");
        if (!version.raw().is_number_integer() || version.integer() < 1 ||
            version.integer() > results_schema_version)
          throw InputError("'" + path + "' has results schema version " + version.raw().dump() +
                           "; this Ladder reads versions 1 to " + std::to_string(results_schema_version));
        schema = version.integer();
        for (const char* key : {"started", "label", "preset"}) reader.at(key).string();
        reader.at("matrix").object(), reader.at("context").object(), reader.at("tiers").elements();
        if (schema == 1) migrate_journal_line_v1(parsed);
        journal.header = std::move(parsed);
        continue;
      }
      const std::string kind = reader.at("kind").string();
      if (kind == "cell")
        journal.cells.push_back(read_cell_result(reader));
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

std::vector<CellResult> results_cells(const Journal& journal) {
  const auto groups = results_by_group(journal);
  std::vector<CellResult> cells = journal.cells;
  for (auto& cell : cells) cell.reproducible = reproducible(cell, groups);
  return cells;
}

json results_document(const Journal& journal, const json& run) {
  const std::vector<CellResult> cells = results_cells(journal);
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
          {"cells", cells},
          {"benchmarks", benchmark_entries(cells)}};
}

std::string results_csv(const Journal& journal) {
  std::string csv = join(csv_columns, ",") + "\n";
  for (const auto& cell : results_cells(journal)) {
    const json row = csv_row(cell);
    std::vector<std::string> fields;
    for (const auto& column : csv_columns)
      fields.push_back(row.contains(column) ? csv_field(row.at(column)) : std::string());
    csv += join(fields, ",") + "\n";
  }
  return csv;
}

}  // namespace ladder
