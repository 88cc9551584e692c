// The sections on the machine's shape: its topology in one line, and how each parallel tier scales on it.
#include <map>
#include <set>

#include "scaling.hpp"
#include "sections.hpp"

namespace ladder::report {

void topologies(Document& doc, const std::vector<Run>& runs) {
  std::vector<std::string> lines;
  std::set<std::string> seen;
  for (const auto& run : runs) {
    std::string line = "**" + (run.host.empty() ? run.machine : run.host) + "**: ";  // one line a machine
    if (run.topology)
      line += run.topology->describe() +
              (run.topology->source == "this machine" ? "" : " (" + run.topology->source + ")");
    else
      line += "topology not recorded (" + run.path + " was written before Ladder read it)";
    if (seen.insert(line).second) lines.push_back(line);
  }
  doc.push_back(paragraph("Topology, as hwloc saw each machine when it ran:"));
  doc.push_back(list(lines));
}

namespace {

// The table of one machine: a row a line, a column a measured count, and where each count ran.
Table scaling_table(const std::vector<TierScaling>& lines) {
  std::map<int, std::string> where;  // count -> its placement, from the first cell that recorded one
  for (const auto& line : lines)
    for (const auto& step : line.steps)
      if (!line.ranks && (!where.count(step.count) || where[step.count] == "not recorded"))
        where[step.count] = placement_text(step.cell->placement);
  std::set<int> counts;
  for (const auto& line : lines)
    for (const auto& step : line.steps) counts.insert(step.count);
  Table table{{"tier"}, {}};
  for (const int count : counts) table.header.push_back(std::to_string(count));
  table.header.push_back("where it stops gaining");
  std::vector<std::string> placed = {"placement"};
  for (const int count : counts) placed.push_back(where.count(count) ? where[count] : "–");
  placed.push_back("");
  for (const auto& line : lines) {
    std::vector<std::string> row = {line.series};
    for (const int count : counts) {
      std::string text = "–";
      for (const auto& step : line.steps)
        if (step.count == count)
          text = times(step.speedup) + " · " + percent(step.efficiency, 0) +
                 (line.stops_gaining == count ? " ◇" : "");
      row.push_back(text);
    }
    row.push_back(line.verdict);
    table.rows.push_back(row);
  }
  table.rows.push_back(placed);
  return table;
}

}  // namespace

void scaling(Document& doc, const std::vector<Analysis>& analyses) {
  for (const auto& analysis : analyses) {
    const Run& run = *analysis.run;
    doc.push_back(heading(2, "Thread scaling at n = " + format_count(static_cast<double>(analysis.n)) +
                                 (analyses.size() > 1 ? " on " + run.machine : "")));
    const auto lines = thread_scaling(run, analysis.n);
    if (lines.empty()) {
      doc.push_back(paragraph("No parallel tier was measured at more than one thread count at this size."));
      continue;
    }
    doc.push_back(paragraph(
        "Each cell: the speedup against the tier's own 1-thread median · the parallel efficiency (speedup ÷ "
        "threads; 100 % is ideal). ◇ marks where the tier stops gaining: past it, more cores are wasted on "
        "this kernel. " +
        stop_rule()));
    doc.push_back(table(scaling_table(lines)));
    if (!run.topology) {
      doc.push_back(paragraph("This results file did not record the topology: no boundaries to mark."));
      continue;
    }
    std::string marks;
    for (const auto& boundary : boundaries(*run.topology))
      marks += (marks.empty() ? "" : ", ") + boundary.label + " at " + std::to_string(boundary.threads);
    if (marks.empty()) marks = "none, on one core";
    doc.push_back(paragraph("The charts' dotted lines on " + run.machine + " (" + run.topology->describe() +
                            "), the most threads each holds: " + marks + "."));
  }
}

}  // namespace ladder::report
