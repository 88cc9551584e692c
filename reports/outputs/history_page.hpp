// `ladder history report`: the history as one static page, index.html, made from series in memory
// (history/history_detect.hpp) — no script, no external request, every string escaped, like report.html.
//
// One section per series (tier × n × threads × machine) with one chart: x = the runs in commit order (ticks
// labelled with their commits where they fit); the median time with markers and the band from each run's
// min to its max; the instruction count per node on the right axis where any run has one; each detected
// change a vertical line labelled with the commit where the new level starts ("… instructions" for a
// change in the count), its figures in the tooltip, as each point's are. Then one table of every detected
// change, newest first.
#pragma once

#include <string>
#include <vector>

#include "history_detect.hpp"

namespace ladder::report {

struct HistoryPageInput {
  std::string title = "Ladder history";
  std::vector<history::HistorySeries> series{};  // one machine each; charted in this order
  history::DetectOptions options{};  // the detection the page marks and lists (its parameters are stated)
};

// The page as text (index.html's contents).
std::string history_page_html(const HistoryPageInput& input);
// Writes out_dir/index.html atomically (the directory is created); WriteError when it cannot.
void write_history_page(const HistoryPageInput& input, const std::string& out_dir);

}  // namespace ladder::report
