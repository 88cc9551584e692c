#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>

#include "choose.hpp"
#include "errors.hpp"
#include "report.hpp"
#include "scaling.hpp"
#include "text.hpp"

namespace ladder::report {
namespace {

// What matches a cell of one run with a cell of the other: its name and its build, so that cells of two
// builds are never compared, whatever their names say.
std::string match_key(const CellResult& cell) { return cell.name + "\n" + cell.build; }

}  // namespace

CellComparison compare_cells(const CellResult& old_cell, const CellResult& new_cell,
                             const CompareOptions& options) {
  return compare_samples(old_cell.median(), old_cell.repetition_seconds(), new_cell.median(),
                         new_cell.repetition_seconds(), options);
}

std::string verdict(const CellComparison& comparison) {
  std::string text = comparison.change == Change::slower   ? "slower"
                     : comparison.change == Change::faster ? "faster"
                     : comparison.change == Change::not_meaningful
                         ? "no meaningful difference (significant, under --min-change)"
                         : "no significant difference";
  if (comparison.too_few) text += " (too few repetitions for the test)";
  if (comparison.over_fail_above) text += " — over --fail-above";
  return text;
}

double geometric_mean(const std::vector<double>& ratios) {
  if (ratios.empty()) return 1;
  double log_sum = 0;
  for (const double ratio : ratios) log_sum += std::log(ratio);
  return std::exp(log_sum / static_cast<double>(ratios.size()));
}

std::vector<std::string> placement_notes(const Run& before, const Run& after) {
  if (before.topology.has_value() != after.topology.has_value()) {
    const Run& unplaced = before.topology ? after : before;
    // Its cells have no placement either: a note for each would say the same again.
    return {std::string(before.topology ? "the new run" : "the old run") + " (" + unplaced.path +
            ") has no topology or placement recorded (written before Ladder pinned threads): a difference "
            "may be the placement, not the code"};
  }
  std::vector<std::string> notes;
  if (before.topology && before.topology->describe() != after.topology->describe())
    notes.push_back("the machines differ: " + before.topology->describe() + " against " +
                    after.topology->describe() + ": a difference may be the machine's shape, not the code");

  std::map<std::string, const CellResult*> old_cells;
  for (const auto& cell : before.cells)
    if (cell.ok()) old_cells[match_key(cell)] = &cell;
  std::vector<std::string> moved;  // "name (old placement against new)"
  for (const auto& cell : after.cells) {
    if (!cell.ok() || !old_cells.count(match_key(cell))) continue;
    // Compared as worded: the same span on other hardware threads of one shape runs alike.
    const std::string old_place = placement_text(old_cells.at(match_key(cell))->placement);
    const std::string new_place = placement_text(cell.placement);
    if (old_place != new_place) moved.push_back(cell.name + " (" + old_place + " against " + new_place + ")");
  }
  constexpr std::size_t shown = 3;
  if (const std::size_t count = moved.size(); count > 0) {
    moved.resize(std::min(count, shown));
    notes.push_back(std::to_string(count) + (count == 1 ? " cell's" : " cells'") +
                    " threads were placed differently, old against new: " + join(moved, "; ") +
                    (count > shown ? "; and " + std::to_string(count - shown) + " more" : "") +
                    ": a difference there may be the placement, not the code");
  }
  return notes;
}

int compare(const std::string& old_results, const std::string& new_results, const CompareOptions& options) {
  // Every cell, a peer's per-call cells and every build's too: compared cell by cell, no size is read.
  const auto every_cell = [](Run run) {
    run.cells = every_build_cells(run);
    return run;
  };
  const Run before = every_cell(load_run(old_results));
  const Run after = every_cell(load_run(new_results));
  if ((before.machine != after.machine || before.cpu != after.cpu) && !options.across_machines)
    throw InputError("'" + before.path + "' was measured on " + before.machine + " (" + before.cpu +
                     ") and '" + after.path + "' on " + after.machine + " (" + after.cpu +
                     "): a difference would be the machines'; give --across-machines to compare anyway");
  std::map<std::string, const CellResult*> old_cells;
  for (const auto& cell : before.cells)
    if (cell.ok()) old_cells[match_key(cell)] = &cell;

  std::printf("old: %s (%s)\nnew: %s (%s)\n", before.path.c_str(), before.machine.c_str(), after.path.c_str(),
              after.machine.c_str());
  for (const auto& note : placement_notes(before, after)) std::printf("note: %s\n", note.c_str());
  std::printf("\n");
  std::printf("%-44s %11s %11s %8s %9s  %s\n", "cell", "old median", "new median", "new/old", "p", "verdict");
  std::vector<double> ratios;
  int slower = 0, faster = 0, too_few = 0;
  bool fail = false;
  for (const auto& cell : after.cells) {
    if (!cell.ok() || !old_cells.count(match_key(cell))) continue;
    const CellResult& old = *old_cells.at(match_key(cell));
    const CellComparison comparison = compare_cells(old, cell, options);
    slower += comparison.change == Change::slower;
    faster += comparison.change == Change::faster;
    too_few += comparison.too_few;
    fail = fail || comparison.over_fail_above;
    std::printf("%-44s %11s %11s %8.3f %9.2g  %s\n", cell.name.c_str(), format_seconds(old.median()).c_str(),
                format_seconds(cell.median()).c_str(), comparison.ratio, comparison.test.p,
                verdict(comparison).c_str());
    ratios.push_back(comparison.ratio);
  }
  if (ratios.empty()) {
    std::printf("no cell was measured in both runs\n");
    return options.fail_above_percent ? 1 : 0;
  }
  std::printf(
      "\n%zu cells in both: %d significantly faster, %d significantly slower (Mann–Whitney U, two-sided, "
      "p < %.2f, and a change of %g %% or more); geometric mean of new/old: %.3f\n",
      ratios.size(), faster, slower, options.alpha, options.min_change_percent, geometric_mean(ratios));
  if (too_few)
    std::printf(
        "warning: %d cells have fewer than 5 repetitions on a side; with 3 against 3 the smallest possible "
        "p is 0.1, so the test cannot find a difference: run with --reps 10 or more\n",
        too_few);
  return fail ? 1 : 0;
}

}  // namespace ladder::report
