#include "run_request.hpp"

#include <algorithm>
#include <random>

#include "builds.hpp"
#include "context.hpp"
#include "distributed.hpp"
#include "errors.hpp"
#include "parse.hpp"
#include "peers.hpp"
#include "registry.hpp"

namespace ladder {

Matrix requested_matrix(const RunArguments& args, const Matrix* resumed, const Topology& topology) {
  const std::string peers = args.peers.value_or(resumed ? resumed->peers : "");
  if (!peers.empty()) load_peers(peers);  // their cards join the registry before any tier is named
  Matrix matrix;
  if (resumed && !args.preset) {
    matrix = *resumed;
  } else {
    const Preset& preset = find_preset(args.preset.value_or("standard"));
    for (const auto& tier : tiers()) matrix.tiers.push_back(tier.card.id);
    for (const auto& peer : loaded_peers()) matrix.tiers.push_back(peer.card.id);
    matrix.python_limit = preset.python_limit;
    matrix.integrands = {integrands().front().name};
    matrix.sizes = preset.sizes;
    for (const auto& step : thread_ladder(topology)) matrix.threads.push_back(step.threads);
    matrix.repetitions = preset.repetitions;
    matrix.min_time = preset.min_time;
    matrix.min_warmup_time = preset.min_warmup_time;
    matrix.seed = resumed ? resumed->seed : std::random_device{}();
    matrix.cpus = topology.hardware_threads();
    matrix.ranks = matrix.cpus >= 2 ? std::vector<int>{1, 2} : std::vector<int>{1};
  }
  if (!args.tiers.empty()) {
    matrix.tiers.clear();
    bool named_a_peer = false;
    for (const auto& id : args.tiers) {
      find_card(id);  // throws, listing the known tiers and peers
      named_a_peer = find_peer(id) || named_a_peer;
      if (std::find(matrix.tiers.begin(), matrix.tiers.end(), id) == matrix.tiers.end())
        matrix.tiers.push_back(id);
    }
    if (!peers.empty() && !named_a_peer)  // --peers with C++ tiers named: every peer joins them
      for (const auto& peer : loaded_peers()) matrix.tiers.push_back(peer.card.id);
  }
  matrix.peers = peers;
  if (args.python_limit) matrix.python_limit = parse_size(*args.python_limit);
  if (args.integrand) matrix.integrands = parse_integrands(*args.integrand);
  if (args.a) matrix.a = parse_real("a", *args.a);
  if (args.b) matrix.b = parse_real("b", *args.b);
  if (!args.sizes.empty()) {
    matrix.sizes.clear();
    for (const auto& text : args.sizes) matrix.sizes.push_back(parse_size(text));
    std::sort(matrix.sizes.begin(), matrix.sizes.end());
    matrix.sizes.erase(std::unique(matrix.sizes.begin(), matrix.sizes.end()), matrix.sizes.end());
  }
  if (!args.threads.empty()) {
    matrix.threads.clear();
    const int hardware_threads = topology.hardware_threads();
    for (const auto& text : args.threads) {
      if (text == "all") {
        for (int count = 1; count <= hardware_threads; ++count) matrix.threads.push_back(count);
      } else if (text == "cores") {
        matrix.threads.push_back(topology.cores);
      } else if (text == "smt") {
        matrix.threads.push_back(hardware_threads);
      } else {
        const int count = parse_threads(text);
        if (count > hardware_threads && args.hostfile.empty())  // with a hostfile, threads run on its nodes
          throw InputError("--threads " + text + " is more than the " + std::to_string(hardware_threads) +
                           " hardware threads of " + topology.describe() + "; thread counts go from 1 to " +
                           std::to_string(hardware_threads) + ", or all, cores (" +
                           std::to_string(topology.cores) + ") and smt (" + std::to_string(hardware_threads) +
                           ")");
        matrix.threads.push_back(count);
      }
    }
    std::sort(matrix.threads.begin(), matrix.threads.end());
    matrix.threads.erase(std::unique(matrix.threads.begin(), matrix.threads.end()), matrix.threads.end());
  }
  if (args.repetitions) {
    if (*args.repetitions < 1 || *args.repetitions > 1000)
      throw InputError("--reps " + std::to_string(*args.repetitions) +
                       " is out of range; repetitions are a whole number from 1 to 1000");
    matrix.repetitions = *args.repetitions;
  }
  if (args.min_time) {
    if (!(*args.min_time > 0 && *args.min_time <= 100))
      throw InputError(
          "--min-time " + std::to_string(*args.min_time) +
          " is out of range; it is the seconds a repetition runs at least, above 0 and at most 100");
    matrix.min_time = *args.min_time;
    matrix.min_warmup_time = std::min(matrix.min_warmup_time, *args.min_time);
  }
  if (args.seed) matrix.seed = *args.seed;
  if (!args.ranks.empty()) {
    if (!distributed::built())
      throw InputError("--ranks: this build has no distributed tier (MPI was not found when it was built)");
    matrix.ranks.clear();
    for (const auto& text : args.ranks) matrix.ranks.push_back(parse_count("ranks", text));
    std::sort(matrix.ranks.begin(), matrix.ranks.end());
    matrix.ranks.erase(std::unique(matrix.ranks.begin(), matrix.ranks.end()), matrix.ranks.end());
    matrix.ranks_given = true;
  }
  if (args.reproducible) matrix.reproducible = true;
  if (!args.compilers.empty() || !args.arches.empty()) {
    matrix.builds.clear();
    for (const auto& spec : parse_builds(args.compilers, args.arches)) matrix.builds.push_back(spec.id());
  }
  if (matrix.tiers.empty()) throw InputError("no tiers to run");
  return matrix;
}

}  // namespace ladder
