#include "verdict_outputs.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>
#include <utility>

#include "atomic_file.hpp"
#include "errors.hpp"
#include "quote.hpp"
#include "text.hpp"

namespace ladder::report {
namespace {

// The characters a terminal shows for UTF-8 text: its bytes less the continuation bytes ("–" is one).
std::size_t shown_width(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(
      text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string pad_right(const std::string& text, std::size_t width) {
  const std::size_t shown = shown_width(text);
  return shown >= width ? text : text + std::string(width - shown, ' ');
}

std::string pad_left(const std::string& text, std::size_t width) {
  const std::size_t shown = shown_width(text);
  return shown >= width ? text : std::string(width - shown, ' ') + text;
}

// "±5 %", "±2.5 %": a threshold as the outputs print it.
std::string plus_minus(double percent) { return "±" + format_number("%.3g", percent) + " %"; }

// "+5.2 %", "-3.0 %": a ratio as a change.
std::string change(double ratio) { return format_number("%+.1f", 100 * (ratio - 1)) + " %"; }

// The verdict as a word; "failed" for a cell whose process failed, "—" (or `none` where a word is wanted)
// for a row without one.
std::string verdict_word(const VerdictRow& row, const std::string& none = "—") {
  if (row.failed) return "failed";
  return has_verdict(row) ? to_string(row.verdict) : none;
}

// Whether the rows' thresholds differ, so that each row shows its own.
bool thresholds_differ(const std::vector<VerdictRow>& rows) {
  std::set<std::string> percents;
  for (const auto& row : rows)
    if (has_verdict(row)) percents.insert(plus_minus(row.threshold.percent));
  return percents.size() > 1;
}

// The lines under a table: the threshold and where it came from (or each cell's, when they differ), and
// why some rows have no verdict, each said once.
std::vector<std::string> threshold_lines(const std::vector<VerdictRow>& rows) {
  std::vector<std::pair<double, std::string>> thresholds;  // distinct, in the rows' order
  std::vector<std::string> notes, failures;  // of the rows without a verdict, and of the failed, distinct
  int unjudged = 0, failed = 0;
  for (const auto& row : rows) {
    if (row.failed) {
      ++failed;
      if (std::find(failures.begin(), failures.end(), row.note) == failures.end())
        failures.push_back(row.note);
      continue;
    }
    if (!has_verdict(row)) {
      ++unjudged;
      if (!row.note.empty() && std::find(notes.begin(), notes.end(), row.note) == notes.end())
        notes.push_back(row.note);
      continue;
    }
    // Alike as printed: floors that differ in the twelfth digit are one threshold to the reader.
    const std::pair<double, std::string> threshold{row.threshold.percent, row.threshold.source};
    const auto alike = [&](const auto& known) {
      return known.second == threshold.second && plus_minus(known.first) == plus_minus(threshold.first);
    };
    if (std::none_of(thresholds.begin(), thresholds.end(), alike)) thresholds.push_back(threshold);
  }
  std::vector<std::string> lines;
  if (thresholds.size() == 1) {
    lines.push_back("threshold: " + plus_minus(thresholds[0].first) + ", " + thresholds[0].second);
  } else if (thresholds.size() > 1) {
    const auto [least, most] = std::minmax_element(thresholds.begin(), thresholds.end());
    constexpr std::size_t shown = 3;
    std::vector<std::string> sources;
    for (const auto& [percent, source] : thresholds)
      if (std::find(sources.begin(), sources.end(), source) == sources.end()) sources.push_back(source);
    const std::size_t count = sources.size();
    sources.resize(std::min(count, shown));
    const std::string low = plus_minus(least->first), high = plus_minus(most->first);
    lines.push_back("thresholds: each cell's own, " + (low == high ? low : low + " to " + high) + ": " +
                    join(sources, "; ") +
                    (count > shown ? "; and " + std::to_string(count - shown) + " more" : ""));
  }
  if (failed > 0)
    lines.push_back(counted(failed, "cell", "cells") + " measured nothing: " + join(failures, "; "));
  if (unjudged > 0)
    lines.push_back("no verdict for " + counted(unjudged, "cell", "cells") +
                    (notes.empty() ? std::string() : ": " + join(notes, "; ")));
  return lines;
}

}  // namespace

std::string verdict_tally(const std::vector<VerdictRow>& rows) {
  int slower = 0, faster = 0, same = 0, undecided = 0, unjudged = 0, failed = 0;
  for (const auto& row : rows) {
    if (row.failed) {
      ++failed;
      continue;
    }
    if (!has_verdict(row)) {
      ++unjudged;
      continue;
    }
    slower += row.verdict == Verdict::slower;
    faster += row.verdict == Verdict::faster;
    same += row.verdict == Verdict::no_change;
    undecided += row.verdict == Verdict::undecided;
  }
  return std::to_string(slower) + " slower, " + std::to_string(faster) + " faster, " + std::to_string(same) +
         " no change, " + std::to_string(undecided) + " undecided" +
         (failed ? ", " + std::to_string(failed) + " failed" : "") +
         (unjudged ? ", " + std::to_string(unjudged) + " without a verdict" : "");
}

namespace {

// Markdown table text: a pipe would end the cell.
std::string markdown_cell(const std::string& text) {
  std::string escaped;
  for (const char c : text) {
    if (c == '|') escaped += '\\';
    escaped += c == '\n' ? ' ' : c;
  }
  return escaped;
}

// GitHub's workflow-command escaping: of a message, and of a property value (which ':' and ',' would end).
std::string escape_message(const std::string& text) {
  std::string escaped;
  for (const char c : text) {
    if (c == '%')
      escaped += "%25";
    else if (c == '\r')
      escaped += "%0D";
    else if (c == '\n')
      escaped += "%0A";
    else
      escaped += c;
  }
  return escaped;
}

std::string escape_property(const std::string& text) {
  std::string escaped;
  for (const char c : escape_message(text)) {
    if (c == ':')
      escaped += "%3A";
    else if (c == ',')
      escaped += "%2C";
    else
      escaped += c;
  }
  return escaped;
}

}  // namespace

bool has_verdict(const VerdictRow& row) { return !row.failed && !row.threshold.source.empty(); }

bool fails_gate(const VerdictRow& row, std::optional<double> fail_above_percent) {
  if (row.failed) return true;  // a head that crashes is no change that passes
  if (!has_verdict(row) || row.verdict != Verdict::slower) return false;
  return !fail_above_percent || 100 * (row.interval.ratio - 1) > *fail_above_percent;
}

std::string verdict_table(std::vector<VerdictRow> rows, const std::string& base_label,
                          const std::string& head_label) {
  sort_worst_first(rows);
  const bool own_thresholds = thresholds_differ(rows);
  std::size_t cell_width = 4;
  for (const auto& row : rows) cell_width = std::max(cell_width, shown_width(row.cell));
  const std::string ratio_label = head_label + "/" + base_label;
  const std::size_t ratio_width = std::max<std::size_t>(7, shown_width(ratio_label));
  const std::size_t interval_width = 13, pairs_width = 5, threshold_width = 9;
  std::string text = pad_right("cell", cell_width) + "  " + pad_left(ratio_label, ratio_width) + "  " +
                     pad_right("95 % interval", interval_width) + "  " + pad_left("pairs", pairs_width) +
                     (own_thresholds ? "  " + pad_right("threshold", threshold_width) : "") + "  verdict\n";
  for (const auto& row : rows) {
    const RatioInterval& interval = row.interval;
    const std::string range =
        interval.known() ? format_number("%.3f", interval.low) + "–" + format_number("%.3f", interval.high)
                         : "—";
    std::string line = pad_right(row.cell, cell_width) + "  " +
                       pad_left(row.failed ? "—" : format_number("%.3f", interval.ratio), ratio_width) +
                       "  " + pad_right(range, interval_width) + "  " +
                       pad_left(std::to_string(interval.pairs), pairs_width) + "  ";
    if (own_thresholds)
      line += pad_right(has_verdict(row) ? plus_minus(row.threshold.percent) : "—", threshold_width) + "  ";
    line += verdict_word(row);
    // An undecided row's note says what would settle it; a row without a verdict says why below, once.
    if (has_verdict(row) && row.verdict == Verdict::undecided && !row.note.empty()) line += "  " + row.note;
    text += line + "\n";
  }
  for (const auto& line : threshold_lines(rows)) text += line + "\n";
  return text;
}

std::string verdict_markdown(std::vector<VerdictRow> rows, const std::string& title) {
  sort_worst_first(rows);
  const bool own_thresholds = thresholds_differ(rows);
  std::string text = "## " + title + "\n\n" + verdict_tally(rows) + ".\n\n";
  for (const auto& line : threshold_lines(rows)) text += line + "\n\n";
  if (rows.empty()) return text + "No cell to compare.\n";
  text += std::string("| Cell | Change | 95 % interval |") + (own_thresholds ? " Threshold |" : "") +
          " Verdict | Pairs |\n|---|---:|---|" + (own_thresholds ? "---:|" : "") + "---|---|\n";
  for (const auto& row : rows) {
    const RatioInterval& interval = row.interval;
    std::string pairs = std::to_string(interval.pairs);
    if (has_verdict(row) && row.verdict == Verdict::undecided && !row.note.empty()) pairs += ": " + row.note;
    text += "| " + markdown_cell(row.cell) + " | " + (row.failed ? "—" : change(interval.ratio)) + " | " +
            (interval.known() ? change(interval.low) + " to " + change(interval.high) : "—") + " | " +
            (own_thresholds ? (has_verdict(row) ? plus_minus(row.threshold.percent) : "—") + " | " : "") +
            verdict_word(row, "no verdict") + " | " + markdown_cell(pairs) + " |\n";
  }
  return text;
}

std::string verdict_annotations(const std::vector<VerdictRow>& rows,
                                std::optional<double> fail_above_percent) {
  std::vector<VerdictRow> sorted = rows;
  sort_worst_first(sorted);
  std::string text;
  for (const auto& row : sorted) {
    if (row.failed) {
      text += "::error title=" + escape_property("failed: " + row.cell) +
              "::" + escape_message(row.cell + " measured nothing (" + row.note + ")") + "\n";
      continue;
    }
    if (!has_verdict(row) || row.verdict != Verdict::slower) continue;
    const RatioInterval& interval = row.interval;
    const bool error = fails_gate(row, fail_above_percent);
    std::string message = row.cell + " is " + format_number("%.1f", 100 * (interval.ratio - 1)) +
                          " % slower (95 % interval " + change(interval.low) + " to " +
                          change(interval.high) + ", " + counted(interval.pairs, "pair", "pairs") +
                          "), beyond the threshold " + plus_minus(row.threshold.percent) + ", " +
                          row.threshold.source;
    if (fail_above_percent)
      message += error ? "; over --fail-above " + format_number("%g", *fail_above_percent) + " %"
                       : "; under --fail-above " + format_number("%g", *fail_above_percent) + " %";
    text += std::string(error ? "::error" : "::warning") +
            " title=" + escape_property("slower: " + row.cell) + "::" + escape_message(message) + "\n";
  }
  return text;
}

nlohmann::json verdict_bmf(const std::vector<VerdictRow>& rows) {
  nlohmann::json document = nlohmann::json::object();
  for (const auto& row : rows) {
    if (row.failed) continue;  // nothing measured: no latency and no ratio to give Bencher
    const RatioInterval& interval = row.interval;
    nlohmann::json entry = nlohmann::json::object();
    if (row.head_seconds) {
      const double nanoseconds = *row.head_seconds * 1e9;
      nlohmann::json latency = {{"value", nanoseconds}};
      if (interval.known()) {
        latency["lower_value"] = nanoseconds * interval.low / interval.ratio;
        latency["upper_value"] = nanoseconds * interval.high / interval.ratio;
      }
      entry["latency"] = latency;
    }
    nlohmann::json ratio = {{"value", interval.ratio}};
    if (interval.known()) {
      ratio["lower_value"] = interval.low;
      ratio["upper_value"] = interval.high;
    }
    entry["ratio"] = ratio;
    document[row.cell] = entry;
  }
  return document;
}

void write_verdict_outputs(const std::vector<VerdictRow>& rows, const VerdictOutputs& outputs,
                           const std::string& title) {
  check_verdict_outputs(outputs);
  const auto write = [](const std::string& option, const std::string& path, const std::string& contents,
                        bool append) {
    try {
      if (append) {
        std::error_code error;
        const bool holds_something =
            std::filesystem::is_regular_file(path, error) && std::filesystem::file_size(path, error) > 0;
        append_to_file(path, (holds_something ? "\n" : "") + contents);
      } else {
        write_file_atomically(path, contents);
      }
    } catch (const WriteError& error) {
      throw WriteError(option + " '" + quote_text(path, 200) + "' could not be written: " + error.what());
    }
  };
  // A branch name need not be UTF-8; a job summary is read as UTF-8.
  if (!outputs.summary.empty())
    write("--summary", outputs.summary, utf8_replaced(verdict_markdown(rows, title)), true);
  if (!outputs.bmf.empty()) write("--bmf", outputs.bmf, dump_json(verdict_bmf(rows), 2) + "\n", false);
  if (outputs.annotations) {
    std::fputs(verdict_annotations(rows, outputs.fail_above_percent).c_str(), stdout);
    std::fflush(stdout);
  }
}

}  // namespace ladder::report
