// `ladder history report`: the history as one static page, index.html, made from series in memory
// (history_detect.hpp) — no script, no external request, every string escaped, like report.html.
//
// One section per series (tier × n × threads × machine): a chart of the median over runs, with the min
// and max as two more lines (svg.hpp's line_chart draws lines, not bands), x = the run's index in commit
// order, each point's tooltip naming its run, commit and figures; the instruction count per node in a
// second, smaller chart right under it on the same x range (line_chart has one y axis); each detected
// change a vertical line labelled with the commit where the new level starts. Then one table of every
// detected change, newest first.
#pragma once

#include <string>
#include <vector>

#include "history_detect.hpp"

namespace ladder::report {

struct HistoryPageInput {
  std::string title = "Ladder history";
  std::vector<HistorySeries> series{};  // one machine each; charted in this order
  DetectOptions options{};              // the detection the page marks and lists (its parameters are stated)
};

// The page as text (index.html's contents).
std::string history_page_html(const HistoryPageInput& input);
// Writes out_dir/index.html atomically (the directory is created); WriteError when it cannot.
void write_history_page(const HistoryPageInput& input, const std::string& out_dir);

}  // namespace ladder::report
