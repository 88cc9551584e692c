// `ladder history report`: the history store's series (history/history_series.hpp) drawn as the history
// page (history_page.hpp).
#pragma once

#include <string>

#include "history_detect.hpp"
#include "history_series.hpp"
#include "history_store.hpp"

namespace ladder::report {

// The page of the series the filter keeps, as out_dir/index.html; returns its path. Like `ladder report
// --out`, it writes into a directory that holds other files, and replaces its own page; InputError (nothing
// written) when out_dir is a file, when out_dir/index.html is not an earlier history page, or when the
// filter keeps no series.
std::string write_history_report(const history::Store& store, const history::HistorySeriesFilter& filter,
                                 const history::DetectOptions& options, const std::string& out_dir);

}  // namespace ladder::report
