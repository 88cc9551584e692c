// The report's features on crafted results, each checked for its content: `ladder pick --include-peers`,
// crossing from Python into C++ (cpp-extension beside xsimd at the per-call size), the "Which tier?" section,
// the CPU-over-time chart, the rates every entry carries (ns_per_node, parallel_efficiency), and, end to end,
// `ladder run --python-limit` and `--no-instructions`.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "charts.hpp"
#include "command.hpp"
#include "crafted_journal.hpp"
#include "crafted_results.hpp"
#include "report.hpp"
#include "results.hpp"
#include "sections.hpp"

namespace ladder::report {
namespace {

using nlohmann::json;
using testing::TempDir;
namespace fs = std::filesystem;

// Three sizes, the C++ staircase and the Python one. Costs: naive 1.4, eigen 3.2, bloated 8.0, tbb 6.6,
// py-list 1.4 (as naive: slower for the same cost is off the frontier), numpy 3.2, numba 5.0
// (maintenance_cost: 1 + 0.7 × days over 3 years; the Cost tests check the formula).
//            n = 1000   n = 1e4   n = 1e6
//   naive    1 ms       10 ms     1 s
//   eigen    0.5 ms     20 ms     200 ms   faster than naive at 1000, slower at 1e4, faster again at 1e6
//   bloated  3 ms       30 ms     300 ms   never faster than eigen
//   tbb      0.5 ms     5 ms      50 ms
//   py-list  100 ms     1 s       100 s
//   numpy    5 ms       50 ms     500 ms
//   numba    0.4 ms     4 ms      40 ms    only with `fast_peer`: faster than every C++ tier
fs::path ladder_with_peers(const fs::path& dir, bool fast_peer) {
  using testing::around;
  using testing::crafted_card;
  json cards = json::array({crafted_card("naive", 0, {}, false, "minutes", 27),
                            crafted_card("py-list", 1, {}, false, "minutes", 27, true),
                            crafted_card("numpy", 2, {"NumPy"}, false, "hours", 36, true),
                            crafted_card("eigen", 4, {"Eigen 3.4"}, false, "hours", 33),
                            crafted_card("bloated", 7, {"a", "b", "c"}, false, "days", 80),
                            crafted_card("tbb", 9, {"xsimd 8.1", "oneTBB"}, true, "days", 80)});
  const std::vector<std::int64_t> sizes = {1000, 10000, 1000000};
  std::map<std::string, std::pair<int, std::vector<double>>> seconds = {
      {"naive", {0, {1e-3, 1e-2, 1.0}}},   {"py-list", {1, {0.1, 1, 100}}},
      {"numpy", {2, {5e-3, 5e-2, 0.5}}},   {"eigen", {4, {5e-4, 2e-2, 0.2}}},
      {"bloated", {7, {3e-3, 3e-2, 0.3}}}, {"tbb", {9, {5e-4, 5e-3, 0.05}}}};
  if (fast_peer) {
    cards.push_back(crafted_card("numba", 3, {"Numba"}, false, "days", 40, true));
    seconds["numba"] = {3, {4e-4, 4e-3, 0.04}};
  }
  json benchmarks = json::array();
  for (const auto& [tier, figures] : seconds)
    for (std::size_t size = 0; size < sizes.size(); ++size)
      testing::add_cell(benchmarks, testing::CraftedCell{tier, figures.first, sizes[size], 1,
                                                         around(figures.second[size])});
  return testing::write_results(dir, testing::crafted_results("crafted", cards, benchmarks));
}

testing::Outcome pick(const fs::path& run, const std::string& options) {
  return testing::run_command(LADDER_BINARY, "pick " + run.string() + " " + options);
}

TEST(PickIncludePeers, PeersWinOnlyWhenIncluded) {
  TempDir dir;
  const fs::path run = ladder_with_peers(dir / "run", true);
  const auto cpp_only = pick(run, "");
  EXPECT_EQ(cpp_only.exit_code, 0) << cpp_only.output;
  EXPECT_NE(cpp_only.output.find("pick: tbb (1 thread)"), std::string::npos) << cpp_only.output;
  for (const char* peer : {"numba", "numpy", "py-list"})
    EXPECT_EQ(cpp_only.output.find(peer), std::string::npos) << peer << " is not a candidate\n"
                                                             << cpp_only.output;

  const auto with_peers = pick(run, "--include-peers");
  EXPECT_EQ(with_peers.exit_code, 0) << with_peers.output;
  EXPECT_NE(with_peers.output.find("pick: numba (1 thread): median 40 ms"), std::string::npos)
      << with_peers.output;
  EXPECT_NE(with_peers.output.find("runner-up: tbb (1 thread)"), std::string::npos) << with_peers.output;
  // A peer meets the constraints like any tier: --max-cost 4.5 rules numba (5.0) out and keeps numpy (3.2).
  const auto cheap = pick(run, "--include-peers --max-cost 4.5");
  EXPECT_NE(cheap.output.find("pick: eigen"), std::string::npos) << cheap.output;
  EXPECT_NE(cheap.output.find("runner-up: numpy"), std::string::npos) << cheap.output;
  EXPECT_NE(cheap.output.find("numba            costs 5.0 (--max-cost 4.5)"), std::string::npos)
      << cheap.output;
}

// The items of the "Which tier?" list, for one run.
std::vector<std::string> which_items(const Run& run) {
  Document doc;
  which(doc, {analyse(run)});
  EXPECT_EQ(doc.size(), 2u);
  EXPECT_EQ(doc.front().text, "Which tier?");
  return doc.back().items;
}

TEST(WhichTier, NamesTheFrontierWherePythonCrossesAndWhatEachStepBuys) {
  TempDir dir;
  const report::Run run = load_run(ladder_with_peers(dir / "run", false).string());
  const std::vector<std::string> expected = {
      "On **crafted**, answered for 1 thread, the widest measured here; the machine reported 2 logical CPUs "
      "(its topology was not recorded): the Pareto-optimal tiers at n = 1e6 are naive (cost 1.4), eigen "
      "(cost 3.2), tbb (cost 6.6): for any other, one of these is faster for no more upkeep.",
      "Python against C++: the fastest Python peer, numpy, takes 500 ms (cost 3.2); the staircases cross at "
      "eigen (rung 4, cost 3.2), the lowest C++ rung faster than every peer; the fastest C++ tier, tbb, is "
      "2000× py-list and 10× numpy.",
      "py-list → numpy: 200× for +1.8 cost; faster from n = 1000 on",
      "naive → eigen: 5.00× for +1.8 cost; faster from n = 1e6 on",
      "eigen → bloated: 0.67× for +4.8 cost; not faster at any size measured here",
      "bloated → tbb: 6.00× for -1.4 cost; faster from n = 1000 on",
  };
  EXPECT_EQ(which_items(run), expected);
}

TEST(WhichTier, SaysWhenNoCppTierBeatsThePython) {
  TempDir dir;
  const report::Run run = load_run(ladder_with_peers(dir / "run", true).string());
  const auto items = which_items(run);
  ASSERT_GE(items.size(), 2u);
  EXPECT_EQ(
      items[1],
      "Python against C++: the fastest Python peer, numba, takes 40 ms (cost 5.0); no C++ tier measured "
      "here beats it; the fastest C++ tier, tbb, is 2000× py-list and 0.80× numba.");
}

// A cell that sampled one call: seconds into it and the worker's CPU seconds at each sample.
CellResult sampled(const std::string& tier, std::int64_t n, int threads, std::vector<double> seconds,
                   std::vector<double> cpu) {
  CellResult cell = testing::measured_record({tier, 0, n, threads, {0.03}});
  cell.name = tier + "/" + std::to_string(n) + "/" + std::to_string(threads);
  MemoryTimeline timeline;
  timeline.rss_bytes.assign(seconds.size(), 1 << 20);
  timeline.seconds = std::move(seconds), timeline.cpu_seconds = std::move(cpu);
  cell.measurement->memory.timeline = std::move(timeline);
  return cell;
}

TEST(CpuOverTimeChart, DrawsCoresBusyForEachTiersMostThreadsAtTheLargestSize) {
  report::Run run;
  run.machine = "crafted";
  run.cards = {Card{{.id = "naive"}}, Card{{.id = "xsimd"}}, Card{{.id = "tbb", .parallel = true}}};
  run.cells = {
      // tbb on 2 threads: 2 cores busy for 30 ms, then 1 for 10; a repeated last sample (no wall time) adds
      // nothing.
      sampled("tbb", 1000000, 2, {0, 0.01, 0.03, 0.04, 0.04}, {0, 0.02, 0.06, 0.07, 0.07}),
      sampled("tbb", 1000000, 1, {0, 0.01, 0.02, 0.03}, {0, 0.01, 0.02, 0.03}),  // fewer threads
      sampled("naive", 1000000, 1, {0, 0.01}, {0, 0.01}),                        // under 3 samples
      sampled("xsimd", 1000, 1, {0, 0.01, 0.02, 0.03}, {0, 0.01, 0.02, 0.03}),   // not the largest n
  };
  const svg::Plot chart = cpu_timeline(run, 0);
  EXPECT_EQ(chart.id, "cpu-over-time-1");
  EXPECT_EQ(chart.title, "Cores busy during one call at n = 1e6 — crafted");
  ASSERT_EQ(chart.series.size(), 1u);
  EXPECT_EQ(chart.series[0].name, "tbb (2 threads)");
  const std::vector<std::pair<double, double>> expected = {{5, 2}, {20, 2}, {35, 1}};  // ms, cores
  ASSERT_EQ(chart.series[0].points.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR(chart.series[0].points[i].x, expected[i].first, 1e-9) << i;
    EXPECT_NEAR(chart.series[0].points[i].y, expected[i].second, 1e-9) << i;
  }
  const std::string drawn = cpu_timeline_chart(run, 1).svg;
  EXPECT_NE(drawn.find("data-chart=\"cpu-over-time-2\""), std::string::npos) << drawn;
  EXPECT_NE(drawn.find("data-series=\"tbb (2 threads)\""), std::string::npos) << drawn;
  EXPECT_EQ(drawn.find("data-series=\"naive"), std::string::npos) << drawn;
}

// A journal of two measured cells, as the runner keeps it: its rates are derived when results.json is made.
Journal journal_of_two_cells() {
  Journal journal;
  journal.header = testing::crafted_header(3);
  const auto record = [](const std::string& tier, int threads, std::vector<Repetition> repetitions,
                         Timing median) {
    CellResult cell;
    cell.coordinates() = {.tier = tier, .integrand = "gauss", .n = 1000000, .threads = threads};
    cell.name = tier + "/gauss/n:1000000/threads:" + std::to_string(threads);
    Measurement measurement;
    measurement.repetitions = std::move(repetitions);
    measurement.aggregates = {median, median, {1e4, 1e4}, {0.01, 0.01}, median, median};
    cell.measurement = measurement;
    return cell;
  };
  // tbb on 2 threads: 2 ms wall for 3 ms CPU, 4 ms for 4 ms, 2.5 ms for 5 ms; the median 2.5 ms for 4 ms.
  journal.cells.push_back(
      record("tbb", 2, {{0, 10, 2e6, 3e6}, {1, 10, 4e6, 4e6}, {2, 10, 2.5e6, 5e6}}, {2.5e6, 4e6}));
  journal.cells.push_back(record("naive", 1, {{0, 1, 8e6, 8e6}}, {8e6, 6e6}));
  return journal;
}

TEST(Rates, NsPerNodeAndParallelEfficiencyOfEachEntry) {
  const json document = results_document(journal_of_two_cells(), testing::complete_run);
  std::map<std::string, json> entries;  // "tier repetition index" or "tier aggregate name"
  for (const auto& entry : document.at("benchmarks")) {
    const bool iteration = entry.at("run_type") == "iteration";
    entries[entry.at("tier").get<std::string>() + " " +
            (iteration ? std::to_string(entry.at("repetition_index").get<int>())
                       : entry.at("aggregate_name").get<std::string>())] = entry;
  }
  // ns_per_node = real ns / n; parallel_efficiency = CPU time / (wall time × threads).
  const std::map<std::string, std::pair<double, double>> expected = {
      {"tbb 0", {2.0, 0.75}},     {"tbb 1", {4.0, 0.5}},   {"tbb 2", {2.5, 1.0}},
      {"tbb median", {2.5, 0.8}}, {"naive 0", {8.0, 1.0}}, {"naive median", {8.0, 0.75}}};
  for (const auto& [key, figures] : expected) {
    ASSERT_TRUE(entries.count(key)) << key;
    EXPECT_NEAR(entries[key].at("ns_per_node").get<double>(), figures.first, 1e-12) << key;
    EXPECT_NEAR(entries[key].at("parallel_efficiency").get<double>(), figures.second, 1e-12) << key;
  }
  EXPECT_NEAR(entries["tbb median"].at("nodes_per_second").get<double>(), 4e8, 1e-3);
  for (const char* spread : {"tbb stddev", "tbb cv"})
    EXPECT_FALSE(entries[spread].contains("parallel_efficiency")) << spread << ": not a time of one call";

  // The CSV's row of a cell carries its median's rates.
  std::istringstream csv(results_csv(journal_of_two_cells()));
  std::string header, tbb_row;
  std::getline(csv, header), std::getline(csv, tbb_row);
  const auto column = [](const std::string& line, const std::string& name, const std::string& of) {
    std::vector<std::string> names, values;
    std::string field;
    for (std::istringstream in(line); std::getline(in, field, ',');) names.push_back(field);
    for (std::istringstream in(of); std::getline(in, field, ',');) values.push_back(field);
    for (std::size_t i = 0; i < names.size() && i < values.size(); ++i)
      if (names[i] == name) return values[i];
    return std::string("nan");  // no such column
  };
  EXPECT_EQ(column(header, "tier", tbb_row), "tbb");
  EXPECT_EQ(column(header, "threads", tbb_row), "2");
  EXPECT_NEAR(std::stod(column(header, "ns_per_node", tbb_row)), 2.5, 1e-12);
  EXPECT_NEAR(std::stod(column(header, "parallel_efficiency", tbb_row)), 0.8, 1e-12);
}

TEST(Rates, TheReportsEfficiencyIsCpuOverWallTimesThreads) {
  CellResult cell = testing::measured_record({"tbb", 9, 1000, 2, {2.5e-3}});
  cell.measurement->aggregates.median = {2.5e6, 4e6};  // nanoseconds
  EXPECT_DOUBLE_EQ(cell.efficiency(), 0.8);
  cell.measurement->aggregates.median = {0, 4e6};
  EXPECT_DOUBLE_EQ(cell.efficiency(), 0) << "no time, no efficiency";
}

// End to end: pure Python stops at --python-limit (NumPy, not pure Python, does not), and --no-instructions
// leaves callgrind out, saying so in the results and the report.
TEST(RunCommandOptions, PythonLimitAndNoInstructions) {
  TempDir dir;
  const auto outcome = testing::run_command(
      LADDER_BINARY,
      "run --no-limits --tiers naive,py-list,numpy --peers python --n 1000,20000 --python-limit 1e4 --reps 3 "
      "--min-time 0.001 --threads 1 --no-instructions --out " +
          (dir / "out").string());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  EXPECT_EQ(outcome.output.find("counting instructions"), std::string::npos) << outcome.output;
  const json results = testing::read_json(dir / "out/results.json");
  std::map<std::string, json> cells;  // by "tier n", the first entry of each cell
  for (const auto& entry : results.at("benchmarks"))
    cells.emplace(
        entry.at("tier").get<std::string>() + " " + std::to_string(entry.at("n").get<std::int64_t>()), entry);
  EXPECT_EQ(cells.at("py-list 1000").at("status"), "ok") << cells.at("py-list 1000").dump();
  const json& over = cells.at("py-list 20000");
  EXPECT_EQ(over.at("status"), "skipped") << over.dump();
  EXPECT_NE(over.value("reason", "").find("the limit is 10000 nodes (--python-limit)"), std::string::npos)
      << over.dump();
  EXPECT_NE(cells.at("numpy 20000").at("status"), "skipped") << "NumPy has no size limit\n"
                                                             << cells.at("numpy 20000").dump();
  EXPECT_EQ(cells.at("naive 20000").at("status"), "ok");

  EXPECT_EQ(results.at("instructions").at("available"), false);
  EXPECT_EQ(results.at("instructions").at("reason"), "not counted: --no-instructions");
  const std::string report = testing::read_text(dir / "out/report.md");
  EXPECT_NE(report.find("Instructions a node: not counted: --no-instructions."), std::string::npos) << report;
  // Whether pick decides or not (a cell disturbed by the other tests' load leaves it undecided), it names
  // py-list as not attempted.
  const auto picked = pick(dir / "out", "--include-peers --n 20000");
  EXPECT_NE(picked.output.find("py-list          skipped at n = 20000: not attempted"), std::string::npos)
      << picked.output;
}

// Crossing from Python into C++: cpp-extension (xsimd behind pybind11) and xsimd, each at n = 1000 (per
// call, outside the matrix's sizes) and at the sizes. At n = 1000, 1.5 µs against 0.3 µs: a call costs
// 1.2 µs (1.2 ns a node) to cross; at n = 1e7, the largest, cpp-extension takes 2 ms, so 0.06 % of it.
fs::path crossing_run(const fs::path& dir, bool xsimd_at_1000) {
  using testing::around;
  using testing::crafted_card;
  json extension = crafted_card("cpp-extension", 108, {"pybind11 2.10", "xsimd 8.1"}, false, "days", 5, true);
  extension.update({{"per_call_sizes", {1000}}, {"beside", "xsimd"}});
  const json cards = json::array({crafted_card("naive", 0, {}, false, "minutes", 27),
                                  crafted_card("xsimd", 5, {"xsimd 8.1"}, false, "hours", 40), extension});
  json cells = json::array();
  const std::map<std::string, std::pair<int, std::vector<double>>> seconds = {
      {"naive", {0, {4e-4, 4e-2}}},
      {"xsimd", {5, {2e-5, 1.999e-3}}},
      {"cpp-extension", {108, {2.1e-5, 2e-3}}}};
  for (const auto& [tier, figures] : seconds)
    for (std::size_t size = 0; size < 2; ++size)
      testing::add_cell(cells,
                        {tier, figures.first, size ? 10'000'000 : 100'000, 1, around(figures.second[size])});
  testing::add_cell(cells, {"cpp-extension", 108, 1000, 1, around(1.5e-6)});
  if (xsimd_at_1000) testing::add_cell(cells, {"xsimd", 5, 1000, 1, around(0.3e-6)});
  json document = testing::crafted_results("crafted", cards, cells);
  document["context"]["matrix"]["sizes"] = {100'000, 10'000'000};
  return testing::write_results(dir, document);
}

// The passage's table row of an integrand, from the Markdown.
std::string crossing_row(const std::string& md, const std::string& integrand) {
  const std::size_t section = md.find("## Crossing from Python into C++");
  if (section == std::string::npos) return "no crossing passage";
  const std::size_t row = md.find("\n| " + integrand + " |", section);
  return row == std::string::npos ? "no row" : md.substr(row + 1, md.find('\n', row + 1) - row - 1);
}

TEST(Crossing, TheCallsCostIsTheDifferenceOfTheMediansAtThePerCallSize) {
  TempDir dir;
  const report::Run run = load_run(crossing_run(dir / "run", true).string());
  EXPECT_EQ(run.sizes(), (std::vector<std::int64_t>{100'000, 10'000'000}))
      << "n = 1000 is no size of the run";
  EXPECT_EQ(run.per_call_cells.size(), 2u);
  EXPECT_EQ(analyse(run).n, 10'000'000);
  write_report({run}, (dir / "out").string());
  const std::string md = testing::read_text(dir / "out/report.md");
  const std::string row = crossing_row(md, "gauss");
  EXPECT_EQ(
      row,
      "| gauss | 1000 | 1.5 µs, median of 3 | 300 ns, median of 3 | 1.2 µs | 1.2 ns | 2 ms, median of 3 | "
      "0.06 % |")
      << md;
  EXPECT_NE(md.find("| integrand | n | cpp-extension (Python) | xsimd | crossing a call | a node | "
                    "cpp-extension at n = 1e7 | crossing's share there |"),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("The ladder at n = 1000"), std::string::npos) << "no table at the per-call size";
  EXPECT_NE(md.find("cpp-extension | 1000 |"), std::string::npos)
      << "every cell is listed, per-call ones too";
}

TEST(Crossing, AMissingCellIsNotMeasuredNeverZero) {
  TempDir dir;
  write_report({load_run(crossing_run(dir / "run", false).string())}, (dir / "out").string());
  const std::string md = testing::read_text(dir / "out/report.md");
  EXPECT_EQ(
      crossing_row(md, "gauss"),
      "| gauss | 1000 | 1.5 µs, median of 3 | not measured | not measured | not measured | 2 ms, median of 3 "
      "| not measured |")
      << md;
}

}  // namespace
}  // namespace ladder::report
