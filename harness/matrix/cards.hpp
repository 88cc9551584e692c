// The cards as the results carry them (common/results_file.hpp's CardRecord): a C++ tier's, with what the
// build read from its disassembly, or a peer's, with its language and size limit. `ladder list --json`
// prints the same records.
#pragma once

#include <string>
#include <vector>

#include "results_file.hpp"
#include "tier.hpp"

namespace ladder {

CardRecord card_record(const TierCard& card);
// The cards of these tiers or peers, with whether each can run here and why not.
std::vector<CardRecord> tier_cards(const std::vector<std::string>& ids);

}  // namespace ladder
