// The table printed at the end of `ladder run`: every cell (by integrand, in a column of its own when the run
// has several), then the warnings and where the results are.
#pragma once

#include <nlohmann/json.hpp>

#include "cell_result.hpp"
#include "output_directory.hpp"

namespace ladder {

void print_summary(const Journal& journal, const nlohmann::json& run, const Paths& paths);

}  // namespace ladder
