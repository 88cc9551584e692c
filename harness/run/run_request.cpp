// The options parsed once, and the matrix they make (run_request.hpp).
#include "run_request.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <random>

#include "context.hpp"
#include "distributed.hpp"
#include "errors.hpp"
#include "output_directory.hpp"
#include "parse.hpp"
#include "peers.hpp"
#include "quote.hpp"
#include "registry.hpp"
#include "remeasure.hpp"
#include "text.hpp"

namespace ladder {
namespace {

template <typename T>
void sort_unique(std::vector<T>& values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
}

std::uint64_t parse_seed(const std::string& text) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size())
    throw InputError("--seed '" + quote_text(text) + "' is not a whole number from 0 to 2^64 - 1");
  return value;
}

// --remeasure: a whole number from 0 to most_remeasure; empty: the default.
int parse_remeasure(const std::string& text) {
  if (text.empty()) return default_remeasure;
  int times = -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), times);
  if (error != std::errc() || end != text.data() + text.size() || times < 0 || times > most_remeasure)
    throw InputError(
        "--remeasure '" + quote_text(text) + "' is not a whole number from 0 to " +
        std::to_string(most_remeasure) +
        ": the rounds a cell may run again at the end of the run in place of disturbed ones (default " +
        std::to_string(default_remeasure) + "; 0 measures no round again)");
  return times;
}

std::optional<std::string> given(const std::string& text) {
  return text.empty() ? std::nullopt : std::optional<std::string>(text);
}

// The options that shape the matrix: sizes, threads, ranks, repetitions, minimum time, integrands.
void parse_matrix_options(const RunArguments& args, RunRequest& request) {
  if (!args.python_limit.empty()) request.python_limit = parse_size(args.python_limit);
  if (!args.integrand.empty()) request.integrands = parse_integrands(args.integrand);
  if (!args.a.empty()) request.a = parse_real("a", args.a);
  if (!args.b.empty()) request.b = parse_real("b", args.b);
  check_interval(request.a.value_or(0.0), request.b.value_or(1.0));  // the matrix's defaults: 0 and 1
  for (const auto& text : args.sizes) request.sizes.push_back(parse_size(text));
  sort_unique(request.sizes);
  for (const auto& text : args.threads) request.threads.push_back(parse_threads_word(text));
  if (args.repetitions && (*args.repetitions < 1 || *args.repetitions > 1000))
    throw InputError("--reps " + std::to_string(*args.repetitions) +
                     " is out of range; repetitions are a whole number from 1 to 1000");
  request.repetitions = args.repetitions;
  if (args.rounds && (*args.rounds < 1 || *args.rounds > max_rounds))
    throw InputError("--rounds " + std::to_string(*args.rounds) +
                     " is out of range; rounds are a whole number of worker processes a cell from 1 to " +
                     std::to_string(max_rounds) + " (default " + std::to_string(default_rounds) + ")");
  request.rounds = args.rounds;
  if (args.min_time && !(*args.min_time > 0 && *args.min_time <= 100))
    throw InputError(
        "--min-time " + format_number("%g", *args.min_time) +
        " is out of range; it is the seconds a repetition runs at least, above 0 and at most 100");
  request.min_time = args.min_time;
  if (!args.seed.empty()) request.seed = parse_seed(args.seed);
  if (!args.ranks.empty()) {
    if (!distributed::built())
      throw InputError("--ranks: this build has no distributed tier (MPI was not found when it was built)");
    for (const auto& text : args.ranks) request.ranks.push_back(parse_count("ranks", text));
    sort_unique(request.ranks);
  }
  if (!args.compilers.empty() || !args.arches.empty())
    request.builds = parse_builds(args.compilers, args.arches);
}

// The matrix's thread counts for --threads on this topology.
std::vector<int> thread_counts(const RunRequest& request, const Topology& topology) {
  const int hardware_threads = topology.hardware_threads();
  std::vector<int> counts;
  for (const auto& wanted : request.threads) {
    switch (wanted.kind) {
      case ThreadsWanted::Kind::all:
        for (int count = 1; count <= hardware_threads; ++count) counts.push_back(count);
        break;
      case ThreadsWanted::Kind::cores:
        counts.push_back(topology.cores);
        break;
      case ThreadsWanted::Kind::smt:
        counts.push_back(hardware_threads);
        break;
      case ThreadsWanted::Kind::count:
        if (wanted.count > hardware_threads && request.hostfile.empty())  // a hostfile's hosts run them
          throw InputError("--threads " + quote_text(wanted.text) + " is more than the " +
                           std::to_string(hardware_threads) + " hardware threads of " + topology.describe() +
                           "; thread counts go from 1 to " + std::to_string(hardware_threads) +
                           ", or all, cores (" + std::to_string(topology.cores) + ") and smt (" +
                           std::to_string(hardware_threads) + ")");
        counts.push_back(wanted.count);
        break;
    }
  }
  sort_unique(counts);
  return counts;
}

// The preset's matrix (or the resumed run's, when no preset is named) on this topology.
Matrix base_matrix(const RunRequest& request, const Matrix* resumed, const Topology& topology) {
  if (resumed && !request.preset) return *resumed;
  Matrix matrix;
  const Preset& preset = find_preset(request.preset.value_or("standard"));
  for (const auto& tier : tiers()) matrix.tiers.push_back(tier.card.id);
  for (const auto& peer : loaded_peers()) matrix.tiers.push_back(peer.card.id);
  matrix.python_limit = preset.python_limit;
  matrix.integrands = {integrands().front().name};
  matrix.sizes = preset.sizes;
  for (const auto& step : thread_ladder(topology)) matrix.threads.push_back(step.threads);
  matrix.repetitions = preset.repetitions;
  matrix.rounds = default_rounds;
  matrix.min_time = preset.min_time;
  matrix.min_warmup_time = preset.min_warmup_time;
  matrix.seed = resumed ? resumed->seed : std::random_device{}();
  matrix.cpus = topology.hardware_threads();
  matrix.ranks = matrix.cpus >= 2 ? std::vector<int>{1, 2} : std::vector<int>{1};
  return matrix;
}

}  // namespace

ThreadsWanted parse_threads_word(const std::string& text) {
  using Kind = ThreadsWanted::Kind;
  if (text == "all") return {Kind::all, 0, text};
  if (text == "cores") return {Kind::cores, 0, text};
  if (text == "smt") return {Kind::smt, 0, text};
  return {Kind::count, parse_threads(text), text};
}

RunRequest parse_request(const RunArguments& args) {
  RunRequest request;
  request.preset = given(args.preset);
  request.tiers = args.tiers;
  parse_matrix_options(args, request);
  request.reproducible = args.reproducible;
  // No --out: a new folder of its own (a resumed run writes into the folder it resumes).
  request.out = !args.out.empty() || !args.resume.empty() ? args.out : new_run_directory();
  request.resume = given(args.resume);
  request.force = args.force;
  request.label = args.label;
  request.hostfile = args.hostfile;
  request.peers = given(args.peers);
  request.cell_timeout = args.cell_timeout;
  if (!args.budget.empty()) request.budget = Budget{args.budget, parse_duration(args.budget)};
  request.instructions = args.instructions;
  request.limits = args.limits;
  // Ladder's probes by default: likwid-bench calibrates its clock for about a second at each start, which
  // would add half a minute to every run (scripts/bench-limits compares the two).
  if (!args.limits_tool.empty()) request.limits_tool = parse_limits_tool(args.limits_tool);
  request.remeasure = parse_remeasure(args.remeasure);
  request.test_disturbed = parse_test_disturbance(std::getenv("LADDER_TEST_DISTURB"));
  request.command_line = args.command_line;
  return request;
}

Matrix requested_matrix(const RunRequest& request, const Matrix* resumed, const Topology& topology) {
  const std::string peers = request.peers.value_or(resumed ? resumed->peers : "");
  if (!peers.empty()) load_peers(peers);  // their cards join the registry before any tier is named
  Matrix matrix = base_matrix(request, resumed, topology);
  if (!request.tiers.empty()) {
    matrix.tiers.clear();
    bool named_a_peer = false;
    for (const auto& id : request.tiers) {
      find_card(id);  // throws, listing the known tiers and peers
      named_a_peer = find_peer(id) || named_a_peer;
      if (std::find(matrix.tiers.begin(), matrix.tiers.end(), id) == matrix.tiers.end())
        matrix.tiers.push_back(id);
    }
    if (!peers.empty() && !named_a_peer)  // --peers with C++ tiers named: every peer joins them
      for (const auto& peer : loaded_peers()) matrix.tiers.push_back(peer.card.id);
  }
  matrix.peers = peers;
  if (request.python_limit) matrix.python_limit = *request.python_limit;
  if (request.integrands) matrix.integrands = *request.integrands;
  if (request.a) matrix.a = *request.a;
  if (request.b) matrix.b = *request.b;
  if (!request.sizes.empty()) matrix.sizes = request.sizes;
  if (!request.threads.empty()) matrix.threads = thread_counts(request, topology);
  if (request.repetitions) matrix.repetitions = *request.repetitions;
  if (request.rounds) matrix.rounds = *request.rounds;
  if (request.min_time) {
    matrix.min_time = *request.min_time;
    matrix.min_warmup_time = std::min(matrix.min_warmup_time, *request.min_time);
  }
  if (request.seed) matrix.seed = *request.seed;
  if (!request.ranks.empty()) {
    matrix.ranks = request.ranks;
    matrix.ranks_given = true;
  }
  if (request.reproducible) matrix.reproducible = true;
  if (!request.builds.empty()) {
    matrix.builds.clear();
    for (const auto& spec : request.builds) matrix.builds.push_back(spec.id());
  }
  if (matrix.tiers.empty()) throw InputError("no tiers to run");
  return matrix;
}

}  // namespace ladder
