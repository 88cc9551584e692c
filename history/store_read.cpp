// The store read back: its runs, a run's cells, the series and their points. Every column is read by the
// name the SELECT gives it (store_tables.hpp), never by its place.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <tuple>

#include "history_store.hpp"
#include "json_reader.hpp"
#include "sqlite.hpp"
#include "store_tables.hpp"

namespace ladder::history {
namespace {

using nlohmann::json;
using sqlite::Database;
using sqlite::Statement;

RecordedRun run_of(const Database& db, const Statement& row) {
  RecordedRun run;
  const std::int64_t id = row.integer("id");
  sqlite::read_fields(row, run_fields, run);
  const json libraries =
      parse_json_document(row.text("libraries"), "history run " + std::to_string(id) + "'s libraries");
  if (libraries.is_object())
    for (const auto& [name, version] : libraries.items())
      if (version.is_string()) run.libraries[name] = version.get<std::string>();
  Statement sources(db, "SELECT file, sha256 FROM tier_sources WHERE run = :run ORDER BY file");
  sources.bind(":run", id);
  while (sources.step()) run.tier_sources[sources.text("file")] = sources.text("sha256");
  Statement tiers(db,
                  "SELECT DISTINCT tier, (SELECT COUNT(*) FROM cells WHERE run = :run) AS cells FROM cells "
                  "WHERE run = :run ORDER BY tier");
  tiers.bind(":run", id);
  while (tiers.step()) {
    run.tiers.push_back(tiers.text("tier"));
    run.cells = static_cast<int>(tiers.integer("cells"));
  }
  return run;
}

// The columns cell_of reads, from `cells c`: the row's id (as cell_id) and every field.
std::string cell_columns(int version) {
  return "c.id AS cell_id, " + cells_select_list(version, cell_fields);
}

StoredCell cell_of(const Database& db, const Statement& row) {
  StoredCell cell;
  sqlite::read_fields(row, cell_fields, cell);
  Statement repetitions(db, "SELECT real_ns, cpu_ns FROM repetitions WHERE cell = :cell ORDER BY position");
  repetitions.bind(":cell", row.integer("cell_id"));
  while (repetitions.step()) {
    cell.repetitions.push_back(*repetitions.number("real_ns"));
    cell.cpu_repetitions.push_back(*repetitions.number("cpu_ns"));
  }
  return cell;
}

}  // namespace

std::vector<RecordedRun> Store::runs(const RunFilter& filter) const {
  const Database& db = *impl_->db;
  Statement query(db, "SELECT r.id AS id, r.libraries AS libraries, " + sqlite::select_list("r", run_fields) +
                          " FROM runs r WHERE (:machine = '' OR r.machine LIKE :machine || '%' OR "
                          "r.host = :machine) AND (:tier = '' OR EXISTS (SELECT 1 FROM cells c WHERE c.run = "
                          "r.id AND c.tier = :tier)) AND (:since = '' OR r.started >= :since) "
                          "ORDER BY r.started, r.id");
  query.bind(":machine", filter.machine).bind(":tier", filter.tier).bind(":since", filter.since);
  std::vector<RecordedRun> all;
  while (query.step()) all.push_back(run_of(db, query));
  return all;
}

std::optional<RecordedRun> Store::run(const std::string& run_id) const {
  const Database& db = *impl_->db;
  Statement query(db, "SELECT r.id AS id, r.libraries AS libraries, " + sqlite::select_list("r", run_fields) +
                          " FROM runs r WHERE r.run_id = :run_id");
  query.bind(":run_id", run_id);
  if (!query.step()) return std::nullopt;
  return run_of(db, query);
}

std::vector<StoredCell> Store::cells(const std::string& run_id) const {
  const Database& db = *impl_->db;
  Statement query(
      db, "SELECT " + cell_columns(impl_->version) +
              " FROM cells c JOIN runs r ON c.run = r.id WHERE r.run_id = :run_id ORDER BY c.position");
  query.bind(":run_id", run_id);
  std::vector<StoredCell> all;
  while (query.step()) all.push_back(cell_of(db, query));
  return all;
}

std::vector<SeriesKey> Store::series_keys(const std::string& tier) const {
  const Database& db = *impl_->db;
  Statement query(db, "SELECT DISTINCT " + cells_select_list(impl_->version, key_cell_fields) + ", " +
                          sqlite::select_list("r", key_run_fields) +
                          " FROM cells c JOIN runs r ON c.run = r.id WHERE c.status = 'ok' AND "
                          "(:tier = '' OR c.tier = :tier)");
  query.bind(":tier", tier);
  std::vector<SeriesKey> keys;
  while (query.step()) {
    SeriesKey key;
    sqlite::read_fields(query, key_cell_fields, key);
    sqlite::read_fields(query, key_run_fields, key);
    keys.push_back(std::move(key));
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

std::vector<SeriesPoint> Store::series(const SeriesKey& key) const {
  const Database& db = *impl_->db;
  Statement query(
      db, "SELECT " + cell_columns(impl_->version) + ", " + sqlite::select_list("r", point_run_fields) +
              " FROM cells c JOIN runs r ON c.run = r.id WHERE c.tier = :tier AND "
              "c.integrand = :integrand AND c.n = :n AND c.threads = :threads AND c.ranks = :ranks "
              "AND " +
              cells_build_column(impl_->version) +
              " = :build_id "
              "AND r.machine = :machine AND r.build = :build AND c.status = 'ok' "
              "ORDER BY r.started, r.id");
  sqlite::bind_fields(query, key_cell_fields, key);
  sqlite::bind_fields(query, key_run_fields, key);
  std::vector<SeriesPoint> points;
  while (query.step()) {
    SeriesPoint point;
    point.cell = cell_of(db, query);
    sqlite::read_fields(query, point_run_fields, point);
    points.push_back(std::move(point));
  }
  return points;
}

}  // namespace ladder::history
