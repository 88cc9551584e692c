#include "matrix.hpp"

#include <algorithm>
#include <random>

#include "registry.hpp"

namespace ladder {

std::string Cell::name() const {
  return tier + "/" + integrand + "/n:" + std::to_string(n) + "/threads:" + std::to_string(threads) +
         (find_tier(tier).card.distributed ? "/ranks:" + std::to_string(ranks) : "") +
         (reproducible ? "/reproducible" : "");
}

std::vector<Cell> Matrix::cells() const {
  std::vector<Cell> all;
  for (const auto& id : tiers) {
    const Tier& tier = find_tier(id);
    for (const auto n : sizes) {
      if (!tier.card.parallel) {
        all.push_back({id, integrand, a, b, n, 1, 1, false});
        continue;
      }
      const bool reproducible_here = reproducible && tier.card.reproducible != Reproducible::never;
      for (const int count : threads) {
        if (!tier.card.distributed) {
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
          {"integrand", integrand},
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

Matrix Matrix::from_json(const nlohmann::json& json) {
  Matrix matrix;
  json.at("tiers").get_to(matrix.tiers);
  json.at("integrand").get_to(matrix.integrand);
  json.at("a").get_to(matrix.a);
  json.at("b").get_to(matrix.b);
  json.at("sizes").get_to(matrix.sizes);
  json.at("threads").get_to(matrix.threads);
  json.at("ranks").get_to(matrix.ranks);
  json.at("ranks_given").get_to(matrix.ranks_given);
  json.at("cpus").get_to(matrix.cpus);
  json.at("reproducible").get_to(matrix.reproducible);
  json.at("repetitions").get_to(matrix.repetitions);
  json.at("min_time").get_to(matrix.min_time);
  json.at("min_warmup_time").get_to(matrix.min_warmup_time);
  json.at("seed").get_to(matrix.seed);
  matrix.peers = json.value("peers", "");
  matrix.python_limit = json.value("python_limit", std::int64_t{10'000'000});
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

const std::vector<Preset>& presets() {
  static const std::vector<Preset> all = {
      {"quick", {100'000, 1'000'000, 10'000'000}, 3, 0.01, 0.005, 1'000'000},
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
