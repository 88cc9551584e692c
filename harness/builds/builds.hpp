// The builds a run measures: `ladder run --compilers gcc,clang --arch native,x86-64-v2`. A build is the
// tiers and a worker compiled by one compiler for one target. The build at hand (this binary) needs no
// building; every other is configured and compiled on demand into builds/ID beside this binary, from the
// checkout this binary was built from, with CMake's -DLADDER_WORKER_ONLY=ON, and reused while it is up to
// date. Its worker (`ladder-worker`) says what it is (`ladder-worker describe`): the compiler, the target,
// each tier's flags and its own reading of each tier's hot loop, which every cell it runs records.
//
// A build is used only once its compile has finished: the worker a run starts is a copy put in place, in
// one step, after the build succeeded (builds/ID/ready/ladder-worker), and removed when a build fails.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "build.hpp"
#include "cell_result.hpp"

namespace ladder {

// A build asked for: the compiler's family as the user names it (`--compilers`), not the compiler as it
// identifies itself (common/build.hpp's Build::compiler), and the target (`--arch`).
struct BuildSpec {
  std::string compiler_family;  // "gcc" or "clang"
  std::string target;           // the -march: "native", "x86-64-v4", "x86-64-v3", "x86-64-v2" or "x86-64"
  std::string id() const { return compiler_family + "-" + target; }
  bool operator==(const BuildSpec&) const = default;
};

// The compiler families and targets a build can have, for messages and --help.
const std::vector<std::string>& build_compilers();
const std::vector<std::string>& build_targets();

// Every compiler family × target, in the order given, each once. Throws InputError naming an unknown compiler
// or target (and the accepted ones), a compiler that is not installed (and its Debian package), or a target
// this CPU cannot run.
std::vector<BuildSpec> parse_builds(const std::vector<std::string>& compilers,
                                    const std::vector<std::string>& targets);
// "clang-x86-64-v2" → {clang, x86-64-v2}; throws InputError for an id that names no build.
BuildSpec parse_build_id(const std::string& id);
// This binary's own: its compiler's family and its target.
BuildSpec build_at_hand();

// What a build says of itself (`ladder-worker describe`, or this binary's own in process): the build, and
// what it made of each tier.
struct BuildDescription : Build {
  std::string instruction_set;  // xsimd's
  struct Tier {
    std::vector<std::string> flags;  // its own, beside the common ones
    std::string vectorization, evidence;
    int lanes = 0;
  };
  std::map<std::string, Tier> tiers;  // the tiers this build has, by id
  nlohmann::json to_json() const;
  static BuildDescription from_json(const nlohmann::json& in);  // throws SchemaError naming the field
};
BuildDescription describe_this_build();
// The record a cell of `tier` keeps of the build it ran in.
BuildRecord build_record(const std::string& id, const BuildDescription& build, const std::string& tier);

// A build made ready for the run's cells.
struct PreparedBuild {
  BuildSpec spec{};
  std::string executable{};  // the worker its cells run in
  BuildDescription description{};
  std::string state{};  // "the build at hand", "reused: up to date (checked in 0.4 s)", "built: …"
  double configure_seconds = 0, compile_seconds = 0;  // this time; 0 when nothing was done
  bool at_hand = false;
};

// builds/ beside this binary, or $LADDER_BUILDS_DIR where it is set (the tests' own folder).
std::string builds_directory();

// Configures and compiles each build that is not at hand (or finds it up to date), printing its progress
// and time. Throws InputError (the run's exit 2, before any cell) when one cannot be made: the compiler,
// the log's path and its first error. Two runs preparing the same build wait for each other. A build
// carries the run's `tiers` (empty: every tier), not more: its first build compiles those alone, and a
// later run that wants one it lacks configures it again with both sets, so it compiles only what it lacks.
std::vector<PreparedBuild> prepare_builds(const std::vector<BuildSpec>& specs,
                                          const std::vector<std::string>& tiers = {});

// A worker compiled from another source tree (a revision's, for `ladder ab`: revisions.hpp) into
// `directory`, by the build at hand's compiler for its target, the same way: configured once, compiled,
// put in place in one step once whole, reused while up to date. `name` is what its messages call it;
// `tiers`, when not empty, the only tiers it needs (-DLADDER_ONLY_TIERS: a build of a few tiers takes a
// fraction of a whole one's time), as in prepare_builds. InputError as prepare_builds.
PreparedBuild prepare_worker_from(const std::string& source, const std::string& directory,
                                  const std::string& name, const std::vector<std::string>& tiers = {});

// What preparing a build for `tiers` (empty: every tier) should take, in seconds, for `ladder plan` and
// --budget: 0 at hand, a second or two to check one that is ready with them all, else its last build from
// scratch's recorded time (where that build had every one of them), or a guess from the CPUs.
double estimated_build_seconds(const BuildSpec& spec, const std::vector<std::string>& tiers,
                               std::string* how = nullptr);

// `ladder list --builds`: the build at hand, and every build under builds/ with its flags and state. A build
// under builds/ that is not ready has not said what it is: its compiler and flags are empty.
struct BuildListing : Build {
  BuildSpec spec;
  std::string state, directory;
  std::vector<std::string> tiers;  // the tiers it carries; empty: every tier
};
std::vector<BuildListing> list_builds();

// Why a build lacks a tier the run asks for, as a cell's reason.
std::string missing_tier_reason(const BuildSpec& spec, const std::string& tier);

}  // namespace ladder
