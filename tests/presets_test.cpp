// What each preset of `ladder run` contains, against the README's table (documented_presets.hpp): a preset
// that loses a size, a repetition or a thread count fails here.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "documented_presets.hpp"
#include "machine_topology.hpp"
#include "registry.hpp"
#include "run_request.hpp"

namespace ladder::testing {
namespace {

Matrix matrix_of(const std::string& preset) {
  RunArguments arguments;
  arguments.preset = preset;
  return requested_matrix(parse_request(arguments), nullptr, read_topology());
}

TEST(Presets, EachHasTheDocumentedSizesRepetitionsAndThreadCounts) {
  for (const auto& preset : documented_presets) {
    const Matrix matrix = matrix_of(preset.name);
    EXPECT_EQ(matrix.sizes, preset.sizes) << preset.name;
    EXPECT_EQ(matrix.repetitions, preset.repetitions) << preset.name;
    EXPECT_EQ(matrix.python_limit, preset.python_limit) << preset.name;
    EXPECT_EQ(matrix.min_time, preset.min_time) << preset.name;
    EXPECT_EQ(matrix.threads, every_thread_count()) << preset.name;
    const std::vector<int> ranks =
        std::thread::hardware_concurrency() >= 2 ? std::vector<int>{1, 2} : std::vector<int>{1};
    EXPECT_EQ(matrix.ranks, ranks) << preset.name;
    EXPECT_EQ(matrix.integrands, std::vector<std::string>{"gauss"})
        << preset.name << ": the README's default, e^(-x^2) on [0, 1]";
    EXPECT_EQ(matrix.a, 0.0);
    EXPECT_EQ(matrix.b, 1.0);
    std::vector<std::string> every_tier;
    for (const auto& tier : tiers()) every_tier.push_back(tier.card.id);
    EXPECT_EQ(matrix.tiers, every_tier) << preset.name << ": every tier";
    EXPECT_EQ(matrix.cells().size(), documented_cell_count(preset)) << preset.name;
  }
}

TEST(Presets, NoPresetIsTheStandardOne) {
  const Matrix standard = matrix_of("standard");
  Matrix unnamed = requested_matrix(RunRequest{}, nullptr, read_topology());
  unnamed.seed = standard.seed;  // drawn at random for each run
  EXPECT_EQ(Matrix::difference(unnamed, standard), "");
}

}  // namespace
}  // namespace ladder::testing
