// `ladder eval`: one integral with one tier, checked against the references.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "build_info.hpp"
#include "commands.hpp"
#include "distributed.hpp"
#include "machine_topology.hpp"
#include "optional_json.hpp"
#include "parse.hpp"
#include "quote.hpp"
#include "reference.hpp"
#include "registry.hpp"
#include "run_request.hpp"
#include "text.hpp"
#include "worker.hpp"

namespace ladder::app {
namespace {

nlohmann::json build_json() {
  const auto& build = build_info();
  return {{"compiler", build.compiler},         {"build_type", build.build_type},
          {"common_flags", build.common_flags}, {"instruction_set", build.instruction_set},
          {"simd_width", build.simd_width},     {"ladder_version", build.ladder_version}};
}

struct EvalArguments {
  std::string tier;
  IntervalOptions interval;
  std::string n = "1e6", threads = "1", ranks;
  bool reproducible = false;
  bool json = false;
  std::vector<std::string> command_line;  // to start again under an MPI launcher
};

std::string optional_text(const std::optional<double>& value) {
  return value ? format_number("%+.3e", *value) : "undefined (the reference is 0 or unavailable)";
}

// One call of the tier, timed, and what it is checked against.
struct Evaluation {
  const Tier* tier = nullptr;
  std::size_t integrand = 0;
  Interval ab;
  std::int64_t n = 0;
  RunOptions options;
  int ranks = 1;  // the distributed tier's ranks; 1 for every other tier
  double result = 0;
  std::chrono::duration<double> seconds{};
  Reference ref;
  double bound = 0;
  Measurement checked;  // the errors as a run records them: null against a reference that is absent
  std::optional<double> abs_error, rounding_abs;
};

void print_json(const Evaluation& evaluation) {
  const Measurement& checked = evaluation.checked;
  const nlohmann::json out = {{"tier", evaluation.tier->card.id},
                              {"integrand", integrands()[evaluation.integrand].name},
                              {"a", evaluation.ab.a},
                              {"b", evaluation.ab.b},
                              {"n", evaluation.n},
                              {"threads", evaluation.options.threads},
                              {"ranks", evaluation.ranks},
                              {"reproducible_requested", evaluation.options.reproducible},
                              {"result", std::isfinite(evaluation.result) ? nlohmann::json(evaluation.result)
                                                                          : nlohmann::json(nullptr)},
                              {"exact", optional_json(checked.exact)},
                              {"exact_method", evaluation.ref.exact_method},
                              {"exact_error_estimate", optional_json(checked.exact_error_estimate)},
                              {"rel_error", optional_json(checked.rel_error)},
                              {"abs_error", optional_json(evaluation.abs_error)},
                              {"midpoint", optional_json(checked.midpoint)},
                              {"midpoint_method", evaluation.ref.midpoint_method},
                              {"rounding_error", optional_json(checked.rounding_error)},
                              {"rounding_abs_error", optional_json(evaluation.rounding_abs)},
                              {"rounding_bound", evaluation.bound},
                              {"within_bound", checked.within_rounding_bound},
                              {"reference_notes", evaluation.ref.notes},
                              {"seconds", evaluation.seconds.count()},
                              {"build", build_json()}};
  std::cout << out.dump(2) << "\n";
}

void print_text(const Evaluation& evaluation) {
  const Tier& tier = *evaluation.tier;
  const Reference& ref = evaluation.ref;
  const Measurement& checked = evaluation.checked;
  const auto& info = integrands()[evaluation.integrand];
  std::printf("tier            %s (rung %d)\n", tier.card.id.c_str(), tier.card.rung);
  std::printf("integrand       %s%s on [%.17g, %.17g] (%s)\n", info.name.c_str(),
              info.formula.empty() ? "" : (" = " + info.formula).c_str(), evaluation.ab.a, evaluation.ab.b,
              info.source.c_str());
  std::printf("n, threads      %lld, %d%s\n", static_cast<long long>(evaluation.n),
              evaluation.options.threads,
              tier.card.distributed ? (", ranks " + std::to_string(evaluation.ranks)).c_str() : "");
  std::printf("result          %.17g\n", evaluation.result);
  if (ref.exact)
    std::printf("exact           %.17Lg   relative error %s\n", *ref.exact,
                optional_text(checked.rel_error).c_str());
  else
    std::printf("exact           unavailable   relative error none\n");
  std::printf(
      "                from the %s%s\n", ref.exact_method.c_str(),
      ref.exact_error_estimate
          ? format_number(", error estimate %.2e", static_cast<double>(*ref.exact_error_estimate)).c_str()
          : "");
  std::printf("midpoint sum    %.17Lg   rounding error %s (%s)\n", ref.midpoint,
              optional_text(checked.rounding_error).c_str(), ref.midpoint_method.c_str());
  if (evaluation.rounding_abs)
    std::printf("rounding        |result - midpoint sum| = %.3e, bound %.3e: %s\n",
                std::fabs(*evaluation.rounding_abs), evaluation.bound,
                checked.within_rounding_bound ? "within" : "OUTSIDE THE BOUND");
  else
    std::printf("rounding        not checked: the result or the midpoint sum is not finite\n");
  for (const auto& note : ref.notes) std::printf("warning         %s\n", note.c_str());
  std::printf("time            %.6f s (one call, including any first-call start-up)\n",
              evaluation.seconds.count());
  const auto& build = build_info();
  std::printf("build           %s, %s%s, SIMD %s (%d doubles per batch)\n", build.compiler.c_str(),
              build.common_flags.c_str(),
              tier.card.flags.empty() ? "" : (" " + join(tier.card.flags, " ")).c_str(),
              build.instruction_set.c_str(), build.simd_width);
}

// --threads: a count, or `cores` or `smt` as `ladder run` reads them (every core, every hardware thread;
// 1 for a tier that is not parallel). `all` is run's list from 1 up, no one count: refused, naming both.
int eval_threads(const std::string& text, const Tier& tier) {
  const ThreadsWanted wanted = parse_threads_word(text);
  if (wanted.kind == ThreadsWanted::Kind::all)
    throw InputError(
        "--threads all is `ladder run`'s list (1 to every hardware thread); eval takes one count: "
        "a number, cores (every core) or smt (every hardware thread)");
  if (wanted.kind == ThreadsWanted::Kind::count) return wanted.count;
  if (!tier.card.parallel) return 1;
  const Topology topology = read_topology();
  return wanted.kind == ThreadsWanted::Kind::cores ? topology.cores : topology.hardware_threads();
}

// The call and its references; nullopt on a follower rank of a distributed tier, which prints nothing.
std::optional<Evaluation> evaluated(const EvalArguments& args) {
  Evaluation evaluation;
  const Tier& tier = find_tier(args.tier);
  evaluation.tier = &tier;
  evaluation.integrand = integrand_index(args.interval);
  evaluation.ab = parsed_interval(args.interval);
  evaluation.n = parse_size(args.n);
  evaluation.options = RunOptions{eval_threads(args.threads, tier), args.reproducible};
  if (!args.ranks.empty() && !tier.card.distributed)
    throw InputError("--ranks " + quote_text(args.ranks) + ": tier '" + tier.card.id +
                     "' is not distributed; only " + "tiers that run under an MPI launcher take ranks");
  if (const auto reason = unavailable_reason(tier); !reason.empty())
    throw Unavailable("tier '" + tier.card.id + "' cannot run on this machine: " + reason);

  // A distributed tier starts again under the MPI launcher, once per rank (the inputs are checked above,
  // so no rank fails alone and leaves the others waiting). Rank 0 prints; the others make its calls.
  if (tier.card.distributed && !distributed::launched())
    distributed::start_ranks(args.ranks.empty() ? 1 : parse_count("ranks", args.ranks),
                             evaluation.options.threads, args.command_line);
  const distributed::KernelCall one_call = [&](std::int64_t nodes) {
    return integrate(tier, evaluation.integrand, evaluation.ab, nodes, evaluation.options);
  };
  if (tier.card.distributed && distributed::follow_leader(one_call)) return std::nullopt;
  const distributed::KernelCall call = tier.card.distributed ? distributed::lead(one_call) : one_call;

  const auto start = std::chrono::steady_clock::now();
  evaluation.result = call(evaluation.n);
  evaluation.seconds = std::chrono::steady_clock::now() - start;
  if (tier.card.distributed) {
    evaluation.ranks = distributed::size();
    distributed::release_followers();
  }

  evaluation.ref = reference(integrands()[evaluation.integrand], evaluation.ab, evaluation.n);
  evaluation.bound = rounding_bound(tier.card, evaluation.ref, evaluation.n, evaluation.options.threads);
  record_reference(evaluation.checked, evaluation.result, evaluation.ref, evaluation.bound);
  if (evaluation.ref.exact && std::isfinite(evaluation.result - *evaluation.ref.exact))
    evaluation.abs_error = static_cast<double>(evaluation.result - *evaluation.ref.exact);
  if (std::isfinite(evaluation.result - evaluation.ref.midpoint))
    evaluation.rounding_abs = static_cast<double>(evaluation.result - evaluation.ref.midpoint);
  return evaluation;
}

void evaluate(const EvalArguments& args) {
  const auto evaluation = evaluated(args);
  if (!evaluation) return;
  if (args.json)
    print_json(*evaluation);
  else
    print_text(*evaluation);
}

}  // namespace

Command add_eval(CLI::App& app, const Invocation& invocation) {
  auto args = std::make_shared<EvalArguments>();
  args->command_line = invocation.arguments;
  auto* eval = app.add_subcommand("eval", "one integral with one tier, checked against the references");
  eval->add_option("--tier", args->tier, "tier id (see `ladder list`)")->required();
  add_interval_options(eval, args->interval);
  eval->add_option("--n", args->n, "number of nodes: 1000000, 1e6 or 2^20 (default 1e6)");
  eval->add_option(
      "--threads", args->threads,
      "threads, for parallel tiers: a count, cores (every core) or smt (every hardware thread), as `ladder "
      "run` reads them (default 1; a tier that is not parallel runs 1)");
  eval->add_option("--ranks", args->ranks, "MPI ranks, for a distributed tier (default 1)");
  eval->add_flag("--reproducible", args->reproducible,
                 "ask a parallel tier for the same bits at every thread count, where it can");
  eval->add_flag("--json", args->json, "one JSON object instead of text");
  return {eval, [args] {
            try {
              evaluate(*args);
            } catch (const std::bad_alloc&) {
              std::cerr << "ladder: out of memory: tier '" << args->tier
                        << "' could not allocate what it needs for n = " << args->n << "\n";
              return 1;
            } catch (const std::length_error&) {
              std::cerr << "ladder: n = " << args->n << " is more nodes than tier '" << args->tier
                        << "' can hold in memory\n";
              return 1;
            }
            return 0;
          }};
}

}  // namespace ladder::app
