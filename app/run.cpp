// `ladder run`: the benchmark matrix (harness/runner.hpp), then the report from the results it wrote.
#include <charconv>
#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "errors.hpp"
#include "registry.hpp"
#include "report.hpp"
#include "runner.hpp"
#include "text.hpp"

namespace ladder::app {
namespace {

// The text options that are unset when empty (the preset, or the resumed run, decides them).
struct RunText {
  std::string preset, resume, peers, python_limit, seed;
  IntervalOptions interval;
};

int run(RunArguments args, const RunText& text) {
  if (!text.preset.empty()) args.preset = text.preset;
  if (!text.interval.integrand.empty()) args.integrand = text.interval.integrand;
  if (!text.interval.a.empty()) args.a = text.interval.a;
  if (!text.interval.b.empty()) args.b = text.interval.b;
  if (!text.resume.empty()) args.resume = text.resume;
  if (!text.peers.empty()) args.peers = text.peers;
  if (!text.python_limit.empty()) args.python_limit = text.python_limit;
  if (!text.seed.empty()) {
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.seed.data(), text.seed.data() + text.seed.size(), value);
    if (error != std::errc() || end != text.seed.data() + text.seed.size())
      throw InputError("--seed '" + text.seed + "' is not a whole number from 0 to 2^64 - 1");
    args.seed = value;
  }
  const RunOutcome outcome = run_matrix(args);
  if (outcome.exit_code == exit_cannot_write) return outcome.exit_code;
  try {  // the report, from the results file just written, as `ladder report DIR` would make it
    const auto written = report::write_report({report::load_run(outcome.paths.json)}, outcome.paths.dir);
    std::printf(
        "report: %s\n",
        join(written.size() >= 2 ? std::vector<std::string>(written.end() - 2, written.end()) : written, ", ")
            .c_str());
  } catch (const std::exception& failure) {
    std::printf("report: not written: %s\n", failure.what());
  }
  if (!outcome.complete)
    std::printf(
        "\ninterrupted: %zu of %zu cells are finished and saved; `ladder run --resume %s` runs the rest\n",
        outcome.cells_done, outcome.cells_total, outcome.paths.dir.c_str());
  return outcome.exit_code;
}

}  // namespace

Command add_run(CLI::App& app, const Invocation& invocation) {
  auto args = std::make_shared<RunArguments>();
  auto text = std::make_shared<RunText>();
  args->command_line = invocation.text;
  auto* run_command = app.add_subcommand(
      "run", "the benchmark matrix: every tier × sizes × threads, timed, with memory and error");
  run_command->add_option("--preset", text->preset,
                          "quick (under 30 s), standard (the default, a few minutes) or full");
  run_command->add_option("--tiers", args->tiers, "tier ids, comma-separated (default: every tier)")
      ->delimiter(',');
  add_interval_options(run_command, text->interval);
  run_command
      ->add_option("--n", args->sizes,
                   "node counts, comma-separated: 1e5,1e6 or 2^20 (default: the preset's)")
      ->delimiter(',');
  run_command
      ->add_option(
          "--threads", args->threads,
          "thread counts for the parallel tiers, comma-separated; all (1 to every hardware thread), cores, "
          "smt "
          "(default: 1, powers of two, one L3 group, NUMA node and socket, all cores, all hardware threads)")
      ->delimiter(',');
  run_command
      ->add_option("--ranks", args->ranks,
                   "MPI ranks for distributed tiers, comma-separated (default 1,2 where they fit the cores)")
      ->delimiter(',');
  run_command->add_option("--peers", text->peers,
                          "measure the peers of another language in the same run: python");
  run_command->add_option("--python-limit", text->python_limit,
                          "n above which pure-Python peers are not attempted (default 1e7; quick: 1e6)");
  run_command
      ->add_option("--hostfile", args->hostfile,
                   "MPI hostfile for distributed tiers: one rank per node (see README, on a cluster)")
      ->check(CLI::ExistingFile);
  run_command->add_option("--reps", args->repetitions,
                          "repetitions a cell (default: the preset's, 10 standard)");
  run_command->add_option("--min-time", args->min_time,
                          "seconds a repetition runs at least (default: the preset's)");
  run_command->add_option("--seed", text->seed,
                          "the seed of the cells' shuffled order (default: random, recorded)");
  run_command->add_flag("--reproducible", args->reproducible,
                        "ask parallel tiers that can for the same bits at every thread count");
  run_command->add_option("--out", args->out,
                          "output directory (default ./ladder-out); must be new or empty");
  run_command->add_option("--resume", text->resume, "finish the interrupted run in this directory");
  run_command->add_flag("--force", args->force, "replace the results in a non-empty --out");
  run_command->add_option("--label", args->label, "a name for this run, kept in the results");
  run_command->add_flag(
      "!--no-instructions", args->instructions,
      "skip counting each tier's instructions a node under callgrind (a few seconds a tier)");
  run_command->add_option("--cell-timeout", args->cell_timeout,
                          "seconds a cell may take before it is stopped (600)");
  return {run_command, [args, text] { return run(*args, *text); }};
}

}  // namespace ladder::app
