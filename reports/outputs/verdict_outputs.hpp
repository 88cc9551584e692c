// Verdicts where people and CI read them: the terminal table, Markdown for a job summary or a pull-request
// comment, GitHub's workflow annotations and Bencher's metric format. `ladder ab`, `ladder compare` and
// `ladder history check` all hand their VerdictRows (common/noise/noise.hpp) here, so every output of every
// command says the same thing about a cell.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "noise.hpp"

namespace ladder::report {

// What a command was asked to write besides its table: --summary FILE, --bmf FILE (empty: none),
// --annotations, and --fail-above (which slower cells are errors rather than warnings).
struct VerdictOutputs {
  std::string summary, bmf;
  bool annotations = false;
  std::optional<double> fail_above_percent;
};

// A row whose threshold has no source was judged against none (two runs measured apart on a machine whose
// run-to-run noise is unknown): every output shows it without a verdict, its note saying why, once. A
// failed row (a process that failed: nothing measured) has none either: every output says "failed".
bool has_verdict(const VerdictRow& row);

// Whether a row fails the gate: failed (nothing measured: a head that crashes never passes), or slower and,
// when fail_above_percent is given, its ratio more than that many per cent above 1. The one rule behind
// every command's exit code 1 and the annotations' `::error`.
bool fails_gate(const VerdictRow& row, std::optional<double> fail_above_percent);

// The rows' tally: "1 slower, 1 faster, 2 no change, 1 undecided", then ", 1 failed" and ", 3 without a
// verdict" when some are.
std::string verdict_tally(const std::vector<VerdictRow>& rows);

// The human table: one line a cell, worst first (sort_worst_first): the cell, the ratio head/base, its 95 %
// interval as "1.046–1.058" (or "—" when none), the pairs, the verdict, and for an undecided cell its note
// (how many more pairs would likely settle it). Then one line giving the threshold and where it came from.
std::string verdict_table(std::vector<VerdictRow> rows, const std::string& base_label,
                          const std::string& head_label);

// Markdown for $GITHUB_STEP_SUMMARY or a pull-request comment: the title, a one-line tally (N slower,
// N faster, N no change, N undecided), the threshold and its source, and a table worst first with the
// change in per cent, its interval, the verdict and the pairs or the note. Pipes in cell names are escaped.
std::string verdict_markdown(std::vector<VerdictRow> rows, const std::string& title);

// GitHub workflow commands, one line per failed or slower cell: `::error` when the cell fails the gate
// (failed, or slower and more than fail_above_percent slower when that is given), else `::warning`. Escaped
// by GitHub's rules.
std::string verdict_annotations(const std::vector<VerdictRow>& rows,
                                std::optional<double> fail_above_percent);

// Bencher Metric Format: {"<cell>": {"latency": {"value": head ns, "lower_value", "upper_value"},
// "ratio": {"value", "lower_value", "upper_value"}}}. Latency's bounds are the head time scaled by the
// interval's ends over the ratio; a cell without a head time has only "ratio", one without an interval no
// lower or upper values. A failed cell, which has neither, is left out.
nlohmann::json verdict_bmf(const std::vector<VerdictRow>& rows);

// Whether what `outputs` names can be written, before a command measures or reads anything
// (verdict_files.cpp): InputError naming the path and why not. The summary is appended to, as GitHub's
// $GITHUB_STEP_SUMMARY expects: a new path, or a text file (never a database or a binary). The BMF file is
// written whole: a new path, an empty file, or Bencher metric format as --bmf writes it, never another file.
// --summary and --bmf may not name one file.
void check_verdict_outputs(const VerdictOutputs& outputs);

// Writes what `outputs` asks for, its paths checked first (check_verdict_outputs): the summary appended
// (after a blank line where the file holds something), the BMF file atomically (a file that cannot be written
// is a WriteError naming it), the annotations on stdout.
void write_verdict_outputs(const std::vector<VerdictRow>& rows, const VerdictOutputs& outputs,
                           const std::string& title);

}  // namespace ladder::report
