// `ladder eval`: one integral with one tier, checked against the references.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <thread>

#include "build_info.hpp"
#include "commands.hpp"
#include "context.hpp"
#include "distributed.hpp"
#include "parse.hpp"
#include "reference.hpp"
#include "registry.hpp"
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

nlohmann::json optional_json(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

std::string optional_text(const std::optional<double>& value) {
  return value ? format_number("%+.3e", *value) : "undefined (the reference is 0 or unavailable)";
}

void evaluate(const EvalArguments& args) {
  const Tier& tier = find_tier(args.tier);
  const std::size_t integrand = integrand_index(args.interval);
  const Interval ab = parsed_interval(args.interval);
  const std::int64_t n = parse_size(args.n);
  const int threads = args.threads != "all" ? parse_threads(args.threads)
                      : tier.card.parallel
                          ? static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))
                          : 1;
  const RunOptions options{threads, args.reproducible};
  if (!args.ranks.empty() && !tier.card.distributed)
    throw InputError("--ranks " + args.ranks + ": tier '" + tier.card.id + "' is not distributed; only " +
                     "tiers that run under an MPI launcher take ranks");
  if (const auto reason = unavailable_reason(tier); !reason.empty())
    throw Unavailable("tier '" + tier.card.id + "' cannot run on this machine: " + reason);

  // A distributed tier: start again under the MPI launcher, once per rank (the inputs are checked above,
  // so no rank fails alone and leaves the others waiting). Rank 0 prints; the others make its calls.
  if (tier.card.distributed && !distributed::launched()) {
    const int ranks = args.ranks.empty() ? 1 : parse_count("ranks", args.ranks);
    std::vector<std::string> command =
        distributed::launch_command(ranks, threads, logical_cpus(), {}, physical_cores());
    command.insert(command.end(), args.command_line.begin(), args.command_line.end());
    std::vector<char*> arguments;
    for (auto& argument : command) arguments.push_back(argument.data());
    arguments.push_back(nullptr);
    std::fflush(stdout);
    execv(arguments[0], arguments.data());
    throw Unavailable("cannot start the MPI launcher '" + command[0] + "': " + std::strerror(errno));
  }
  const bool lead = tier.card.distributed;
  if (lead && distributed::rank() != 0) {
    distributed::follow([&](std::int64_t nodes) { integrate(tier, integrand, ab, nodes, options); });
    distributed::finish();
    return;
  }

  const auto start = std::chrono::steady_clock::now();
  if (lead) distributed::announce(n);
  const double result = integrate(tier, integrand, ab, n, options);
  const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
  const int ranks = lead ? distributed::size() : 1;
  if (lead) {
    distributed::stop();
    distributed::finish();
  }

  const auto& info = integrands()[integrand];
  const Reference ref = reference(info, ab, n);
  const double bound = rounding_bound(tier.card, ref, n, options.threads);
  Measurement checked;  // the errors as a run records them: null against a reference that is absent
  record_reference(checked, result, ref, bound);
  const std::optional<double> abs_error =
      ref.exact && std::isfinite(result - *ref.exact)
          ? std::optional<double>(static_cast<double>(result - *ref.exact))
          : std::nullopt;
  const std::optional<double> rounding_abs =
      std::isfinite(result - ref.midpoint) ? std::optional<double>(static_cast<double>(result - ref.midpoint))
                                           : std::nullopt;

  if (args.json) {
    const nlohmann::json out = {
        {"tier", tier.card.id},
        {"integrand", info.name},
        {"a", ab.a},
        {"b", ab.b},
        {"n", n},
        {"threads", options.threads},
        {"ranks", ranks},
        {"reproducible_requested", options.reproducible},
        {"result", std::isfinite(result) ? nlohmann::json(result) : nlohmann::json(nullptr)},
        {"exact", optional_json(checked.exact)},
        {"exact_method", ref.exact_method},
        {"exact_error_estimate", optional_json(checked.exact_error_estimate)},
        {"rel_error", optional_json(checked.rel_error)},
        {"abs_error", optional_json(abs_error)},
        {"midpoint", optional_json(checked.midpoint)},
        {"midpoint_method", ref.midpoint_method},
        {"rounding_error", optional_json(checked.rounding_error)},
        {"rounding_abs_error", optional_json(rounding_abs)},
        {"rounding_bound", bound},
        {"within_bound", checked.within_rounding_bound},
        {"reference_notes", ref.notes},
        {"seconds", seconds.count()},
        {"build", build_json()}};
    std::cout << out.dump(2) << "\n";
    return;
  }
  std::printf("tier            %s (rung %d)\n", tier.card.id.c_str(), tier.card.rung);
  std::printf("integrand       %s%s on [%.17g, %.17g] (%s)\n", info.name.c_str(),
              info.formula.empty() ? "" : (" = " + info.formula).c_str(), ab.a, ab.b, info.source.c_str());
  std::printf("n, threads      %lld, %d%s\n", static_cast<long long>(n), options.threads,
              lead ? (", ranks " + std::to_string(ranks)).c_str() : "");
  std::printf("result          %.17g\n", result);
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
  if (rounding_abs)
    std::printf("rounding        |result - midpoint sum| = %.3e, bound %.3e: %s\n", std::fabs(*rounding_abs),
                bound, checked.within_rounding_bound ? "within" : "OUTSIDE THE BOUND");
  else
    std::printf("rounding        not checked: the result or the midpoint sum is not finite\n");
  for (const auto& note : ref.notes) std::printf("warning         %s\n", note.c_str());
  std::printf("time            %.6f s (one call, including any first-call start-up)\n", seconds.count());
  const auto& build = build_info();
  std::printf("build           %s, %s%s, SIMD %s (%d doubles per batch)\n", build.compiler.c_str(),
              build.common_flags.c_str(),
              tier.card.flags.empty() ? "" : (" " + join(tier.card.flags, " ")).c_str(),
              build.instruction_set.c_str(), build.simd_width);
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
      "threads, for parallel tiers (default 1; all: every core for a parallel tier, 1 otherwise)");
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
