// `ladder ab --repo DIR --target NAME` (or `--build 'CMD' --bench 'CMD'`): did my change make a difference to
// my own code? The two revisions of the team's repository are exported and built once each into Ladder's
// build cache (harness/builds/repo_build.hpp), their Google Benchmark binary run in ABBA pairs of processes
// a benchmark at a time (harness/run/ab_bench.hpp), and each benchmark judged as Ladder's tiers are: the
// same pairs, intervals, verdicts, outputs and exit codes (app/ab.cpp's report_ab).
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "ab_bench.hpp"
#include "ab_options.hpp"
#include "ab_repository_history.hpp"
#include "clock.hpp"
#include "context.hpp"
#include "errors.hpp"
#include "identity.hpp"
#include "machine_topology.hpp"
#include "parse.hpp"
#include "process.hpp"
#include "quote.hpp"
#include "repo_build.hpp"
#include "text.hpp"
#include "worker_process.hpp"

namespace ladder::app {
namespace {

void check_repository_options(const AbOptions& options) {
  if (!options.matrix_options_given.empty())
    throw InputError(options.matrix_options_given.front() +
                     " chooses Ladder's own cells; a repository's benchmarks are chosen with --filter REGEX");
  check_recipe({options.target, options.build, options.bench});
  check_metric(options.metric);
}

// The repository's identity in the history: its first commit's hash (the same in every clone of it).
std::string repository_identity(const std::string& top) {
  Program program{{"git", "-C", top, "rev-list", "--max-parents=0", "HEAD"}};
  program.stderr_to = Stream::discard;
  const Finished finished = run_program(program);
  std::string first = finished.ok() ? finished.out.substr(0, finished.out.find('\n')) : std::string();
  if (first.empty()) throw InputError(quote_text(top) + " has no commit: `ladder ab` compares two of them");
  return "repository " + first.substr(0, 10);
}

}  // namespace

int run_repository_ab(AbOptions& options) {
  check_repository_options(options);
  BenchAbSettings settings;
  settings.repetitions = options.matrix.repetitions.value_or(3);
  settings.min_time = options.matrix.min_time.value_or(0.05);
  settings.metric = options.metric;
  settings.pairs.max_pairs = options.max_pairs;
  settings.pairs.budget_seconds = parse_duration(options.budget);

  // Both revisions resolved and built, and their benchmarks listed, before any pair: a bad one costs nothing.
  const std::string top = checkout_top(options.repo);
  const Revision base = resolve_revision(top, options.base, false);
  const Revision head = resolve_revision(top, options.head, false);
  const RepoRecipe recipe{options.target, options.build, options.bench};
  settings.repository = repository_identity(top);
  const std::string database = noise_database(options);
  const MachineContext context = machine_context(read_topology());
  const std::string machine = history::machine_fingerprint(context);
  // The default's hint names the A/A of this repository's benchmark, not of Ladder's tiers.
  const std::string aa =
      "ladder ab --repo " + top +
      (options.target.empty() ? std::string(" --build … --bench …") : " --target " + options.target) +
      " --base HEAD --head HEAD";
  settings.pairs.threshold = [from_history = thresholds(options, database, machine),
                              aa](const CellKey& cell) {
    Threshold threshold = from_history(cell);
    if (threshold.source.rfind("the documented default", 0) == 0)
      threshold.source = "the documented default " + format_number("%g %%", threshold.percent) +
                         ", not this machine's noise floor (unknown here: `" + aa + "` measures it)";
    return threshold;
  };
  const int saved_stdout = options.json ? ::dup(STDOUT_FILENO) : -1;  // --json: progress to stderr
  if (saved_stdout >= 0) std::fflush(stdout), ::dup2(STDERR_FILENO, STDOUT_FILENO);
  const bool same = base.tree == head.tree;
  settings.pairs.fixed_pairs = options.pairs ? options.pairs : same ? ab_min_pairs : 0;
  const PreparedRepo base_build = prepare_repo(top, base, recipe);
  const PreparedRepo head_build = same ? base_build : prepare_repo(top, head, recipe);
  std::printf("base %s: %s\n", base.label().c_str(), base_build.state.c_str());
  if (!same) std::printf("head %s: %s\n", head.label().c_str(), head_build.state.c_str());
  std::vector<std::string> names;
  try {  // a build whose benchmark cannot be run is not kept
    names =
        same ? list_benchmarks(base_build.bench, options.filter, "base " + base.label())
             : common_benchmarks(list_benchmarks(base_build.bench, options.filter, "base " + base.label()),
                                 list_benchmarks(head_build.bench, options.filter, "head " + head.label()));
    probe_benchmarks(base_build.bench, names, options.filter, settings.metric, "base " + base.label());
    if (!same)
      probe_benchmarks(head_build.bench, names, options.filter, settings.metric, "head " + head.label());
  } catch (const InputError&) {
    discard_new_build(base_build);
    if (!same) discard_new_build(head_build);
    throw;
  }
  std::printf(
      "ladder ab of %s: base %s, head %s%s\n%s, ABBA pairs of processes (%d repetitions each, %s), "
      "at most --budget %s\n",
      top.c_str(), base.label().c_str(), head.label().c_str(), same ? " (one tree: an A/A run)" : "",
      counted(static_cast<int>(names.size()), "benchmark", "benchmarks").c_str(), settings.repetitions,
      settings.metric.c_str(), options.budget.c_str());
  std::fflush(stdout);
  catch_interrupts();
  const RepositorySides sides{top, settings.repository, recipe, base, head, context, now_utc()};
  const std::vector<BenchCell> measured = run_bench_ab(settings, base_build.bench, head_build.bench, names);
  std::vector<AbCell> cells;
  for (const auto& cell : measured) cells.push_back(cell.ab);
  if (interrupted())
    std::fprintf(stderr,
                 "ladder ab: interrupted; what follows holds the %zu of %zu benchmarks measured before\n",
                 cells.size(), names.size());
  if (saved_stdout >= 0) std::fflush(stdout), ::dup2(saved_stdout, STDOUT_FILENO), ::close(saved_stdout);
  std::vector<VerdictRow> rows;
  for (const auto& cell : cells) rows.push_back(cell.row());
  return report_ab(options, rows, base, head, [&](std::FILE* out) {
    if (same)
      record_noise_floors(cells, database, machine, base, out,
                          "the threshold of each later `ladder ab` of these benchmarks on this machine");
    if (interrupted()) {
      if (!database.empty()) std::fprintf(out, "interrupted: its medians are not recorded in the history\n");
    } else if (const std::string line = record_repository_sides(measured, sides, database); !line.empty()) {
      std::fprintf(out, "%s\n", line.c_str());
    }
  });
}

}  // namespace ladder::app
