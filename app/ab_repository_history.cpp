// What `ladder ab --repo` keeps in the history: each side's medians as a run of its own, under the
// repository and the side's commit (history_store.hpp's record_measured), so that `ladder history show`,
// `report` and `check` follow a team's benchmarks over its commits as they follow Ladder's tiers.
#include "ab_repository_history.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "clock.hpp"
#include "history_store.hpp"
#include "quote.hpp"
#include "text.hpp"

namespace ladder::app {
namespace {

// A side's cell: its processes' medians as the repetitions (nanoseconds, real and CPU), summarised by their
// real times; or, for the side whose process failed, the failure (`reason`) and no time.
history::StoredCell stored_cell(const BenchCell& measured, const std::vector<BenchTimes>& times,
                                const std::string& reason) {
  history::StoredCell cell;
  static_cast<CellCoordinates&>(cell) = measured.ab.cell;
  cell.name = measured.ab.name;
  if (times.empty()) {
    cell.status = "failed";
    cell.reason = reason;
    return cell;
  }
  cell.status = "ok";
  for (const auto& time : times)
    cell.repetitions.push_back(time.real * 1e9), cell.cpu_repetitions.push_back(time.cpu * 1e9);
  std::vector<double> sorted = cell.repetitions;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t count = sorted.size(), middle = count / 2;
  cell.median = count % 2 ? sorted[middle] : 0.5 * (sorted[middle - 1] + sorted[middle]);
  cell.min = sorted.front(), cell.max = sorted.back();
  const double mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(count);
  cell.mean = mean;
  if (count > 1) {
    double squares = 0;
    for (const double value : sorted) squares += (value - mean) * (value - mean);
    cell.stddev = std::sqrt(squares / static_cast<double>(count - 1));
    cell.cv = *cell.stddev / mean;
  }
  return cell;
}

// One side's cells: a benchmark with whole pairs, or whose process on this side failed ("head: crashed …").
std::vector<history::StoredCell> side_cells(const std::vector<BenchCell>& cells, bool base) {
  const std::string side = base ? "base: " : "head: ";
  std::vector<history::StoredCell> stored;
  for (const auto& cell : cells) {
    const auto& times = base ? cell.base : cell.head;
    const bool failed_here = cell.ab.failure.rfind(side, 0) == 0;
    if (!times.empty() && !failed_here)
      stored.push_back(stored_cell(cell, times, ""));
    else if (failed_here)
      stored.push_back(stored_cell(cell, {}, cell.ab.failure.substr(side.size())));
  }
  return stored;
}

}  // namespace

std::string record_repository_sides(const std::vector<BenchCell>& cells, const RepositorySides& sides,
                                    const std::string& database) {
  if (database.empty()) return {};
  const bool same = sides.base.tree == sides.head.tree;
  history::Store store(database, history::Store::Mode::write);
  std::string recorded;
  for (const bool base : {true, false}) {
    if (!base && same) break;  // an A/A measured one tree: one run
    const Revision& revision = base ? sides.base : sides.head;
    const std::vector<history::StoredCell> stored = side_cells(cells, base);
    if (stored.empty()) continue;
    ContextRecord context;
    static_cast<MachineContext&>(context) = sides.machine;
    // The build is the repository's own: its recipe, not Ladder's compiler, keys its series.
    const bool target = !sides.recipe.target.empty();
    context.compiler = "the repository's own build:";
    context.build_type = target ? "Release" : "as --build sets it";
    context.common_flags =
        target ? "--target " + sides.recipe.target
               : "--build '" + sides.recipe.build_command + "' --bench '" + sides.recipe.bench_command + "'";
    context.flags_per_tier.clear();
    context.source.git_commit = revision.commit;
    context.source.git_branch = revision.working_tree ? "the working tree" : revision.name;
    context.source.git_dirty = "no";  // a commit's files (a working tree with changes is refused)
    context.source.tier_sources.clear();
    context.run.started = sides.started;
    context.run.finished = now_utc();
    context.run.status = "complete";
    context.run.label = same   ? "ab A/A"
                        : base ? "ab base, head " + sides.head.name
                               : "ab head, base " + sides.base.name;
    const std::string identity = sides.repository + "\nside=" + (base ? "base" : "head") +
                                 "\nstarted=" + sides.started + "\nhost=" + sides.machine.host_name +
                                 "\nprocess=" + std::to_string(::getpid()) + "\ncommit=" + revision.commit;
    const auto run = store.record_measured(context, stored, identity, "ladder ab --repo " + sides.top);
    recorded += std::string(recorded.empty() ? "" : ", ") +
                (same   ? ""
                 : base ? "base "
                        : "head ") +
                revision.commit.substr(0, 10) + " as run " + run.run_id.substr(0, 12);
  }
  return recorded.empty() ? recorded
                          : "recorded in " + database + ": " + recorded + "; `ladder history show '" +
                                sides.repository + "'` follows them";
}

}  // namespace ladder::app
