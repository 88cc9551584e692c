// Repetitions and a cell's rounds as results.json and the journal carry them (cell_result.hpp's Round).
#include <algorithm>

#include "cell_result.hpp"

namespace ladder {

using nlohmann::json;

json repetitions_json(const std::vector<Repetition>& repetitions) {
  json out = json::array();
  for (const auto& repetition : repetitions)
    out.push_back({{"repetition_index", repetition.repetition_index},
                   {"iterations", repetition.iterations},
                   {"real_time", repetition.real_time},
                   {"cpu_time", repetition.cpu_time}});
  return out;
}

std::vector<Repetition> read_repetitions(const JsonReader& in) {
  std::vector<Repetition> repetitions;
  for (const auto& repetition : in.elements())
    repetitions.push_back({repetition.at("repetition_index").small_integer(),
                           repetition.at("iterations").integer(), repetition.at("real_time").number(),
                           repetition.at("cpu_time").number()});
  return repetitions;
}

void to_json(json& out, const Round& round) {
  out = {{"index", round.index},
         {"repetitions", repetitions_json(round.repetitions)},
         {"median_ns", round.median_ns},
         {"other_load_cores", round.other_load_cores},
         {"steal_fraction", round.steal_fraction},
         {"wall_seconds", round.wall_seconds ? json(*round.wall_seconds) : json(nullptr)},
         {"pid", round.pid},
         {"finished", round.finished},
         {"disturbed", round.disturbed}};
}

Round read_round(const JsonReader& in) {
  Round round;
  round.index = in.at("index").small_integer();
  if (round.index < 1) in.at("index").fail("a round's index is a whole number from 1");
  round.repetitions = read_repetitions(in.at("repetitions"));
  if (round.repetitions.empty()) in.at("repetitions").fail("a round has at least one repetition");
  round.median_ns = in.at("median_ns").number();
  round.other_load_cores = in.at("other_load_cores").number();
  round.steal_fraction = in.at("steal_fraction").number();
  round.wall_seconds = in.optional_number("wall_seconds");
  round.pid = static_cast<long>(in.at("pid").integer());
  round.finished = in.at("finished").string();
  round.disturbed = in.at("disturbed").strings();
  return round;
}

int CellResult::clean_rounds() const {
  return static_cast<int>(
      std::count_if(rounds.begin(), rounds.end(), [](const Round& r) { return r.clean(); }));
}

}  // namespace ladder
