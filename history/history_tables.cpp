// `ladder history list` and `ladder history show`: the store's runs and series, as tables or JSON.
#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "errors.hpp"
#include "history_store.hpp"
#include "optional_json.hpp"
#include "quote.hpp"
#include "text.hpp"

namespace ladder::history {
namespace {

using nlohmann::json;

std::string short_hash(const std::string& hash) { return hash == "unknown" ? hash : hash.substr(0, 12); }

std::string time_text(const std::optional<double>& ns) {
  return ns ? format_seconds(*ns * 1e-9) : std::string("–");
}

json run_json(const RecordedRun& run) {
  return {{"run_id", run.run_id},
          {"results_path", run.results_path},
          {"recorded", run.recorded},
          {"started", run.started},
          {"finished", run.finished},
          {"label", run.label},
          {"status", run.status},
          {"git", {{"commit", run.git_commit}, {"branch", run.git_branch}, {"dirty", run.git_dirty}}},
          {"tier_sources", run.tier_sources},
          {"machine",
           {{"fingerprint", run.machine},
            {"host", run.host},
            {"cpu_model", run.cpu_model},
            {"logical_cpus", run.logical_cpus},
            {"physical_cores", run.physical_cores},
            {"memory_total_bytes", optional_json(run.memory_total_bytes)},
            {"topology", run.topology}}},
          {"build",
           {{"fingerprint", run.build_fingerprint},
            {"compiler", run.compiler},
            {"build_type", run.build_type},
            {"common_flags", run.common_flags},
            {"libraries", run.libraries}}},
          {"tiers", run.tiers},
          {"cells", run.cells}};
}

// Characters, not bytes, of UTF-8 text ("–" is one).
std::size_t display_width(const std::string& text) {
  std::size_t width = 0;
  for (const char byte : text) width += (static_cast<unsigned char>(byte) & 0xc0) != 0x80;
  return width;
}

// Rows of text in columns as wide as their widest entry.
void print_table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows)
    for (std::size_t i = 0; i < row.size(); ++i) {
      widths.resize(std::max(widths.size(), row.size()));
      widths[i] = std::max(widths[i], display_width(row[i]));
    }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(widths[i] - display_width(row[i]) + 2, ' ');
    }
    std::printf("%s\n", line.c_str());
  }
}

}  // namespace

void print_runs(const Store& store, const RunFilter& filter, bool as_json) {
  const auto runs = store.runs(filter);
  if (as_json) {
    json all = json::array();
    for (const auto& run : runs) all.push_back(run_json(run));
    std::printf("%s\n", dump_json(json({{"database", store.path()}, {"runs", all}}), 2).c_str());
    return;
  }
  std::vector<std::vector<std::string>> rows = {
      {"run", "started", "label", "commit", "branch", "dirty", "machine", "host", "cells"}};
  for (const auto& run : runs)
    rows.push_back({run.run_id.substr(0, 12), run.started, run.label.empty() ? "–" : run.label,
                    short_hash(run.git_commit), run.git_branch, run.git_dirty, run.machine.substr(0, 12),
                    run.host, std::to_string(run.cells)});
  std::printf("%s in %s\n", counted(static_cast<int>(runs.size()), "run", "runs").c_str(),
              store.path().c_str());
  if (!runs.empty()) print_table(rows);
}

void print_series(const Store& store, const SeriesQuery& query, bool as_json) {
  std::vector<SeriesKey> keys;
  for (const auto& key : store.series_keys(query.tier))
    if ((query.integrand.empty() || key.integrand == query.integrand) && (!query.n || key.n == *query.n) &&
        (!query.threads || key.threads == *query.threads))
      keys.push_back(key);
  if (keys.empty())
    throw InputError("history database '" + quote_text(store.path()) + "' holds no measured cell of tier '" +
                     quote_text(query.tier) + "'" +
                     (query.integrand.empty() ? "" : " for integrand '" + quote_text(query.integrand) + "'") +
                     (query.n ? " at n = " + std::to_string(*query.n) : "") +
                     (query.threads ? " with " + counted(*query.threads, "thread", "threads") : "") +
                     " (`ladder history list --tier " + quote_text(query.tier) +
                     "` shows the runs that have the tier)");
  std::map<std::string, RecordedRun> machines;  // a run of each machine, to describe it
  for (const auto& run : store.runs()) machines.emplace(run.machine + run.build_fingerprint, run);
  json all = json::array();
  for (const auto& key : keys) {
    const auto points = store.series(key);
    const RecordedRun& example = machines.at(key.machine + key.build_fingerprint);
    if (as_json) {
      json listed = json::array();
      for (const auto& point : points)
        listed.push_back({{"run_id", point.run_id},
                          {"started", point.started},
                          {"label", point.label},
                          {"git_commit", point.git_commit},
                          {"git_branch", point.git_branch},
                          {"git_dirty", point.git_dirty},
                          {"median_ns", optional_json(point.cell.median)},
                          {"min_ns", optional_json(point.cell.min)},
                          {"max_ns", optional_json(point.cell.max)},
                          {"repetitions_ns", point.cell.repetitions},
                          {"instructions_per_node", optional_json(point.cell.instructions_per_node)},
                          {"flops_per_node", optional_json(point.cell.flops_per_node)},
                          {"tier_source_sha256", point.cell.tier_source_sha256}});
      all.push_back({{"tier", key.tier},
                     {"integrand", key.integrand},
                     {"n", key.n},
                     {"threads", key.threads},
                     {"ranks", key.ranks},
                     {"machine", key.machine},
                     {"host", example.host},
                     {"build", key.build_fingerprint},
                     {"cell_build", key.build},
                     {"compiler", example.compiler},
                     {"common_flags", example.common_flags},
                     {"points", listed}});
      continue;
    }
    std::printf("%s on %s (machine %s), %s %s (build %s)\n", coordinates_name(key, key.build).c_str(),
                example.host.c_str(), key.machine.substr(0, 12).c_str(), example.compiler.c_str(),
                example.common_flags.c_str(), key.build_fingerprint.substr(0, 12).c_str());
    std::vector<std::vector<std::string>> rows = {
        {"run", "started", "commit", "dirty", "median", "min", "max", "instructions/node", "FLOPs/node"}};
    for (const auto& point : points)
      rows.push_back(
          {point.run_id.substr(0, 12), point.started, short_hash(point.git_commit), point.git_dirty,
           time_text(point.cell.median), time_text(point.cell.min), time_text(point.cell.max),
           point.cell.instructions_per_node ? format_number("%.2f", *point.cell.instructions_per_node) : "–",
           point.cell.flops_per_node ? format_number("%.2f", *point.cell.flops_per_node) : "–"});
    print_table(rows);
    std::printf("\n");
  }
  if (as_json) std::printf("%s\n", dump_json(json({{"database", store.path()}, {"series", all}}), 2).c_str());
}

}  // namespace ladder::history
