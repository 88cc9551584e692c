// A results file's entries regrouped into the store's cells (internal to history/): what Store::record
// writes.
#pragma once

#include <vector>

#include "history_store.hpp"
#include "results_file.hpp"

namespace ladder::history {

// The file's cells, in order, from its entries (repetitions, aggregates, or the one entry of a cell that did
// not run).
std::vector<StoredCell> cells_of(const ResultsFile& file);

}  // namespace ladder::history
