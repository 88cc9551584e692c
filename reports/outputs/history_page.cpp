#include "history_page.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <system_error>

#include "atomic_file.hpp"
#include "choose.hpp"
#include "document.hpp"
#include "errors.hpp"
#include "renderers.hpp"
#include "svg.hpp"
#include "text.hpp"

namespace ladder::report {

// The history's series and what its change detection finds in them (history/history_detect.hpp).
using history::CellRun;
using history::ChangeKind;
using history::DetectedChange;
using history::DetectOptions;
using history::HistorySeries;

namespace {

std::string short_hash(const std::string& commit) { return commit.substr(0, 7); }

std::string run_words(const CellRun& run) {
  return "run " + run.run_id + ", commit " + short_hash(run.commit) +
         (run.dirty ? " (uncommitted changes)" : "") + (run.time.empty() ? "" : ", " + run.time);
}

// The time axis' unit, from the slowest median: seconds read as 1.2 ms, not 0.0012.
std::pair<double, std::string> time_unit(const HistorySeries& series) {
  double largest = 0;
  for (const auto& run : series.runs)
    if (std::isfinite(run.max)) largest = std::max({largest, run.max, run.median});
  if (largest >= 1) return {1, "s"};
  if (largest >= 1e-3) return {1e3, "ms"};
  if (largest >= 1e-6) return {1e6, "µs"};
  return {1e9, "ns"};
}

// Runs on x by index, in commit order, each tick labelled with its commit (those that fit).
svg::Axis run_axis(const HistorySeries& series) {
  svg::Axis axis{"commit, oldest to newest (one run each; every commit in the tooltips)"};
  axis.min = -0.5;
  axis.max = static_cast<double>(series.runs.size()) - 0.5;
  for (std::size_t i = 0; i < series.runs.size(); ++i) {
    axis.ticks.push_back(static_cast<double>(i));
    axis.tick_labels.push_back(short_hash(series.runs[i].commit));
  }
  return axis;
}

std::string level(const DetectedChange& change) {
  return change.kind == ChangeKind::time
             ? format_seconds(change.before) + " → " + format_seconds(change.after)
             : format_number("%.6g", change.before) + " → " + format_number("%.6g", change.after);
}

std::string relative_change(const DetectedChange& change) {
  return format_number("%+.1f %%", (change.ratio - 1) * 100) + " " + direction(change);
}

// Each change a vertical line at the first run of its new level, labelled with that run's commit (and
// "instructions" or "FLOPs" for a change in a count), its figures in the tooltip.
std::vector<svg::Marker> change_markers(const std::vector<DetectedChange>& changes) {
  std::vector<svg::Marker> markers;
  for (const auto& change : changes) {
    const bool time = change.kind == ChangeKind::time, flops = change.kind == ChangeKind::flops;
    markers.push_back({static_cast<double>(change.index),
                       short_hash(change.commit) + (time    ? ""
                                                    : flops ? " FLOPs"
                                                            : " instructions"),
                       (time    ? "Time"
                        : flops ? "FLOPs per node"
                                : "Instructions per node") +
                           std::string(" from commit ") + short_hash(change.commit) + " (run " +
                           change.run_id + "): " + level(change) + ", " + relative_change(change)});
  }
  return markers;
}

// One chart: the median time (markers) with its run's min–max band on the left axis, the instructions
// per node (where any run has a count) on the right, the changes marked.
Chart series_chart(const HistorySeries& series, const std::string& id,
                   const std::vector<DetectedChange>& changes) {
  const auto [scale, unit] = time_unit(series);
  svg::Series median{.name = "median time", .style = svg::Style::line_and_markers, .color = "#0072b2"};
  median.band_name = "min–max of each run";
  svg::Series counts{.name = "instructions per node",
                     .style = svg::Style::line_and_markers,
                     .color = "#cc79a7",
                     .right_axis = true};
  for (std::size_t i = 0; i < series.runs.size(); ++i) {
    const CellRun& run = series.runs[i];
    const auto x = static_cast<double>(i);
    median.points.push_back(
        {x, run.median * scale,
         run_words(run) + ": median " + format_seconds(run.median) + ", min " + format_seconds(run.min) +
             ", max " + format_seconds(run.max) + ", " +
             counted(static_cast<int>(run.repetitions.size()), "repetition", "repetitions") +
             (run.instructions_per_node
                  ? ", " + format_number("%.6g", *run.instructions_per_node) + " instructions per node"
                  : "")});
    median.band.push_back({x, run.min * scale, run.max * scale});
    if (run.instructions_per_node)
      counts.points.push_back({x, *run.instructions_per_node,
                               run_words(run) + ": " + format_number("%.6g", *run.instructions_per_node) +
                                   " instructions per node"});
  }
  svg::Plot chart;
  chart.id = id;
  chart.title = counts.points.empty() ? "Time per run: median and min–max"
                                      : "Time per run (median, min–max) and instructions per node";
  chart.x = run_axis(series);
  chart.y = {"time (" + unit + ")"};
  chart.series = {median};
  if (!counts.points.empty()) {
    chart.y2 = {"instructions per node"};
    chart.series.push_back(counts);
  }
  chart.markers = change_markers(changes);
  // Each series is named by its axis' title and the legend; an end label beyond the right axis would need
  // a leader across that axis' tick labels.
  chart.end_labels = false;
  chart.width = 900;
  chart.height = 400;
  return {id, svg::line_chart(chart)};
}

struct Listed {
  const HistorySeries* series;
  DetectedChange change;
};

Table changes_table(std::vector<Listed> listed) {
  // Newest first: by the time of the run where the change starts, then by its place in its series.
  std::stable_sort(listed.begin(), listed.end(), [](const Listed& a, const Listed& b) {
    return a.change.time != b.change.time ? a.change.time > b.change.time : a.change.index > b.change.index;
  });
  Table table{{"starts at commit", "run", "time", "cell", "machine", "before → after", "change"}, {}};
  for (const auto& [series, change] : listed)
    table.rows.push_back({short_hash(change.commit), change.run_id, change.time,
                          is_repository_benchmark(series->coordinates())
                              ? series->tier_id + ", " + series->integrand
                              : series->tier + ", n = " + format_count(static_cast<double>(series->n)) +
                                    ", " + counted(series->threads, "thread", "threads"),
                          series->machine, level(change), relative_change(change)});
  return table;
}

std::string method_text(const DetectOptions& options) {
  return "Each series is one tier at one size and thread count on one machine; runs on different machines "
         "are "
         "never compared. A change in time is a step of a piecewise-constant fit of the medians (L1 cost, "
         "levels of " +
         std::to_string(options.min_segment_runs) +
         " runs or more, so one outlier run is never a change) "
         "larger than " +
         format_number("%g %%", options.step_threshold_percent) +
         " and than the noise of the levels on either side; a slow drift shows as a staircase of such steps. "
         "A change in instructions per node is any change over " +
         format_number("%g %%", options.instructions_percent) +
         " from one run to the next that has a count. Each chart shows the median time of each run with the "
         "band "
         "from its fastest to its slowest repetition, the instructions per node on the right axis, and marks "
         "each change at the first run of the new level, labelled with its commit.";
}

// The newest run against the previous one, judged as history check judges it: the ratio of their medians,
// the series' noise floor either side of it, against --min-change or else that floor.
std::string newest_text(const HistorySeries& series, const DetectOptions& options) {
  if (series.runs.size() < 2) return "One run so far: nothing to compare.";
  const CellRun& previous = series.runs[series.runs.size() - 2];
  const CellRun& newest = series.runs.back();
  const Threshold floor = noise_floor_of(series);
  const RatioInterval interval = apart_interval(newest.median / previous.median, floor.percent);
  return "Newest run against the previous one: " +
         to_string(judge(interval, options.min_change_percent.value_or(floor.percent))) + " (new/old " +
         format_number("%.3f", interval.ratio) + ", " + format_number("%.3f", interval.low) + "–" +
         format_number("%.3f", interval.high) + " with the run-to-run noise: " + floor.source + ").";
}

}  // namespace

std::string history_page_html(const HistoryPageInput& input) {
  Document doc{heading(1, input.title), paragraph(method_text(input.options))};
  std::vector<Listed> listed;
  Document sections;
  for (std::size_t k = 0; k < input.series.size(); ++k) {
    const HistorySeries& series = input.series[k];
    const auto changes = detect_changes(series, input.options);
    for (const auto& change : changes) listed.push_back({&series, change});
    sections.push_back(
        heading(2, describe(series) + ", " + counted(static_cast<int>(series.runs.size()), "run", "runs")));
    sections.push_back(paragraph(newest_text(series, input.options)));
    sections.push_back(charts({series_chart(series, "history-" + std::to_string(k + 1), changes)}));
  }
  doc.push_back(heading(2, "Detected changes, newest first"));
  if (listed.empty())
    doc.push_back(paragraph("No change detected in any series."));
  else
    doc.push_back(table(changes_table(listed)));
  doc.insert(doc.end(), sections.begin(), sections.end());
  return to_html(doc);
}

void write_history_page(const HistoryPageInput& input, const std::string& out_dir) {
  namespace fs = std::filesystem;
  std::error_code error;
  fs::create_directories(out_dir, error);
  if (error) throw WriteError("cannot create the directory '" + out_dir + "': " + error.message());
  write_file_atomically((fs::path(out_dir) / "index.html").string(), history_page_html(input));
}

}  // namespace ladder::report
