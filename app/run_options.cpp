// The options of `ladder run` and `ladder plan`, declared once, and the request they make (run_options.hpp).
#include "run_options.hpp"

#include "measure_limits.hpp"

namespace ladder::app {

RunRequest RunCommandOptions::request() const {
  RunArguments typed = args;
  typed.integrand = interval.integrand;
  typed.a = interval.a;
  typed.b = interval.b;
  return parse_request(typed);
}

void add_cell_options(CLI::App* command, RunArguments& args, IntervalOptions& interval) {
  command->add_option("--tiers", args.tiers, "tier ids, comma-separated (default: every tier)")
      ->delimiter(',');
  add_interval_options(command, interval, true);
  command
      ->add_option("--n", args.sizes, "node counts, comma-separated: 1e5,1e6 or 2^20 (default: the preset's)")
      ->delimiter(',');
  command
      ->add_option(
          "--threads", args.threads,
          "thread counts for the parallel tiers, comma-separated; all (1 to every hardware thread), cores, "
          "smt "
          "(default: 1, powers of two, one L3 group, NUMA node and socket, all cores, all hardware threads)")
      ->delimiter(',');
}

void add_repetition_options(CLI::App* command, RunArguments& args) {
  command->add_option("--reps", args.repetitions, "repetitions a cell (default: the preset's, 10 standard)");
  command->add_option("--min-time", args.min_time,
                      "seconds a repetition runs at least, over 0 and up to 100 (default: the preset's)");
}

void add_run_options(CLI::App* command, RunCommandOptions& options) {
  RunArguments& args = options.args;
  command->add_option("--preset", args.preset,
                      "quick (under 1 minute), standard (the default, under 15 minutes) or full, on any "
                      "machine up to 256 hardware threads (`ladder plan` estimates)");
  add_cell_options(command, args, options.interval);
  command
      ->add_option("--ranks", args.ranks,
                   "MPI ranks for distributed tiers, comma-separated (default 1,2 where they fit the cores)")
      ->delimiter(',');
  command
      ->add_option(
          "--compilers", args.compilers,
          "measure each tier in builds by these compilers, comma-separated: gcc, clang (default: the "
          "build at hand's); other builds are compiled under builds/ beside ladder, then reused")
      ->delimiter(',');
  command
      ->add_option("--arch", args.arches,
                   "... and for these targets (-march), comma-separated: native, x86-64-v4, x86-64-v3, "
                   "x86-64-v2, x86-64 (default: the build at hand's)")
      ->delimiter(',');
  command->add_option("--peers", args.peers, "measure the peers of another language in the same run: python");
  command->add_option("--python-limit", args.python_limit,
                      "n above which pure-Python peers are not attempted (default 1e7; quick: 1e6)");
  command
      ->add_option("--hostfile", args.hostfile,
                   "MPI hostfile for distributed tiers: one rank a host (docs/mpi-and-clusters.md)")
      ->check(CLI::ExistingFile);
  add_repetition_options(command, args);
  command->add_option("--rounds", args.rounds,
                      "worker processes a cell, spread over the run in shuffled orders; the repetitions are "
                      "shared among them and their spread is the run's own noise (default 3; 1 to 20)");
  command->add_option("--budget", args.budget,
                      "fit the run into this time (90s, 15m, 2h): fewer repetitions and a shorter minimum "
                      "time down to a floor, then fewer thread counts, then fewer sizes");
  command->add_option("--seed", args.seed,
                      "the seed of the cells' shuffled order (default: random, recorded)");
  command->add_flag("--reproducible", args.reproducible,
                    "ask parallel tiers that can for the same bits at every thread count");
  command->add_option(
      "--out", args.out,
      "output directory, new or empty (default: a new ladder-out/run-DATE-TIME for each run)");
  command->add_option("--resume", args.resume, "finish the interrupted run in this directory");
  command->add_flag("--force", args.force, "replace the results in a non-empty --out");
  command->add_option("--label", args.label, "a name for this run, kept in the results");
  command->add_flag("!--no-instructions", args.instructions,
                    "skip counting each tier's instructions a node under callgrind (a few seconds a tier)");
  command->add_flag("!--no-limits", args.limits,
                    "skip measuring the machine's limits (FMA peak, memory bandwidth) before the first cell "
                    "and after the last (a few seconds)");
  command
      ->add_option(
          "--limits-tool", args.limits_tool,
          "what measures the machine's limits: probe (Ladder's own; the default), likwid-bench (about "
          "half a minute: each of its starts calibrates its clock for a second), auto (likwid-bench "
          "where installed)")
      ->check(CLI::IsMember(limits_tool_names()));
  command->add_option("--remeasure", args.remeasure,
                      "rounds a cell may run again at the end of the run in place of its disturbed ones "
                      "(default 2; 0 to 10; docs/running-the-matrix.md)");
  command->add_option("--cell-timeout", args.cell_timeout,
                      "seconds a cell may take before it is stopped (600)");
}

void add_history_options(CLI::App* command, RunCommandOptions& options) {
  add_history_option(command, options.history);
  command->add_flag("--no-history", options.no_history, "do not record this run in the history database");
}

}  // namespace ladder::app
