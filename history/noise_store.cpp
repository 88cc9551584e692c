// The noise_floors table (noise_store.hpp): a cell's noise floor on a machine, recorded and read back, the
// figure of the history's runs of one clean commit, and noise_of, which picks between them.
#include "noise_store.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "errors.hpp"
#include "history_detect.hpp"
#include "sqlite.hpp"
#include "store_tables.hpp"
#include "text.hpp"

namespace ladder::history {

// The store's connection and schema version, for the noise table's functions (a friend of Store).
struct NoiseTable {
  static const sqlite::Database& database(const Store& store) { return *store.impl_->db; }
  static int version(const Store& store) { return store.impl_->version; }
};

namespace {

// The first schema version with the noise_floors table.
constexpr int noise_table_version = 5;

// A cell's key columns as a WHERE clause, and its parameters bound.
const char* const key_clause =
    "machine = :machine AND tier = :tier AND integrand = :integrand AND n = :n AND threads = :threads AND "
    "ranks = :ranks";
void bind_key(sqlite::Statement& statement, const NoiseKey& key) {
  statement.bind(":machine", key.machine)
      .bind(":tier", key.tier)
      .bind(":integrand", key.integrand)
      .bind(":n", key.n)
      .bind(":threads", key.threads)
      .bind(":ranks", key.ranks);
}

// A series point as history_detect.hpp's run: clean only where git says "no" uncommitted changes.
CellRun run_of(const SeriesPoint& point) {
  CellRun run;
  run.run_id = point.run_id;
  run.time = point.started;
  run.commit = point.git_commit.empty() ? "unknown" : point.git_commit;
  run.dirty = point.git_dirty != "no";
  run.median = point.cell.median.value_or(0);
  return run;
}

// Whether a series is of the cell on its machine (of any build).
bool same_cell(const SeriesKey& series, const NoiseKey& key) {
  return series.machine == key.machine && series.coordinates() == key.coordinates();
}

}  // namespace

void record_noise(Store& store, const NoiseKey& key, const NoiseFigure& figure) {
  if (!(figure.percent >= 0 && figure.percent < max_change_percent))
    throw InputError("noise floor " + format_number("%g", figure.percent) + " % of tier '" + key.tier +
                     "' is out of range (a number from 0 to under " +
                     format_number("%g", max_change_percent) + ")");
  if (NoiseTable::version(store) < noise_table_version)
    throw InputError("history database '" + store.path() + "' has schema version " +
                     std::to_string(NoiseTable::version(store)) +
                     ", which keeps no noise floors: open it for writing to migrate it first");
  const sqlite::Database& db = NoiseTable::database(store);
  sqlite::Transaction transaction(db);
  sqlite::Statement insert(
      db, sqlite::insert_sql("noise_floors", {"machine", "tier", "integrand", "n", "threads", "ranks",
                                              "percent", "pairs", "source", "measured", "base", "head"}));
  bind_key(insert, key);
  insert.bind(":percent", figure.percent)
      .bind(":pairs", figure.pairs)
      .bind(":source", figure.source)
      .bind(":measured", figure.measured)
      .bind(":base", figure.base)
      .bind(":head", figure.head)
      .run();
  transaction.commit();
}

namespace {

// The A/A figure (noise_of).
std::optional<NoiseFigure> recorded_noise(const Store& store, const NoiseKey& key) {
  if (NoiseTable::version(store) < noise_table_version) return std::nullopt;
  // The newest few A/A runs, not the newest alone: one floor from 10 pairs can be half or twice the
  // machine's, and their median is steadier.
  sqlite::Statement query(
      NoiseTable::database(store),
      std::string("SELECT percent, pairs, source, measured, base, head FROM noise_floors WHERE ") +
          key_clause + " ORDER BY measured DESC, id DESC LIMIT " + std::to_string(recorded_noise_runs));
  bind_key(query, key);
  std::vector<double> percents;
  NoiseFigure figure;
  while (query.step()) {
    percents.push_back(query.number("percent").value_or(0));
    if (!std::isfinite(percents.back()) || percents.back() >= max_change_percent)
      sqlite::refuse_damaged(store.path(),
                             "its noise floor of tier '" + key.tier + "', " + key.integrand +
                                 ", n = " + std::to_string(key.n) + ", " + std::to_string(key.threads) +
                                 " threads is " + format_number("%g", percents.back()) +
                                 " %: a noise floor is a percentage from 0 to under " +
                                 format_number("%g", max_change_percent) + ", so it was edited or damaged");
    figure.pairs += static_cast<int>(query.integer("pairs"));
    if (percents.size() > 1) continue;
    figure.source = query.text("source");
    figure.measured = query.text("measured");
    figure.base = query.text("base");
    figure.head = query.text("head");
  }
  if (percents.empty()) return std::nullopt;
  figure.adjacent = true;
  std::sort(percents.begin(), percents.end());
  const std::size_t half = percents.size() / 2;
  figure.percent = percents.size() % 2 ? percents[half] : (percents[half - 1] + percents[half]) / 2;
  if (percents.size() > 1)
    figure.source = "the median of the newest " + std::to_string(percents.size()) + " A/A runs, the newest " +
                    figure.source;
  return figure;
}

// The history's figure (noise_of).
std::optional<NoiseFigure> history_noise(const Store& store, const NoiseKey& key) {
  std::optional<SameCommitNoise> best;
  for (const auto& series_key : store.series_keys(key.tier)) {
    if (!same_cell(series_key, key)) continue;
    HistorySeries series;
    for (const auto& point : store.series(series_key)) series.runs.push_back(run_of(point));
    const auto noise = same_commit_noise(series);
    if (noise && (!best || noise->runs > best->runs)) best = noise;
  }
  if (!best) return std::nullopt;
  NoiseFigure figure;
  figure.percent = best->percent;
  figure.pairs = best->runs - 1;
  figure.source =
      "history: " + counted(best->runs, "run", "runs") + " of clean commit " + best->commit.substr(0, 10);
  figure.measured = best->newest;
  return figure;
}

}  // namespace

std::vector<double> same_build_medians(const Store& store, const NoiseKey& key, const std::string& cell_build,
                                       const std::string& build, const std::string& commit,
                                       const std::string& started, const std::string& host) {
  std::vector<double> medians;
  if (commit.empty()) return medians;
  for (const auto& series_key : store.series_keys(key.tier)) {
    if (!same_cell(series_key, key) || series_key.build_fingerprint != build ||
        series_key.build != cell_build)
      continue;
    for (const auto& point : store.series(series_key)) {
      const CellRun run = run_of(point);
      if (point.host == host && run.commit == commit && !run.dirty && point.started != started &&
          run.median > 0 && std::isfinite(run.median))
        medians.push_back(run.median * 1e-9);  // the store keeps nanoseconds
    }
  }
  return medians;
}

std::optional<NoiseFigure> noise_of(const Store& store, const NoiseKey& key, Compared compared) {
  if (compared == Compared::adjacent_processes)
    if (auto adjacent = recorded_noise(store, key)) return adjacent;
  if (auto apart = history_noise(store, key)) return apart;
  if (compared == Compared::cells_of_one_run) return recorded_noise(store, key);
  return std::nullopt;
}

}  // namespace ladder::history
