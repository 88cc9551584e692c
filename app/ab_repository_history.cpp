// What `ladder ab --repo` keeps in the history: each side's medians as a run of its own, under the
// repository and the side's commit (history_store.hpp's record_measured), so that `ladder history show`,
// `report` and `check` follow a team's benchmarks over its commits as they follow Ladder's tiers.
#include "ab_repository_history.hpp"

#include <unistd.h>

#include "cell_result.hpp"
#include "clock.hpp"
#include "history_store.hpp"
#include "quote.hpp"
#include "text.hpp"

namespace ladder::app {
namespace {

// A side's cell: its processes' medians as the repetitions (nanoseconds, real and CPU), their aggregates
// (cell_result.hpp's aggregate, as every cell's) of the real times; or, for the side whose process failed,
// the failure (`reason`) and no time.
history::StoredCell stored_cell(const BenchCell& measured, const std::vector<Timing>& times,
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
  std::vector<Repetition> processes;
  for (const auto& time : times) {
    processes.push_back({static_cast<int>(processes.size()), 0, time.real_time * 1e9, time.cpu_time * 1e9});
    cell.repetitions.push_back(processes.back().real_time);
    cell.cpu_repetitions.push_back(processes.back().cpu_time);
  }
  const Aggregates real = aggregate(processes);
  cell.median = real.median.real_time, cell.mean = real.mean.real_time, cell.min = real.min.real_time;
  cell.max = real.max.real_time, cell.stddev = real.stddev.real_time, cell.cv = real.cv.real_time;
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
  // The machine, and the build: the repository's own, its recipe (not Ladder's compiler) keying its series.
  ContextRecord context;
  static_cast<MachineContext&>(context) = sides.machine;
  const bool target = !sides.recipe.target.empty();
  context.compiler = "the repository's own build:";
  context.build_type = target ? "Release" : "as --build sets it";
  context.common_flags =
      target ? "--target " + sides.recipe.target
             : "--build '" + sides.recipe.build_command + "' --bench '" + sides.recipe.bench_command + "'";
  context.flags_per_tier.clear();
  context.source.git_dirty = "no";  // a commit's files (a working tree with changes is refused)
  context.source.tier_sources.clear();
  context.run.started = sides.started;
  context.run.status = "complete";
  std::string recorded;
  for (const bool base : {true, false}) {
    if (!base && same) break;  // an A/A measured one tree: one run
    const Revision& revision = base ? sides.base : sides.head;
    const std::vector<history::StoredCell> stored = side_cells(cells, base);
    if (stored.empty()) continue;
    context.source.git_commit = revision.commit;
    context.source.git_branch = revision.working_tree ? "the working tree" : revision.name;
    context.run.finished = now_utc();
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
