// `ladder compare`: two results files cell by cell (choose.hpp), each cell's change judged against the
// machine's noise floor between runs (history::noise_of, Compared::runs_apart), never against the spread
// inside one run.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <numeric>

#include "choose.hpp"
#include "errors.hpp"
#include "history_store.hpp"
#include "identity.hpp"
#include "noise_store.hpp"
#include "report.hpp"
#include "results_file.hpp"
#include "scaling.hpp"
#include "text.hpp"

namespace ladder::report {
namespace {

// What matches a cell of one run with a cell of the other: its name and its build, so that cells of two
// builds are never compared, whatever their names say.
std::string match_key(const CellResult& cell) { return cell.name + "\n" + cell.build; }

// What compare says of a cell whose noise floor on this machine is not known.
constexpr const char* unknown_noise =
    "measured apart, and the history holds under 6 runs of one clean commit on this machine, so its "
    "run-to-run noise is unknown: `ladder ab` answers this";

// Each cell's noise floor on the machine both runs were measured on, from the history's runs of one clean
// commit when it holds 6 or more (noise_of, Compared::runs_apart): runs measured apart, as the two compared
// were. Where the history has none, the runs' own: each measured its noise from its rounds
// (common/noise/round_noise.hpp), rounds minutes apart, and the wider of the two floors at the cell's size is
// used. An A/A `ladder ab` figure is not used: adjacent processes understate how far runs apart move. Runs of
// two machines have none: no one machine's run-to-run noise describes their difference.
class NoiseFloors {
 public:
  NoiseFloors(const Run& before, const Run& after, const std::optional<std::string>& history_option)
      : before_(before.noise), after_(after.noise) {
    // A database that does not exist knows no noise; one that cannot be read is the store's InputError.
    const std::string path = history::database_path(history_option);
    std::error_code error;
    if (std::filesystem::exists(path, error)) store_.emplace(path, history::Store::Mode::read);
    // Two hosts of one fingerprint (--across-machines) differ by more than one machine's run-to-run noise.
    if (before.machine != after.machine || before.cpu != after.cpu) return;
    const std::string old_machine = history::machine_fingerprint(read_results_file(before.path).context);
    const std::string new_machine = history::machine_fingerprint(read_results_file(after.path).context);
    if (old_machine == new_machine) machine_ = new_machine;
  }

  // Why a cell has no floor: the one sentence for all of them.
  std::string unknown_reason() const {
    return machine_.empty() ? "measured apart on two machines: no one machine's run-to-run noise describes "
                              "their difference"
                            : unknown_noise;
  }

  std::optional<history::NoiseFigure> floor(const CellResult& cell) const {
    if (machine_.empty()) return std::nullopt;
    if (!store_) return own_noise(cell);
    if (auto figure = history::noise_of(*store_, {cell, machine_}, history::Compared::runs_apart))
      return figure;
    return own_noise(cell);
  }

 private:
  // The wider of the two runs' own floors at the cell's size, when both measured one.
  std::optional<history::NoiseFigure> own_noise(const CellResult& cell) const {
    const Threshold &old_floor = before_.of(cell), &new_floor = after_.of(cell);
    if (!old_floor.measured || !new_floor.measured) return std::nullopt;
    history::NoiseFigure figure;
    const bool old_wider = old_floor.percent > new_floor.percent;
    figure.percent = old_wider ? old_floor.percent : new_floor.percent;
    figure.source = "the wider of the two runs' own noise, the " + std::string(old_wider ? "old" : "new") +
                    " run's: " + (old_wider ? old_floor : new_floor).source;
    return figure;
  }

  RunNoise before_, after_;
  std::optional<history::Store> store_;
  std::string machine_;  // the fingerprint both runs share; empty when they differ
};

// "this machine's noise floor (A/A `ladder ab` of 3f2a1b0c9d, 12 pairs, 2026-12-03)": where a threshold from
// the history came from (the figure's source names its pairs and date).
std::string floor_source(const history::NoiseFigure& figure) {
  return "this machine's noise floor (" + figure.source + ")";
}

// A row naming the cell, nothing judged yet.
VerdictRow row_of(const CellResult& cell) {
  VerdictRow row;
  row.coordinates() = cell;
  row.cell = cell.name;
  return row;
}

// One cell in both runs as a verdict row: the ratio of the medians new/old and, where the floor is known,
// its interval and the verdict against --min-change or else that floor; without, no threshold (no verdict).
VerdictRow compared_row(const CellResult& old_cell, const CellResult& new_cell, const NoiseFloors& floors,
                        const CompareOptions& options) {
  VerdictRow row = row_of(new_cell);
  row.base_seconds = old_cell.median();
  row.head_seconds = new_cell.median();
  const double ratio = new_cell.median() / old_cell.median();
  const auto floor = floors.floor(new_cell);
  if (!floor) {
    row.interval = {ratio, 0, 0, 1};
    row.threshold = {0, "", false};
    row.note = floors.unknown_reason();
    return row;
  }
  row.interval = apart_interval(ratio, floor->percent);
  row.threshold = options.min_change_percent ? Threshold{*options.min_change_percent, "--min-change", false}
                                             : floor_threshold(floor->percent, floor_source(*floor));
  row.verdict = judge(row.interval, row.threshold.percent);
  row.note =
      row.verdict == Verdict::undecided ? "measured apart: `ladder ab` would settle it" : "measured apart";
  return row;
}

// A cell measured in the old run that failed in the new one: nothing to compare, a failed row.
VerdictRow failed_row(const CellResult& new_cell) {
  VerdictRow row = row_of(new_cell);
  row.failed = true;
  row.note = "failed in the new run: " + std::string(to_string(new_cell.status)) +
             (new_cell.reason.empty() ? "" : ": " + new_cell.reason);
  return row;
}

}  // namespace

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
  if (const auto why = emulated_runs({before, after}); !why.empty())
    throw InputError(join(why, "; ") +
                     ": `ladder compare` compares times, so it compares none here (`ladder "
                     "report` shows an emulated run's errors and vectorization)");
  if ((before.machine != after.machine || before.cpu != after.cpu) && !options.across_machines)
    throw InputError("'" + before.path + "' was measured on " + before.machine + " (" + before.cpu +
                     ") and '" + after.path + "' on " + after.machine + " (" + after.cpu +
                     "): a difference would be the machines'; give --across-machines to compare anyway");
  const NoiseFloors floors(before, after, options.history);
  std::map<std::string, const CellResult*> old_cells;
  for (const auto& cell : before.cells)
    if (cell.ok()) old_cells[match_key(cell)] = &cell;

  std::vector<VerdictRow> rows;
  std::vector<double> ratios;
  for (const auto& cell : after.cells) {
    if (!old_cells.count(match_key(cell))) continue;
    if (!cell.ok()) {  // a cell that failed in the new run fails the gate, as a head that crashes fails ab's
      if (is_failure(cell.status)) rows.push_back(failed_row(cell));
      continue;
    }
    rows.push_back(compared_row(*old_cells.at(match_key(cell)), cell, floors, options));
    ratios.push_back(rows.back().interval.ratio);
  }

  std::printf("old: %s (%s)\nnew: %s (%s)\n", before.path.c_str(), before.machine.c_str(), after.path.c_str(),
              after.machine.c_str());
  for (const auto& note : placement_notes(before, after)) std::printf("note: %s\n", note.c_str());
  std::printf("\n");
  const std::string title = "ladder compare: " + after.path + " against " + before.path;
  if (rows.empty()) {
    std::printf("no cell was measured in both runs\n");
    write_verdict_outputs(rows, options.outputs, title);
    return options.outputs.fail_above_percent ? 1 : 0;  // a gate with nothing to judge is not passed
  }
  std::fputs(verdict_table(rows, "old", "new").c_str(), stdout);
  const auto unjudged = std::count_if(rows.begin(), rows.end(),
                                      [](const auto& row) { return !row.failed && !has_verdict(row); });
  if (options.min_change_percent && unjudged > 0)
    std::printf(
        "--min-change %g %% is not applied to %s: two runs measured apart have an interval only where this "
        "machine's noise floor is known\n",
        *options.min_change_percent, counted(static_cast<int>(unjudged), "cell", "cells").c_str());
  write_verdict_outputs(rows, options.outputs, title);
  std::printf("\n%zu cells in both: %s; geometric mean of new/old: %.3f\n", rows.size(),
              verdict_tally(rows).c_str(), geometric_mean(ratios));
  const bool fail = std::any_of(rows.begin(), rows.end(), [&](const VerdictRow& row) {
    return fails_gate(row, options.outputs.fail_above_percent);
  });
  return fail ? exit_failed : exit_ok;
}

}  // namespace ladder::report
