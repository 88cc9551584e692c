// The sections on what was measured: the machines and how far to trust them, the ladder at one size,
// crossing from Python into C++, where the time goes, and every cell.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "disturbance.hpp"
#include "scaling.hpp"
#include "sections.hpp"

namespace ladder::report {
namespace {

std::string configuration(const Row& row) {
  const int threads = row.card->parallel ? row.cell->threads : 1;
  std::string result = counted(threads, "thread", "threads");
  if (row.card->distributed) result += " × " + counted(row.cell->ranks, "rank", "ranks");
  if (row.cell->oversubscribed) result += " (oversubscribed)";
  return result;
}

// A speedup in the ladder table: "179× (170–188×)", "≈ 1 (0.97–1.04×)" within the noise of 1; "1×" for the
// row it is against (naive against itself), "–" when there is none.
std::string speedup_text(const std::optional<RatioRange>& range, bool itself = false) {
  return itself ? "1×" : range ? ratio_text(*range) : "–";
}

std::string instructions_text(const Card& card) {
  return card.instructions_per_node ? format_number("%.1f", *card.instructions_per_node) : "–";
}

// The entry for one build; "linked": the build the run's own tiers came from.
const Card::Vectorization* vectorization(const Card& card, const std::string& build) {
  for (const auto& entry : card.vectorization)
    if (build == "linked" ? entry.linked : entry.build == build) return &entry;
  return nullptr;
}

// The report's vector cell for one build of a tier, as the run's card recorded it: "8 × f64" (vectorized,
// 8 lanes), "scalar", "partly 4 × f64", or "–" when not known.
std::string report_vector_text(const Card& card, const std::string& build) {
  const auto* entry = vectorization(card, build);
  const std::string text = entry ? format_vectorization(entry->status, entry->lanes) : "";
  return text.empty() ? "–" : text;
}

// How a run was fitted to --budget, one line: "--budget 2m: dropped repetitions 10 → 3 (…); …".
std::string budget_text(const BudgetRecord& budget) {
  return "--budget " + budget.text + ": " +
         (budget.dropped.empty() ? "the matrix fitted as it was" : "dropped " + join(budget.dropped, "; "));
}

// IPC where the machine counted, else why not.
std::string counters_text(const CellResult& cell) {
  if (cell.ipc()) return "IPC " + format_number("%.2f", *cell.ipc());
  return cell.counters_unavailable().empty() ? "–" : cell.counters_unavailable();
}

// Each row of `more` (its first column the tier) as a tier's details: what is the same for every tier one
// sentence before them, the rest a <details> a tier in HTML and one sub-table in Markdown.
void tier_details(Document& doc, Table more) {
  const std::string same = fold_constant_columns(more);
  doc.push_back(paragraph("Each tier's spread, memory, instructions, vector use and counters" +
                          (same.empty() ? std::string(".") : ". The same for every tier — " + same + ".")));
  more.fold = false;
  more.details = true;
  doc.push_back(table(std::move(more)));
}

// Every cell of a run: at the matrix's sizes, then the per-call ones.
std::vector<CellResult> every_cell(const Run& run) {
  std::vector<CellResult> all = run.cells;
  all.insert(all.end(), run.per_call_cells.begin(), run.per_call_cells.end());
  return all;
}

// A tier's cell of one integrand at n on one thread (at the matrix's sizes or per call), or null.
const CellResult* one_thread(const Run& run, const std::string& tier, const std::string& integrand,
                             std::int64_t n) {
  for (const auto* cells : {&run.cells, &run.per_call_cells})
    for (const auto& cell : *cells)
      if (cell.tier == tier && cell.integrand == integrand && cell.n == n && cell.threads == 1 &&
          cell.ranks == 1)
        return &cell;
  return nullptr;
}

bool measured(const CellResult* cell) { return cell && cell->ok(); }

// "12.3 µs, median of 3", or "not measured" (with the cell's status when it has one): never a 0.
std::string median_text(const CellResult* cell) {
  if (!measured(cell))
    return "not measured" + (cell ? " (" + std::string(to_string(cell->status)) + ")" : std::string());
  return format_seconds(cell->median()) + ", median of " +
         std::to_string(cell->measurement->repetitions.size());
}

// One row a size of the peer's per_call_sizes, for each integrand the peer or its tier has a cell of there:
// the two medians, their difference (a call, a node) and its share of the peer's call at `largest`.
// Sets `negative` when a difference is below 0.
void crossing_rows(const Run& run, const Card& peer, std::int64_t largest, Table& rows, bool& negative) {
  for (const auto& integrand : run.integrand_names())
    for (const auto n : peer.per_call_sizes) {
      const CellResult* wrapped = one_thread(run, peer.id, integrand, n);
      const CellResult* tier = one_thread(run, peer.beside, integrand, n);
      if (!wrapped && !tier) continue;
      std::string call = "not measured", node = "not measured", share = "not measured";
      const CellResult* at_largest = largest ? one_thread(run, peer.id, integrand, largest) : nullptr;
      if (measured(wrapped) && measured(tier)) {
        const double difference = wrapped->median() - tier->median();
        negative = negative || difference < 0;
        call = format_number("%.3g µs", difference * 1e6);
        node = format_number("%.3g ns", difference * 1e9 / static_cast<double>(n));
        if (measured(at_largest))  // two significant digits: a small share is not rounded to 0
          share = format_number("%.2g %%", 100 * difference / at_largest->median());
      }
      rows.rows.push_back({integrand, format_count(static_cast<double>(n)), median_text(wrapped),
                           median_text(tier), call, node, median_text(at_largest), share});
    }
}

// The noise the rows' intervals were widened by: "±2.5 % a cell (the documented default …)" when the same
// for every row, else each row's band.
std::string noise_text(const Analysis& analysis) {
  std::vector<std::string> bands;
  for (const auto& row : analysis.rows) {
    std::string said = band_text(row.interval.noise) + " a cell (" + row.interval.noise.source + ")";
    if (std::find(bands.begin(), bands.end(), said) == bands.end()) bands.push_back(said);
  }
  if (bands.size() < 2) return bands.empty() ? "none measured" : bands.front();
  std::vector<std::string> each;
  for (const auto& row : analysis.rows) each.push_back(row.card->id + " " + band_text(row.interval.noise));
  return join(each) + ", each from its history";
}

// The rows whose cell was disturbed (common/noise/disturbance.hpp), each with why and what the answer did
// with it.
void disturbed_rows(Document& doc, const Analysis& analysis) {
  std::vector<std::string> items;
  for (const auto& row : analysis.rows) {
    if (row.disturbed.empty()) continue;
    const auto& kept_out = analysis.decided.kept_out;
    const bool out = std::find(kept_out.begin(), kept_out.end(), &row) != kept_out.end();
    items.push_back(row.card->id + ": " + join(row.disturbed) +
                    (out ? " — kept out of the answer"
                     : row.card->peer
                         ? ""
                         : " — in the answer, as every C++ tier's measurement here was disturbed"));
  }
  if (items.empty()) return;
  doc.push_back(paragraph("Disturbed measurements (" + disturbance_rule() + "):"));
  doc.push_back(list(items));
}

}  // namespace

void crossing(Document& doc, const std::vector<Run>& runs) {
  for (const auto& run : runs)
    for (const Card* peer : run.cards_by_rung()) {
      if (!peer->peer || peer->beside.empty() || peer->per_call_sizes.empty()) continue;
      const auto sizes = run.sizes();
      const std::int64_t largest = sizes.empty() ? 0 : sizes.back();
      const std::string at_largest = "n = " + format_count(static_cast<double>(largest));
      Table rows{{"integrand", "n", peer->id + " (Python)", peer->beside, "crossing a call", "a node",
                  peer->id + " at " + at_largest, "crossing's share there"},
                 {}};
      bool negative = false;
      crossing_rows(run, *peer, largest, rows, negative);
      if (rows.rows.empty()) continue;
      doc.push_back(heading(
          2, "Crossing from Python into C++" + (runs.size() > 1 ? " on " + run.machine : std::string())));
      doc.push_back(paragraph(
          "**" + peer->id + "** (Python) calls the kernel of **" + peer->beside +
          "**, exported and built as an extension module, through pybind11: the loop runs in C++, only the "
          "call crosses from Python. Where n is small the loop is short, so the difference of the two "
          "medians is what one call costs to cross (the arguments converted, the GIL released and taken "
          "back, the result boxed); its share is of " +
          peer->id + "'s whole call at " + at_largest +
          ", the run's largest n. Each median is of its cell's repetitions, one thread, from the results "
          "file's cells." +
          (negative ? " A negative difference is within the noise of the two medians." : "")));
      doc.push_back(table(std::move(rows)));
    }
}

void trust(Document& doc, const std::vector<Run>& runs, const std::vector<std::string>& answer_notes) {
  doc.push_back(heading(2, "The machines, and how far to trust the numbers"));
  if (!answer_notes.empty()) {
    doc.push_back(paragraph("How the answer was decided:"));
    doc.push_back(list(answer_notes));
  }
  Table machines{{"machine", "CPU", "CPUs", "SIMD", "memory", "hypervisor", "compiler", "repetitions", "run",
                  "label", "median cv", "worst cv"},
                 {}};
  for (const auto& run : runs) {
    std::vector<double> cvs;
    for (const auto& cell : run.cells)
      if (cell.ok()) cvs.push_back(cell.cv());
    std::sort(cvs.begin(), cvs.end());
    machines.rows.push_back({run.machine, run.cpu, std::to_string(run.cpus), run.instruction_set,
                             format_bytes(run.memory_total_bytes), run.hypervisor ? "yes" : "no", run.build,
                             std::to_string(run.repetitions),
                             run.status + (run.started.empty() ? "" : ", " + run.started), run.label,
                             cvs.empty() ? "–" : percent(cvs[cvs.size() / 2], 0),
                             cvs.empty() ? "–" : percent(cvs.back(), 0)});
  }
  doc.push_back(table(machines));
  for (const auto& run : runs)
    if (run.budget)
      doc.push_back(
          paragraph("The run on **" + run.machine + "** was budgeted: " + budget_text(*run.budget)));
  for (const auto& run : runs)  // never taken for native: the reader is told the check could not be made
    if (run.emulation && run.emulation->emulated == "unknown")
      doc.push_back(paragraph("Whether the run on **" + run.machine + "** ran on its machine's own " +
                              "processor could not be told (" + run.emulation->evidence +
                              "): under an emulator its times would be the emulator's."));
  for (const auto& run : runs) {
    if (run.warnings.empty()) continue;
    doc.push_back(paragraph("Warnings from the run on **" + run.machine + "** (" + run.path + "):"));
    doc.push_back(list(run.warnings));
  }
}

void ladder_table(Document& doc, const std::vector<Analysis>& analyses, bool several) {
  for (const auto& analysis : analyses) {
    doc.push_back(heading(2, "The ladder at n = " + format_count(static_cast<double>(analysis.n)) +
                                 (several ? " on " + analysis.run->machine : "")));
    const bool peers = analysis.best_peer != nullptr;
    // What decides, in the table; the rest in each tier's details.
    Table rows{
        {"rung", "tier", "configuration", "time", "× naive", "× rung below", "error", "peak memory", "cost"},
        {},
        "ladder"};
    Table more{{"tier", "min – max", "cv", "nodes/s", "of fastest", "peak heap", "minor faults", "instr/node",
                "vector", "counters", "rounding error", "reproducible"},
               {}};
    if (peers)
      more.header.insert(
          more.header.begin() + 5,
          {"× " + (analysis.baseline ? analysis.baseline->id : std::string("baseline")), "× best Python"});
    for (const auto& row : analysis.rows) {
      const CellResult& cell = *row.cell;
      const std::string name = row.card->id + (row.card->peer ? " (Python)" : "");
      rows.rows.push_back(
          {row.card->peer ? "py " + std::to_string(row.card->rung - 100) : std::to_string(row.card->rung),
           (row.pareto ? "**" + name + "**" : name), configuration(row), format_seconds(cell.median()),
           speedup_text(row.speedup_range, row.card->id == "naive" && cell.threads == 1 && cell.ranks == 1),
           speedup_text(row.below_range), scientific(cell.rel_error()), format_bytes(cell.peak_rss()),
           format_number("%.1f", row.cost.score)});
      more.rows.push_back(
          {name, format_seconds(cell.min()) + " – " + format_seconds(cell.max()), percent(cell.cv(), 0),
           format_number("%.3g", static_cast<double>(cell.n) / cell.median()),
           percent(row.fraction_of_fastest, 0),
           (cell.counted_peak_heap() ? format_bytes(*cell.counted_peak_heap()) : std::string("not counted")),
           format_number("%.0f", cell.minor_faults()), instructions_text(*row.card),
           report_vector_text(*row.card, "linked"), counters_text(cell), scientific(cell.rounding_error()),
           cell.reproducible ? (*cell.reproducible ? "yes" : "no") : "–"});
      if (peers)
        more.rows.back().insert(more.rows.back().begin() + 5,
                                {row.over_baseline ? times(*row.over_baseline) : "–",
                                 row.over_best_peer ? times(*row.over_best_peer) : "–"});
    }
    doc.push_back(table(rows));
    doc.push_back(paragraph(
        "Bold tiers are Pareto-optimal (no other tier is both faster and no more costly). "
        "Each tier at its fastest threads × ranks; times are the median of the repetitions, errors "
        "relative to the exact integral, peak memory the process's resident set. A speedup's range in "
        "brackets is what the two cells' intervals allow (each cell's repetitions, widened by this "
        "machine's noise: " +
        noise_text(analysis) + "); ≈ 1: the two are within each other's noise, neither faster."));
    disturbed_rows(doc, analysis);
    tier_details(doc, more);
    if (!analysis.unmeasured.empty()) {
      std::vector<std::string> items;
      for (const CellResult* cell : analysis.unmeasured)
        items.push_back(cell->tier + ": " + std::string(to_string(cell->status)) + " — " + cell->reason);
      doc.push_back(paragraph("Not measured at this size:"));
      doc.push_back(list(items));
    }
  }
}

// Why a rung is faster: instructions a node (deterministic), vectorization, hardware counters.
void where_the_time_goes(Document& doc, const Analysis& analysis, bool several) {
  const Run& run = *analysis.run;
  doc.push_back(heading(2, "Where the time goes" + (several ? " on " + run.machine : std::string())));
  doc.push_back(paragraph(run.instructions_unavailable.empty()
                              ? "Instructions a node: counted by " + run.instructions_method +
                                    " — the same on every run, so a change in them is a change in the code, "
                                    "whatever the machine's "
                                    "load. `ladder profile TIER` shows them line by line."
                              : "Instructions a node: " + run.instructions_unavailable + "."));
  double naive_instructions = 0;
  for (const auto& card : run.cards)
    if (card.id == "naive" && card.instructions_per_node) naive_instructions = *card.instructions_per_node;
  Table rows{{"rung", "tier", "instr/node", "× fewer than naive", "vectorized (this build)", "evidence",
              "vectorized (x86-64-v3)",
              "hardware counters at n = " + format_count(static_cast<double>(analysis.n)), "accuracy"},
             {}};
  for (const auto& row : analysis.rows) {
    const Card& card = *row.card;
    if (card.peer) continue;
    const auto* native = vectorization(card, "linked");
    std::string counters = counters_text(*row.cell);
    if (row.cell->ipc()) {
      const double n = static_cast<double>(row.cell->n);
      if (row.cell->hw_instructions_per_node())
        counters += ", " + format_number("%.1f", *row.cell->hw_instructions_per_node()) + " instr/node";
      if (row.cell->cache_misses())
        counters += ", " + format_number("%.3g", *row.cell->cache_misses() / n) + " cache misses/node";
      if (row.cell->branch_misses())
        counters += ", " + format_number("%.3g", *row.cell->branch_misses() / n) + " branch misses/node";
    }
    rows.rows.push_back({std::to_string(card.rung), card.id,
                         card.instructions_per_node ? instructions_text(card) : card.instructions_unavailable,
                         card.instructions_per_node && naive_instructions > 0
                             ? times(naive_instructions / *card.instructions_per_node)
                             : "–",
                         report_vector_text(card, "linked"), native ? native->evidence : "–",
                         report_vector_text(card, "x86-64-v3"), counters,
                         card.accuracy.empty() ? "–" : card.accuracy});
  }
  doc.push_back(table(rows));
  std::vector<std::string> notes;
  for (const auto& row : analysis.rows)
    if (!row.card->note.empty()) notes.push_back(row.card->id + ": " + row.card->note);
  if (!notes.empty()) {
    doc.push_back(paragraph("What the cards add:"));
    doc.push_back(list(notes));
  }
  python_profiles(doc, run);  // the pure-Python rungs line by line, where a profile was saved beside the run
}

void all_cells(Document& doc, const std::vector<Run>& runs) {
  doc.push_back(heading(2, "Every cell"));
  // The integrand gets a column when some run holds several.
  bool integrands = false;
  for (const auto& run : runs) integrands = integrands || run.integrand_names().size() > 1;
  Table rows{{"machine", "tier", "n", "threads", "ranks", "status", "median", "ns/node", "CPU/(wall·threads)",
              "rel. error", "peak heap", "placement", "note"},
             {}};
  if (integrands) rows.header.insert(rows.header.begin() + 2, "integrand");
  for (const auto& run : runs)
    for (const auto& cell : every_cell(run)) {
      std::string note = cell.ok() ? (cell.oversubscribed ? "oversubscribed" : "") : cell.reason;
      for (const auto& reference : cell.reference_notes()) note += (note.empty() ? "" : "; ") + reference;
      rows.rows.push_back(
          {run.machine, cell.tier, format_count(static_cast<double>(cell.n)), std::to_string(cell.threads),
           std::to_string(cell.ranks), std::string(to_string(cell.status)),
           cell.ok() ? format_seconds(cell.median()) : "–",
           cell.ok() ? format_number("%.3g", cell.median() * 1e9 / static_cast<double>(cell.n)) : "–",
           cell.ok() ? percent(cell.efficiency(), 0) : "–", cell.ok() ? scientific(cell.rel_error()) : "–",
           cell.ok() ? (cell.counted_peak_heap() ? format_bytes(*cell.counted_peak_heap())
                                                 : std::string("not counted"))
                     : "–",
           cell.ok() || cell.placement ? placement_text(cell.placement) : "–", note});
      if (integrands) rows.rows.back().insert(rows.rows.back().begin() + 2, cell.integrand);
    }
  const std::string count = counted(static_cast<int>(rows.rows.size()), "cell", "cells");
  doc.push_back(details(3, "all " + count + ", one a row", {table(rows)}));
}

}  // namespace ladder::report
