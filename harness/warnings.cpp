// When a number is doubtful, the results say so: these warnings travel in results.json and are printed
// at the end of a run.
#include <algorithm>
#include <cstdio>
#include <string>

#include "build_info.hpp"
#include "context.hpp"
#include "registry.hpp"
#include "results.hpp"
#include "text.hpp"

namespace ladder {
namespace {

using nlohmann::json;

std::string percent(double fraction) { return format_number("%.1f %%", fraction * 100); }
std::string fixed(double value) { return format_number("%.2f", value); }

class Warnings {
 public:
  // A warning about some cells; it is added only when there are any.
  void about_cells(const std::string& kind, const std::string& message, const json& cells) {
    if (!cells.empty()) list_.push_back({{"kind", kind}, {"message", message}, {"cells", cells}});
  }
  void about_run(const std::string& kind, const std::string& message) {
    list_.push_back({{"kind", kind}, {"message", message}, {"cells", json::array()}});
  }
  json list() const { return list_; }

 private:
  json list_ = json::array();
};

bool optimized_build() {
  const auto& build = build_info();
  const bool release = build.build_type == "Release" || build.build_type == "RelWithDebInfo" ||
                       build.build_type == "MinSizeRel";
  const bool o_flag = build.common_flags.find("-O1") != std::string::npos ||
                      build.common_flags.find("-O2") != std::string::npos ||
                      build.common_flags.find("-O3") != std::string::npos;
  return release && o_flag;
}

}  // namespace

json warnings(const Journal& journal, const json& run) {
  Warnings found;
  const json& matrix = journal.header.at("matrix");
  const json& context = journal.header.at("context");

  if (run.value("status", "") == "interrupted")
    found.about_run("incomplete", "the run was interrupted: " + std::to_string(run.value("cells_done", 0)) +
                                      " of " + std::to_string(run.value("cells_total", 0)) +
                                      " cells finished; `ladder run --resume DIR` completes it");
  if (matrix.at("repetitions").get<int>() < 9)
    found.about_run("few repetitions", std::to_string(matrix.at("repetitions").get<int>()) +
                                           " repetitions a cell: fewer than 9, the spread is a rough guess");
  if (!optimized_build())
    found.about_run("unoptimized build", "Ladder itself was built as " + build_info().build_type + " with '" +
                                             build_info().common_flags +
                                             "': the times measure an unoptimized build");
  if (context.at("hypervisor").value("present", false))
    found.about_run("virtual machine",
                    "running under a hypervisor: other guests can steal time (see each cell's steal "
                    "figure) and hardware counters are usually unavailable");
  const json before = journal.header.value("load_average_before", json(nullptr));
  if (before.is_array() && before.at(0).get<double>() > 0.5)
    found.about_run("load before the run", "the 1-minute load average was " + fixed(before.at(0)) +
                                               " before the run started: something else was running");

  json noisy = json::array(), spread = json::array(), loaded = json::array(), stolen = json::array(),
       oversubscribed = json::array(), failed = json::array(), skipped = json::array(),
       outside_bound = json::array(), one_core = json::array(), not_identical = json::array();
  const int cpus = logical_cpus();
  for (const auto& event : journal.events) {
    if (event.at("kind") == "resume" && event.value("host_name", "") != context.value("host_name", ""))
      found.about_run("resumed elsewhere", "the run was resumed on '" + event.value("host_name", "") +
                                               "', not on '" + context.value("host_name", "") +
                                               "' where it started: its cells measured different machines");
    if (event.at("kind") != "cell") continue;
    const std::string name = event.at("name");
    const std::string status = event.at("status");
    const json& cell = event.at("cell");
    if (cell.at("threads").get<int>() * cell.value("ranks", 1) > cpus) oversubscribed.push_back(name);
    if (status == "skipped" || status == "unavailable") {
      skipped.push_back(name + ": " + event.value("reason", ""));
      continue;
    }
    if (status != "ok") {
      failed.push_back(name + ": " + status + ": " + event.value("reason", ""));
      continue;
    }
    const json& measurement = event.at("measurement");
    const json& aggregates = measurement.at("aggregates");
    const double cv = aggregates.at("cv").at("real_time");
    if (cv > 0.05) noisy.push_back(name + " (cv " + percent(cv) + ")");
    const double low = aggregates.at("min").at("real_time"), high = aggregates.at("max").at("real_time");
    if (low > 0 && high > 1.5 * low) spread.push_back(name + " (max/min " + fixed(high / low) + ")");
    const json& worker = event.at("worker");
    if (worker.at("other_load_cores").get<double>() > 0.25)
      loaded.push_back(name + " (" + fixed(worker.at("other_load_cores")) + " cores busy with other work)");
    if (worker.at("steal_fraction").get<double>() > 0.02)
      stolen.push_back(name + " (" + percent(worker.at("steal_fraction")) + " stolen)");
    if (!measurement.at("within_rounding_bound").get<bool>()) outside_bound.push_back(name);
    const Tier& tier = find_tier(cell.at("tier").get<std::string>());
    const double cores_used = aggregates.at("median").at("cpu_time").get<double>() /
                              aggregates.at("median").at("real_time").get<double>();
    if (tier.card.parallel && cell.at("threads").get<int>() > 1 && cores_used < 1.2)
      one_core.push_back(name + " (CPU/wall " + fixed(cores_used) + ")");
    if (tier.card.reproducible == Reproducible::always && !measurement.at("bit_identical").get<bool>())
      not_identical.push_back(name);
  }
  found.about_cells("failed cells", "cells that did not finish (each with its reason)", failed);
  found.about_cells("skipped cells", "cells not attempted (each with its reason)", skipped);
  found.about_cells("noisy", "cells whose repetitions vary by more than 5 % (coefficient of variation)",
                    noisy);
  found.about_cells("suspicious spread", "cells whose slowest repetition took over 1.5x the fastest", spread);
  found.about_cells("load during the run",
                    "cells measured while other processes kept a quarter core or more busy", loaded);
  found.about_cells("steal", "cells that lost over 2 % of the machine's CPU time to the hypervisor", stolen);
  found.about_cells("threads over cores",
                    "oversubscribed cells: more threads (× ranks) than the machine's " +
                        std::to_string(cpus) + " logical CPUs",
                    oversubscribed);
  found.about_cells("outside the rounding bound",
                    "results further from the exact midpoint sum than rounding explains: a bug?",
                    outside_bound);
  found.about_cells("one core",
                    "parallel cells whose CPU time barely exceeds their wall time: a silent fallback "
                    "to one thread?",
                    one_core);
  found.about_cells("not bit-identical",
                    "tiers that promise the same bits gave different results across "
                    "repetitions",
                    not_identical);
  return found.list();
}

}  // namespace ladder
