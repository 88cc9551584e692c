#include "instruction_gate.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <tuple>

#include "atomic_file.hpp"
#include "errors.hpp"
#include "json_reader.hpp"
#include "profiling.hpp"
#include "text.hpp"

namespace ladder::profiling {
InstructionCounts read_instruction_baseline(const std::string& path) {
  const std::string text = read_whole_file(path, "--baseline");
  const nlohmann::json document = parse_json_document(text, "--baseline '" + path + "'");
  if (document.is_discarded())
    throw InputError("--baseline '" + path +
                     "' is not JSON; give a file written by `ladder instructions --json`");
  // A baseline from before the counts recorded their toolchain cannot be judged comparable: say how to
  // refresh it rather than which field is missing.
  if (document.is_object() && document.value("available", false))
    for (const char* key : {"compiler", "glibc"})
      if (!document.contains(key))
        throw InputError("--baseline '" + path + "' records no " + key +
                         "; refresh it with `ladder instructions --json > " + path + "`");
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

std::string toolchain_mismatch(const std::string& path, const InstructionCounts& baseline) {
  const Toolchain ours = toolchain();
  for (const auto& [key, then, now] : {std::tuple{"compiler", baseline.compiler, ours.compiler},
                                       std::tuple{"glibc", baseline.glibc, ours.glibc}})
    if (then != now)
      return "--baseline '" + path + "' was counted with " + key + " \"" + then + "\", this build has \"" +
             now + "\"; refresh it with `ladder instructions --json > " + path + "` on this toolchain";
  return "";
}

void check_same_cell(const std::string& path, const InstructionCounts& baseline,
                     const InstructionCounts& now) {
  const auto refuse = [&](const char* key, const std::string& then, const std::string& counted) {
    throw InputError("--baseline '" + path + "' was counted with " + key + " = " + then +
                     ", this build counts with " + counted + ": the figures are not comparable");
  };
  if (baseline.target != now.target) refuse("target", '"' + baseline.target + '"', '"' + now.target + '"');
  if (baseline.integrand != now.integrand)
    refuse("integrand", '"' + baseline.integrand + '"', '"' + now.integrand + '"');
  if (baseline.n != now.n) refuse("n", nlohmann::json(baseline.n).dump(), nlohmann::json(now.n).dump());
}

GateVerdict judge_instructions(const std::vector<std::string>& ids, const InstructionCounts& now,
                               const std::optional<InstructionCounts>& baseline,
                               double max_increase_percent) {
  GateVerdict verdict;
  for (const auto& id : ids) {
    const auto* entry = now.find(id);
    if (!entry) continue;
    const auto* before = baseline ? baseline->find(id) : nullptr;
    GateRow row{id, entry->per_node, before ? before->per_node : std::nullopt, entry->unavailable};
    if (!row.now) {
      if (row.then) verdict.lost.push_back(id);
    } else if (row.then) {
      row.change_percent = 100 * (*row.now - *row.then) / *row.then;
      row.over = row.change_percent > max_increase_percent;
      if (row.over) verdict.grown.push_back(id + " (" + format_number("%+.1f", row.change_percent) + " %)");
    }
    verdict.rows.push_back(row);
  }
  return verdict;
}

}  // namespace ladder::profiling
