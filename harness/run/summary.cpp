#include "summary.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "results.hpp"
#include "text.hpp"

namespace ladder {

void print_summary(const Journal& journal, const RunRecord& run, const Paths& paths) {
  // The integrands in the matrix's order; a column of their own when there are several.
  std::vector<std::string> integrands;
  for (const auto& record : journal.cells)
    if (std::find(integrands.begin(), integrands.end(), record.integrand) == integrands.end())
      integrands.push_back(record.integrand);
  const std::vector<std::string> ordered =
      journal.header ? journal.header->matrix.integrands : std::vector<std::string>{};
  const auto place = [&](const std::string& integrand) {
    const auto found = std::find(ordered.begin(), ordered.end(), integrand);
    return found != ordered.end() ? found - ordered.begin() : static_cast<std::ptrdiff_t>(ordered.size());
  };
  std::size_t width = 9;
  for (const auto& integrand : integrands) width = std::max(width, integrand.size());
  const bool several = integrands.size() > 1;
  const auto integrand_column = [&](const std::string& text) {
    return several ? text + std::string(width + 1 - text.size(), ' ') : std::string();
  };
  std::printf("\n%-16s %s%12s %7s %5s  %-13s %11s %11s %10s %11s\n", "tier",
              integrand_column("integrand").c_str(), "n", "threads", "ranks", "status", "median", "ns/node",
              "rel error", "peak heap");
  std::vector<const CellResult*> cells;
  for (const auto& record : journal.cells) cells.push_back(&record);
  std::sort(cells.begin(), cells.end(), [&](const CellResult* x, const CellResult* y) {
    const auto key = [&](const CellResult* e) {
      return std::make_tuple(place(e->integrand), e->integrand, e->n, e->rung, e->ranks, e->threads);
    };
    return key(x) < key(y);
  });
  for (const CellResult* record : cells) {
    const CellKey& cell = *record;
    std::string median = "-", per_node = "-", error = "-", heap = "-";
    if (record->measurement) {
      const Measurement& measurement = *record->measurement;
      const double seconds = measurement.aggregates.median.real_time * 1e-9;
      median = format_seconds(seconds);
      per_node = format_number("%.3g", seconds * 1e9 / static_cast<double>(cell.n));
      if (measurement.rel_error) error = format_number("%.2e", *measurement.rel_error);
      heap = format_bytes(measurement.memory.peak_heap_bytes.value_or(0));
    }
    std::printf("%-16s %s%12lld %7d %5d  %-13s %11s %11s %10s %11s\n", cell.tier.c_str(),
                integrand_column(cell.integrand).c_str(), static_cast<long long>(cell.n), cell.threads,
                cell.ranks, std::string(to_string(record->status)).c_str(), median.c_str(), per_node.c_str(),
                error.c_str(), heap.c_str());
  }
  const auto found = warnings(journal, run);
  if (!found.empty()) std::printf("\nwarnings:\n");
  for (const auto& warning : found) {
    std::printf("  %s: %s\n", warning.kind.c_str(), warning.message.c_str());
    std::size_t shown = 0;
    for (const auto& cell : warning.cells) {
      if (++shown > 8) {
        std::printf("    … and %zu more (see results.json)\n", warning.cells.size() - 8);
        break;
      }
      std::printf("    %s\n", cell.c_str());
    }
  }
  if (run.this_session) {
    const double wall = run.this_session->wall_seconds, measured = run.this_session->measured_seconds;
    std::printf(
        "\ntime: %s wall, of which %s inside Google Benchmark's timed repetitions (%.0f %% harness: "
        "process start, warm-up, iteration sizing, the memory pass, the references)\n",
        format_seconds(wall).c_str(), format_seconds(measured).c_str(),
        wall > 0 ? 100 * (wall - measured) / wall : 0.0);
  }
  std::printf("\nresults: %s, %s (one row a cell), journal %s\n", paths.json.c_str(), paths.csv.c_str(),
              paths.journal.c_str());
}

}  // namespace ladder
