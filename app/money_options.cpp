#include "money_options.hpp"

#include <algorithm>

#include "decision.hpp"
#include "errors.hpp"
#include "parse.hpp"
#include "quote.hpp"

namespace ladder::app {
namespace {

// The size of the job as an option gives it: a real number of `what`, 0 or more.
double at_least_zero(const std::string& option, const std::string& text, const std::string& what) {
  const double value = parse_real(option, text);
  if (!(value >= 0))
    throw InputError(option + " " + quote_text(text) + " is out of range; give a number of " + what +
                     " of 0 or more");
  return value;
}

// --bus-factor: plain decimal digits only (not 0x10, 007, " 5" or 1e3), from 1 to max_bus_factor.
int people(const std::string& text) {
  const bool digits =
      !text.empty() && text.size() <= 4 && text[0] != '0' &&
      std::all_of(text.begin(), text.end(), [](unsigned char c) { return c >= '0' && c <= '9'; });
  if (!digits || std::stoi(text) > report::max_bus_factor)
    throw InputError("--bus-factor '" + quote_text(text) +
                     "' is not a number of people; give a whole number of people, at least 1 and at most " +
                     std::to_string(report::max_bus_factor) + " in plain digits, e.g. 2");
  return std::stoi(text);
}

}  // namespace

void MoneyOptions::add(CLI::App* command) {
  command->add_option(
      "--calls-per-day", calls_per_day,
      "calls a day at the report's n: the money answer is then one tier (without: a usage map)");
  command->add_option("--core-hours-per-day", core_hours_per_day,
                      "instead of --calls-per-day: the core-hours a day the job holds on the current rung");
  command->add_option("--deadline", deadline, "the wall time one call must meet, e.g. 30ms");
  command
      ->add_option(
          "--team-knows", team_knows,
          "concepts and libraries the team knows, comma-separated, as `ladder list` names them or by "
          "their keys (openmp,xsimd,simd-batch-types): they cost it no learning")
      ->delimiter(',');
  command->add_option(
      "--bus-factor", bus_factor,
      "people who must know each tier, 1 to " + std::to_string(report::max_bus_factor) + " (default 1)");
  command->add_option("--core-hour", core_hour, "price of a core-hour in dollars (default 0.0425)");
  command->add_option("--engineer-day", engineer_day, "price of an engineer-day in dollars (default 800)");
  command->add_option("--horizon", horizon, "years the choice is for (default 3)");
  command->add_option("--costs", costs,
                      "a costs file of the model's figures: TOML (*.toml) or a JSON object");
}

bool MoneyOptions::given() const {
  return !costs.empty() || !calls_per_day.empty() || !core_hours_per_day.empty() || !deadline.empty() ||
         !core_hour.empty() || !engineer_day.empty() || !horizon.empty() || !bus_factor.empty() ||
         !team_knows.empty();
}

report::MoneyInputs MoneyOptions::inputs(const std::string& current) const {
  report::MoneyInputs money;
  if (!costs.empty()) money.figures = report::read_cost_figures(costs);
  if (!core_hour.empty()) money.figures.core_hour = parse_real("--core-hour", core_hour);
  if (!engineer_day.empty()) money.figures.engineer_day = parse_real("--engineer-day", engineer_day);
  if (!horizon.empty()) money.figures.horizon_years = parse_real("--horizon", horizon);
  if (!bus_factor.empty()) money.figures.bus_factor = people(bus_factor);
  if (!team_knows.empty()) money.figures.team_knows = team_knows;
  report::check_cost_figures(money.figures);
  if (!calls_per_day.empty() && !core_hours_per_day.empty())
    throw InputError("--calls-per-day " + quote_text(calls_per_day) + " and --core-hours-per-day " +
                     quote_text(core_hours_per_day) + " both size the job; give one");
  if (!calls_per_day.empty())
    money.usage.calls_per_day = at_least_zero("--calls-per-day", calls_per_day, "calls");
  if (!core_hours_per_day.empty())
    money.usage.core_hours_per_day = at_least_zero("--core-hours-per-day", core_hours_per_day, "core-hours");
  if (!deadline.empty()) money.usage.deadline_seconds = report::parse_deadline(deadline);
  money.usage.current = current;
  return money;
}

}  // namespace ladder::app
