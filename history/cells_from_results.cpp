// cells_of: a results file's records (CellResult) as the store keeps them, StoredCell, one a cell, in the
// file's order.
#include "cells_from_results.hpp"

#include <filesystem>
#include <map>
#include <string>

#include "errors.hpp"
#include "quote.hpp"
#include "remeasured_checks.hpp"
#include "text.hpp"

namespace ladder::history {

namespace fs = std::filesystem;

namespace {

// Refuses a measured cell whose median or a repetition is no call's time (remeasured_checks.hpp's range):
// a file whose times were scaled by 1e300 or 1e-300 would become a series' point and its noise.
void check_times(const ResultsFile& file, const CellResult& cell) {
  const auto refuse = [&](const std::string& what, double ns) {
    throw InputError("results file '" + file.path + "': cell '" + quote_text(cell.name) + "': " + what + " " +
                     format_number("%g", ns) + " ns a call is not a measured time (a call takes " +
                     call_ns_range() + "): nothing of the run was recorded");
  };
  const Measurement& measured = *cell.measurement;
  if (!plausible_call_ns(measured.aggregates.median.real_time))
    refuse("its median", measured.aggregates.median.real_time);
  for (std::size_t i = 0; i < measured.repetitions.size(); ++i)
    if (!plausible_call_ns(measured.repetitions[i].real_time))
      refuse("its repetition " + std::to_string(i + 1), measured.repetitions[i].real_time);
}

}  // namespace

// The file's cells, in order, as the store keeps them.
std::vector<StoredCell> cells_of(const ResultsFile& file) {
  std::map<std::string, std::string> source_of_tier;
  for (const auto& card : file.tiers)  // a card names its file ("naive.cpp"), the sources by their path
    for (const auto& [source, digest] : file.context.source.tier_sources)
      if (!card.source_file.empty() && fs::path(source).filename() == fs::path(card.source_file).filename())
        source_of_tier[card.id] = digest;
  std::vector<StoredCell> cells;
  for (const CellResult& result : file.cells) {
    StoredCell cell;
    cell.coordinates() = result;
    cell.name = result.name, cell.build = result.build;
    cell.status = std::string(to_string(result.status));
    cell.reason = result.reason;
    cell.instructions_per_node = file.instructions.per_node(cell.tier, cell.integrand);
    cell.flops_per_node = file.instructions.flops_per_node(cell.tier, cell.integrand);
    if (const auto source = source_of_tier.find(cell.tier); source != source_of_tier.end())
      cell.tier_source_sha256 = source->second;
    if (result.ok()) {
      const Measurement& measured = *result.measurement;
      check_times(file, result);
      for (const auto& repetition : measured.repetitions) {
        cell.repetitions.push_back(repetition.real_time);
        cell.cpu_repetitions.push_back(repetition.cpu_time);
      }
      const Aggregates& times = measured.aggregates;
      cell.median = times.median.real_time, cell.mean = times.mean.real_time, cell.min = times.min.real_time;
      cell.max = times.max.real_time, cell.stddev = times.stddev.real_time, cell.cv = times.cv.real_time;
      cell.ns_per_node = result.ns_per_node();
      cell.rel_error = measured.rel_error;
      cell.rounding_error = measured.rounding_error;
      cell.rounding_bound = measured.rounding_bound;
      cell.peak_heap_bytes = measured.memory.peak_heap_bytes;
      cell.peak_rss_bytes = measured.memory.peak_rss_bytes;
      cell.allocations = measured.memory.allocations;
    }
    cells.push_back(std::move(cell));
  }
  return cells;
}

}  // namespace ladder::history
