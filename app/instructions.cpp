// `ladder instructions`: instructions a node for each tier under callgrind, against a baseline.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "json_reader.hpp"
#include "profiling.hpp"
#include "registry.hpp"
#include "results_file.hpp"
#include "text.hpp"

namespace ladder::app {
namespace {

const InstructionCounts::Tier* count_of(const InstructionCounts& counts, const std::string& id) {
  for (const auto& tier : counts.tiers)
    if (tier.id == id) return &tier;
  return nullptr;
}

// The exit code of a comparison that cannot be made here: automake's "skipped", which ctest reads through
// SKIP_RETURN_CODE, so a test against a baseline from another toolchain says so instead of failing or
// passing by accident.
constexpr int not_comparable_exit = 77;

// A baseline: a file `ladder instructions --json` wrote, for the same target and integrand.
InstructionCounts read_instruction_baseline(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError("--baseline '" + path + "' cannot be read: " + std::strerror(errno));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const nlohmann::json document = nlohmann::json::parse(text, nullptr, false);
  if (document.is_discarded())
    throw InputError("--baseline '" + path +
                     "' is not JSON; give a file written by `ladder instructions --json`");
  InstructionCounts baseline;
  try {
    baseline = read_instruction_counts(JsonReader(document));
  } catch (const SchemaError& problem) {
    throw InputError("--baseline '" + path + "': " + problem.what() +
                     "; give a file written by `ladder instructions --json`");
  }
  if (!baseline.available || baseline.tiers.empty())
    throw InputError("--baseline '" + path +
                     "' holds no instruction counts; give a file written by "
                     "`ladder instructions --json`");
  return baseline;
}

// Why the baseline's counts cannot be compared with this build's, or empty. Instruction counts move with
// the compiler's code and with glibc's libm and libmvec (profiling::toolchain says why not with the CPU).
std::string toolchain_mismatch(const std::string& path, const InstructionCounts& baseline) {
  const nlohmann::json toolchain = profiling::toolchain();  // items() refers to it: not a temporary
  for (const auto& [key, ours] : toolchain.items()) {
    const auto then = baseline.all.value(key, nlohmann::json());
    if (then.is_null())
      throw InputError("--baseline '" + path + "' records no " + key +
                       "; refresh it with `ladder instructions --json > " + path + "`");
    if (then != ours)
      return "--baseline '" + path + "' was counted with " + key + " " + then.dump() + ", this build has " +
             ours.dump() + "; refresh it with `ladder instructions --json > " + path + "` on this toolchain";
  }
  return "";
}

void check_same_cell(const std::string& path, const InstructionCounts& baseline,
                     const InstructionCounts& now) {
  for (const char* key : {"target", "integrand", "n"}) {
    const auto then = baseline.all.value(key, nlohmann::json()),
               counted = now.all.value(key, nlohmann::json());
    if (then != counted)
      throw InputError("--baseline '" + path + "' was counted with " + key + " = " + then.dump() +
                       ", this build counts with " + counted.dump() + ": the figures are not comparable");
  }
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
  const bool compared = !baseline_path.empty();
  const InstructionCounts baseline =
      compared ? read_instruction_baseline(baseline_path) : InstructionCounts{};
  if (compared)
    if (const std::string mismatch = toolchain_mismatch(baseline_path, baseline); !mismatch.empty()) {
      std::printf("instructions not compared (skipped): %s\n", mismatch.c_str());
      return not_comparable_exit;
    }
  const std::string integrand =
      integrands()[integrand_name.empty() ? 0 : find_integrand(integrand_name)].name;
  const nlohmann::json counted = profiling::count_instructions(ids, integrand, 0, 1);
  const InstructionCounts counts = read_instruction_counts(JsonReader(counted, "counts"));
  if (as_json) {
    std::printf("%s\n", counted.dump(2).c_str());
    return counts.available ? 0 : 3;
  }
  if (!counts.available) {
    std::fprintf(stderr, "ladder: instructions %s\n", counts.reason.c_str());
    return 3;
  }
  if (compared) check_same_cell(baseline_path, baseline, counts);
  std::printf("instructions a node, %s on [0, 1], counted by %s on the -march=%s profiling build\n",
              integrand.c_str(), counts.tool.c_str(), counts.target.c_str());
  if (compared) std::printf("  %-16s %10s %10s %9s\n", "tier", "now", "baseline", "change");
  std::vector<std::string> grown, lost;
  for (const auto& id : ids) {
    const auto* entry = count_of(counts, id);
    if (!entry) continue;
    const auto* before = compared ? count_of(baseline, id) : nullptr;
    if (!entry->per_node) {
      std::printf("  %-16s %s\n", id.c_str(), entry->unavailable.c_str());
      // A tier the baseline counted that cannot be counted now is a failure, not a pass by omission.
      if (before && before->per_node) lost.push_back(id);
      continue;
    }
    const double now = *entry->per_node;
    if (!compared) {
      std::printf("  %-16s %10.2f\n", id.c_str(), now);
    } else if (!before || !before->per_node) {
      std::printf("  %-16s %10.2f %10s %9s\n", id.c_str(), now, "–", "new");
    } else {
      const double then = *before->per_node;
      const double change = 100 * (now - then) / then;
      const bool worse = change > max_increase_percent;
      if (worse) grown.push_back(id + " (" + format_number("%+.1f", change) + " %)");
      std::printf("  %-16s %10.2f %10.2f %+8.1f %%%s\n", id.c_str(), now, then, change,
                  worse ? "  more than allowed" : "");
    }
  }
  if (!grown.empty())
    std::printf("instructions a node grew by more than %s %% on: %s\n",
                format_number("%g", max_increase_percent).c_str(), join(grown).c_str());
  if (!lost.empty()) std::printf("counted in the baseline, not counted now: %s\n", join(lost).c_str());
  return grown.empty() && lost.empty() ? 0 : 1;
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
