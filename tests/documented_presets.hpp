// What each preset of `ladder run` contains, as the README documents it ("Running the benchmark matrix",
// the Python peers' --python-limit, the mpi tier's default ranks): the tests' own table, never read back
// from the code that makes the matrix.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "registry.hpp"

namespace ladder::testing {

struct DocumentedPreset {
  std::string name;
  std::vector<std::int64_t> sizes;
  int repetitions;
  std::int64_t python_limit;
  // Not in the README (its --help says only "the preset's"): pinned as they are, so a change is deliberate.
  double min_time;
};

// README: `--preset quick` "every tier, n = 1e5 and 1e7, 3 repetitions"; the default (standard) "n = 1e5 …
// 1e8, 10 repetitions"; `--preset full` "adds n = 1e9 and 20 repetitions"; --python-limit "default 1e7,
// 1e6 in the quick preset".
inline const std::vector<DocumentedPreset> documented_presets = {
    {"quick", {100'000, 10'000'000}, 3, 1'000'000, 0.01},
    {"standard", {100'000, 1'000'000, 10'000'000, 100'000'000}, 10, 10'000'000, 0.1},
    {"full", {100'000, 1'000'000, 10'000'000, 100'000'000, 1'000'000'000}, 20, 10'000'000, 0.5},
};

inline const DocumentedPreset& documented_preset(const std::string& name) {
  for (const auto& preset : documented_presets)
    if (preset.name == name) return preset;
  throw std::out_of_range("no documented preset '" + name + "'");
}

// README: parallel tiers run at every thread count from 1 to the number of cores, the others at 1; the mpi
// tier takes ranks 1 and 2 where ranks × threads fit the cores.
inline std::vector<int> every_thread_count() {
  std::vector<int> counts;
  for (int count = 1; count <= static_cast<int>(std::thread::hardware_concurrency()); ++count)
    counts.push_back(count);
  return counts;
}

inline std::size_t documented_cell_count(const DocumentedPreset& preset) {
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  std::size_t per_size = 0;
  for (const auto& tier : tiers()) {
    if (!tier.card.parallel) {
      per_size += 1;
    } else if (!tier.card.distributed) {
      per_size += static_cast<std::size_t>(cores);
    } else {
      for (const int ranks : {1, 2})
        for (int threads = 1; threads <= cores; ++threads) per_size += ranks * threads <= cores;
    }
  }
  return per_size * preset.sizes.size();
}

}  // namespace ladder::testing
