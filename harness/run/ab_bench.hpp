// `ladder ab` of a team's own Google Benchmark binary (ab.hpp measures the pairs): a cell is one benchmark
// name, and one side's process is the binary run with Ladder's flags, --benchmark_filter (that name alone,
// anchored), --benchmark_repetitions, --benchmark_min_time and --benchmark_out (JSON, read back), so the
// binary's own stdout is left alone. The process's value is the median of its repetitions, of the metric
// chosen (real or CPU time), in seconds a call.
#pragma once

#include <string>
#include <vector>

#include "ab.hpp"
#include "cell_result.hpp"

namespace ladder {

// A benchmark's cell: its coordinates name it, under its repository, in the history's noise floors. The
// repository is `tier` ("repository 3f2a1b0c9d": the hash of its first commit, the same in every clone) and
// the benchmark's name is `integrand`; n and threads are left at 0 and 1. No tier or integrand of Ladder's
// has a space, so no cell of Ladder's is ever taken for one.
CellKey benchmark_cell(const std::string& repository, const std::string& name);

struct BenchAbSettings {
  std::string repository;  // as benchmark_cell names it
  AbSettings pairs;  // fewest, most and fixed pairs, the budget and each cell's threshold (its matrix unused)
  int repetitions = 3;
  double min_time = 0.05;            // seconds, Google Benchmark's --benchmark_min_time
  std::string metric = "real_time";  // or cpu_time
  double process_timeout = 300;
};

// The metrics `--metric` accepts; InputError for another, naming them.
void check_metric(const std::string& metric);

// The benchmark names the binary lists (--benchmark_list_tests) that `filter` (a Google Benchmark regex;
// empty: all) selects. InputError naming `side` ("base HEAD~1 (…)") when the command fails or lists none.
std::vector<std::string> list_benchmarks(const std::vector<std::string>& bench, const std::string& filter,
                                         const std::string& side);

// The names both sides list, in the base's order. InputError naming a benchmark that only one side has.
std::vector<std::string> common_benchmarks(const std::vector<std::string>& base,
                                           const std::vector<std::string>& head);

// Runs each of `names` once, briefly, before any pair: InputError naming `side` and the benchmark when the
// binary crashes, writes no Google Benchmark JSON, or gives a benchmark no result of the metric (or an
// error).
void probe_benchmarks(const std::vector<std::string>& bench, const std::vector<std::string>& names,
                      const std::string& filter, const std::string& metric, const std::string& side);

// A benchmark measured: its verdict's pairs, and the times of each side's processes in those pairs, in the
// order they ran: each process's median of both of Google Benchmark's times, in seconds a call (what the
// history keeps of each side, app/ab_repository_history.cpp).
struct BenchCell {
  AbCell ab;
  std::vector<Timing> base, head;
};

// Each benchmark in ABBA pairs of processes of `base` and `head` (argv), a line printed as each cell ends. A
// process that fails (a crash, no JSON, an error the benchmark reports) ends its cell with the reason.
std::vector<BenchCell> run_bench_ab(const BenchAbSettings& settings, const std::vector<std::string>& base,
                                    const std::vector<std::string>& head,
                                    const std::vector<std::string>& names);

}  // namespace ladder
