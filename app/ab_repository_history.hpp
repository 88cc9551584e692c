// What `ladder ab --repo` keeps in the history (app/ab_repository_history.cpp): each side's medians as a run
// of its own, under the repository and the side's commit.
#pragma once

#include <string>
#include <vector>

#include "ab_bench.hpp"
#include "repo_build.hpp"
#include "revisions.hpp"
#include "run_context.hpp"

namespace ladder::app {

// The ab being recorded: its repository (its checkout's top and its identity, "repository 3f2a1b0c9d"), how
// it was built, the two revisions, the machine and when the ab started (UTC, ISO 8601).
struct RepositorySides {
  std::string top, repository;
  RepoRecipe recipe;
  Revision base, head;
  MachineContext machine;
  std::string started;
};

// Records the base's and the head's medians (an A/A's: its one tree's), each as a run of `database`, under
// the side's commit: a run's cells are the benchmarks with whole pairs (their repetitions the side's
// processes' medians) and, on the side whose process failed, that benchmark as failed with the reason. A
// series is keyed by the repository's recipe as its build. Returns the line that says what was recorded
// (empty: nothing, or `database` empty, --no-history). InputError or WriteError from the store.
std::string record_repository_sides(const std::vector<BenchCell>& cells, const RepositorySides& sides,
                                    const std::string& database);

}  // namespace ladder::app
