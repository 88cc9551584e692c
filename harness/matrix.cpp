#include "matrix.hpp"

#include <algorithm>
#include <random>

#include "errors.hpp"
#include "peers.hpp"
#include "registry.hpp"
#include "text.hpp"

namespace ladder {

std::string cell_name(const CellKey& cell) {
  return cell.tier + "/" + cell.integrand + "/n:" + std::to_string(cell.n) +
         "/threads:" + std::to_string(cell.threads) +
         (find_card(cell.tier).distributed ? "/ranks:" + std::to_string(cell.ranks) : "") +
         (cell.reproducible_requested ? "/reproducible" : "");
}

std::vector<CellKey> Matrix::cells() const {
  std::vector<CellKey> all;
  for (const auto& id : tiers) {
    const TierCard& card = find_card(id);
    const bool reproducible_here = card.parallel && reproducible && card.reproducible != Reproducible::never;
    for (const auto& integrand : integrands)
      for (const auto n : sizes) {
        if (!card.parallel) {
          all.push_back({id, integrand, a, b, n, 1, 1, false});
          continue;
        }
        for (const int count : threads) {
          if (!card.distributed) {
            all.push_back({id, integrand, a, b, n, count, 1, reproducible_here});
            continue;
          }
          for (const int processes : ranks)
            if (ranks_given || processes * count <= cpus)
              all.push_back({id, integrand, a, b, n, count, processes, reproducible_here});
        }
      }
  }
  std::mt19937_64 order(seed);
  std::shuffle(all.begin(), all.end(), order);
  return all;
}

nlohmann::json Matrix::to_json() const {
  return {{"tiers", tiers},
          {"integrands", integrands},
          {"a", a},
          {"b", b},
          {"sizes", sizes},
          {"threads", threads},
          {"ranks", ranks},
          {"ranks_given", ranks_given},
          {"cpus", cpus},
          {"reproducible", reproducible},
          {"repetitions", repetitions},
          {"min_time", min_time},
          {"min_warmup_time", min_warmup_time},
          {"seed", seed},
          {"peers", peers},
          {"python_limit", python_limit}};
}

Matrix Matrix::from_json(const JsonReader& in) {
  Matrix matrix;
  matrix.tiers = in.at("tiers").strings();
  if (const auto several = in.find("integrands")) {
    matrix.integrands = several->strings();
    if (matrix.integrands.empty()) several->fail("expected at least one integrand, found none");
  } else {
    matrix.integrands = {in.at("integrand").string()};  // a run from before integrands were a dimension
  }
  matrix.a = in.at("a").number();
  matrix.b = in.at("b").number();
  for (const auto& size : in.at("sizes").elements()) matrix.sizes.push_back(size.integer());
  for (const auto& count : in.at("threads").elements()) matrix.threads.push_back(count.small_integer());
  matrix.ranks.clear();
  for (const auto& count : in.at("ranks").elements()) matrix.ranks.push_back(count.small_integer());
  matrix.ranks_given = in.at("ranks_given").boolean();
  matrix.cpus = in.at("cpus").small_integer();
  matrix.reproducible = in.at("reproducible").boolean();
  matrix.repetitions = in.at("repetitions").small_integer();
  matrix.min_time = in.at("min_time").number();
  matrix.min_warmup_time = in.at("min_warmup_time").number();
  const auto seed = in.at("seed");
  if (!seed.raw().is_number_unsigned() && !(seed.raw().is_number_integer() && seed.integer() >= 0))
    seed.fail("expected a whole number from 0 to 2^64 - 1, found " + seed.raw().dump());
  matrix.seed = seed.raw().get<std::uint64_t>();
  matrix.peers = in.string_or("peers", "");
  matrix.python_limit = in.integer_or("python_limit", 10'000'000);
  return matrix;
}

std::string Matrix::difference(const Matrix& x, const Matrix& y) {
  const auto left = x.to_json(), right = y.to_json();
  for (const auto& [key, value] : left.items())
    if (!right.contains(key) || right.at(key) != value)
      return key + ": " + value.dump() + " against " + (right.contains(key) ? right.at(key).dump() : "none");
  return {};
}

namespace {

std::string built_in_names() {
  std::vector<std::string> names;
  for (const auto& integrand : integrands())
    if (integrand.source == "built-in") names.push_back(integrand.name);
  return join(names);
}

}  // namespace

std::string unsupported_reason(std::string_view tier, std::string_view integrand) {
  const std::size_t index = find_integrand(integrand);
  if (find_peer(tier))  // scripts/peers/peers.py writes out the built-in integrands, no others
    return integrands()[index].source == "built-in"
               ? std::string()
               : "is a Python peer: it has the built-in integrands only (" + built_in_names() +
                     "), written out again in scripts/peers/peers.py";
  return unsupported_reason(find_tier(tier), index);
}

std::vector<std::string> parse_integrands(const std::string& list) {
  std::vector<std::string> names;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    const std::string name = list.substr(start, comma - start);
    if (name.empty())
      throw InputError("--integrand '" + list +
                       "' has an empty name; give names separated by commas: " + integrand_names());
    const std::string& known = integrands()[find_integrand(name)].name;  // throws, listing the known ones
    if (std::find(names.begin(), names.end(), known) == names.end()) names.push_back(known);
    if (comma == list.size()) break;
    start = comma + 1;
  }
  return names;
}

namespace {

const std::vector<Preset>& presets() {
  static const std::vector<Preset> all = {
      {"quick", {100'000, 10'000'000}, 3, 0.01, 0.005, 1'000'000},
      {"standard", {100'000, 1'000'000, 10'000'000, 100'000'000}, 10, 0.1, 0.05, 10'000'000},
      {"full", {100'000, 1'000'000, 10'000'000, 100'000'000, 1'000'000'000}, 20, 0.5, 0.2, 10'000'000},
  };
  return all;
}

}  // namespace

const Preset& find_preset(const std::string& name) {
  for (const auto& preset : presets())
    if (preset.name == name) return preset;
  throw InputError("unknown preset '" + name + "'; presets: " + preset_names());
}

std::string preset_names() {
  std::vector<std::string> names;
  for (const auto& preset : presets()) names.push_back(preset.name);
  return join(names);
}

}  // namespace ladder
