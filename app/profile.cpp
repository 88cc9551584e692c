// `ladder profile`: a tier's kernel line by line, each source line's share of its instructions.
#include <cstdio>

#include "commands.hpp"
#include "parse.hpp"
#include "profiling.hpp"
#include "quote.hpp"
#include "registry.hpp"

namespace ladder::app {
namespace {

struct ProfileArguments {
  std::string tier;
  IntervalOptions interval;
  std::string n = "1e5";
  int hot = 3;
};

int profile_tier_lines(const ProfileArguments& args) {
  const std::string& id = args.tier;
  const std::string& n_text = args.n;
  const int hot = args.hot;
  const Tier& tier = find_tier(id);
  const std::string integrand = integrands()[integrand_index(args.interval)].name;
  const std::int64_t n = parse_size(n_text);
  if (n > 100'000'000)
    throw InputError("--n " + quote_text(n_text) +
                     " is too large to run under valgrind (about 50 times slower); use at most 1e8");
  if (hot < 1) throw InputError("--hot " + std::to_string(hot) + " must be at least 1");
  if (tier.card.distributed)
    throw InputError("tier '" + quote_text(id) +
                     "' is not in the profiling build: it runs under an MPI launcher");
  if (const auto reason = profiling::unavailable_reason(); !reason.empty())
    throw Unavailable("cannot profile: " + reason);
  const Interval interval = parsed_interval(args.interval);
  const auto profile = profiling::profile_lines(id, integrand, interval.a, interval.b, n);
  std::fputs(profiling::render(profile, hot).c_str(), stdout);
  return 0;
}

}  // namespace

Command add_profile(CLI::App& app) {
  auto args = std::make_shared<ProfileArguments>();
  auto* profile = app.add_subcommand(
      "profile", "a tier's kernel line by line: each source line's share of its instructions (callgrind)");
  profile->add_option("tier", args->tier, "tier id (see `ladder list`)")->required();
  profile->add_option("--n", args->n, "number of nodes (default 1e5)");
  add_interval_options(profile, args->interval);
  profile->add_option("--hot", args->hot, "how many of the hottest lines to mark (default 3)");
  return {profile, [args] { return profile_tier_lines(*args); }};
}

}  // namespace ladder::app
