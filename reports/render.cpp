// The report itself: one document model, written twice — report.md (tables, charts linked as SVG files
// beside it) and report.html (one self-contained page, charts inline, no script, no request).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "atomic_file.hpp"
#include "report.hpp"
#include "svg.hpp"
#include "text.hpp"

namespace ladder::report {
namespace {

using nlohmann::json;

std::string percent(double fraction) { return format_number("%.0f %%", 100 * fraction); }
std::string times(double ratio) {
  return ratio >= 10 ? format_number("%.0f×", ratio) : format_number("%.2f×", ratio);
}
std::string scientific(const std::optional<double>& value) {
  return value ? format_number("%.1e", std::fabs(*value)) : std::string("–");
}

// ---- the document ------------------------------------------------------------------------------------
// Text may carry **bold**; everything else in it is literal (escaped for each output).
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};
struct Chart {
  std::string id, svg;
};
struct Block {
  enum class Kind { heading, paragraph, list, table, charts } kind;
  int level = 2;
  std::string text{};
  std::vector<std::string> items{};
  Table table{};
  std::vector<Chart> charts{};  // side by side: one a machine
};
using Document = std::vector<Block>;

Block heading(int level, std::string title) { return {Block::Kind::heading, level, std::move(title)}; }
Block paragraph(std::string body) { return {Block::Kind::paragraph, 0, std::move(body)}; }
Block list(std::vector<std::string> items) { return {Block::Kind::list, 0, {}, std::move(items)}; }
Block table(Table contents) { return {Block::Kind::table, 0, {}, {}, std::move(contents)}; }
Block charts(std::vector<Chart> all) { return {Block::Kind::charts, 0, {}, {}, {}, std::move(all)}; }

// ---- the charts ------------------------------------------------------------------------------------------

std::string suffix(std::size_t machine) { return "-" + std::to_string(machine + 1); }

Chart speedup_chart(const Analysis& analysis, std::size_t machine) {
  svg::BarChart chart{"speedup" + suffix(machine),
                      "Speedup against naive at n = " + format_count(static_cast<double>(analysis.n)) +
                          " — " + analysis.run->machine,
                      "× naive (log scale)",
                      true,
                      {}};
  for (const auto& row : analysis.rows)
    if (row.speedup)
      chart.bars.push_back({row.card->id + (row.card->peer ? " (Python)" : ""), *row.speedup,
                            format_number("cost %.1f", row.cost.score), row.card->peer ? "#999999" : ""});
  return {chart.id, svg::bar_chart(chart)};
}

Chart scaling_chart(const Analysis& analysis, std::size_t machine) {
  const Run& run = *analysis.run;
  svg::Chart chart{
      "scaling" + suffix(machine),
      "Thread scaling at n = " + format_count(static_cast<double>(analysis.n)) + " — " + run.machine,
      {"threads (ranks for mpi ranks)", false},
      {"speedup against 1 thread", false},
      {}};
  int most = 1;
  for (const auto& card : run.cards) {
    if (!card.parallel) continue;
    for (const bool ranks : {false, true}) {
      if (ranks && !card.distributed) continue;
      const Cell* one = nullptr;
      std::vector<const Cell*> line;
      for (const auto& cell : run.cells) {
        if (cell.tier != card.id || cell.n != analysis.n || !cell.ok()) continue;
        if (ranks ? cell.threads != 1 : cell.ranks != 1) continue;
        if (cell.threads == 1 && cell.ranks == 1) one = &cell;
        line.push_back(&cell);
      }
      if (!one || line.size() < 2) continue;
      std::sort(line.begin(), line.end(), [&](const Cell* x, const Cell* y) {
        return (ranks ? x->ranks : x->threads) < (ranks ? y->ranks : y->threads);
      });
      svg::Series series{card.distributed ? card.id + (ranks ? " ranks" : " threads") : card.id, {}};
      for (const Cell* cell : line) {
        const int count = ranks ? cell->ranks : cell->threads;
        most = std::max(most, count);
        const double speedup = one->median / cell->median;
        series.points.push_back({static_cast<double>(count), speedup,
                                 series.name + " at " + std::to_string(count) + ": " + times(speedup) + ", " +
                                     percent(speedup / count) + " parallel efficiency" +
                                     (cell->oversubscribed ? " (oversubscribed)" : "")});
      }
      const auto& last = series.points.back();
      chart.notes.push_back(series.name + ": " + times(last.y) + " on " + format_number("%.0f", last.x) +
                            ", efficiency " + percent(last.y / last.x));
      chart.series.push_back(std::move(series));
    }
  }
  chart.series.push_back({"ideal",
                          {{1, 1}, {static_cast<double>(most), static_cast<double>(most)}},
                          svg::Style::dashed,
                          "#999999"});
  return {chart.id, svg::line_chart(chart)};
}

Chart pareto_chart(const Analysis& analysis, std::size_t machine) {
  svg::Chart chart{"pareto" + suffix(machine),
                   "Speedup against maintenance cost — " + analysis.run->machine,
                   {"maintenance cost (1 to 10)", false, 0.0, 10.0},
                   {"× naive (log scale)", true},
                   {}};
  svg::Series tiers{"tiers", {}, svg::Style::markers};
  std::vector<svg::Point> frontier;
  for (const auto& row : analysis.rows) {
    if (!row.speedup) continue;
    const svg::Point point{
        row.cost.score, *row.speedup,
        row.card->id + ": " + times(*row.speedup) + ", cost " + format_number("%.1f", row.cost.score)};
    tiers.points.push_back(point);
    if (row.pareto) frontier.push_back(point);
  }
  std::sort(frontier.begin(), frontier.end(),
            [](const svg::Point& x, const svg::Point& y) { return x.x < y.x; });
  chart.series.push_back(std::move(tiers));
  chart.series.push_back({"Pareto frontier", frontier, svg::Style::line_and_markers});
  chart.notes.push_back("On the frontier, no other tier is both faster and no more costly.");
  return {chart.id, svg::line_chart(chart)};
}

// One series per tier over n, from each tier's best configuration.
template <class Value>
std::vector<svg::Series> per_tier(const Run& run, Value value) {
  std::vector<svg::Series> all;
  for (const auto& card : run.cards) {
    svg::Series series{card.id, {}};
    for (const auto n : run.sizes()) {
      const Cell* best = nullptr;
      for (const auto& cell : run.cells)
        if (cell.tier == card.id && cell.n == n && cell.ok() && (!best || cell.median < best->median))
          best = &cell;
      if (best)
        if (const auto y = value(*best)) series.points.push_back({static_cast<double>(n), *y});
    }
    if (!series.points.empty()) all.push_back(std::move(series));
  }
  return all;
}

Chart memory_chart(const Run& run, std::size_t machine) {
  svg::Chart chart{"memory" + suffix(machine),
                   "Peak heap against n — " + run.machine,
                   {"n", true},
                   {"peak heap bytes (log; 0 drawn at 1)", true},
                   {}};
  chart.series =
      per_tier(run, [](const Cell& cell) { return std::optional<double>(std::max(1.0, cell.peak_heap)); });
  chart.notes.push_back("O(n) tiers climb with n; streaming tiers stay flat.");
  return {chart.id, svg::line_chart(chart)};
}

Chart error_chart(const Run& run, std::size_t machine) {
  svg::Chart chart{"error" + suffix(machine),
                   "Relative error against n — " + run.machine,
                   {"n", true},
                   {"|relative error| (log)", true},
                   {}};
  chart.series = per_tier(run, [](const Cell& cell) -> std::optional<double> {
    if (!cell.rel_error || *cell.rel_error == 0) return std::nullopt;
    return std::fabs(*cell.rel_error);
  });
  svg::Series theory{"h² (the midpoint rule's own error)", {}, svg::Style::dashed, "#555555"};
  svg::Series floor{"rounding bound (xsimd)", {}, svg::Style::dashed, "#aaaaaa"};
  for (const auto n : run.sizes())
    for (const auto& cell : run.cells) {
      if (cell.n != n || !cell.ok() || cell.exact == 0) continue;
      if (theory.points.empty() || theory.points.back().x != static_cast<double>(n))
        if (cell.midpoint != cell.exact)
          theory.points.push_back(
              {static_cast<double>(n), std::fabs((cell.midpoint - cell.exact) / cell.exact)});
      if (cell.tier == "xsimd")
        floor.points.push_back({static_cast<double>(n), cell.rounding_bound / std::fabs(cell.exact)});
    }
  chart.series.push_back(std::move(theory));
  if (!floor.points.empty()) chart.series.push_back(std::move(floor));
  chart.notes.push_back(
      "Tiers follow h² until rounding takes over; the compensated sum stays near the floor.");
  return {chart.id, svg::line_chart(chart)};
}

// ---- the sections
// ------------------------------------------------------------------------------------------

std::string configuration(const Row& row) {
  std::string result = row.card->parallel ? std::to_string(row.cell->threads) + " thr" : "1 thr";
  if (row.card->distributed)
    result += " × " + std::to_string(row.cell->ranks) + (row.cell->ranks > 1 ? " ranks" : " rank");
  if (row.cell->oversubscribed) result += " (oversubscribed)";
  return result;
}

void answer(Document& doc, const std::vector<Analysis>& analyses) {
  doc.push_back(heading(2, "The answer"));
  std::vector<std::string> items;
  for (const auto& analysis : analyses) {
    std::string item = "On **" + analysis.run->machine + "**: ";
    if (!analysis.recommended) {
      items.push_back(item + analysis.why);
      continue;
    }
    item += "use **" + analysis.recommended->card->id + "**. " + analysis.why;
    if (analysis.cheaper) {
      const Row& cheaper = *analysis.cheaper;
      item += " The runner-up that costs less: **" + cheaper.card->id + "** (cost " +
              format_number("%.1f", cheaper.cost.score) +
              (cheaper.speedup ? ", " + times(*cheaper.speedup) + " naive" : std::string()) + ", " +
              percent(cheaper.fraction_of_fastest) + " of the fastest).";
    }
    items.push_back(item);
  }
  doc.push_back(list(items));
  doc.push_back(
      paragraph("The recommendation is the cheapest tier within 10 % of the fastest at that size: past it, "
                "the ladder stops paying for what it costs to keep."));
}

void trust(Document& doc, const std::vector<Run>& runs) {
  doc.push_back(heading(2, "The machines, and how far to trust the numbers"));
  Table machines{{"machine", "CPU", "CPUs", "SIMD", "memory", "hypervisor", "compiler", "repetitions", "run",
                  "label", "median cv", "worst cv"},
                 {}};
  for (const auto& run : runs) {
    std::vector<double> cvs;
    for (const auto& cell : run.cells)
      if (cell.ok()) cvs.push_back(cell.cv);
    std::sort(cvs.begin(), cvs.end());
    const json& context = run.context;
    machines.rows.push_back(
        {run.machine, run.cpu, std::to_string(run.cpus), run.instruction_set,
         format_bytes(context.value("memory_total_bytes", 0.0)),
         context.value("hypervisor", json::object()).value("present", false) ? "yes" : "no",
         context.value("compiler", "") + " " + context.value("common_flags", ""),
         std::to_string(run.repetitions), run.status + (run.started.empty() ? "" : ", " + run.started),
         run.label, cvs.empty() ? "–" : percent(cvs[cvs.size() / 2]),
         cvs.empty() ? "–" : percent(cvs.back())});
  }
  doc.push_back(table(machines));
  for (const auto& run : runs) {
    if (run.warnings.empty()) continue;
    doc.push_back(paragraph("Warnings from the run on **" + run.machine + "** (" + run.path + "):"));
    doc.push_back(list(run.warnings));
  }
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

// IPC where the machine counted, else why not.
std::string counters_text(const Cell& cell) {
  if (cell.ipc) return "IPC " + format_number("%.2f", *cell.ipc);
  return cell.counters_unavailable.empty() ? "–" : cell.counters_unavailable;
}

void ladder_table(Document& doc, const std::vector<Analysis>& analyses, bool several) {
  for (const auto& analysis : analyses) {
    doc.push_back(heading(2, "The ladder at n = " + format_count(static_cast<double>(analysis.n)) +
                                 (several ? " on " + analysis.run->machine : "")));
    const bool peers = analysis.best_peer != nullptr;
    Table rows{{"rung",      "tier",       "best at",        "median",       "min – max",
                "cv",        "× naive",    "× rung below",   "nodes/s",      "of fastest",
                "peak heap", "peak RSS",   "minor faults",   "instr/node",   "vector",
                "counters",  "rel. error", "rounding error", "reproducible", "cost"},
               {}};
    if (peers) rows.header.insert(rows.header.begin() + 8, {"× py-list", "× best Python"});
    for (const auto& row : analysis.rows) {
      const Cell& cell = *row.cell;
      const std::string name = row.card->id + (row.card->peer ? " (Python)" : "");
      rows.rows.push_back(
          {row.card->peer ? "py " + std::to_string(row.card->rung - 100) : std::to_string(row.card->rung),
           (row.pareto ? "**" + name + "**" : name),
           configuration(row),
           format_seconds(cell.median),
           format_seconds(cell.min) + " – " + format_seconds(cell.max),
           percent(cell.cv),
           row.speedup ? times(*row.speedup) : "–",
           row.speedup_below ? times(*row.speedup_below) : "–",
           format_number("%.3g", static_cast<double>(cell.n) / cell.median),
           percent(row.fraction_of_fastest),
           format_bytes(cell.peak_heap),
           format_bytes(cell.peak_rss),
           format_number("%.0f", cell.minor_faults),
           instructions_text(*row.card),
           report_vector_text(*row.card, "linked"),
           counters_text(cell),
           scientific(cell.rel_error),
           scientific(cell.rounding_error),
           cell.reproducible ? (*cell.reproducible ? "yes" : "no") : "–",
           format_number("%.1f", row.cost.score)});
      if (peers)
        rows.rows.back().insert(rows.rows.back().begin() + 8,
                                {row.over_py_list ? times(*row.over_py_list) : "–",
                                 row.over_best_peer ? times(*row.over_best_peer) : "–"});
    }
    doc.push_back(table(rows));
    doc.push_back(
        paragraph("Bold tiers are Pareto-optimal (no other tier is both faster and no more costly). "
                  "Each tier at its fastest threads × ranks; times are the median of the repetitions."));
    if (!analysis.unmeasured.empty()) {
      std::vector<std::string> items;
      for (const Cell* cell : analysis.unmeasured)
        items.push_back(cell->tier + ": " + cell->status + " — " + cell->reason);
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
    if (row.cell->ipc) {
      const double n = static_cast<double>(row.cell->n);
      if (row.cell->hw_instructions_per_node)
        counters += ", " + format_number("%.1f", *row.cell->hw_instructions_per_node) + " instr/node";
      if (row.cell->cache_misses)
        counters += ", " + format_number("%.3g", *row.cell->cache_misses / n) + " cache misses/node";
      if (row.cell->branch_misses)
        counters += ", " + format_number("%.3g", *row.cell->branch_misses / n) + " branch misses/node";
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
}

// Each tier's cell at n that sampled one call over time (at least `samples` points), on its fewest threads
// × ranks, or its most: the timeline charts' choice.
std::vector<const Cell*> timeline_cells(const Run& run, std::int64_t n, bool most_threads,
                                        std::size_t samples) {
  std::vector<const Cell*> chosen;
  for (const auto& card : run.cards) {
    const Cell* best = nullptr;
    for (const auto& cell : run.cells) {
      if (cell.tier != card.id || cell.n != n || !cell.ok() || cell.timeline_seconds.size() < samples)
        continue;
      const int cores = cell.threads * cell.ranks;
      if (!best || (most_threads ? cores > best->threads * best->ranks : cores < best->threads * best->ranks))
        best = &cell;
    }
    if (best) chosen.push_back(best);
  }
  return chosen;
}

// Resident memory over one call at the largest n, each tier on its fewest threads (the mprof view).
Chart timeline_chart(const Run& run, std::size_t machine) {
  svg::Chart chart{"memory-over-time" + suffix(machine),
                   "Memory during one call — " + run.machine,
                   {"milliseconds into the call", false},
                   {"resident memory (MiB)", false},
                   {}};
  const auto sizes = run.sizes();
  if (sizes.empty()) return {chart.id, svg::line_chart(chart)};
  const std::int64_t n = sizes.back();
  chart.title = "Memory during one call at n = " + format_count(static_cast<double>(n)) + " — " + run.machine;
  for (const Cell* cell : timeline_cells(run, n, false, 1)) {
    svg::Series series{cell->tier, {}, svg::Style::line};
    for (std::size_t i = 0; i < cell->timeline_seconds.size(); ++i)
      if (cell->timeline_rss[i] >= 0)
        series.points.push_back({1e3 * cell->timeline_seconds[i], cell->timeline_rss[i] / (1 << 20)});
    chart.series.push_back(std::move(series));
    chart.notes.push_back(cell->tier + ": " + format_number("%.0f", cell->minor_faults) +
                          " minor page faults, peak RSS " + format_bytes(cell->peak_rss));
  }
  if (chart.series.empty())
    chart.notes.push_back("No cell at this size sampled its memory (an older results file).");
  chart.notes.push_back("Sampled every 2 ms in one call after the timed runs.");
  chart.notes.push_back("A vector of nodes climbs as its pages are touched; a streaming tier stays flat.");
  return {chart.id, svg::line_chart(chart)};
}

// Cores busy over one call at the largest n, each tier on its most threads: a parallel tier that quietly
// runs on one core draws a line at 1.
Chart cpu_timeline_chart(const Run& run, std::size_t machine) {
  svg::Chart chart{"cpu-over-time" + suffix(machine),
                   "Cores busy during one call — " + run.machine,
                   {"milliseconds into the call", false},
                   {"cores busy (CPU time / wall time)", false},
                   {}};
  const auto sizes = run.sizes();
  if (sizes.empty()) return {chart.id, svg::line_chart(chart)};
  const std::int64_t n = sizes.back();
  chart.title =
      "Cores busy during one call at n = " + format_count(static_cast<double>(n)) + " — " + run.machine;
  for (const Cell* cell : timeline_cells(run, n, true, 3)) {
    svg::Series series{cell->tier + " (" + std::to_string(cell->threads) + " threads)", {}, svg::Style::line};
    for (std::size_t i = 1; i < cell->timeline_seconds.size(); ++i) {
      const double wall = cell->timeline_seconds[i] - cell->timeline_seconds[i - 1];
      if (wall <= 0) continue;
      series.points.push_back({1e3 * 0.5 * (cell->timeline_seconds[i] + cell->timeline_seconds[i - 1]),
                               (cell->timeline_cpu[i] - cell->timeline_cpu[i - 1]) / wall});
    }
    if (!series.points.empty()) chart.series.push_back(std::move(series));
  }
  chart.notes.push_back("The worker's CPU time between two samples over the wall time between them.");
  return {chart.id, svg::line_chart(chart)};
}

void costs(Document& doc, const Run& run) {
  doc.push_back(heading(2, "What each tier costs to keep"));
  doc.push_back(
      paragraph("Maintenance cost, " + cost_formula() + ". Disagree with a weight? Every part is here."));
  Table rows{
      {"tier", "cost", "code", "concepts", "libraries", "flags", "learning", "reproducibility", "needs"}, {}};
  std::vector<const Card*> cards;
  for (const auto& card : run.cards) cards.push_back(&card);
  std::sort(cards.begin(), cards.end(), [](const Card* x, const Card* y) { return x->rung < y->rung; });
  for (const Card* card : cards) {
    const Cost cost = maintenance_cost(*card);
    std::vector<std::string> row = {card->id, format_number("%.1f", cost.score)};
    for (const auto& part : cost.parts)
      row.push_back(part.value + " → " + format_number("%.2f", part.points));
    std::string needs;
    for (const auto& library : card->libraries) needs += (needs.empty() ? "" : ", ") + library;
    for (const auto& flag : card->flags) needs += (needs.empty() ? "" : ", ") + flag;
    row.push_back(needs.empty() ? "–" : needs);
    rows.rows.push_back(row);
  }
  doc.push_back(table(rows));
}

void which(Document& doc, const std::vector<Analysis>& analyses) {
  doc.push_back(heading(2, "Which tier?"));
  for (const auto& analysis : analyses) {
    const Run& run = *analysis.run;
    std::vector<std::string> items;
    std::string frontier;
    for (const auto& row : analysis.rows)
      if (row.pareto)
        frontier += (frontier.empty() ? "" : ", ") + row.card->id + " (cost " +
                    format_number("%.1f", row.cost.score) + ")";
    items.push_back("On **" + run.machine +
                    "** the Pareto-optimal tiers at n = " + format_count(static_cast<double>(analysis.n)) +
                    " are " + frontier + ": for any other, one of these is faster for no more upkeep.");
    if (analysis.best_peer) {
      const Row& best = *analysis.best_peer;
      std::string cross = "Python against C++: the fastest Python peer, " + best.card->id + ", takes " +
                          format_seconds(best.cell->median) + " (cost " +
                          format_number("%.1f", best.cost.score) + "); ";
      if (analysis.first_beating_peers) {
        const Row& first = *analysis.first_beating_peers;
        cross += "the staircases cross at " + first.card->id + " (rung " + std::to_string(first.card->rung) +
                 ", cost " + format_number("%.1f", first.cost.score) +
                 "), the lowest C++ rung faster than every peer";
      } else {
        cross += "no C++ tier measured here beats it";
      }
      const Row* fastest = nullptr;
      for (const auto& row : analysis.rows)
        if (!row.card->peer && (!fastest || row.cell->median < fastest->cell->median)) fastest = &row;
      if (fastest && fastest->over_py_list)
        cross += "; the fastest C++ tier, " + fastest->card->id + ", is " + times(*fastest->over_py_list) +
                 " py-list and " + times(*fastest->over_best_peer) + " " + best.card->id;
      items.push_back(cross + ".");
    }
    const Row* previous = nullptr;
    const Row* previous_peer = nullptr;
    for (const auto& row : analysis.rows) {
      if (row.card->peer) std::swap(previous, previous_peer);  // each staircase on its own
      if (previous) {
        const double gain = previous->cell->median / row.cell->median;
        std::string step = previous->card->id + " → " + row.card->id + ": " + times(gain) + " for " +
                           format_number("%+.1f", row.cost.score - previous->cost.score) + " cost";
        const auto from = pays_from(run, row.card->id, previous->card->id);
        step += from ? "; faster from n = " + format_count(static_cast<double>(*from)) + " on"
                     : "; not faster at any size measured here";
        items.push_back(step);
      }
      previous = &row;
      if (row.card->peer) std::swap(previous, previous_peer);
    }
    doc.push_back(list(items));
  }
}

void all_cells(Document& doc, const std::vector<Run>& runs) {
  doc.push_back(heading(2, "Every cell"));
  Table rows{{"machine", "tier", "n", "threads", "ranks", "status", "median", "ns/node", "CPU/(wall·threads)",
              "rel. error", "peak heap", "note"},
             {}};
  for (const auto& run : runs)
    for (const auto& cell : run.cells)
      rows.rows.push_back(
          {run.machine, cell.tier, format_count(static_cast<double>(cell.n)), std::to_string(cell.threads),
           std::to_string(cell.ranks), cell.status, cell.ok() ? format_seconds(cell.median) : "–",
           cell.ok() ? format_number("%.3g", cell.median * 1e9 / static_cast<double>(cell.n)) : "–",
           cell.ok() ? percent(cell.efficiency()) : "–", cell.ok() ? scientific(cell.rel_error) : "–",
           cell.ok() ? format_bytes(cell.peak_heap) : "–",
           cell.ok() ? (cell.oversubscribed ? "oversubscribed" : "") : cell.reason});
  doc.push_back(table(rows));
}

Document build(const std::vector<Run>& runs) {
  std::vector<Analysis> analyses;
  for (const auto& run : runs) analyses.push_back(analyse(run));
  Document doc;
  std::string title = "Ladder report";
  if (runs.size() == 1 && !runs[0].label.empty()) title += ": " + runs[0].label;
  doc.push_back(heading(1, title));
  doc.push_back(
      paragraph("How far to optimize the midpoint rule, and what each step costs to keep — measured on " +
                std::to_string(runs.size()) + (runs.size() == 1 ? " machine" : " machines") +
                ". Every number comes from the results files listed below."));
  answer(doc, analyses);
  trust(doc, runs);
  ladder_table(doc, analyses, runs.size() > 1);
  for (const auto& analysis : analyses) where_the_time_goes(doc, analysis, runs.size() > 1);
  costs(doc, runs.front());
  doc.push_back(heading(2, "Charts"));
  std::vector<Chart> speedups, scalings, paretos, memories, timelines, cpu_timelines, errors;
  for (std::size_t i = 0; i < analyses.size(); ++i) {
    speedups.push_back(speedup_chart(analyses[i], i));
    scalings.push_back(scaling_chart(analyses[i], i));
    paretos.push_back(pareto_chart(analyses[i], i));
    memories.push_back(memory_chart(runs[i], i));
    timelines.push_back(timeline_chart(runs[i], i));
    cpu_timelines.push_back(cpu_timeline_chart(runs[i], i));
    errors.push_back(error_chart(runs[i], i));
  }
  for (auto* group : {&speedups, &scalings, &paretos, &memories, &timelines, &cpu_timelines, &errors})
    doc.push_back(charts(*group));
  which(doc, analyses);
  all_cells(doc, runs);
  std::vector<std::string> sources;
  for (const auto& run : runs) sources.push_back(run.path + " (" + run.machine + ", " + run.started + ")");
  doc.push_back(heading(2, "Sources"));
  doc.push_back(list(sources));
  return doc;
}

// ---- Markdown -------------------------------------------------------------------------------------------

std::string markdown_text(const std::string& in, bool in_table) {
  std::string out;
  for (char c : in) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (c == '|' && in_table)
      out += "\\|";
    else if (c == '\n')
      out += in_table ? " " : "\n";
    else
      out += c;
  }
  return out;
}

std::string to_markdown(const Document& doc, std::vector<std::pair<std::string, std::string>>& files) {
  std::string md;
  for (const auto& block : doc) {
    switch (block.kind) {
      case Block::Kind::heading:
        md += std::string(block.level, '#') + " " + markdown_text(block.text, false) + "\n\n";
        break;
      case Block::Kind::paragraph:
        md += markdown_text(block.text, false) + "\n\n";
        break;
      case Block::Kind::list:
        for (const auto& item : block.items) md += "- " + markdown_text(item, false) + "\n";
        md += "\n";
        break;
      case Block::Kind::table: {
        auto row = [](const std::vector<std::string>& cells) {
          std::string line = "|";
          for (const auto& cell : cells) line += " " + markdown_text(cell, true) + " |";
          return line + "\n";
        };
        md += row(block.table.header);
        md += "|" + std::string();
        for (std::size_t i = 0; i < block.table.header.size(); ++i) md += "---|";
        md += "\n";
        for (const auto& cells : block.table.rows) md += row(cells);
        md += "\n";
        break;
      }
      case Block::Kind::charts:
        for (const auto& chart : block.charts) {
          const std::string file = "charts/" + chart.id + ".svg";
          files.push_back({file, chart.svg});
          md += "![" + chart.id + "](" + file + ")\n";
        }
        md += "\n";
        break;
    }
  }
  return md;
}

// ---- HTML -----------------------------------------------------------------------------------------------

// Escaped, then **bold** marks become <strong>.
std::string html_text(const std::string& in) {
  std::string escaped = svg::escape(in), out;
  bool open = false;
  for (std::size_t i = 0; i < escaped.size(); ++i) {
    if (escaped.compare(i, 2, "**") == 0) {
      out += open ? "</strong>" : "<strong>";
      open = !open;
      ++i;
    } else {
      out += escaped[i];
    }
  }
  if (open) out += "</strong>";
  return out;
}

const char* style = R"(
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 2rem auto; max-width: 1200px;
       padding: 0 1rem; color: #222; line-height: 1.45; }
h1 { font-size: 1.7rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ddd; padding-bottom: .2rem; }
table { border-collapse: collapse; font-size: .85rem; margin: .8rem 0; }
th, td { border: 1px solid #ddd; padding: .25rem .5rem; text-align: right; vertical-align: top; white-space: nowrap; }
.table { overflow-x: auto; }
th { background: #f4f4f4; } td:first-child, th:first-child, td:nth-child(2) { text-align: left; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); gap: 1rem; margin: 1rem 0; }
.charts svg { width: 100%; height: auto; }
@media print { body { margin: 0; max-width: none; } .charts { break-inside: avoid; } h2 { break-after: avoid; } }
)";

std::string to_html(const Document& doc) {
  std::string title;
  for (const auto& block : doc)
    if (block.kind == Block::Kind::heading && block.level == 1) title = block.text;
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
      svg::escape(title) + "</title>\n<style>" + style + "</style>\n</head>\n<body>\n";
  for (const auto& block : doc) {
    switch (block.kind) {
      case Block::Kind::heading:
        html += "<h" + std::to_string(block.level) + ">" + html_text(block.text) + "</h" +
                std::to_string(block.level) + ">\n";
        break;
      case Block::Kind::paragraph:
        html += "<p>" + html_text(block.text) + "</p>\n";
        break;
      case Block::Kind::list:
        html += "<ul>\n";
        for (const auto& item : block.items) html += "<li>" + html_text(item) + "</li>\n";
        html += "</ul>\n";
        break;
      case Block::Kind::table:
        html += "<div class=\"table\"><table>\n<thead><tr>";
        for (const auto& cell : block.table.header) html += "<th>" + html_text(cell) + "</th>";
        html += "</tr></thead>\n<tbody>\n";
        for (const auto& row : block.table.rows) {
          html += "<tr>";
          for (const auto& cell : row) html += "<td>" + html_text(cell) + "</td>";
          html += "</tr>\n";
        }
        html += "</tbody>\n</table></div>\n";
        break;
      case Block::Kind::charts:
        html += "<div class=\"charts\">\n";
        for (const auto& chart : block.charts) html += "<figure>" + chart.svg + "</figure>\n";
        html += "</div>\n";
        break;
    }
  }
  return html + "</body>\n</html>\n";
}

}  // namespace

std::vector<std::string> write_report(const std::vector<Run>& runs, const std::string& out_dir) {
  namespace fs = std::filesystem;
  const Document doc = build(runs);
  std::vector<std::pair<std::string, std::string>> files;
  const std::string md = to_markdown(doc, files);
  files.push_back({"report.md", md});
  files.push_back({"report.html", to_html(doc)});
  fs::create_directories(fs::path(out_dir) / "charts");
  std::vector<std::string> written;
  for (const auto& [name, contents] : files) {
    const std::string path = (fs::path(out_dir) / name).string();
    write_file_atomically(path, contents);
    written.push_back(path);
  }
  return written;
}

}  // namespace ladder::report
