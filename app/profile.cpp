// `ladder profile`: a tier's kernel line by line, each source line's share of its instructions; or, with
// --peer, a pure-Python peer line by line, each line's share of the time and its memory increment.
#include <cstdio>
#include <filesystem>

#include "atomic_file.hpp"
#include "commands.hpp"
#include "parse.hpp"
#include "profile_python.hpp"
#include "profiling.hpp"
#include "quote.hpp"
#include "registry.hpp"

namespace ladder::app {
namespace {

struct ProfileArguments {
  std::string tier, peer, save;
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
  const Interval interval = parsed_interval(args.interval);  // bad input before an unavailable valgrind
  if (n > 100'000'000)
    throw InputError("--n " + quote_text(n_text) +
                     " is too large to run under valgrind (about 50 times slower); use at most 1e8");
  if (hot < 1) throw InputError("--hot " + std::to_string(hot) + " must be at least 1");
  if (tier.card.distributed)
    throw InputError("tier '" + quote_text(id) +
                     "' is not in the profiling build: it runs under an MPI launcher");
  if (const auto reason = profiling::unavailable_reason(); !reason.empty())
    throw Unavailable("cannot profile: " + reason);
  const auto profile = profiling::profile_lines(id, integrand, interval.a, interval.b, n);
  std::fputs(profiling::render(profile, hot).c_str(), stdout);
  return 0;
}

// A pure-Python peer under line_profiler and memory_profiler; with --save, its profile kept in DIR too
// (python-profile-ID.json), where the report finds it beside the run's results.
int profile_peer_lines(const ProfileArguments& args) {
  const std::int64_t n = parse_size(args.n);
  if (args.hot < 1) throw InputError("--hot " + std::to_string(args.hot) + " must be at least 1");
  namespace fs = std::filesystem;
  std::error_code error;
  if (!args.save.empty() && !fs::is_directory(args.save, error))
    throw InputError("--save '" + quote_text(args.save) +
                     "' is not a directory; give the run's output directory, where its results.json is");
  const std::string integrand = integrands()[integrand_index(args.interval)].name;
  const Interval interval = parsed_interval(args.interval);
  const auto profile = profiling::profile_python(args.peer, integrand, interval.a, interval.b, n);
  std::fputs(profiling::render(profile, args.hot).c_str(), stdout);
  if (!args.save.empty()) {
    const std::string file = (fs::path(args.save) / python_profile_file_name(profile.peer)).string();
    write_file_atomically(file, nlohmann::json(profile).dump(1) + "\n");
    std::printf("saved to %s: the report shows it beside the run's results\n", file.c_str());
  }
  return 0;
}

int profile_lines(const ProfileArguments& args) {
  if (args.tier.empty() == args.peer.empty())
    throw InputError(args.tier.empty() ? "give a tier (`ladder profile xsimd`) or a pure-Python peer "
                                         "(`ladder profile --peer py-list`)"
                                       : "give a tier or --peer, not both ('" + quote_text(args.tier) +
                                             "' and --peer '" + quote_text(args.peer) + "')");
  if (!args.save.empty() && args.peer.empty())
    throw InputError("--save keeps a Python peer's profile; it goes with --peer");
  return args.peer.empty() ? profile_tier_lines(args) : profile_peer_lines(args);
}

}  // namespace

Command add_profile(CLI::App& app) {
  auto args = std::make_shared<ProfileArguments>();
  auto* profile = app.add_subcommand(
      "profile",
      "a tier's kernel line by line: each source line's share of its instructions (callgrind); or a "
      "pure-Python peer's share of the time and memory increment a line (line_profiler, memory_profiler)");
  profile->add_option("tier", args->tier, "tier id (see `ladder list`)");
  profile->add_option("--peer", args->peer,
                      "a pure-Python peer instead of a tier (py-list, py-generator, …)");
  profile->add_option("--save", args->save,
                      "with --peer: also write python-profile-ID.json into this directory (a run's output "
                      "directory, for its report)");
  profile->add_option("--n", args->n, "number of nodes (default 1e5)");
  add_interval_options(profile, args->interval);
  profile->add_option("--hot", args->hot, "how many of the hottest lines to mark (default 3)");
  return {profile, [args] { return profile_lines(*args); }};
}

}  // namespace ladder::app
