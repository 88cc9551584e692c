// The instruction-count gate of `ladder instructions --baseline`: this build's instructions a node for each
// tier against a baseline that `ladder instructions --json` wrote, and the verdict. Counts move with the
// compiler and glibc (profiling::toolchain says why not with the CPU): a baseline counted under another
// toolchain is not compared at all, and one counted for another target, integrand or sizes is refused.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "results_file.hpp"

namespace ladder::profiling {

// A baseline file; InputError naming the file and what is wrong with it (missing, not JSON, no counts).
InstructionCounts read_instruction_baseline(const std::string& path);

// Why the baseline's counts cannot be compared with this build's (another compiler or glibc), or empty;
// InputError when the baseline does not record them.
std::string toolchain_mismatch(const std::string& path, const InstructionCounts& baseline);

// InputError when the baseline was counted for another target, integrand or sizes than `now`.
void check_same_cell(const std::string& path, const InstructionCounts& baseline,
                     const InstructionCounts& now);

// One tier, now and in the baseline (per node; unset: not counted, or not in the baseline).
struct GateRow {
  std::string tier;
  std::optional<double> now, then;
  std::string unavailable;    // why it is not counted now
  double change_percent = 0;  // (now - then) / then, when both are there
  bool over = false;          // more than the increase allowed
};

struct GateVerdict {
  std::vector<GateRow> rows;       // the tiers asked for that were counted or tried, in that order
  std::vector<std::string> grown;  // "tier (+3.2 %)": more instructions than allowed
  std::vector<std::string> lost;   // counted in the baseline, not counted now: a failure, not a pass
  bool passed() const { return grown.empty() && lost.empty(); }
};

// The verdict on `ids` (without a baseline, only the rows): a tier fails when it needs more than
// max_increase_percent more instructions a node, or when the baseline counted it and this build cannot.
GateVerdict judge_instructions(const std::vector<std::string>& ids, const InstructionCounts& now,
                               const std::optional<InstructionCounts>& baseline, double max_increase_percent);

}  // namespace ladder::profiling
