// Issue 49, the harness's share of a run: a worker warms up by itself, a cell's first round makes its
// memory and counter passes after the warm-up and sizes a repetition from its warm calls (1.25 × the
// minimum time over the fastest, aiming at Google Benchmark's 1.4 ×), a later round times the first
// round's iterations; and the instruction counts a run keeps per profiling build and machine
// (harness/run/instruction_cache.hpp).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "instruction_cache.hpp"
#include "worker.hpp"

namespace ladder::testing {
namespace {

namespace fs = std::filesystem;

Matrix small_matrix(double min_time) {
  Matrix matrix;
  matrix.repetitions = 3;
  matrix.min_time = min_time;
  matrix.min_warmup_time = 0.005;
  return matrix;
}

CellKey cell_of(const std::string& tier, std::int64_t n) {
  CellKey cell;
  cell.tier = tier;
  cell.integrand = "gauss";
  cell.n = n;
  return cell;
}

TEST(WorkerWarmUp, AFirstRoundSizesEachRepetitionToTheMinimumTimeFromItsWarmCalls) {
  const double min_time = 0.02;
  const Measurement measurement = measure_cell(cell_of("inlined", 10'000), small_matrix(min_time));
  ASSERT_EQ(measurement.repetitions.size(), 3u);
  // Sized by the rule, 1.25 × the minimum time over the call it was sized from (the fastest warm call, or
  // the memory pass's if faster), which the cell records. The rule, not a time: how long the timed calls
  // then take is the machine's (a CI host ran them 40 % faster than its fastest warm call).
  ASSERT_TRUE(measurement.extra.contains("sized_from_call_seconds"));
  const double sized_from = measurement.extra.at("sized_from_call_seconds").get<double>();
  EXPECT_GT(sized_from, 0.0);
  EXPECT_LT(sized_from, min_time) << "inlined at 1e4 nodes: a call of microseconds";
  const auto rule = static_cast<std::int64_t>(std::ceil(1.25 * min_time / sized_from));
  for (const auto& repetition : measurement.repetitions) {
    EXPECT_EQ(repetition.iterations, rule) << "sized from " << sized_from << " s";
    // The silent fallback: one call a repetition, a call of microseconds timed alone.
    EXPECT_GT(repetition.iterations, 1) << "a call of microseconds is timed many times a repetition";
  }
  // The first round's passes, made after the warm-up: the heap counted, its method saying when.
  ASSERT_TRUE(measurement.memory.peak_heap_bytes.has_value());
  EXPECT_NE(measurement.memory.extra.at("heap_method").get<std::string>().find("after the warm-up"),
            std::string::npos);
  EXPECT_TRUE(measurement.counters.has_value());
}

TEST(WorkerWarmUp, ALaterRoundTimesTheFirstRoundsIterationsWithNoPasses) {
  const Measurement measurement =
      measure_cell(cell_of("streaming", 10'000), small_matrix(0.02), std::nullopt, {}, std::int64_t{7});
  ASSERT_EQ(measurement.repetitions.size(), 3u);
  for (const auto& repetition : measurement.repetitions) EXPECT_EQ(repetition.iterations, 7);
  EXPECT_FALSE(measurement.extra.contains("sized_from_call_seconds")) << "a later round sizes nothing";
  EXPECT_FALSE(measurement.memory.peak_heap_bytes.has_value());
  EXPECT_FALSE(measurement.counters.has_value());
}

TEST(WorkerWarmUp, ACallLongerThanTheMinimumTimeIsOneCallARepetition) {
  // naive at 2e6 nodes: milliseconds a call, over a minimum time of 1 ms.
  const Measurement measurement = measure_cell(cell_of("naive", 2'000'000), small_matrix(0.001));
  for (const auto& repetition : measurement.repetitions) EXPECT_EQ(repetition.iterations, 1);
}

class InstructionCache : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ladder-instruction-cache-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    setenv("LADDER_CACHE_DIR", dir_.c_str(), 1);
  }
  void TearDown() override {
    unsetenv("LADDER_CACHE_DIR");
    fs::remove_all(dir_);
  }
  static InstructionCounts counted() {
    InstructionCounts counts;
    counts.available = true;
    counts.integrand = "gauss";
    counts.method = "callgrind Ir";
    counts.n = {10000, 30000};
    counts.tiers = {{"naive", 41.5, {415000, 1245000}, ""}, {"inlined", 20.25, {202500, 607500}, ""}};
    return counts;
  }
  fs::path dir_;
};

TEST_F(InstructionCache, CountsKeptAreReadBackForTheSameTiersAndIntegrandOnly) {
  const std::vector<std::string> tiers = {"naive", "inlined"};
  EXPECT_FALSE(cached_instructions(tiers, "gauss", 0, 1).has_value()) << "nothing kept yet";
  keep_instructions(tiers, counted());
  const auto kept = cached_instructions(tiers, "gauss", 0, 1);
  ASSERT_TRUE(kept.has_value());
  ASSERT_EQ(kept->tiers.size(), 2u);
  EXPECT_EQ(kept->per_node("naive", "gauss"), 41.5);
  ASSERT_NE(kept->find("inlined"), nullptr);
  EXPECT_EQ(kept->find("inlined")->instructions, (std::vector<double>{202500, 607500}));
  EXPECT_NE(kept->method.find("kept from an earlier run"), std::string::npos) << kept->method;
  EXPECT_FALSE(cached_instructions({"naive"}, "gauss", 0, 1).has_value()) << "another tier list";
  EXPECT_FALSE(cached_instructions(tiers, "gauss", 0, 2).has_value()) << "another interval";
  EXPECT_FALSE(cached_instructions(tiers, "sin", 0, 1).has_value()) << "another integrand";
}

TEST_F(InstructionCache, UnavailableCountsAreNotKeptAndADamagedFileIsCountedAfresh) {
  const std::vector<std::string> tiers = {"naive", "inlined"};
  keep_instructions(tiers, InstructionCounts::not_counted("unavailable: no valgrind"));
  EXPECT_FALSE(cached_instructions(tiers, "gauss", 0, 1).has_value());
  std::ofstream(instructions_cache_file(tiers, "gauss", 0, 1)) << "{\"available\": tru";
  EXPECT_FALSE(cached_instructions(tiers, "gauss", 0, 1).has_value());
}

}  // namespace
}  // namespace ladder::testing
