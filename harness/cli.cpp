#include "cli.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "build_info.hpp"
#include "choose.hpp"
#include "context.hpp"
#include "distributed.hpp"
#include "profiling.hpp"
#include "reference.hpp"
#include "registry.hpp"
#include "report.hpp"
#include "runner.hpp"
#include "sizes.hpp"
#include "text.hpp"
#include "vectorization.hpp"
#include "worker.hpp"

namespace ladder {
namespace {

nlohmann::json build_json() {
  const auto& build = build_info();
  return {{"compiler", build.compiler},         {"build_type", build.build_type},
          {"common_flags", build.common_flags}, {"instruction_set", build.instruction_set},
          {"simd_width", build.simd_width},     {"ladder_version", build.ladder_version}};
}

// `ladder list`'s vector column for a tier of this binary: "8 × f64", "scalar", "partly 4 × f64", or "-"
// (a peer, or not known), from the disassembly of the tier as this binary was built.
std::string list_vector_text(const TierCard& card) {
  const auto* entry = find_vectorization(card.source_file, linked_tiers_build());
  const std::string text = card.peer || !entry ? "" : format_vectorization(entry->status, entry->lanes);
  return text.empty() ? "-" : text;
}

void print_list(bool as_json, bool ids_only) {
  if (ids_only) {
    for (const auto& tier : tiers()) std::printf("%s\n", tier.card.id.c_str());
    return;
  }
  if (as_json) {
    auto cards = nlohmann::json::array();
    std::vector<std::string> ids;
    for (const auto& tier : tiers()) ids.push_back(tier.card.id);
    cards = tier_cards(ids);
    std::cout << cards.dump(2) << "\n";
    return;
  }
  // A plain-text table whose columns fit their widest cell.
  std::vector<std::vector<std::string>> rows = {
      {"rung", "id", "learning", "lines", "reproducible", "vector", "libraries", "summary"}};
  for (const auto& tier : tiers()) {
    const auto& card = tier.card;
    rows.push_back(
        {std::to_string(card.rung), card.id, std::string(to_string(card.learning_time)),
         std::to_string(card.source_lines) +
             (card.shared_lines ? "+" + std::to_string(card.shared_lines) : ""),
         std::string(to_string(card.reproducible)), list_vector_text(card),
         card.libraries.empty() ? "-" : join(card.libraries),
         card.summary + (card.parallel ? " [parallel]" : "") +
             (unavailable_reason(tier).empty() ? "" : " [unavailable: " + unavailable_reason(tier) + "]")});
  }
  auto width = [](const std::string& text) {  // characters on a terminal: UTF-8 continuation bytes add none
    return static_cast<std::size_t>(std::count_if(
        text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
  };
  std::vector<std::size_t> widths(rows[0].size(), 0);
  for (const auto& row : rows)
    for (std::size_t column = 0; column < row.size(); ++column)
      widths[column] = std::max(widths[column], width(row[column]));
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t column = 0; column < row.size(); ++column)
      line += column + 1 < row.size()
                  ? row[column] + std::string(widths[column] - width(row[column]) + 2, ' ')
                  : row[column];
    std::printf("%s\n", line.c_str());
  }
  const auto& build = build_info();
  std::printf(
      "\nlines: the tier's own non-blank, non-comment lines (+ those of the shared kernel it builds on)\n"
      "reproducible: whether the result has the same bits at every thread count\n"
      "vector: the hot loop as built, read from its disassembly: doubles per register, or scalar\n"
      "built: %s, %s, flags %s; SIMD: %s, %d doubles per batch\n",
      build.compiler.c_str(), build.build_type.c_str(), build.common_flags.c_str(),
      build.instruction_set.c_str(), build.simd_width);
}

struct EvalArguments {
  std::string tier;
  std::string integrand;
  std::string a = "0", b = "1", n = "1e6", threads = "1", ranks;
  bool reproducible = false;
  bool json = false;
  std::vector<std::string> command_line;  // to start again under an MPI launcher
};

nlohmann::json optional_json(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

std::string optional_text(const std::optional<double>& value) {
  return value ? format_number("%+.3e", *value) : "undefined (the reference is 0)";
}

void evaluate(const EvalArguments& args) {
  const Tier& tier = find_tier(args.tier);
  const std::size_t integrand = args.integrand.empty() ? 0 : find_integrand(args.integrand);
  const Interval ab{parse_real("a", args.a), parse_real("b", args.b)};
  const std::int64_t n = parse_size(args.n);
  const int threads = args.threads != "all" ? parse_threads(args.threads)
                      : tier.card.parallel
                          ? static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))
                          : 1;
  const RunOptions options{threads, args.reproducible};
  if (!args.ranks.empty() && !tier.card.distributed)
    throw InputError("--ranks " + args.ranks + ": tier '" + tier.card.id + "' is not distributed; only " +
                     "tiers that run under an MPI launcher take ranks");
  if (const auto reason = unavailable_reason(tier); !reason.empty())
    throw Unavailable("tier '" + tier.card.id + "' cannot run on this machine: " + reason);

  // A distributed tier: start again under the MPI launcher, once per rank (the inputs are checked above,
  // so no rank fails alone and leaves the others waiting). Rank 0 prints; the others make its calls.
  if (tier.card.distributed && !distributed::launched()) {
    const int ranks = args.ranks.empty() ? 1 : parse_count("ranks", args.ranks);
    std::vector<std::string> command = distributed::launch_command(ranks, threads, logical_cpus());
    command.insert(command.end(), args.command_line.begin(), args.command_line.end());
    std::vector<char*> arguments;
    for (auto& argument : command) arguments.push_back(argument.data());
    arguments.push_back(nullptr);
    std::fflush(stdout);
    execv(arguments[0], arguments.data());
    throw Unavailable("cannot start the MPI launcher '" + command[0] + "': " + std::strerror(errno));
  }
  const bool lead = tier.card.distributed;
  if (lead && distributed::rank() != 0) {
    distributed::follow([&](std::int64_t nodes) { integrate(tier, integrand, ab, nodes, options); });
    distributed::finish();
    return;
  }

  const auto start = std::chrono::steady_clock::now();
  if (lead) distributed::announce(n);
  const double result = integrate(tier, integrand, ab, n, options);
  const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
  const int ranks = lead ? distributed::size() : 1;
  if (lead) {
    distributed::stop();
    distributed::finish();
  }

  const auto& info = integrands()[integrand];
  const Reference ref = reference(info, ab, n);
  const auto rel_error = relative_error(result, ref.exact);
  const auto rounding_error = relative_error(result, ref.midpoint);
  const double bound = rounding_bound(tier.card, ref, n, options.threads);
  const double rounding_abs = static_cast<double>(result - ref.midpoint);

  if (args.json) {
    const nlohmann::json out = {{"tier", tier.card.id},
                                {"integrand", info.name},
                                {"a", ab.a},
                                {"b", ab.b},
                                {"n", n},
                                {"threads", options.threads},
                                {"ranks", ranks},
                                {"reproducible_requested", options.reproducible},
                                {"result", result},
                                {"exact", static_cast<double>(ref.exact)},
                                {"rel_error", optional_json(rel_error)},
                                {"abs_error", static_cast<double>(result - ref.exact)},
                                {"midpoint", static_cast<double>(ref.midpoint)},
                                {"midpoint_method", ref.midpoint_method},
                                {"rounding_error", optional_json(rounding_error)},
                                {"rounding_abs_error", rounding_abs},
                                {"rounding_bound", bound},
                                {"within_bound", std::fabs(rounding_abs) <= bound},
                                {"seconds", seconds.count()},
                                {"build", build_json()}};
    std::cout << out.dump(2) << "\n";
    return;
  }
  std::printf("tier            %s (rung %d)\n", tier.card.id.c_str(), tier.card.rung);
  std::printf("integrand       %s = %s on [%.17g, %.17g]\n", info.name.c_str(), info.formula.c_str(), ab.a,
              ab.b);
  std::printf("n, threads      %lld, %d%s\n", static_cast<long long>(n), options.threads,
              lead ? (", ranks " + std::to_string(ranks)).c_str() : "");
  std::printf("result          %.17g\n", result);
  std::printf("exact           %.17Lg   relative error %s\n", ref.exact, optional_text(rel_error).c_str());
  std::printf("midpoint sum    %.17Lg   rounding error %s (%s)\n", ref.midpoint,
              optional_text(rounding_error).c_str(), ref.midpoint_method.c_str());
  std::printf("rounding        |result - midpoint sum| = %.3e, bound %.3e: %s\n", std::fabs(rounding_abs),
              bound, std::fabs(rounding_abs) <= bound ? "within" : "OUTSIDE THE BOUND");
  std::printf("time            %.6f s (one call, including any first-call start-up)\n", seconds.count());
  const auto& build = build_info();
  std::printf("build           %s, %s%s, SIMD %s (%d doubles per batch)\n", build.compiler.c_str(),
              build.common_flags.c_str(),
              tier.card.flags.empty() ? "" : (" " + join(tier.card.flags, " ")).c_str(),
              build.instruction_set.c_str(), build.simd_width);
}

int profile_tier_lines(const std::string& id, const std::string& integrand_name, const std::string& n_text,
                       const std::string& a_text, const std::string& b_text, int hot) {
  const Tier& tier = find_tier(id);
  const std::string integrand =
      integrands()[integrand_name.empty() ? 0 : find_integrand(integrand_name)].name;
  const std::int64_t n = parse_size(n_text);
  if (n > 100'000'000)
    throw InputError("--n " + n_text +
                     " is too large to run under valgrind (about 50 times slower); use at most 1e8");
  if (hot < 1) throw InputError("--hot " + std::to_string(hot) + " must be at least 1");
  if (tier.card.peer || tier.card.distributed)
    throw InputError("tier '" + id + "' is not in the profiling build: it runs " +
                     (tier.card.peer ? "in " + tier.card.language : std::string("under an MPI launcher")));
  if (const auto reason = profiling::unavailable_reason(); !reason.empty())
    throw Unavailable("cannot profile: " + reason);
  const auto profile =
      profiling::profile_lines(id, integrand, parse_real("a", a_text), parse_real("b", b_text), n);
  std::fputs(profiling::render(profile, hot).c_str(), stdout);
  return 0;
}

// A baseline: a file `ladder instructions --json` wrote, for the same target and integrand.
nlohmann::json read_instruction_baseline(const std::string& path, const nlohmann::json& now) {
  std::ifstream in(path);
  if (!in) throw InputError("--baseline '" + path + "' cannot be read: " + std::strerror(errno));
  nlohmann::json baseline;
  try {
    baseline = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& error) {
    throw InputError("--baseline '" + path + "' is not JSON (" + error.what() +
                     "); give a file written by `ladder instructions --json`");
  }
  if (!baseline.is_object() || !baseline.value("available", false) || !baseline.contains("tiers"))
    throw InputError("--baseline '" + path +
                     "' holds no instruction counts; give a file written by "
                     "`ladder instructions --json`");
  for (const char* key : {"target", "integrand", "n"})
    if (baseline.value(key, nlohmann::json()) != now.at(key))
      throw InputError("--baseline '" + path + "' was counted with " + key + " = " +
                       baseline.value(key, nlohmann::json()).dump() + ", this build counts with " +
                       now.at(key).dump() + ": the figures are not comparable");
  return baseline;
}

int print_instructions(std::vector<std::string> ids, const std::string& integrand_name, bool as_json,
                       const std::string& baseline_path, double max_increase_percent) {
  if (ids.empty())
    for (const auto& tier : tiers()) ids.push_back(tier.card.id);
  for (const auto& id : ids) find_tier(id);  // an unknown id is an error naming the known ones
  if (!(max_increase_percent >= 0))
    throw InputError("--max-increase " + format_number("%g", max_increase_percent) +
                     " is not a percentage of 0 or more");
  if (!baseline_path.empty() && !std::filesystem::exists(baseline_path))
    throw InputError("--baseline '" + baseline_path + "' does not exist");
  const std::string integrand =
      integrands()[integrand_name.empty() ? 0 : find_integrand(integrand_name)].name;
  const auto counts = profiling::count_instructions(ids, integrand, 0, 1);
  if (as_json) {
    std::printf("%s\n", counts.dump(2).c_str());
    return counts.at("available").get<bool>() ? 0 : 3;
  }
  if (!counts.at("available").get<bool>()) {
    std::fprintf(stderr, "ladder: instructions %s\n", counts.at("reason").get<std::string>().c_str());
    return 3;
  }
  const nlohmann::json baseline =
      baseline_path.empty() ? nlohmann::json() : read_instruction_baseline(baseline_path, counts);
  std::printf("instructions a node, %s on [0, 1], counted by %s on the -march=%s profiling build\n",
              integrand.c_str(), counts.at("tool").get<std::string>().c_str(),
              counts.at("target").get<std::string>().c_str());
  if (!baseline.is_null()) std::printf("  %-16s %10s %10s %9s\n", "tier", "now", "baseline", "change");
  std::vector<std::string> grown;
  for (const auto& id : ids) {
    if (!counts.at("tiers").contains(id)) continue;
    const auto& entry = counts.at("tiers").at(id);
    if (!entry.contains("per_node")) {
      std::printf("  %-16s %s\n", id.c_str(), entry.at("unavailable").get<std::string>().c_str());
      continue;
    }
    const double now = entry.at("per_node");
    const auto before =
        baseline.is_null() ? nlohmann::json() : baseline.at("tiers").value(id, nlohmann::json());
    if (baseline.is_null()) {
      std::printf("  %-16s %10.2f\n", id.c_str(), now);
    } else if (!before.contains("per_node")) {
      std::printf("  %-16s %10.2f %10s %9s\n", id.c_str(), now, "–", "new");
    } else {
      const double then = before.at("per_node");
      const double change = 100 * (now - then) / then;
      const bool worse = change > max_increase_percent;
      if (worse) grown.push_back(id + " (" + format_number("%+.1f", change) + " %)");
      std::printf("  %-16s %10.2f %10.2f %+8.1f %%%s\n", id.c_str(), now, then, change,
                  worse ? "  more than allowed" : "");
    }
  }
  if (!grown.empty()) {
    std::printf("instructions a node grew by more than %s %% on: %s\n",
                format_number("%g", max_increase_percent).c_str(), join(grown).c_str());
    return 1;
  }
  return 0;
}

}  // namespace

int run_command_line(int argc, char** argv) {
  CLI::App app{"Ladder: one kernel (the midpoint rule) as a ladder of optimization tiers, measured"};
  app.require_subcommand(1);

  bool list_json = false, list_ids = false;
  auto* list = app.add_subcommand("list", "the ladder: every tier's card");
  list->add_flag("--json", list_json, "the cards as a JSON array");
  list->add_flag("--ids", list_ids, "the tier ids only, one a line (for scripts)");

  EvalArguments eval_args;
  auto* eval = app.add_subcommand("eval", "one integral with one tier, checked against the references");
  eval->add_option("--tier", eval_args.tier, "tier id (see `ladder list`)")->required();
  eval->add_option("--integrand", eval_args.integrand,
                   "integrand: " + integrand_names() + " (default gauss)");
  eval->add_option("--a", eval_args.a, "left end of the interval (default 0)");
  eval->add_option("--b", eval_args.b, "right end of the interval (default 1)");
  eval->add_option("--n", eval_args.n, "number of nodes: 1000000, 1e6 or 2^20 (default 1e6)");
  eval->add_option(
      "--threads", eval_args.threads,
      "threads, for parallel tiers (default 1; all: every core for a parallel tier, 1 otherwise)");
  eval->add_option("--ranks", eval_args.ranks, "MPI ranks, for a distributed tier (default 1)");
  eval->add_flag("--reproducible", eval_args.reproducible,
                 "ask a parallel tier for the same bits at every thread count, where it can");
  eval->add_flag("--json", eval_args.json, "one JSON object instead of text");

  for (int i = 0; i < argc; ++i) eval_args.command_line.push_back(argv[i]);
  eval_args.command_line[0] = std::filesystem::read_symlink("/proc/self/exe").string();
  RunArguments run_args;
  for (int i = 0; i < argc; ++i) run_args.command_line += (i ? " " : "") + std::string(argv[i]);
  std::string preset, integrand, a, b, resume, seed;
  auto* run = app.add_subcommand(
      "run", "the benchmark matrix: every tier × sizes × threads, timed, with memory and error");
  run->add_option("--preset", preset, "quick (under 30 s), standard (the default, a few minutes) or full");
  run->add_option("--tiers", run_args.tiers, "tier ids, comma-separated (default: every tier)")
      ->delimiter(',');
  run->add_option("--integrand", integrand, "integrand: " + integrand_names() + " (default gauss)");
  run->add_option("--a", a, "left end of the interval (default 0)");
  run->add_option("--b", b, "right end of the interval (default 1)");
  run->add_option("--n", run_args.sizes,
                  "node counts, comma-separated: 1e5,1e6 or 2^20 (default: the preset's)")
      ->delimiter(',');
  run->add_option("--threads", run_args.threads,
                  "thread counts for the parallel tiers, comma-separated, or all (default: 1 to every core)")
      ->delimiter(',');
  run->add_option("--ranks", run_args.ranks,
                  "MPI ranks for distributed tiers, comma-separated (default 1,2 where they fit the cores)")
      ->delimiter(',');
  std::string peers, python_limit;
  run->add_option("--peers", peers, "measure the peers of another language in the same run: python");
  run->add_option("--python-limit", python_limit,
                  "n above which pure-Python peers are not attempted (default 1e7; quick: 1e6)");
  run->add_option("--hostfile", run_args.hostfile,
                  "MPI hostfile for distributed tiers: one rank per node (see README, on a cluster)")
      ->check(CLI::ExistingFile);
  run->add_option("--reps", run_args.repetitions, "repetitions a cell (default: the preset's, 10 standard)");
  run->add_option("--min-time", run_args.min_time,
                  "seconds a repetition runs at least (default: the preset's)");
  run->add_option("--seed", seed, "the seed of the cells' shuffled order (default: random, recorded)");
  run->add_flag("--reproducible", run_args.reproducible,
                "ask parallel tiers that can for the same bits at every thread count");
  run->add_option("--out", run_args.out, "output directory (default ./ladder-out); must be new or empty");
  run->add_option("--resume", resume, "finish the interrupted run in this directory");
  run->add_flag("--force", run_args.force, "replace the results in a non-empty --out");
  run->add_option("--label", run_args.label, "a name for this run, kept in the results");
  run->add_flag("!--no-instructions", run_args.instructions,
                "skip counting each tier's instructions a node under callgrind (a few seconds a tier)");
  run->add_option("--cell-timeout", run_args.cell_timeout,
                  "seconds a cell may take before it is stopped (600)");

  std::vector<std::string> report_inputs;
  std::string report_out;
  auto* report_command = app.add_subcommand(
      "report", "the tradeoff report (report.md, report.html, charts/) from one or more runs' results");
  report_command
      ->add_option("results", report_inputs,
                   "run directories (or results.json files); several: one a machine")
      ->required();
  report_command->add_option("--out", report_out, "where to write it (default: the first run's directory)");

  std::string pick_input, pick_n, pick_without;
  report::PickConstraints pick_constraints;
  auto* pick_command =
      app.add_subcommand("pick", "the fastest tier that meets your constraints, from a run's results");
  pick_command->add_option("results", pick_input, "a run directory (or its results.json)")->required();
  pick_command->add_option("--max-cost", pick_constraints.max_cost,
                           "highest maintenance cost (1 to 10) you accept");
  pick_command->add_option("--max-error", pick_constraints.max_error,
                           "largest relative error you accept, e.g. 1e-12");
  pick_command->add_option("--threads", pick_constraints.threads, "cores you can give it (threads × ranks)");
  pick_command->add_option("--n", pick_n, "the size you care about (default: the report's)");
  pick_command->add_flag("--include-peers", pick_constraints.include_peers,
                         "let the Python peers win too (staying in Python is an answer)");
  pick_command
      ->add_option("--without", pick_constraints.without, "libraries you will not take on, comma-separated")
      ->delimiter(',');

  std::string compare_old, compare_new;
  report::CompareOptions compare_options;
  auto* compare_command = app.add_subcommand(
      "compare", "did a change make a difference? cell by cell, with a Mann–Whitney U test");
  compare_command->add_option("old", compare_old, "the run before")->required();
  compare_command->add_option("new", compare_new, "the run after")->required();
  compare_command->add_option("--fail-above", compare_options.fail_above_percent,
                              "exit 1 when a cell is significantly slower by more than this many per cent");
  compare_command->add_option("--min-change", compare_options.min_change_percent,
                              "smallest change in per cent called faster or slower (default 2)");
  compare_command->add_flag("--across-machines", compare_options.across_machines,
                            "compare runs from different machines anyway");

  std::string profile_tier, profile_integrand, profile_n = "1e5", profile_a = "0", profile_b = "1";
  int profile_hot = 3;
  auto* profile_command = app.add_subcommand(
      "profile", "a tier's kernel line by line: each source line's share of its instructions (callgrind)");
  profile_command->add_option("tier", profile_tier, "tier id (see `ladder list`)")->required();
  profile_command->add_option("--n", profile_n, "number of nodes (default 1e5)");
  profile_command->add_option("--integrand", profile_integrand,
                              "integrand: " + integrand_names() + " (default gauss)");
  profile_command->add_option("--a", profile_a, "left end of the interval (default 0)");
  profile_command->add_option("--b", profile_b, "right end of the interval (default 1)");
  profile_command->add_option("--hot", profile_hot, "how many of the hottest lines to mark (default 3)");

  std::vector<std::string> instructions_tiers;
  std::string instructions_integrand;
  bool instructions_json = false;
  auto* instructions_command = app.add_subcommand(
      "instructions", "instructions a node for each tier (callgrind): the same on every run, unlike time");
  instructions_command
      ->add_option("--tiers", instructions_tiers, "tier ids, comma-separated (default: every tier)")
      ->delimiter(',');
  instructions_command->add_option("--integrand", instructions_integrand,
                                   "integrand: " + integrand_names() + " (default gauss)");
  std::string instructions_baseline;
  double instructions_max_increase = 1;
  instructions_command->add_option(
      "--baseline", instructions_baseline,
      "compare with counts saved from `ladder instructions --json`; exit 1 when a "
      "tier needs more");
  instructions_command->add_option(
      "--max-increase", instructions_max_increase,
      "per cent more instructions a node tolerated against --baseline (default 1)");
  instructions_command->add_flag("--json", instructions_json,
                                 "the counts as JSON, as `ladder run` records them");

  std::string worker_spec, worker_result;
  auto* worker = app.add_subcommand("worker", "");  // hidden: one cell, started by `ladder run`
  worker->group("");
  worker->add_option("--spec", worker_spec)->required();
  worker->add_option("--result", worker_result)->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    return app.exit(help);
  } catch (const CLI::ParseError& error) {
    app.exit(error);  // prints CLI11's message
    return 2;
  }

  try {
    if (list->parsed()) print_list(list_json, list_ids);
    if (eval->parsed()) evaluate(eval_args);
    if (worker->parsed()) return run_worker(worker_spec, worker_result);
    if (report_command->parsed()) {
      std::vector<report::Run> runs;
      for (const auto& input : report_inputs) runs.push_back(report::load_run(input));
      const std::string out = !report_out.empty() ? report_out
                              : std::filesystem::is_directory(report_inputs[0])
                                  ? report_inputs[0]
                                  : std::filesystem::path(report_inputs[0]).parent_path().string();
      for (const auto& file : report::write_report(runs, out.empty() ? "." : out))
        std::printf("wrote %s\n", file.c_str());
      return 0;
    }
    if (pick_command->parsed()) {
      if (!pick_n.empty()) pick_constraints.n = parse_size(pick_n);
      return report::pick(pick_input, pick_constraints);
    }
    if (compare_command->parsed()) return report::compare(compare_old, compare_new, compare_options);
    if (profile_command->parsed())
      return profile_tier_lines(profile_tier, profile_integrand, profile_n, profile_a, profile_b,
                                profile_hot);
    if (instructions_command->parsed())
      return print_instructions(instructions_tiers, instructions_integrand, instructions_json,
                                instructions_baseline, instructions_max_increase);
    if (run->parsed()) {
      if (!preset.empty()) run_args.preset = preset;
      if (!integrand.empty()) run_args.integrand = integrand;
      if (!a.empty()) run_args.a = a;
      if (!b.empty()) run_args.b = b;
      if (!resume.empty()) run_args.resume = resume;
      if (!peers.empty()) run_args.peers = peers;
      if (!python_limit.empty()) run_args.python_limit = python_limit;
      if (!seed.empty()) {
        std::uint64_t value = 0;
        const auto [end, error] = std::from_chars(seed.data(), seed.data() + seed.size(), value);
        if (error != std::errc() || end != seed.data() + seed.size())
          throw InputError("--seed '" + seed + "' is not a whole number from 0 to 2^64 - 1");
        run_args.seed = value;
      }
      return run_matrix(run_args);
    }
  } catch (const InputError& error) {
    std::cerr << "ladder: " << error.what() << "\n";
    return 2;
  } catch (const Unavailable& error) {
    std::cerr << "ladder: " << error.what() << "\n";
    return 3;
  } catch (const std::bad_alloc&) {
    std::cerr << "ladder: out of memory: tier '" << eval_args.tier
              << "' could not allocate what it needs for n = " << eval_args.n << "\n";
    return 1;
  } catch (const std::length_error&) {
    std::cerr << "ladder: n = " << eval_args.n << " is more nodes than tier '" << eval_args.tier
              << "' can hold in memory\n";
    return 1;
  }
  return 0;
}

}  // namespace ladder
