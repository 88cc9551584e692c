// A cell's identity: the coordinates that name one measurement of the matrix. Every record of a cell embeds
// them (the run's CellKey, the history's StoredCell, SeriesKey and NoiseKey, a verdict's VerdictRow), so a
// record named in one layer is named in the next by passing its coordinates, never by copying them field by
// field. The build a cell ran in is not among them: a noise floor holds for any build of a cell, and the
// records that know the build keep it beside the coordinates.
#pragma once

#include <compare>
#include <cstdint>
#include <string>

#include "text.hpp"

namespace ladder {

struct CellCoordinates {
  std::string tier, integrand;
  std::int64_t n = 0;
  int threads = 1;
  int ranks = 1;  // processes, for a distributed tier (under the MPI launcher)

  // A record's coordinates, to name its cell in another record (`row.coordinates() = cell;`) or compare two
  // records' cells, whatever else each holds.
  CellCoordinates& coordinates() { return *this; }
  const CellCoordinates& coordinates() const { return *this; }

  auto operator<=>(const CellCoordinates&) const = default;
};

// A team's own benchmark, as `ladder ab --repo` keys it (harness/run/ab_bench.hpp's benchmark_cell): the tier
// is "repository 3f2a1b0c9d" (a space, which no tier of Ladder's has), the benchmark's name the integrand,
// n 0.
inline bool is_repository_benchmark(const CellCoordinates& cell) {
  return cell.n == 0 && cell.tier.rfind("repository ", 0) == 0;
}

// "simd/gauss/n:1e8/threads:2", "/ranks:2" added above one rank and "/build:gcc-native" for a cell of a run
// of several builds: the cell as the verdict outputs and `history show` name it; a repository's benchmark
// is "repository 3f2a1b0c9d/BM_name". (A results file's own cell names, Google Benchmark's, are the
// matrix's: harness/matrix/matrix.hpp.)
inline std::string coordinates_name(const CellCoordinates& cell, const std::string& build = "") {
  if (is_repository_benchmark(cell)) return cell.tier + "/" + cell.integrand;
  std::string name = cell.tier;
  if (!cell.integrand.empty()) name += "/" + cell.integrand;
  name += "/n:" + format_count(static_cast<double>(cell.n)) + "/threads:" + std::to_string(cell.threads);
  if (cell.ranks > 1) name += "/ranks:" + std::to_string(cell.ranks);
  if (!build.empty()) name += "/build:" + build;
  return name;
}

}  // namespace ladder
