// The money model's options (reports/analysis/economics.hpp), declared once for the commands that answer with
// it: `ladder pick`, `ladder report` and `ladder run` (whose report is the same). Parsed and checked before
// anything runs: a bad price, horizon, deadline or costs file is an InputError naming it (exit 2).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "economics.hpp"

namespace ladder::app {

struct MoneyOptions {
  std::string costs, calls_per_day, core_hours_per_day, deadline, core_hour, engineer_day, horizon;
  std::string bus_factor;  // plain decimal digits, 1 to report::max_bus_factor
  std::vector<std::string> team_knows;

  // Declares --calls-per-day (or --core-hours-per-day), --deadline, --team-knows, --bus-factor,
  // --core-hour, --engineer-day, --horizon and --costs on `command`.
  void add(CLI::App* command);
  // Whether any of them was given.
  bool given() const;
  // The figures (the defaults, then the costs file, then the options) and the use; `current` is the rung
  // the team runs now (empty: by the report's rule). --team-knows is checked against the cards later, by
  // whoever has them.
  report::MoneyInputs inputs(const std::string& current = "") const;
};

}  // namespace ladder::app
