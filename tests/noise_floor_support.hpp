// A history whose runs of one clean commit give crafted cells a known noise floor of runs measured apart,
// as `ladder compare` takes it (history::noise_of, Compared::runs_apart) and `ladder history check` from the
// series it checks (same_commit_noise, the same rule), for the tests of those commands.
#pragma once

#include <cmath>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "command.hpp"
#include "crafted_results.hpp"
#include "history_store.hpp"
#include "identity.hpp"
#include "noise_store.hpp"
#include "results_file.hpp"

namespace ladder::testing {

// Records seven runs of one clean commit into `store`: `make_run(dir, factor)` writes a crafted run into
// dir whose every cell is `factor` times its time, alternately 1 and e^a. Their six log ratios are ±a, of
// median 0 and MAD a, so each cell's floor is 100·(e^(1.96·1.4826·a) − 1) (noise_floor_percent), above
// their 95th percentile a: a is chosen to make it `percent`. Returns the runs' machine fingerprint.
inline std::string record_one_commit(
    history::Store& store, const std::filesystem::path& dir, double percent,
    const std::function<std::filesystem::path(const std::filesystem::path&, double)>& make_run) {
  const double a = std::log1p(percent / 100) / (1.96 * 1.4826);
  std::string machine;
  for (int i = 0; i < 7; ++i) {
    const std::filesystem::path run =
        make_run(dir / ("history-" + std::to_string(i)), i % 2 ? std::exp(a) : 1);
    nlohmann::json document = read_json(run / "results.json");
    document["context"]["run"]["started"] = "2026-12-01T0" + std::to_string(i) + ":00:00Z";
    document["context"]["source"] = {{"git_commit", "3f2a1b0c9d" + std::string(30, '0')},
                                     {"git_branch", "main"},
                                     {"git_dirty", "no"},
                                     {"tier_sources", nlohmann::json::object()}};
    store.record(write_results(run, document).string());
    machine = history::machine_fingerprint(read_results_file(run.string()).context);
  }
  return machine;
}

// An A/A `ladder ab` figure of `percent` for a cell at n = 1e6, which compare and history check must not
// take: adjacent processes are no floor for runs measured apart.
inline void record_aa(history::Store& store, const std::string& machine, const std::string& tier, int threads,
                      double percent) {
  history::record_noise(store, {{tier, "gauss", 1000000, threads, 1}, machine},
                        {percent, 12, "A/A `ladder ab` of 3f2a1b0c9d, 12 pairs, 2026-12-03",
                         "2026-12-03T00:00:00Z", "3f2a1b0c9d", "3f2a1b0c9d"});
}

}  // namespace ladder::testing
