// `ladder instructions`: instructions a node for each tier under callgrind, with the FLOPs and FP
// instructions a node from the same runs, against a baseline (the gate itself:
// harness/profiling/instruction_gate.hpp).
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>

#include "commands.hpp"
#include "errors.hpp"
#include "instruction_gate.hpp"
#include "json_reader.hpp"
#include "profiling.hpp"
#include "registry.hpp"
#include "results_file.hpp"
#include "text.hpp"

namespace ladder::app {
namespace {

// FLOPs and FP instructions a node of a tier, as the table prints them: "34.00   5.31", or dashes when not
// counted.
std::string flops_text(const InstructionCounts& counts, const std::string& tier) {
  const InstructionCounts::Tier* counted = counts.find(tier);
  char text[48];
  if (!counted || !counted->flops_per_node)
    std::snprintf(text, sizeof text, "%12s %11s", "–", "–");  // a dash is three bytes, one column
  else
    std::snprintf(text, sizeof text, "%10.2f %9.2f", *counted->flops_per_node,
                  counted->fp_instructions_per_node.value_or(0));
  return text;
}

// The table of counts (and, against a baseline, the change) with the FLOPs beside, then what failed.
void print_verdict(const profiling::GateVerdict& verdict, const InstructionCounts& counts,
                   const std::string& integrand, bool compared, double max_increase_percent) {
  std::printf("instructions a node, %s on [0, 1], counted by %s on the -march=%s profiling build\n",
              integrand.c_str(), counts.tool.c_str(), counts.target.c_str());
  if (compared)
    std::printf("  %-16s %10s %10s %9s %10s %9s\n", "tier", "now", "baseline", "change", "FLOPs", "FP instr");
  else
    std::printf("  %-16s %10s %10s %9s\n", "tier", "instr", "FLOPs", "FP instr");
  for (const auto& row : verdict.rows) {
    const char* id = row.tier.c_str();
    const std::string flops = flops_text(counts, row.tier);
    if (!row.now)
      std::printf("  %-16s %s\n", id, row.unavailable.c_str());
    else if (!compared)
      std::printf("  %-16s %10.2f %s\n", id, *row.now, flops.c_str());
    else if (!row.then)
      std::printf("  %-16s %10.2f %10s %9s %s\n", id, *row.now, "–", "new", flops.c_str());
    else
      std::printf("  %-16s %10.2f %10.2f %+8.1f %% %s%s\n", id, *row.now, *row.then, row.change_percent,
                  flops.c_str(), row.over ? "  more than allowed" : "");
  }
  std::printf("FLOPs: %s\n", counts.flops_method.empty() ? "not counted" : counts.flops_method.c_str());
  if (!verdict.grown.empty())
    std::printf("instructions a node grew by more than %s %% on: %s\n",
                format_number("%g", max_increase_percent).c_str(), join(verdict.grown).c_str());
  if (!verdict.lost.empty())
    std::printf("counted in the baseline, not counted now: %s\n", join(verdict.lost).c_str());
}

int print_instructions(std::vector<std::string> ids, const std::string& integrand_name, bool as_json,
                       const std::string& baseline_path, double max_increase_percent) {
  if (ids.empty())
    for (const auto& tier : tiers()) ids.push_back(tier.card.id);
  for (const auto& id : ids) find_tier(id);  // an unknown id is an error naming the known ones
  if (!(max_increase_percent >= 0))
    throw InputError("--max-increase " + format_number("%g", max_increase_percent) +
                     " is not a percentage of 0 or more");
  std::optional<InstructionCounts> baseline;
  if (!baseline_path.empty()) {
    baseline = profiling::read_instruction_baseline(baseline_path);
    if (const std::string mismatch = profiling::toolchain_mismatch(baseline_path, *baseline);
        !mismatch.empty()) {
      std::printf("instructions not compared (skipped): %s\n", mismatch.c_str());
      return exit_instructions_not_comparable;
    }
  }
  const std::string integrand =
      integrands()[integrand_name.empty() ? 0 : find_integrand(integrand_name)].name;
  const InstructionCounts counts = profiling::count_instructions(ids, integrand, 0, 1);
  if (as_json) {
    std::printf("%s\n", nlohmann::json(counts).dump(2).c_str());
    return counts.available ? exit_ok : exit_unavailable;
  }
  if (!counts.available) {
    std::fprintf(stderr, "ladder: instructions %s\n", counts.reason.c_str());
    return exit_unavailable;
  }
  if (baseline) profiling::check_same_cell(baseline_path, *baseline, counts);
  const auto verdict = profiling::judge_instructions(ids, counts, baseline, max_increase_percent);
  print_verdict(verdict, counts, integrand, baseline.has_value(), max_increase_percent);
  return verdict.passed() ? exit_ok : exit_failed;
}

}  // namespace

Command add_instructions(CLI::App& app) {
  struct Options {
    std::vector<std::string> tiers;
    std::string integrand, baseline;
    bool json = false;
    double max_increase = 1;
  };
  auto options = std::make_shared<Options>();
  auto* instructions = app.add_subcommand(
      "instructions", "instructions a node for each tier (callgrind): the same on every run, unlike time");
  instructions->add_option("--tiers", options->tiers, "tier ids, comma-separated (default: every tier)")
      ->delimiter(',');
  instructions->add_option("--integrand", options->integrand,
                           "integrand: " + integrand_names() + " (default gauss)");
  instructions->add_option("--baseline", options->baseline,
                           "compare with counts saved from `ladder instructions --json`; exit 1 when a "
                           "tier needs more, 77 (skipped) when they were counted with another compiler or "
                           "glibc");
  instructions->add_option("--max-increase", options->max_increase,
                           "per cent more instructions a node tolerated against --baseline (default 1)");
  instructions->add_flag("--json", options->json, "the counts as JSON, as `ladder run` records them");
  return {instructions, [options] {
            return print_instructions(options->tiers, options->integrand, options->json, options->baseline,
                                      options->max_increase);
          }};
}

}  // namespace ladder::app
