// A run's own noise from its cells' rounds (round_noise.hpp).
#include "round_noise.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "noise.hpp"
#include "text.hpp"

namespace ladder {

bool clean_round(const Round& round) { return round.clean(); }

std::string RoundNoise::source() const {
  return "measured in this run, " + std::to_string(rounds) + " rounds a cell: 95 % of its " +
         std::to_string(pairs) + " pairs of clean rounds" +
         (n > 0 ? " at n = " + format_count(static_cast<double>(n)) : std::string(" (every size)")) +
         format_number(" differ by less than %.1f %%", percent) + ", a cell's figure over " +
         std::to_string(rounds) + format_number(" rounds by less than %.1f %%", figure_percent);
}

double figure_floor_percent(double pair_percent, int rounds) {
  const double scale = std::sqrt(std::numbers::pi / (2.0 * std::max(1, rounds)));
  return 100 * std::expm1(std::log1p(pair_percent / 100) * std::min(1.0, scale));
}

std::vector<double> round_log_ratios(const std::vector<CellResult>& cells, std::int64_t n,
                                     RoundFilter counted) {
  std::vector<double> ratios;
  for (const CellResult& cell : cells) {
    if (!cell.ok() || (n > 0 && cell.n != n)) continue;
    std::vector<double> medians;
    for (const Round& round : cell.rounds)
      if (counted(round) && round.median_ns > 0) medians.push_back(round.median_ns);
    for (std::size_t i = 0; i < medians.size(); ++i)
      for (std::size_t j = i + 1; j < medians.size(); ++j)
        ratios.push_back(std::log(medians[j] / medians[i]));
  }
  return ratios;
}

std::optional<RoundNoise> round_noise(const std::vector<CellResult>& cells, std::int64_t n, int rounds,
                                      RoundFilter counted) {
  for (const std::int64_t size : {n, std::int64_t{0}}) {
    const std::vector<double> ratios = round_log_ratios(cells, size, counted);
    if (const auto floor = apart_noise_floor_percent(ratios))
      return RoundNoise{*floor, figure_floor_percent(*floor, rounds), static_cast<int>(ratios.size()), rounds,
                        size};
    if (size == 0) break;
  }
  return std::nullopt;
}

}  // namespace ladder
