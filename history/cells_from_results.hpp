// A results file's records as the store's cells (internal to history/): what Store::record writes.
#pragma once

#include <vector>

#include "history_store.hpp"
#include "results_file.hpp"

namespace ladder::history {

// The file's cells, in order, from its records (results_file.hpp's cells).
std::vector<StoredCell> cells_of(const ResultsFile& file);

}  // namespace ladder::history
