// The two versions of the code `ladder ab` sets side by side: git revisions of a checkout (or its working
// tree, uncommitted changes included), each built into a worker once and reused.
//
// A revision is known by its tree (git's hash of its files), not by its name: two names of one tree are one
// build, and a build is never reused for other files. Its worker is built like a build of the matrix
// (builds.hpp: the build at hand's compiler and target, -DLADDER_WORKER_ONLY=ON, put in place in one step
// once whole) under builds/rev-TREE/ (builds/rev-TREE-TIERS/ when it carries only the matrix's tiers, which
// builds in a fraction of the time):
// - a commit's files are exported there with `git archive` (src/), so nothing is written into the user's
//   checkout or its .git, unlike `git worktree add`;
// - a clean working tree is its HEAD commit, built as that commit;
// - uncommitted changes are built where they are (the files as they are when the build starts), in
//   builds/rev-working-tree-CHECKOUT/ (CHECKOUT: a short hash of the checkout's top folder, so two clones or
//   two `git worktree`s never share one), compiled incrementally by each later ab; the working tree's hash is
//   computed with a temporary index and object directory, so that too writes nothing into .git.
// When both sides are one tree (an A/A run) and it is the tree this binary was built from, the build at
// hand is the worker, and nothing is built.
#pragma once

#include <string>

#include "builds.hpp"

namespace ladder {

struct Revision {
  std::string name;    // as typed ("HEAD", "origin/main"), or "the working tree"
  std::string commit;  // its full hash; for the working tree, HEAD's (empty in a repository with no commit)
  std::string tree;    // git's hash of its files
  bool working_tree = false;
  bool dirty = false;  // the working tree differs from HEAD (tracked changes, or untracked files not ignored)
  // "HEAD (3f2a1b0c9d)", "the working tree (uncommitted changes included)", "the working tree (clean, HEAD
  // 3f2a1b0c9d)"
  std::string label() const;
};

// The git checkout at `repo` (a directory inside it), as an absolute path to its top. InputError when it is
// not one, or git is not installed.
std::string checkout_top(const std::string& repo);

// REV in the checkout: empty or "." is the working tree. InputError naming an unknown revision (and saying
// how to list the ones there are), an ambiguous short hash, or, when `must_be_ladder`, a revision that is not
// Ladder (it has no harness/worker/worker_main.cpp, or harness/worker_main.cpp before the rooms), at once,
// before anything is written. Values are quoted (common/quote.hpp).
Revision resolve_revision(const std::string& top, const std::string& revision, bool must_be_ladder = true);

// The files of a commit (`revision.commit`) exported with `git archive` into DIRECTORY/src, once: a later
// call finds them there (marked whole), and a partial export is removed. Nothing is written into the
// checkout or its .git. InputError when git cannot export it. Returns DIRECTORY/src.
std::string export_revision(const std::string& top, const Revision& revision, const std::string& directory);

// The folder under builds/ a revision of the checkout `top` is built in (before its tiers' suffix):
// rev-TREE, or rev-working-tree-CHECKOUT for uncommitted changes.
std::string revision_folder(const std::string& top, const Revision& revision);

// The worker of a revision: the build at hand when `at_hand_allowed` and the revision's tree is the one this
// binary was built from (its commit, with no uncommitted change), else built (or reused) under
// builds/rev-TREE/ (rev-working-tree-CHECKOUT). InputError, before any cell, when its files cannot be
// exported or it does not build: its log's path and first error. `tiers`: the only tiers the worker needs
// (the matrix's), built alone in builds/rev-TREE-TIERS/; empty: every tier.
PreparedBuild prepare_revision(const std::string& top, const Revision& revision, bool at_hand_allowed,
                               const std::vector<std::string>& tiers = {});

}  // namespace ladder
