#include "matrix.hpp"

#include <algorithm>
#include <random>

#include "errors.hpp"
#include "peers.hpp"
#include "quote.hpp"
#include "registry.hpp"
#include "text.hpp"

namespace ladder {

std::string cell_name(const CellKey& cell) {
  return cell.tier + "/" + cell.integrand + "/n:" + std::to_string(cell.n) +
         "/threads:" + std::to_string(cell.threads) +
         (find_card(cell.tier).distributed ? "/ranks:" + std::to_string(cell.ranks) : "") +
         (cell.reproducible_requested ? "/reproducible" : "") +
         (cell.build.empty() ? "" : "/build:" + cell.build);
}

// A peer with per-call sizes (cpp-extension) is measured at them too, on one thread, beside the C++ tier
// it wraps when that tier is in the matrix: at n = 1000 one call costs more than its loop, and the two
// medians' difference is what crossing from Python costs. A size the matrix has already adds nothing.
void Matrix::per_call_cells(std::vector<CellKey>& all) const {
  const auto has = [](const auto& list, const auto& item) {
    return std::find(list.begin(), list.end(), item) != list.end();
  };
  std::vector<CellKey> added;
  for (const auto& id : tiers) {
    const PeerCard* peer = find_peer(id);
    if (!peer) continue;
    std::vector<std::string> measured{id};
    if (!peer->beside.empty() && has(tiers, peer->beside)) measured.push_back(peer->beside);
    for (const auto& integrand : integrands)
      for (const auto n : peer->per_call_sizes)
        for (const auto& tier : measured) {
          const bool twice = std::any_of(added.begin(), added.end(), [&](const CellKey& cell) {
            return cell.tier == tier && cell.integrand == integrand && cell.n == n;
          });
          if (!has(sizes, n) && !twice)
            added.push_back({{tier, integrand, n, 1, 1},
                             a,
                             b,
                             false,
                             find_peer(tier) || builds.empty() ? "" : builds.front()});
        }
  }
  all.insert(all.end(), added.begin(), added.end());
}

std::vector<CellKey> Matrix::cells() const {
  std::vector<CellKey> all;
  // A peer is Python, built by no build of the matrix: its cells carry none.
  const std::vector<std::string> each_build = builds.empty() ? std::vector<std::string>{""} : builds;
  for (const auto& id : tiers) {
    const TierCard& card = find_card(id);
    const bool reproducible_here = card.parallel && reproducible && card.reproducible != Reproducible::never;
    for (const auto& build : find_peer(id) ? std::vector<std::string>{""} : each_build)
      for (const auto& integrand : integrands)
        for (const auto n : sizes) {
          if (!card.parallel) {
            all.push_back({{id, integrand, n, 1, 1}, a, b, false, build});
            continue;
          }
          for (const int count : threads) {
            if (!card.distributed) {
              all.push_back({{id, integrand, n, count, 1}, a, b, reproducible_here, build});
              continue;
            }
            for (const int processes : ranks)
              if (ranks_given || processes * count <= cpus)
                all.push_back({{id, integrand, n, count, processes}, a, b, reproducible_here, build});
          }
        }
  }
  per_call_cells(all);
  std::mt19937_64 order(seed);
  std::shuffle(all.begin(), all.end(), order);
  return all;
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
      throw InputError("--integrand '" + quote_text(list) +
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
  throw InputError("unknown preset '" + quote_text(name) + "'; presets: " + preset_names());
}

std::string preset_names() {
  std::vector<std::string> names;
  for (const auto& preset : presets()) names.push_back(preset.name);
  return join(names);
}

}  // namespace ladder
