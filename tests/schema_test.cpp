// The typed results schema (common/): every field checked where it is read, the path of a bad one named,
// and what Ladder does not read itself carried through unchanged.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>

#include "json_reader.hpp"
#include "measurement.hpp"
#include "results_file.hpp"

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
TEST(Schema, ACellThatDidNotRunIsWrittenAsGoogleBenchmarkWritesAnErroredRun) {
  BenchmarkEntry entry;
  entry.name = entry.run_name = entry.cell = "cuda/gauss/n:100000/threads:1";
  entry.run_type = "iteration";
  entry.coordinates = {"cuda", "gauss", 0, 1, 100000, 1, 1, false};
  entry.status = CellStatus::unavailable;
  entry.reason = "no GPU";
  entry.error_occurred = true;
  entry.error_message = entry.reason;
  const json written = entry;
  for (const char* key :
       {"real_time", "cpu_time", "time_unit", "error_occurred", "error_message", "iterations"})
    EXPECT_TRUE(written.contains(key)) << key;
  EXPECT_EQ(written.at("real_time"), 0.0);
  EXPECT_EQ(written.at("time_unit"), "ns");
  EXPECT_FALSE(written.contains("ns_per_node"));
  const BenchmarkEntry read = written.get<BenchmarkEntry>();
  EXPECT_EQ(read.status, CellStatus::unavailable);
  EXPECT_EQ(read.coordinates.n, 100000);
  EXPECT_EQ(json(read), written);
}

// A user integrand's references: how the exact integral was found, the quadrature's estimate and what
// cannot be trusted travel from the worker's measurement into each results entry; a reference that could
// not be computed, or a result that is not finite, is null there, never a number.
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

  BenchmarkEntry entry;
  entry.name = entry.run_name = entry.cell = "naive/one-over-x/n:3/threads:1";
  entry.run_type = "iteration";
  entry.coordinates = {"naive", "one-over-x", -1, 1, 3, 1, 1, false};
  entry.real_time = entry.cpu_time = 10;
  entry.result = measurement.result;  // NaN; exact and midpoint stay null
  std::tie(entry.exact_method, entry.exact_error_estimate, entry.reference_notes) =
      std::tie(measurement.exact_method, measurement.exact_error_estimate, measurement.reference_notes);
  const json out = entry;
  EXPECT_TRUE(out.at("result").is_null());
  EXPECT_TRUE(out.at("exact").is_null());
  EXPECT_TRUE(out.at("rel_error").is_null());
  EXPECT_EQ(out.at("exact_method"), "Boost.Math tanh_sinh in long double");
  EXPECT_EQ(out.at("exact_error_estimate"), 2.5e-21);
  EXPECT_EQ(out.at("reference_notes"), written.at("reference_notes"));
  const BenchmarkEntry back = out.get<BenchmarkEntry>();
  EXPECT_EQ(back.reference_notes, entry.reference_notes);
  EXPECT_EQ(back.exact_method, entry.exact_method);
  EXPECT_EQ(back.exact_error_estimate, entry.exact_error_estimate);
  EXPECT_FALSE(back.exact.has_value());
  EXPECT_EQ(json(back), out);
}

}  // namespace
}  // namespace ladder
