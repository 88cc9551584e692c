// `ladder ab --base REV [--head REV] [matrix options]`: did the change make a difference? The two revisions'
// workers are built once (harness/builds/revisions.hpp), their processes interleaved cell by cell
// (harness/run/ab.hpp), and each cell judged against this machine's run-to-run noise
// (common/noise/noise.hpp), read from the history database. An A/A run (both sides one tree) measures that
// noise and records it there.
#include "ab.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "ab_options.hpp"
#include "clock.hpp"
#include "commands.hpp"
#include "context.hpp"
#include "emulation_check.hpp"
#include "errors.hpp"
#include "history_store.hpp"
#include "identity.hpp"
#include "machine_topology.hpp"
#include "noise_store.hpp"
#include "parse.hpp"
#include "plan.hpp"
#include "process.hpp"
#include "quote.hpp"
#include "revisions.hpp"
#include "run_options.hpp"
#include "run_request.hpp"
#include "text.hpp"
#include "verdict_outputs.hpp"
#include "worker_process.hpp"

namespace ladder::app {
namespace {

void check_options(const AbOptions& options) {
  const auto refuse = [](const std::string& what) { throw InputError(what); };
  if (options.max_pairs < ab_min_pairs || options.max_pairs > 1000)
    refuse("--max-pairs " + std::to_string(options.max_pairs) + " is out of range (" +
           std::to_string(ab_min_pairs) + " to 1000: fewer pairs give no interval)");
  if (options.pairs != 0 && (options.pairs < ab_min_pairs || options.pairs > 1000))
    refuse("--pairs " + std::to_string(options.pairs) + " is out of range (" + std::to_string(ab_min_pairs) +
           " to 1000)");
  check_gate_options(options.gate);
  if (options.no_history && options.history) refuse("--history and --no-history: give one of them");
  report::check_verdict_outputs(options.outputs);  // before any build or cell: nothing measured is lost
}

int run_ab_command(AbOptions& options) {
  check_options(options);
  if (options.repository_benchmark()) return run_repository_ab(options);
  refuse_under_emulation("ladder ab");
  if (!options.interval.integrand.empty()) options.matrix.integrand = options.interval.integrand;
  options.matrix.a = options.interval.a;  // parsed with the matrix: a bad value is refused before any build
  options.matrix.b = options.interval.b;
  if (!options.matrix.repetitions) options.matrix.repetitions = 3;
  if (!options.matrix.min_time) options.matrix.min_time = 0.05;
  const double budget = parse_duration(options.budget);
  const Topology topology = read_topology();
  AbSettings settings;
  settings.matrix = requested_matrix(parse_request(options.matrix), nullptr, topology);
  settings.matrix.min_warmup_time = std::min(settings.matrix.min_warmup_time, 0.02);
  settings.max_pairs = options.max_pairs;
  settings.budget_seconds = budget;

  // Every revision is resolved and built before any cell: a bad one costs nothing.
  const std::string top = checkout_top(options.repo);
  const Revision base = resolve_revision(top, options.base);
  const Revision head = resolve_revision(top, options.head);
  if (base.working_tree && head.working_tree && head.dirty)
    throw InputError(
        "--base and --head are both the working tree, which has uncommitted changes: an A/A of "
        "files that may change under it measures nothing reproducible; give --base HEAD to "
        "measure your changes, or commit them first");
  if (base.working_tree && base.dirty)
    throw InputError(
        "--base . is the working tree, which has uncommitted changes: the revision before must be one "
        "that cannot change under the run; give --base HEAD and leave --head out to measure your changes "
        "against your last commit, or commit them first");
  // With --json, stdout holds the JSON alone: the builds' and the cells' progress go to stderr meanwhile.
  const int saved_stdout = options.json ? ::dup(STDOUT_FILENO) : -1;
  if (saved_stdout >= 0) std::fflush(stdout), ::dup2(STDERR_FILENO, STDOUT_FILENO);
  const bool same = base.tree == head.tree;
  settings.fixed_pairs = options.pairs ? options.pairs : same ? ab_min_pairs : 0;
  const PreparedBuild base_build = prepare_revision(top, base, same, settings.matrix.tiers);
  const PreparedBuild head_build =
      same ? base_build : prepare_revision(top, head, false, settings.matrix.tiers);

  const std::string database = noise_database(options);
  const std::string machine = history::machine_fingerprint(machine_context(topology));
  settings.threshold = thresholds(options, database, machine);
  std::printf(
      "ladder ab: base %s, head %s%s\n%zu cells, ABBA pairs of processes (%d repetitions each), "
      "about %s expected, at most --budget %s\n",
      base.label().c_str(), head.label().c_str(), same ? " (one tree: an A/A run)" : "",
      settings.matrix.cells().size(), *options.matrix.repetitions,
      format_seconds(estimated_ab_seconds(settings, self_path()), Rounding::up).c_str(),
      options.budget.c_str());
  std::fflush(stdout);
  // From here Ctrl-C and SIGTERM end the run with the cells so far: their table, outputs and floors.
  catch_interrupts();
  const std::vector<AbCell> cells = run_ab(settings, base_build.executable, head_build.executable);
  if (interrupted())
    std::fprintf(stderr, "ladder ab: interrupted; what follows holds the %zu of %zu cells measured before\n",
                 cells.size(), settings.matrix.cells().size());

  if (saved_stdout >= 0) std::fflush(stdout), ::dup2(saved_stdout, STDOUT_FILENO), ::close(saved_stdout);
  std::vector<VerdictRow> rows;
  for (const auto& cell : cells) rows.push_back(cell.row());
  return report_ab(options, rows, base, head, [&](std::FILE* out) {
    if (same) record_noise_floors(cells, database, machine, base, out);
  });
}

}  // namespace

// The history database to read the noise floor from (and record an A/A's in), or empty: none.
std::string noise_database(const AbOptions& options) {
  if (options.no_history) return {};
  return history::database_path(options.history);
}

// Each cell's threshold: --min-change, else this machine's noise floor from the history, else the default.
std::function<Threshold(const CellKey&)> thresholds(const AbOptions& options, const std::string& database,
                                                    const std::string& machine) {
  if (options.gate.min_change)
    return [percent = *options.gate.min_change](const CellKey&) {
      return Threshold{percent, "--min-change " + format_number("%g %%", percent), false};
    };
  std::shared_ptr<history::Store> store;
  std::error_code unreadable;  // a path the file system refuses (too long, under a file, no permission)
  if (!database.empty() && std::filesystem::exists(database, unreadable))
    store = std::make_shared<history::Store>(database, history::Store::Mode::read);
  if (unreadable)
    throw InputError("history database " + quote_text(database) + " cannot be read (" + unreadable.message() +
                     "); give --history a readable path, or --no-history");
  return [store, machine](const CellKey& cell) {
    if (store)
      if (const auto figure =
              history::noise_of(*store, {cell, machine}, history::Compared::adjacent_processes))
        return floor_threshold(figure->percent, "this machine's noise floor " +
                                                    format_number("%.2g %%", figure->percent) + " (" +
                                                    figure->source + ")");
    return default_threshold();
  };
}

// An A/A run's pairs are this machine's run-to-run noise: each cell's floor, printed and recorded.
void record_noise_floors(const std::vector<AbCell>& cells, const std::string& database,
                         const std::string& machine, const Revision& revision, std::FILE* out,
                         const std::string& used_by) {
  std::fprintf(
      out, "\nthis machine's noise floor, cell by cell (95 %% of same-code AB+BA pairs differ by less):\n");
  std::unique_ptr<history::Store> store;
  if (!database.empty()) store = std::make_unique<history::Store>(database, history::Store::Mode::write);
  const std::string measured = now_utc().substr(0, 10);
  for (const auto& cell : cells) {
    if (cell.interrupted) continue;  // a floor from the pairs of a whole cell only
    const std::vector<double> logs = balanced_log_ratios(cell.pairs);
    const auto floor = noise_floor_percent(logs);
    std::fprintf(
        out, "  %-44s %s\n", cell.name.c_str(),
        floor ? format_number("±%.2f %%", *floor).c_str() : ("not measured: " + cell.failure).c_str());
    if (!floor || !store) continue;
    if (!(*floor < history::max_change_percent)) {  // a threshold that large would call every change none
      std::fprintf(out,
                   "  %-44s not recorded: at or above %g %%, the machine was too busy to measure its noise\n",
                   "", history::max_change_percent);
      continue;
    }
    const std::string source = "A/A `ladder ab` of " + revision.tree.substr(0, 10) + ", " +
                               counted(static_cast<int>(cell.pairs.size()), "pair", "pairs") + ", " +
                               measured;
    history::record_noise(
        *store, {cell.cell, machine},
        {*floor, static_cast<int>(logs.size()), source, now_utc(), revision.commit, revision.commit});
  }
  if (store) std::fprintf(out, "recorded in %s: %s\n", database.c_str(), used_by.c_str());
}

nlohmann::json side_json(const Revision& revision) {
  return {{"revision", revision.working_tree ? "." : revision.name},
          {"label", revision.label()},
          {"commit", revision.commit},
          {"tree", revision.tree},
          {"working_tree", revision.working_tree},
          {"dirty", revision.dirty}};
}

nlohmann::json cells_json(const std::vector<VerdictRow>& rows, bool benchmarks) {
  nlohmann::json cells = nlohmann::json::array();
  const auto bound = [](double value) { return value > 0 ? nlohmann::json(value) : nlohmann::json(nullptr); };
  for (const auto& row : rows) {
    nlohmann::json cell =
        benchmarks
            ? nlohmann::json{{"benchmark", row.cell}}
            : nlohmann::json{
                  {"tier", row.tier}, {"integrand", row.integrand}, {"n", row.n}, {"threads", row.threads}};
    cell.update(
        {{"ratio", row.failed ? nlohmann::json(nullptr) : nlohmann::json(row.interval.ratio)},
         {"low", bound(row.interval.low)},
         {"high", bound(row.interval.high)},
         {"pairs", row.interval.pairs},
         {"verdict", row.failed ? "failed" : to_string(row.verdict)},
         {"threshold", row.threshold.percent},
         {"threshold_source", row.threshold.source},
         {"base_seconds", row.base_seconds ? nlohmann::json(*row.base_seconds) : nlohmann::json(nullptr)},
         {"head_seconds", row.head_seconds ? nlohmann::json(*row.head_seconds) : nlohmann::json(nullptr)},
         {"note", row.note}});
    cells.push_back(cell);
  }
  return cells;
}

int report_ab(const AbOptions& options, std::vector<VerdictRow> rows, const Revision& base,
              const Revision& head, const std::function<void(std::FILE*)>& before_outputs) {
  sort_worst_first(rows);
  if (options.json)
    std::printf(
        "%s\n",  // dump_json: a branch name need not be UTF-8 (its bytes become U+FFFD)
        dump_json(nlohmann::json{{"base", side_json(base)},
                                 {"head", side_json(head)},
                                 {"threshold", rows.empty() ? nlohmann::json(nullptr)
                                                            : nlohmann::json(rows[0].threshold.percent)},
                                 {"cells", cells_json(rows, options.repository_benchmark())}},
                  2)
            .c_str());
  else
    std::printf("\n%s", report::verdict_table(rows, base.label(), head.label()).c_str());
  // An A/A's floors are recorded first: an output that cannot be written then loses no measurement.
  before_outputs(options.json ? stderr : stdout);
  report::VerdictOutputs outputs = options.outputs;
  outputs.fail_above_percent = options.gate.fail_above;
  report::write_verdict_outputs(rows, outputs, "ladder ab: " + head.label() + " against " + base.label());
  if (interrupted()) return exit_interrupted;
  for (const auto& row : rows)
    if (report::fails_gate(row, options.gate.fail_above)) return exit_failed;
  return exit_ok;
}

Command add_ab(CLI::App& app) {
  auto options = std::make_shared<AbOptions>();
  auto* ab = app.add_subcommand(
      "ab",
      "did my change make a difference? two revisions' workers interleaved (ABBA), cell by cell, judged "
      "against this machine's run-to-run noise");
  ab->add_option("--base", options->base, "the revision before: a commit, branch or tag (e.g. origin/main)")
      ->required();
  ab->add_option("--head", options->head,
                 "the revision after (default: the working tree, uncommitted changes included; `.` says so)");
  ab->add_option("--repo", options->repo,
                 "the git checkout: Ladder's, or with --target or --build your own (default: the current "
                 "directory's)");
  RunArguments& args = options->matrix;
  const std::size_t before_matrix = ab->get_options().size();
  add_cell_options(ab, args, options->interval);  // as `ladder run` declares them (app/run_options.hpp)
  std::vector<const CLI::Option*> matrix_options;
  for (std::size_t i = before_matrix; i < ab->get_options().size(); ++i)
    matrix_options.push_back(ab->get_options()[i]);
  add_repetition_options(ab, args);
  ab->get_option("--n")->description("node counts, comma-separated (default: the standard preset's)");
  ab->get_option("--reps")->description("repetitions a process (default 3; the process is the sample)");
  ab->get_option("--min-time")->description("seconds a repetition runs at least, up to 100 (default 0.05)");
  ab->add_option("--budget", options->budget,
                 "the most the cells may take in all: 90s, 15m, 2h (default 10m)");
  ab->add_option("--max-pairs", options->max_pairs,
                 "the most pairs a cell takes before it is left undecided (default 40)");
  ab->add_option("--pairs", options->pairs,
                 "exactly this many pairs a cell, decided or not (default: until decided; an A/A run: 12)");
  add_ci_options(
      ab, options->gate, options->outputs,
      "this machine's noise floor from the history, else " + format_number("%g %%", default_noise_percent));
  ab->add_flag("--json", options->json, "the verdicts as JSON on stdout");
  add_history_option(ab, options->history);
  ab->add_flag("--no-history", options->no_history,
               "neither read the noise floor from the history nor record one");
  ab->add_option("--target", options->target,
                 "your repository's Google Benchmark target: --repo's CMake project, built in Release");
  ab->add_option("--build", options->build,
                 "or the shell command that builds it, run in the revision's files");
  ab->add_option("--bench", options->bench, "with --build: the shell command that runs the benchmark binary");
  ab->add_option("--metric", options->metric, "what is compared: real_time (the default) or cpu_time");
  ab->add_option("--filter", options->filter,
                 "the benchmarks compared, a Google Benchmark regex (default: all)");
  return {ab, [options, matrix_options] {
            for (const CLI::Option* option : matrix_options)
              if (option->count() > 0) options->matrix_options_given.push_back(option->get_name());
            return run_ab_command(*options);
          }};
}

}  // namespace ladder::app
