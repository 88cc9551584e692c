// The typed results schema (common/): every field checked where it is read, the path of a bad one named,
// and what Ladder does not read itself carried through unchanged.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "benchmark_entries.hpp"
#include "cell_result.hpp"
#include "json_reader.hpp"
#include "results_file.hpp"
#include "text.hpp"

namespace ladder {
namespace {

using nlohmann::json;

// The message of the SchemaError that reading throws, or "" when it reads.
template <class Read>
std::string problem(Read read) {
  try {
    read();
  } catch (const SchemaError& error) {
    return error.what();
  }
  return "";
}

json a_measurement() {
  json timing = {{"real_time", 2.0e6}, {"cpu_time", 4.0e6}};
  return {
      {"repetitions",
       {{{"repetition_index", 0}, {"iterations", 5}, {"real_time", 2.0e6}, {"cpu_time", 4.0e6}}}},
      {"aggregates",
       {{"mean", timing},
        {"median", timing},
        {"stddev", timing},
        {"cv", timing},
        {"min", timing},
        {"max", timing}}},
      {"measured_seconds", 0.01},
      {"result", 0.7468},
      {"bit_identical", true},
      {"exact", 0.7468},
      {"midpoint", 0.7468},
      {"rel_error", 1e-12},
      {"rounding_error", nullptr},
      {"rounding_bound", 1e-15},
      {"within_rounding_bound", true},
      {"memory",
       {{"peak_heap_bytes", 0},
        {"allocations", nullptr},
        {"peak_rss_bytes", 8e6},
        {"peak_rss_growth_bytes", 0},
        {"minor_faults", 3},
        {"major_faults", 0},
        {"heap_method", "interposed"},
        {"timeline", {{"seconds", {0, 1}}, {"rss_bytes", {1, 2}}, {"cpu_seconds", {0, 1}}, {"samples", 2}}}}},
      {"instruction_set", "avx512"},
      {"simd_width", 8},
      {"midpoint_method", "direct"}};
}

TEST(Schema, AFieldOfTheWrongTypeIsNamedByItsPath) {
  json document = {{"benchmarks", json::array({json::object(), {{"reproducible", nullptr}}})}};
  const JsonReader root(document);
  EXPECT_EQ(problem([&] { root.at("benchmarks").elements()[1].at("reproducible").boolean(); }),
            "benchmarks[1].reproducible: expected a boolean, found null");
  EXPECT_EQ(problem([&] { root.at("benchmarks").elements()[0].at("name"); }), "benchmarks[0] has no 'name'");
  EXPECT_EQ(problem([&] { root.at("context"); }), "the document has no 'context'");
  document["n"] = 1.5;
  EXPECT_EQ(problem([&] { JsonReader(document).at("n").integer(); }),
            "n: expected a whole number, found number 1.5");
  document["n"] = "1e6";
  EXPECT_EQ(problem([&] { JsonReader(document).at("n").integer(); }),
            "n: expected a whole number, found string \"1e6\"");
}

TEST(Schema, AMeasurementReadsAndWritesBackEveryFieldItCarries) {
  const json written = a_measurement();
  const Measurement measurement = read_measurement(JsonReader(written));
  EXPECT_EQ(measurement.repetitions.size(), 1u);
  EXPECT_EQ(measurement.aggregates.median.cpu_time, 4.0e6);
  EXPECT_FALSE(measurement.rounding_error.has_value());      // null: the reference is 0
  EXPECT_FALSE(measurement.memory.allocations.has_value());  // null: a peer cannot count them
  ASSERT_TRUE(measurement.memory.timeline.has_value());
  EXPECT_EQ(measurement.memory.timeline->rss_bytes, (std::vector<double>{1, 2}));
  EXPECT_EQ(json(measurement), written);  // the fields Ladder does not read travel unchanged
  EXPECT_EQ(json(written.get<Measurement>()), written);
}

TEST(Schema, ADamagedMeasurementIsASchemaErrorNeverAnAbort) {
  json damaged = a_measurement();
  damaged["memory"]["timeline"]["rss_bytes"] = {1};
  EXPECT_EQ(problem([&] { read_measurement(JsonReader(damaged, "measurement")); }),
            "measurement.memory.timeline: its series (seconds, rss_bytes, cpu_seconds) differ in length");
  damaged = a_measurement();
  damaged["aggregates"].erase("median");
  EXPECT_EQ(problem([&] { damaged.get<Measurement>(); }), "aggregates has no 'median'");
  damaged = a_measurement();
  damaged["repetitions"] = json::array();
  EXPECT_EQ(problem([&] { damaged.get<Measurement>(); }),
            "repetitions: an ok cell has at least one repetition");
}

TEST(Schema, ACellStatusIsOneOfTheKnownOnes) {
  EXPECT_EQ(json("out_of_memory").get<CellStatus>(), CellStatus::out_of_memory);
  EXPECT_EQ(json(CellStatus::timeout), json("timeout"));
  EXPECT_EQ(problem([] { json("exploded").get<CellStatus>(); }),
            "the document: 'exploded' is not a cell status; the statuses: ok, skipped, unavailable, failed, "
            "crashed, killed, timeout, out_of_memory");
  EXPECT_TRUE(is_failure(CellStatus::crashed));
  EXPECT_FALSE(is_failure(CellStatus::unavailable));
  EXPECT_FALSE(is_failure(CellStatus::skipped));
}

// Google Benchmark's compare.py reads every entry's times: a cell that did not run has them, at zero, with
// the error fields Google Benchmark writes for a run that stopped with an error.
// A cell that did not run is one entry of Google Benchmark's view, written as it writes an errored run.
TEST(Schema, ACellThatDidNotRunIsProjectedAsGoogleBenchmarkWritesAnErroredRun) {
  CellResult cell;
  static_cast<CellKey&>(cell) = {{"cuda", "gauss", 100000, 1, 1}, 0, 1, false};
  cell.name = "cuda/gauss/n:100000/threads:1";
  cell.status = CellStatus::unavailable;
  cell.reason = "no GPU";
  const auto entries = benchmark_entries({cell});
  ASSERT_EQ(entries.size(), 1u);
  const json written = entries.front();
  for (const char* key :
       {"real_time", "cpu_time", "time_unit", "error_occurred", "error_message", "iterations"})
    EXPECT_TRUE(written.contains(key)) << key;
  EXPECT_EQ(written.at("real_time"), 0.0);
  EXPECT_EQ(written.at("time_unit"), "ns");
  EXPECT_EQ(written.at("error_message"), "no GPU");
  EXPECT_EQ(written.at("status"), "unavailable");
  EXPECT_FALSE(written.contains("ns_per_node"));
  EXPECT_FALSE(written.contains("aggregate_name"));
}

// A measured cell is one entry a repetition, then its six aggregates, each as Google Benchmark names it.
TEST(Schema, AMeasuredCellIsProjectedAsItsRepetitionsThenItsAggregates) {
  CellResult cell;
  static_cast<CellKey&>(cell) = {{"naive", "gauss", 1000, 2, 1}, 0, 1, false};
  cell.name = "naive/gauss/n:1000/threads:2";
  cell.measurement = read_measurement(JsonReader(a_measurement()));
  cell.measurement->repetitions = {{0, 5, 3.0e6, 6.0e6}, {1, 5, 1.0e6, 2.0e6}, {2, 5, 2.0e6, 4.0e6}};
  cell.measurement->aggregates = aggregate(cell.measurement->repetitions);
  const auto entries = benchmark_entries({cell});
  ASSERT_EQ(entries.size(), 9u);
  std::vector<std::string> kinds;
  for (const json entry : entries)
    kinds.push_back(entry.at("run_type").get<std::string>() + ":" + entry.value("aggregate_name", ""));
  EXPECT_EQ(kinds, (std::vector<std::string>{"iteration:", "iteration:", "iteration:", "aggregate:mean",
                                             "aggregate:median", "aggregate:stddev", "aggregate:cv",
                                             "aggregate:min", "aggregate:max"}));
  const json median = entries[4];
  EXPECT_EQ(median.at("name"), cell.name + "_median");
  EXPECT_EQ(median.at("real_time"), 2.0e6);
  EXPECT_EQ(median.at("ns_per_node"), 2.0e3);
  EXPECT_EQ(median.at("parallel_efficiency"), 1.0);  // 4 ms of CPU over 2 ms × 2 threads
  EXPECT_TRUE(median.contains("memory_timeline"));
  EXPECT_FALSE(json(entries[0]).contains("memory_timeline"));  // on the median entry only
}

// The aggregates are computed once, from the repetitions, as Google Benchmark computes its statistics.
TEST(Schema, AggregatesAreTheRepetitionsStatistics) {
  const Aggregates odd = aggregate({{0, 1, 3, 30}, {1, 1, 1, 10}, {2, 1, 2, 20}});
  EXPECT_EQ(odd.median.real_time, 2);
  EXPECT_EQ(odd.median.cpu_time, 20);
  EXPECT_EQ(odd.mean.real_time, 2);
  EXPECT_EQ(odd.min.real_time, 1);
  EXPECT_EQ(odd.max.real_time, 3);
  EXPECT_DOUBLE_EQ(odd.stddev.real_time, 1.0);  // the sample standard deviation
  EXPECT_DOUBLE_EQ(odd.cv.real_time, 0.5);
  const Aggregates even = aggregate({{0, 1, 4, 4}, {1, 1, 1, 1}, {2, 1, 2, 2}, {3, 1, 3, 3}});
  EXPECT_EQ(even.median.real_time, 2.5);
  const Aggregates one = aggregate({{0, 7, 5, 6}});
  EXPECT_EQ(one.median.real_time, 5);
  EXPECT_EQ(one.stddev.real_time, 0);
  EXPECT_EQ(one.cv.real_time, 0);
  EXPECT_THROW(aggregate({}), std::invalid_argument);
}

// One record, written and read back as the same type: the journal's line and results.json's cell.
TEST(Schema, ACellResultReadsBackAsItWasWritten) {
  CellResult cell;
  static_cast<CellKey&>(cell) = {{"openmp", "gauss", 1000, 2, 1}, 0, 1, true};
  cell.name = "openmp/gauss/n:1000/threads:2";
  cell.rung = 8;
  cell.reproducible = false;
  cell.measurement = read_measurement(JsonReader(a_measurement()));
  cell.measurement->memory.thread_placement = ThreadPlacement{{0, 1, 5}, {{0, 1}, {5}}};
  cell.placement = Placement{{2, 1, 1, 1, false}, {0, 1}};
  cell.finished = "2026-12-01T00:00:00Z";
  const json written = cell;
  EXPECT_EQ(written.at("measurement").at("memory").at("thread_placement"),
            json({{"threads", 2}, {"union_of_cpus", {0, 1, 5}}, {"per_thread", {{0, 1}, {5}}}}));
  const CellResult read = written.get<CellResult>();
  EXPECT_EQ(json(read), written);
  EXPECT_EQ(read.reproducible, std::optional<bool>(false));
  EXPECT_TRUE(read.reproducible_requested);
  EXPECT_EQ(read.median(), 2.0e-3);
  EXPECT_EQ(read.measurement->memory.thread_placement->union_of_cpus, (std::vector<int>{0, 1, 5}));
  EXPECT_EQ(read.measurement->memory.thread_placement->threads(), 2);
}

TEST(Schema, ACpuListIsReadAsLinuxWritesIt) {
  EXPECT_EQ(parse_cpu_list(" 0-3,8,10-11\n"), (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(parse_cpu_list("5"), (std::vector<int>{5}));
  EXPECT_TRUE(parse_cpu_list("").empty());
  for (const char* bad : {"0-", "a", "3-1", "1,,2"})
    EXPECT_THROW(parse_cpu_list(bad), std::invalid_argument) << bad;
}

// A user integrand's references: how the exact integral was found, the quadrature's estimate and what
// cannot be trusted travel from the worker's measurement into the cell's record and each results entry; a
// reference that could not be computed, or a result that is not finite, is null there, never a number.
TEST(Schema, ReferenceMethodsNotesAndMissingReferencesTravelToTheResultsEntry) {
  json written = a_measurement();
  written["result"] = nullptr;  // NaN, as nlohmann writes it
  written["exact"] = nullptr;
  written["midpoint"] = nullptr;
  written["rel_error"] = nullptr;
  written["exact_method"] = "Boost.Math tanh_sinh in long double";
  written["exact_error_estimate"] = 2.5e-21;
  written["reference_notes"] = {"f is not finite at 1 of 3 nodes, first at x = 0",
                                "exact integral unavailable"};
  const Measurement measurement = read_measurement(JsonReader(written));
  EXPECT_TRUE(std::isnan(measurement.result));
  EXPECT_FALSE(measurement.exact.has_value());
  EXPECT_FALSE(measurement.midpoint.has_value());
  EXPECT_EQ(measurement.exact_method, "Boost.Math tanh_sinh in long double");
  EXPECT_EQ(measurement.exact_error_estimate, 2.5e-21);
  ASSERT_EQ(measurement.reference_notes.size(), 2u);
  EXPECT_EQ(json(measurement), written);

  CellResult cell;
  static_cast<CellKey&>(cell) = {"naive", "one-over-x", -1, 1, 3, 1, 1, false};
  cell.name = "naive/one-over-x/n:3/threads:1";
  cell.measurement = measurement;
  EXPECT_EQ(cell.reference_notes(), measurement.reference_notes);
  EXPECT_EQ(cell.exact_method(), "Boost.Math tanh_sinh in long double");
  EXPECT_FALSE(cell.exact().has_value());
  const json out = benchmark_entries({cell}).front();
  EXPECT_TRUE(out.at("result").is_null());
  EXPECT_TRUE(out.at("exact").is_null());
  EXPECT_TRUE(out.at("rel_error").is_null());
  EXPECT_EQ(out.at("exact_method"), "Boost.Math tanh_sinh in long double");
  EXPECT_EQ(out.at("exact_error_estimate"), 2.5e-21);
  EXPECT_EQ(out.at("reference_notes"), written.at("reference_notes"));
}

}  // namespace
}  // namespace ladder
