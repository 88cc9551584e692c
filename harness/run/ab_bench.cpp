#include "ab_bench.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>

#include "errors.hpp"
#include "json_reader.hpp"
#include "peers.hpp"
#include "process.hpp"
#include "quote.hpp"
#include "text.hpp"
#include "worker_process.hpp"

namespace ladder {
namespace {

// The name as a Google Benchmark filter that selects it alone: its regex characters escaped, anchored.
std::string exact_filter(const std::string& name) {
  std::string escaped = "^";
  for (const char c : name) {
    if (std::string_view("\\.^$|?*+()[]{}").find(c) != std::string_view::npos) escaped += '\\';
    escaped += c;
  }
  return escaped + "$";
}

double unit_seconds(const std::string& unit) {
  static const std::map<std::string, double> units{{"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1.0}};
  const auto found = units.find(unit);
  return found == units.end() ? 0 : found->second;
}

// The median of `name`'s repetitions in a Google Benchmark JSON file, in seconds, of `metric` (the sample)
// and of both times: its "median" aggregate, else the median of its repetitions (aggregate(), one
// repetition: its value); a time the JSON lacks is the metric's. Or why there is none.
struct ReadTimes {
  AbSample sample;
  Timing times;
};
ReadTimes read_median(const std::string& file, const std::string& name, const std::string& metric) {
  std::ifstream in(file);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const nlohmann::json document = parse_json_document(text, "the benchmark's JSON");
  if (document.is_discarded() || !document.is_object() || !document.contains("benchmarks") ||
      !document["benchmarks"].is_array())
    return {{0, "it wrote no Google Benchmark JSON", false}, {}};
  std::vector<Repetition> repetitions;  // in seconds
  std::optional<Timing> median;         // the binary's own "median" aggregate
  for (const auto& entry : document["benchmarks"]) {
    if (!entry.is_object() || entry.value("run_name", entry.value("name", "")) != name) continue;
    if (entry.value("error_occurred", false))
      return {{0, "the benchmark reported an error: " + entry.value("error_message", std::string()), false},
              {}};
    const double unit = unit_seconds(entry.value("time_unit", "ns"));
    const auto seconds = [&](const std::string& time) -> std::optional<double> {
      if (!entry.contains(time) || !entry[time].is_number() || unit == 0) return std::nullopt;
      return entry[time].get<double>() * unit;
    };
    const auto chosen = seconds(metric);
    if (!chosen) return {{0, "its JSON has no " + metric + " for " + quote_text(name), false}, {}};
    const Timing both{seconds("real_time").value_or(*chosen), seconds("cpu_time").value_or(*chosen)};
    if (entry.value("aggregate_name", "") == "median") median = both;
    if (entry.value("run_type", "iteration") == "iteration")
      repetitions.push_back({0, 0, both.real_time, both.cpu_time});
  }
  if (!median && repetitions.empty())
    return {{0, "its JSON has no result for " + quote_text(name), false}, {}};
  const Timing times = median ? *median : aggregate(repetitions).median;
  return {{metric == "cpu_time" ? times.cpu_time : times.real_time, "", false}, times};
}

// Runs the benchmarks that `filter` selects once (`repetitions`, `min_time`), their JSON read back from a
// file: how the process ended, and the file's path (removed by the caller).
Finished run_once(const std::vector<std::string>& bench, const std::string& filter, int repetitions,
                  double min_time, double timeout, const std::string& file) {
  std::remove(file.c_str());
  Program program{bench};
  program.argv.insert(program.argv.end(), {"--benchmark_filter=" + filter,
                                           "--benchmark_repetitions=" + std::to_string(repetitions),
                                           "--benchmark_min_time=" + format_number("%g", min_time),
                                           "--benchmark_out=" + file, "--benchmark_out_format=json"});
  program.stderr_to = Stream::merge;
  program.timeout_seconds = timeout;
  program.own_group = true;
  return run_program(program);
}

std::string result_file() { return "/tmp/ladder-ab-bench-" + std::to_string(::getpid()) + ".json"; }

ReadTimes measure(const std::vector<std::string>& bench, const std::string& name,
                  const BenchAbSettings& settings) {
  const std::string file = result_file();
  const Finished finished = run_once(bench, exact_filter(name), settings.repetitions, settings.min_time,
                                     settings.process_timeout, file);
  ReadTimes read;
  if (interrupted())
    read.sample.interrupted = true;
  else if (!finished.ok())
    read.sample.failure = "the benchmark " + finished.how() + ": " + output_end(finished.out, 1);
  else
    read = read_median(file, name, settings.metric);
  std::remove(file.c_str());
  return read;
}

}  // namespace

CellKey benchmark_cell(const std::string& repository, const std::string& name) {
  CellKey cell;
  cell.tier = repository;
  cell.integrand = name;
  cell.n = 0;
  cell.threads = 1;
  return cell;
}

void check_metric(const std::string& metric) {
  if (metric != "real_time" && metric != "cpu_time")
    throw InputError("--metric '" + quote_text(metric) + "' is not accepted; accepted: real_time, cpu_time");
}

std::vector<std::string> list_benchmarks(const std::vector<std::string>& bench, const std::string& filter,
                                         const std::string& side) {
  Program program{bench};
  program.argv.push_back("--benchmark_list_tests=true");
  if (!filter.empty()) program.argv.push_back("--benchmark_filter=" + filter);
  program.stderr_to = Stream::merge;
  program.timeout_seconds = 120;
  const Finished finished = run_program(program);
  if (!finished.ok())
    throw InputError("the benchmark of " + side + " " + finished.how() +
                     " when asked to list its benchmarks (" + command_text(program.argv) +
                     "): " + output_end(finished.out, 1));
  std::vector<std::string> names;
  std::istringstream lines(finished.out);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) names.push_back(line);
  if (names.empty())
    throw InputError("the benchmark of " + side + " lists no benchmark" +
                     (filter.empty() ? "" : " that --filter '" + quote_text(filter) + "' selects") +
                     ": is it a Google Benchmark binary? (" + command_text(program.argv) + ")");
  return names;
}

std::vector<std::string> common_benchmarks(const std::vector<std::string>& base,
                                           const std::vector<std::string>& head) {
  const std::set<std::string> in_base(base.begin(), base.end()), in_head(head.begin(), head.end());
  for (const auto& name : base)
    if (!in_head.count(name))
      throw InputError("the benchmark " + quote_text(name) +
                       " is in the base only: a renamed or removed benchmark has nothing to compare with; "
                       "give --filter to leave it out");
  for (const auto& name : head)
    if (!in_base.count(name))
      throw InputError("the benchmark " + quote_text(name) +
                       " is in the head only: a new benchmark has nothing to compare with; give --filter "
                       "to leave it out");
  return base;
}

void probe_benchmarks(const std::vector<std::string>& bench, const std::vector<std::string>& names,
                      const std::string& filter, const std::string& metric, const std::string& side) {
  const std::string file = result_file();
  const Finished finished = run_once(bench, filter.empty() ? "." : filter, 1, 1e-3, 300, file);
  std::string fault;
  if (!finished.ok()) fault = finished.how() + ": " + output_end(finished.out, 1);
  for (std::size_t i = 0; fault.empty() && i < names.size(); ++i)
    if (const AbSample sample = read_median(file, names[i], metric).sample; !sample.failure.empty())
      fault = quote_text(names[i]) + ": " + sample.failure;
  std::remove(file.c_str());
  if (!fault.empty())
    throw InputError("the benchmark of " + side + ", run once before any pair (" + command_text(bench) +
                     "), failed: " + fault);
}

std::vector<BenchCell> run_bench_ab(const BenchAbSettings& settings, const std::vector<std::string>& base,
                                    const std::vector<std::string>& head,
                                    const std::vector<std::string>& names) {
  std::vector<BenchCell> cells;
  const auto started = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < names.size() && !interrupted(); ++i) {
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const double share =
        std::max(0.0, settings.pairs.budget_seconds - spent) / static_cast<double>(names.size() - i);
    BenchCell cell;
    cell.ab.cell = benchmark_cell(settings.repository, names[i]);
    cell.ab.name = names[i];
    cell.ab.threshold = settings.pairs.threshold_of(cell.ab.cell);
    cell.ab = measure_pairs(std::move(cell.ab), settings.pairs, share, [&](bool base_side) {
      const ReadTimes read = measure(base_side ? base : head, names[i], settings);
      if (read.sample.failure.empty() && !read.sample.interrupted)
        (base_side ? cell.base : cell.head).push_back(read.times);
      return read.sample;
    });
    // A pair is two processes in a row: a process whose pair was not completed is not one of the cell's.
    cell.base.resize(std::min(cell.base.size(), cell.ab.pairs.size()));
    cell.head.resize(std::min(cell.head.size(), cell.ab.pairs.size()));
    if (cell.ab.interrupted && cell.ab.pairs.empty()) break;
    cells.push_back(std::move(cell));
    print_cell_line(cells.back().ab, i + 1, names.size());
  }
  return cells;
}

}  // namespace ladder
