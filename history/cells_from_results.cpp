// cells_of: a results file's entries regrouped into StoredCell, one a cell, in the file's order.
#include "cells_from_results.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace ladder::history {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Instructions a node of (tier, integrand) in the file, when counted.
std::optional<double> instructions_of(const InstructionCounts& counts, const std::string& tier,
                                      const std::string& integrand) {
  if (!counts.available) return std::nullopt;
  if (counts.all.is_object() && counts.all.contains("by_integrand")) {
    const json& by = counts.all.at("by_integrand");
    if (!by.contains(integrand)) return std::nullopt;
    const json& tiers = by.at(integrand).value("tiers", json::object());
    if (tiers.contains(tier) && tiers.at(tier).contains("per_node") &&
        tiers.at(tier).at("per_node").is_number())
      return tiers.at(tier).at("per_node").get<double>();
    return std::nullopt;
  }
  if (counts.integrand != integrand && !counts.integrand.empty()) return std::nullopt;
  for (const auto& counted : counts.tiers)
    if (counted.id == tier) return counted.per_node;
  return std::nullopt;
}

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t half = values.size() / 2;
  return values.size() % 2 ? values[half] : (values[half - 1] + values[half]) / 2;
}

}  // namespace

// The file's cells, in order, from its entries (repetitions, aggregates, or the one entry of a cell that did
// not run).
std::vector<StoredCell> cells_of(const ResultsFile& file) {
  std::map<std::string, std::string> source_of_tier;
  for (const auto& card : file.tiers)  // a card names its file ("naive.cpp"), the sources by their path
    for (const auto& [source, digest] : file.context.tier_sources)
      if (!card.source_file.empty() && fs::path(source).filename() == fs::path(card.source_file).filename())
        source_of_tier[card.id] = digest;
  std::vector<StoredCell> cells;
  std::map<std::string, std::size_t> index;
  std::map<std::string, const BenchmarkEntry*> figures;  // the median entry, else the first
  for (const auto& entry : file.benchmarks) {
    auto [where, added] = index.emplace(entry.cell.empty() ? entry.name : entry.cell, cells.size());
    if (added) {
      StoredCell cell;
      cell.name = where->first;
      cell.tier = entry.coordinates.tier;
      cell.integrand = entry.coordinates.integrand;
      cell.n = entry.coordinates.n;
      cell.threads = entry.coordinates.threads;
      cell.ranks = entry.coordinates.ranks;
      cell.status = std::string(to_string(entry.status));
      cell.reason = entry.reason;
      cell.instructions_per_node = instructions_of(file.instructions, cell.tier, cell.integrand);
      if (const auto source = source_of_tier.find(cell.tier); source != source_of_tier.end())
        cell.tier_source_sha256 = source->second;
      cells.push_back(cell);
      figures[cell.name] = &entry;
    }
    StoredCell& cell = cells[where->second];
    if (entry.status != CellStatus::ok) continue;
    if (entry.run_type == "aggregate") {
      const std::string& name = entry.aggregate_name;
      if (name == "median") cell.median = entry.real_time, figures[cell.name] = &entry;
      if (name == "mean") cell.mean = entry.real_time;
      if (name == "min") cell.min = entry.real_time;
      if (name == "max") cell.max = entry.real_time;
      if (name == "stddev") cell.stddev = entry.real_time;
      if (name == "cv") cell.cv = entry.real_time;
    } else {
      cell.repetitions.push_back(entry.real_time);
      cell.cpu_repetitions.push_back(entry.cpu_time);
    }
  }
  for (auto& cell : cells) {
    const BenchmarkEntry& entry = *figures[cell.name];
    if (cell.status == "ok") {
      if (!cell.repetitions.empty()) {  // older files without some aggregates: from the repetitions
        if (!cell.median) cell.median = median_of(cell.repetitions);
        if (!cell.min) cell.min = *std::min_element(cell.repetitions.begin(), cell.repetitions.end());
        if (!cell.max) cell.max = *std::max_element(cell.repetitions.begin(), cell.repetitions.end());
      }
      cell.ns_per_node = entry.ns_per_node;
      cell.rel_error = entry.rel_error;
      cell.rounding_error = entry.rounding_error;
      cell.rounding_bound = entry.rounding_bound;
    }
    cell.peak_heap_bytes = entry.memory.peak_heap_bytes;
    cell.peak_rss_bytes = entry.memory.peak_rss_bytes;
    cell.allocations = entry.memory.allocations;
  }
  return cells;
}

}  // namespace ladder::history
