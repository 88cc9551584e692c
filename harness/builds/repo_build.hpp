// A revision of a team's own repository, built for `ladder ab --repo DIR --target NAME | --build CMD`: its
// files exported with `git archive` (revisions.hpp), so nothing is written into the team's checkout or its
// .git, then built once into Ladder's build cache and reused while its tree is the same:
// builds/repo-CHECKOUT-TREE-RECIPE/ (CHECKOUT: a short hash of the checkout's top folder; RECIPE: of the
// build command or target, so another recipe never takes this one's build). A failed build leaves nothing
// behind: its folder is removed, and the error names its log, kept in /tmp.
#pragma once

#include <string>
#include <vector>

#include "revisions.hpp"

namespace ladder {

// How a revision is built, and what runs its benchmarks. One of `target` (a CMake project: configured in
// Release by the build at hand's CMake, and that target built) and `build_command` (run by /bin/sh in the
// exported source folder). `bench_command` (run by /bin/sh there too) runs the Google Benchmark binary that
// `build_command` made; with `target`, the target's executable runs.
struct RepoRecipe {
  std::string target, build_command, bench_command;
};

// A built revision: where its files are, and the command line that runs its benchmarks (in `source`).
struct PreparedRepo {
  std::string source;
  std::vector<std::string> bench;  // argv: /bin/sh -c …, or the target's executable
  std::string state;               // "built in 12 s", "reused: built before"
  std::string directory;           // its folder under builds/
  bool built_now = false;          // by this call (not reused)
};

// Removes the build that prepare_repo made in this call (a reused one is left): a build whose benchmark
// cannot be run is not kept for the next ab.
void discard_new_build(const PreparedRepo& prepared);

// InputError, before anything is built, when the recipe is not one `ladder ab` can use.
void check_recipe(const RepoRecipe& recipe);

// The revision (a commit: a working tree with uncommitted changes is refused, InputError saying to commit
// or to give --head) exported and built as the recipe says, or reused. InputError when it does not build
// (its log and first error) or the target makes no executable of that name.
PreparedRepo prepare_repo(const std::string& top, const Revision& revision, const RepoRecipe& recipe);

}  // namespace ladder
