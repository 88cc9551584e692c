// The table printed at the end of `ladder run`: every cell (by integrand, in a column of its own when the run
// has several), then the warnings and where the results are.
#pragma once

#include "journal.hpp"
#include "output_directory.hpp"

namespace ladder {

void print_summary(const Journal& journal, const RunRecord& run, const Paths& paths);

}  // namespace ladder
