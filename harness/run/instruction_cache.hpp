// A run's instruction counts, kept once per profiling build and machine beside the calibration (in
// calibration.hpp's cache directory). Callgrind's counts depend on the profiling binary, the CPU valgrind
// runs on, the tiers and the integrand, not on the load: a later run of the same build here reads them back
// instead of counting again (9 s of a default run on a 2-vCPU VM). A file that is absent or damaged is
// counted afresh; deleting the cache directory counts again.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "instruction_counts.hpp"

namespace ladder {

// The file that holds the counts of `tiers` with `integrand` on [a, b], for the profiling build at hand.
std::string instructions_cache_file(const std::vector<std::string>& tiers, const std::string& integrand,
                                    double a, double b);
// The counts kept there, when they read and are available; their method says they were kept.
std::optional<InstructionCounts> cached_instructions(const std::vector<std::string>& tiers,
                                                     const std::string& integrand, double a, double b);
// Keeps available counts (a cache that cannot be written is no error); unavailable ones are not kept.
void keep_instructions(const std::vector<std::string>& tiers, const InstructionCounts& counts);

}  // namespace ladder
