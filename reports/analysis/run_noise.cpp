// A run's noise figures from the history store (run_noise.hpp): the runs of one clean commit first, then a
// recorded A/A figure, else the documented default.
#include "run_noise.hpp"

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <system_error>

#include "errors.hpp"
#include "history_store.hpp"
#include "identity.hpp"
#include "noise_store.hpp"
#include "quote.hpp"
#include "results_file.hpp"
#include "text.hpp"

namespace ladder::report {
namespace {

// The database at `path`, opened read-only, or nothing when there is none: a history that was never
// written knows no noise. A path the file system refuses (too long, under a file, no permission) is named.
std::optional<history::Store> open_history(const std::string& path) {
  std::error_code unreadable;
  if (!std::filesystem::exists(path, unreadable)) {
    if (unreadable)
      throw InputError("history database " + quote_text(path) + " cannot be read (" + unreadable.message() +
                       "); give --history a readable path");
    return std::nullopt;
  }
  return std::optional<history::Store>(std::in_place, path, history::Store::Mode::read);
}

// The figure the history gives a cell on the machine, as a threshold naming where it came from.
std::optional<Threshold> cell_noise(const history::Store& store, const history::NoiseKey& key) {
  const auto figure = history::noise_of(store, key, history::Compared::cells_of_one_run);
  if (!figure) return std::nullopt;
  if (!figure->adjacent)
    return floor_threshold(figure->percent, "this machine's noise floor between runs, " +
                                                format_number("%.2g %%", figure->percent) + " (" +
                                                figure->source + ")");
  // An A/A run alternates the two sides' processes: neighbours in time share the machine's state, so
  // runs measured an hour apart move further than it saw. Better than a default of another machine, and
  // said.
  return floor_threshold(
      figure->percent, "this machine's A/A noise floor, " + format_number("%.2g %%", figure->percent) + " (" +
                           figure->source +
                           "; its adjacent processes understate how far runs measured apart move)");
}

}  // namespace

void fill_noise(Run& run, const std::string& history_path) {
  const std::optional<history::Store> store = open_history(history_path);
  if (!store) return;
  const ContextRecord context = read_results_file(run.path).context;
  const std::string machine = history::machine_fingerprint(context);
  // The same code: a clean commit (a dirty checkout's code is not the commit's), the same build.
  const std::string commit = context.source.git_dirty == "no" ? context.source.git_commit : "";
  const std::string build = history::build_fingerprint(context);
  // Cells of two builds share a name and a figure: a noise floor holds for any build of a cell.
  std::set<std::string> asked;
  for (const CellResult& cell : every_build_cells(run)) {
    const history::NoiseKey key{cell, machine};
    // Runs of the same code are pooled build by build: each build's cell is its own series.
    if (auto others = history::same_build_medians(*store, key, cell.build, build, commit, context.run.started,
                                                  context.host_name);
        !others.empty())
      run.noise.other_runs[RunNoise::pooled_key(cell)] = std::move(others);
    if (!asked.insert(cell.name).second) continue;
    if (const auto figure = cell_noise(*store, key)) run.noise.by_cell[cell.name] = *figure;
  }
}

Run load_run_with_noise(const std::string& where, const std::optional<std::string>& history_option) {
  Run run = load_run(where);
  fill_noise(run, history::database_path(history_option));
  return run;
}

}  // namespace ladder::report
