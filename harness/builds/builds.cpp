#include "builds.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "atomic_file.hpp"
#include "build_info.hpp"
#include "build_steps.hpp"
#include "errors.hpp"
#include "json_reader.hpp"
#include "process.hpp"
#include "quote.hpp"
#include "registry.hpp"
#include "text.hpp"
#include "vectorization.hpp"

namespace ladder {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

struct Compiler {
  std::string name;                      // as --compilers takes it
  std::vector<std::string> executables;  // looked for on PATH, in this order
  std::string package;                   // Debian's
};

const std::vector<Compiler>& compilers() {
  static const std::vector<Compiler> all = {
      {"gcc", {"g++-12", "g++"}, "g++ (GCC 12, the default compiler)"},
      {"clang",
       {"clang++-16", "clang++"},
       "clang-16 and libomp-16-dev (scripts/install-deps.sh installs both)"}};
  return all;
}

const Compiler& find_compiler(const std::string& name) {
  for (const auto& compiler : compilers())
    if (compiler.name == name) return compiler;
  throw InputError("unknown compiler '" + quote_text(name) + "'; accepted: " + join(build_compilers()));
}

std::string compiler_executable(const Compiler& compiler) {
  for (const auto& program : compiler.executables)
    if (const auto found = on_path(program); !found.empty()) return found;
  throw InputError("compiler '" + compiler.name + "' is not installed (looked for " +
                   join(compiler.executables) + " on PATH): install Debian's " + compiler.package);
}

// What the CPU lacks to run code built for `target` (each level adds to the one below), or empty.
std::string cpu_lacks(const std::string& target) {
#if !defined(__x86_64__)
  return target == "native" ? "" : "an x86-64 CPU";  // the levels are x86-64's; this is another CPU
#else
  __builtin_cpu_init();
  const auto level =
      std::find(build_targets().rbegin(), build_targets().rend(), target) - build_targets().rbegin();
  std::vector<std::string> missing;
  const auto need = [&](int from, bool has, const char* flag) {
    if (target != "native" && level >= from && !has) missing.emplace_back(flag);
  };
  need(1, __builtin_cpu_supports("sse4.2"), "sse4.2"), need(1, __builtin_cpu_supports("popcnt"), "popcnt");
  need(2, __builtin_cpu_supports("avx2"), "avx2"), need(2, __builtin_cpu_supports("fma"), "fma");
  need(2, __builtin_cpu_supports("bmi2"), "bmi2"), need(3, __builtin_cpu_supports("avx512f"), "avx512f");
  need(3, __builtin_cpu_supports("avx512bw"), "avx512bw"),
      need(3, __builtin_cpu_supports("avx512dq"), "avx512dq");
  need(3, __builtin_cpu_supports("avx512vl"), "avx512vl");
  return join(missing);
#endif
}

std::string family_of(const std::string& compiler_id) {
  if (compiler_id.rfind("GNU", 0) == 0) return "gcc";
  if (compiler_id.rfind("Clang", 0) == 0) return "clang";
  return compiler_id.substr(0, compiler_id.find(' '));
}

// Paths of one build under builds/.
struct BuildPaths {
  std::string dir, tree, log, ready, times;
  explicit BuildPaths(const BuildSpec& spec) : BuildPaths(builds_directory() + "/" + spec.id()) {}
  explicit BuildPaths(const std::string& directory)
      : dir(directory),
        tree(dir + "/tree"),
        log(dir + "/build.log"),
        ready(dir + "/ready/ladder-worker"),
        times(dir + "/build-times.json") {}
};

std::pair<fs::file_time_type, std::uintmax_t> stamp(const std::string& path) {
  std::error_code error;
  const auto time = fs::last_write_time(path, error);
  return {error ? fs::file_time_type{} : time, error ? 0 : fs::file_size(path, error)};
}

BuildDescription describe_worker(const std::string& worker, const std::string& id) {
  Program describe{{worker, "describe"}};
  describe.stderr_to = Stream::discard;
  try {
    const json described = parse_json_document(run_program(describe).out, "its description");
    if (described.is_discarded()) throw SchemaError("its output is not JSON");
    return BuildDescription::from_json(described);
  } catch (const std::exception& failure) {
    throw InputError("build " + id + ": its worker " + worker + " did not describe itself (" +
                     failure.what() + "); remove " + fs::path(worker).parent_path().parent_path().string() +
                     " to build it afresh");
  }
}

// Configures (once) and compiles one build of the sources in `source` into `paths`, or finds it up to
// date; `name` is what its messages call it. It carries the tiers `wanted` (sorted; empty: every tier):
// configured the first time with those alone (-DLADDER_ONLY_TIERS), and configured again, with the tiers it
// had and the ones it lacks, when a later run wants one it lacks (it never loses a tier).
PreparedBuild prepare(const BuildSpec& spec, const std::string& source, const BuildPaths& paths,
                      const std::string& name, const std::vector<std::string>& wanted) {
  PreparedBuild build{spec};
  const std::string compiler = compiler_executable(find_compiler(spec.compiler_family));
  fs::create_directories(paths.dir);
  BuildLock lock(paths.dir);
  const bool configured = configured_from(paths.tree, source);
  const std::vector<std::string> carried = configured ? configured_tiers(paths.tree) : wanted;
  const std::vector<std::string> carry = tiers_to_carry(carried, wanted);
  const bool widen = configured && !carries_all(carried, wanted);
  const std::string doing =
      !configured ? "configuring and compiling (the first time)"
      : widen     ? "adding what it lacks of " + tiers_text(wanted) + " (it had " + tiers_text(carried) + ")"
                  : "checking it is up to date";
  std::printf("build %s (%s, -march=%s): %s …\n", name.c_str(), compiler.c_str(), spec.target.c_str(),
              doing.c_str());
  std::fflush(stdout);
  write_file_atomically(paths.log, "");  // the last attempt's log
  const auto failed = [&](const std::string& step) {
    std::error_code error;
    fs::remove(paths.ready, error);  // a build that failed is never used
    if (step == "configure") fs::remove(paths.tree + "/CMakeCache.txt", error);
    return InputError("build " + name + " failed to " + step + ": " + first_error(paths.log) +
                      "\n(its log: " + paths.log + "; " + paths.dir +
                      " is kept for it and may be removed once read)");
  };
  if (!configured || widen) {
    const auto started = Clock::now();
    std::vector<std::string> command = {"cmake", "-S", source, "-B", paths.tree};
    if (!configured && !on_path("ninja").empty()) command.insert(command.end(), {"-G", "Ninja"});
    command.insert(command.end(), {"-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_CXX_COMPILER=" + compiler,
                                   "-DLADDER_ARCH=" + spec.target, "-DLADDER_WORKER_ONLY=ON",
                                   "-DLADDER_ONLY_TIERS=" + join(carry, ",")});
    if (run_logged(command, paths.log, name + " configure") != 0) throw failed("configure");
    mark_configured(paths.tree, source);
    build.configure_seconds = std::chrono::duration<double>(Clock::now() - started).count();
  }
  const std::string built = paths.tree + "/ladder-worker";
  const auto before = stamp(built);
  const auto started = Clock::now();
  const std::string jobs = std::to_string(std::max(1u, std::thread::hardware_concurrency()));
  const std::vector<std::string> command = {"cmake",         "--build",    paths.tree, "--target",
                                            "ladder-worker", "--parallel", jobs};
  if (run_logged(command, paths.log, name + " compile") != 0) throw failed("compile");
  const double compiling = std::chrono::duration<double>(Clock::now() - started).count();
  if (before == stamp(built) && fs::exists(paths.ready)) {
    build.state = "reused: up to date, no recompilation (checked in " + format_seconds(compiling) + ")";
  } else {
    build.compile_seconds = compiling;
    fs::create_directories(fs::path(paths.ready).parent_path());
    fs::copy_file(built, paths.ready + ".part", fs::copy_options::overwrite_existing);
    fs::rename(paths.ready + ".part", paths.ready);  // in place in one step, once it is whole
    build.state = "built: configure " + format_seconds(build.configure_seconds) + ", compile " +
                  format_seconds(build.compile_seconds);
    if (!configured)  // a build from scratch: what the plan expects next time
      write_file_atomically(paths.times, json{{"configure_seconds", build.configure_seconds},
                                              {"compile_seconds", build.compile_seconds},
                                              {"tiers", carry}}
                                             .dump());
  }
  build.executable = paths.ready;
  build.description = describe_worker(paths.ready, name);
  std::printf("build %s: %s\n", name.c_str(), build.state.c_str());
  std::fflush(stdout);
  return build;
}

}  // namespace

const std::vector<std::string>& build_compilers() {
  static const std::vector<std::string> names = {"gcc", "clang"};
  return names;
}

const std::vector<std::string>& build_targets() {
  static const std::vector<std::string> names = {"native", "x86-64-v4", "x86-64-v3", "x86-64-v2", "x86-64"};
  return names;
}

std::vector<BuildSpec> parse_builds(const std::vector<std::string>& compiler_names,
                                    const std::vector<std::string>& targets) {
  const BuildSpec here = build_at_hand();
  std::vector<BuildSpec> specs;
  for (const auto& name : compiler_names.empty() ? std::vector{here.compiler_family} : compiler_names) {
    const Compiler& compiler = find_compiler(name);  // unknown: refused, with the accepted ones
    // not installed: refused, with its package
    if (name != here.compiler_family) compiler_executable(compiler);
    for (const auto& target : targets.empty() ? std::vector<std::string>{here.target} : targets) {
      if (std::find(build_targets().begin(), build_targets().end(), target) == build_targets().end())
        throw InputError("unknown target '" + quote_text(target) +
                         "' for --arch; accepted: " + join(build_targets()));
      if (const auto missing = cpu_lacks(target); !missing.empty())
        throw InputError("--arch " + target + ": this CPU lacks " + missing +
                         ", so code built for it cannot run here");
      const BuildSpec spec{name, target};
      if (std::find(specs.begin(), specs.end(), spec) == specs.end()) specs.push_back(spec);
    }
  }
  return specs;
}

BuildSpec parse_build_id(const std::string& id) {
  for (const auto& compiler : build_compilers())
    if (id.rfind(compiler + "-", 0) == 0) {
      const std::string target = id.substr(compiler.size() + 1);
      if (std::find(build_targets().begin(), build_targets().end(), target) != build_targets().end())
        return {compiler, target};
    }
  throw InputError("'" + id + "' names no build; a build is COMPILER-TARGET, with a compiler of " +
                   join(build_compilers()) + " and a target of " + join(build_targets()));
}

BuildSpec build_at_hand() { return {family_of(build_info().compiler), build_info().target}; }

json BuildDescription::to_json() const {
  json all = json::object();
  for (const auto& [id, tier] : tiers)
    all[id] = {{"flags", tier.flags},
               {"vectorization", tier.vectorization},
               {"lanes", tier.lanes},
               {"evidence", tier.evidence}};
  json out = {{"instruction_set", instruction_set}, {"tiers", all}};
  write_build(out, *this);
  return out;
}

BuildDescription BuildDescription::from_json(const json& document) {
  const JsonReader in(document);
  BuildDescription build{read_build(in), in.at("instruction_set").string(), {}};
  for (const auto& [id, tier] : in.at("tiers").members())
    build.tiers[id] = {tier.at("flags").strings(), tier.at("vectorization").string(),
                       tier.at("evidence").string(), tier.at("lanes").small_integer()};
  return build;
}

BuildDescription describe_this_build() {
  const BuildInfo& info = build_info();
  BuildDescription build{info.build(), info.instruction_set, {}};
  for (const Tier& tier : tiers()) {
    BuildDescription::Tier& entry = build.tiers[tier.card.id];
    entry.flags = tier.card.flags;
    if (const auto* found = find_vectorization(tier.card.source_file, linked_tiers_build())) {
      entry.vectorization = found->status;
      entry.lanes = found->lanes;
      entry.evidence = found->evidence;
    } else {
      entry.vectorization = "unknown";
      entry.evidence = "the build did not read this tier's disassembly";
    }
  }
  return build;
}

BuildRecord build_record(const std::string& id, const BuildDescription& build, const std::string& tier) {
  const auto found = build.tiers.find(tier);
  BuildRecord record{id,
                     build.compiler,
                     build.target,
                     build.common_flags,
                     build.instruction_set,
                     "unknown",
                     0,
                     "not a tier of this build"};
  if (found == build.tiers.end()) return record;
  for (const auto& flag : found->second.flags) record.flags += " " + flag;
  record.vectorization = found->second.vectorization;
  record.lanes = found->second.lanes;
  record.evidence = found->second.evidence;
  return record;
}

std::string builds_directory() {
  if (const char* elsewhere = std::getenv("LADDER_BUILDS_DIR"); elsewhere && *elsewhere) return elsewhere;
  return fs::path(self_path()).parent_path().string() + "/builds";
}

std::vector<PreparedBuild> prepare_builds(const std::vector<BuildSpec>& specs,
                                          const std::vector<std::string>& tiers) {
  const BuildSpec here = build_at_hand();
  std::vector<PreparedBuild> all;
  for (const auto& spec : specs) {
    if (spec == here) {
      PreparedBuild build{spec, self_path(), describe_this_build(), "the build at hand (this binary)"};
      build.at_hand = true;
      all.push_back(build);
      continue;
    }
    if (!fs::exists(std::string(LADDER_SOURCE_DIR) + "/CMakeLists.txt"))
      throw InputError("build " + spec.id() + " is compiled from the checkout this binary was built from, " +
                       LADDER_SOURCE_DIR + ", which is gone");
    all.push_back(prepare(spec, LADDER_SOURCE_DIR, BuildPaths(spec), spec.id(), sorted_once(tiers)));
  }
  return all;
}

double estimated_build_seconds(const BuildSpec& spec, const std::vector<std::string>& tiers,
                               std::string* how) {
  const auto say = [&](const std::string& text) {
    if (how) *how = text;
  };
  if (spec == build_at_hand()) return say("the build at hand"), 0;
  const BuildPaths paths(spec);
  const std::vector<std::string> wanted = sorted_once(tiers);
  const std::vector<std::string> carried = configured_tiers(paths.tree);
  const bool built = fs::exists(paths.ready);
  if (built && carries_all(carried, wanted)) return say("built: a check that it is up to date"), 2;
  // Lacking tiers, it compiles them: at most what a build from scratch of them all takes.
  const std::string state = built ? "built with " + tiers_text(carried) + ", not all of " +
                                        tiers_text(wanted) + ": adding them takes at most "
                                  : "";
  std::ifstream in(paths.times);
  if (in) try {
      const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      const json times = parse_json_document(text, paths.times);
      const auto recorded = times.value("tiers", std::vector<std::string>{});  // none recorded: every tier
      if (carries_all(recorded, wanted)) {  // not a build of fewer tiers than these
        const double seconds =
            times.at("configure_seconds").get<double>() + times.at("compile_seconds").get<double>();
        say(state +
            (built ? "what its last build from scratch here took, "
                   : "its last build from scratch here took ") +
            format_seconds(seconds));
        return seconds;
      }
    } catch (const std::exception&) {
    }
  const double guess = 600.0 * 2 / std::max(2u, std::thread::hardware_concurrency());
  say((built ? state : "not built here yet: ") + format_seconds(guess, Rounding::up) +
      ", a guess (10 minutes on 2 cores for every tier) until it has been built here");
  return guess;
}

PreparedBuild prepare_worker_from(const std::string& source, const std::string& directory,
                                  const std::string& name, const std::vector<std::string>& tiers) {
  return prepare(build_at_hand(), source, BuildPaths(directory), name, sorted_once(tiers));
}

std::vector<BuildListing> list_builds() {
  const BuildInfo& info = build_info();
  const BuildSpec here = build_at_hand();
  std::vector<BuildListing> all{{info.build(),
                                 here,
                                 "built: the build at hand (this binary)",
                                 fs::path(self_path()).parent_path(),
                                 {}}};
  for (const auto& family : build_compilers())
    for (const auto& target : build_targets()) {
      const BuildSpec spec{family, target};
      const BuildPaths paths(spec);
      if (spec == here || !fs::exists(paths.dir)) continue;
      BuildListing listing{{"", target, ""}, spec, "", paths.dir, configured_tiers(paths.tree)};
      if (fs::exists(paths.ready)) {
        listing.Build::operator=(describe_worker(paths.ready, spec.id()).build());
        listing.state = "built with " + tiers_text(listing.tiers) +
                        " (`ladder run` checks it is up to date before its cells, and adds a tier it lacks)";
      } else {
        listing.state = "not built: the last attempt failed or stopped; its log: " + paths.log;
      }
      all.push_back(listing);
    }
  return all;
}

std::string missing_tier_reason(const BuildSpec& spec, const std::string& tier) {
  if (tier == "cuda" && spec.compiler_family != "gcc")
    return "not in build " + spec.id() + ": the CUDA tier is built with the default compiler (GCC) only";
  return "not in build " + spec.id() + ": its configure left the tier out (see " + BuildPaths(spec).log + ")";
}

}  // namespace ladder
