#include "results.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "atomic_file.hpp"
#include "benchmark_entries.hpp"
#include "build_info.hpp"
#include "errors.hpp"
#include "json_reader.hpp"
#include "optional_json.hpp"
#include "peers.hpp"
#include "quote.hpp"
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

// A cell's row, by column; a column it has no value for is left empty.
json csv_row(const CellResult& cell) {
  json row = json(cell.key());
  row.update({{"rung", cell.rung},
              {"status", cell.status},
              {"reason", cell.reason},
              {"reproducible", optional_json(cell.reproducible)}});
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

std::vector<CellResult> results_cells(const Journal& journal) {
  const auto groups = results_by_group(journal);
  std::vector<CellResult> cells = journal.cells;
  for (auto& cell : cells) cell.reproducible = reproducible(cell, groups);
  return cells;
}

json results_document(const Journal& journal, const RunRecord& run) {
  const std::vector<CellResult> cells = results_cells(journal);
  const JournalHeader& header = journal.header.value();
  ContextRecord context;
  static_cast<MachineContext&>(context) = header.context;
  context.date = run.updated;
  context.run = run;
  context.matrix = header.matrix;
  context.warnings = warnings(journal, run);
  context.limits = header.limits;
  return {{"schema_version", results_schema_version},
          {"context", context},
          {"tiers", header.tiers},
          {"instructions", header.instructions},
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

void write_results_files(const Paths& paths, const Journal& journal, const RunRecord& run, bool resumed) {
  const std::string unchecked = paths.json + ".unchecked";
  write_file_atomically(unchecked, dump_json(results_document(journal, run), 2) + "\n");
  std::string problem;
  try {  // the reader of report and pick, and their rule that every cell's tier has its card
    const ResultsFile file = read_results_file(unchecked);
    std::set<std::string> carded;
    for (const auto& card : file.tiers) carded.insert(card.id);
    for (const auto& cell : file.cells)
      if (problem.empty() && !carded.count(cell.tier))
        problem = "cell " + quote_value(cell.name) + " is of tier " + quote_value(cell.tier) +
                  ", which has no card";
  } catch (const InputError& failure) {
    problem = failure.what();
  }
  if (!problem.empty()) {
    ::unlink(unchecked.c_str());
    const std::string said = "the results made from journal '" + quote_text(paths.journal) +
                             "' do not read back (" + problem + "); '" + quote_text(paths.json) +
                             "' was left as it was";
    if (resumed) throw InputError(said + ": the journal is damaged; start a new run in another --out");
    throw std::logic_error(said);
  }
  if (std::rename(unchecked.c_str(), paths.json.c_str()) != 0) {
    const int error = errno;
    ::unlink(unchecked.c_str());
    throw WriteError("cannot replace " + paths.json + ": " + std::strerror(error));
  }
  write_file_atomically(paths.csv, results_csv(journal));
}

}  // namespace ladder
