// Builds as a dimension of the matrix (`ladder run --compilers gcc,clang --arch native,x86-64-v2`): the
// report analyses one build's cells (load.cpp's split, main_build_rule); here are the others. The answer
// names its build and gives each other build's own answer (decide() on that build's cells), and "What the
// build costs" sets the builds side by side: how each was made, each tier's time in each against the native
// GCC build with where it lost (or gained) vectorization, and each tier's speedup against naive per build.
#include <algorithm>
#include <limits>

#include "decision.hpp"
#include "sections.hpp"
#include "svg.hpp"

namespace ladder::report {
namespace {

// "GCC", "Clang": the compiler's family in words, from its record ("GNU 12.2.0") or the build's id.
std::string compiler_family(const RunRecord::BuildUsed& build) {
  const std::string& compiler = build.compiler;
  if (compiler.starts_with("GNU") || compiler.starts_with("GCC") || build.id.starts_with("gcc")) return "GCC";
  if (compiler.starts_with("Clang") || compiler.starts_with("clang") || build.id.starts_with("clang"))
    return "Clang";
  return compiler.empty() ? build.id : compiler.substr(0, compiler.find(' '));
}

RunRecord::BuildUsed described(const Run& run, const std::string& id) {
  const RunRecord::BuildUsed* record = build_record(run, id);
  return record ? *record : RunRecord::BuildUsed{{}, id, "", 0, 0};
}

// "build **gcc-native** (GNU 12.2.0, -march=native)"
std::string build_words(const RunRecord::BuildUsed& build) {
  std::vector<std::string> parts;
  if (!build.compiler.empty()) parts.push_back(build.compiler);
  if (!build.target.empty()) parts.push_back("-march=" + build.target);
  return "build **" + build.id + "**" + (parts.empty() ? "" : " (" + join(parts) + ")");
}

std::vector<std::string> build_ids(const Run& run) {
  std::vector<std::string> ids{run.build_id};
  for (const auto& other : run.other_builds) ids.push_back(other.id);
  return ids;
}

// The team's rung, where this build measured it at n (decide() refuses one it did not).
Usage usage_for(const Run& build, std::int64_t n, const std::string& integrand, Usage usage) {
  const bool measured = std::any_of(build.cells.begin(), build.cells.end(), [&](const CellResult& cell) {
    return cell.tier == usage.current && cell.n == n && cell.integrand == integrand && cell.ok();
  });
  if (!measured) usage.current.clear();
  return usage;
}

// One other build's own answer, one line: "For a Clang x86-64-v2 binary (clang-x86-64-v2): use **xsimd**, …".
std::string other_answer(const Run& run, const RunRecord::BuildUsed& build, const Analysis& analysis,
                         const std::string& integrand, const MoneyInputs& inputs) {
  const Run cells = build_run(run, build.id);
  const std::string lead = "For a " + compiler_family(build) +
                           (build.target.empty() ? "" : " " + build.target) + " binary (" + build.id + "): ";
  const Decision decision = decide(cells, analysis.n, integrand, inputs.figures,
                                   usage_for(cells, analysis.n, integrand, inputs.usage));
  if (decision.tiers.empty())
    return lead + "no C++ tier was measured at n = " + format_count(static_cast<double>(analysis.n)) + ".";
  if (!decision.latency_tier) return lead + decision.latency_why + ".";
  const TierChoice& chosen = *decision.tier(*decision.latency_tier);
  std::string said =
      lead + "use **" + chosen.card->id + "**, " + format_seconds(chosen.fastest->median()) + " a call";
  if (const Row* pick = analysis.recommended) {
    const double ratio = chosen.fastest->median() / pick->cell->median();
    said += " (" +
            (ratio >= 1.005   ? times(ratio) + " slower than"
             : ratio <= 0.995 ? times(ratio) + " the time of"
                              : std::string("as fast as")) +
            " " + run.build_id + "'s pick, " + pick->card->id + ")";
  }
  if (decision.money_tier)
    said += "; at " + calls_text(*decision.usage.calls_per_day) + " calls a day **" + *decision.money_tier +
            "** costs least";
  return said + ".";
}

// A tier's fastest ok cell of one thread and one rank at n among `cells` (null when none).
const CellResult* one_thread(const std::vector<CellResult>& cells, const std::string& tier, std::int64_t n) {
  const CellResult* best = nullptr;
  for (const auto& cell : cells)
    if (cell.tier == tier && cell.n == n && cell.threads == 1 && cell.ranks == 1 && cell.ok() &&
        (!best || cell.median() < best->median()))
      best = &cell;
  return best;
}

const std::vector<CellResult>& cells_of(const Run& run, const std::string& id) {
  for (const auto& other : run.other_builds)
    if (other.id == id) return other.cells;
  return run.cells;
}

// The build the others are measured against: the native GCC build, else the analysed one.
std::string reference_build(const Run& run) {
  const auto ids = build_ids(run);
  return std::find(ids.begin(), ids.end(), "gcc-native") != ids.end() ? "gcc-native" : run.build_id;
}

// The largest n at which the reference build measured a cell of one thread and one rank (0: none).
std::int64_t largest_one_thread_n(const Run& run, const std::string& reference) {
  std::int64_t n = 0;
  for (const auto& cell : cells_of(run, reference))
    if (cell.ok() && cell.threads == 1 && cell.ranks == 1) n = std::max(n, cell.n);
  return n;
}

// "1.42× slower (17.5 ms)", "0.95× (faster, 11.7 ms)", "1.00× (12.3 ms)".
std::string ratio_text(double ratio, double seconds) {
  const std::string time = format_seconds(seconds);
  if (ratio >= 1.005) return times(ratio) + " slower (" + time + ")";
  if (ratio <= 0.995) return times(ratio) + " (faster, " + time + ")";
  return times(ratio) + " (" + time + ")";
}

std::string lanes_text(int lanes) { return lanes == 0 ? "unknown lanes" : counted(lanes, "lane", "lanes"); }

// Where a tier's hot loop in `other` differs from the reference's, in words ("" when it does not): "lost:
// 8 lanes → 2 lanes (sse4_2)", "lost: vectorized → scalar", "gained: …".
std::string vectorization_change(const BuildRecord& reference, const BuildRecord& other) {
  const auto rank = [](const BuildRecord& build) {
    return build.vectorization == "vectorized" ? 2 : build.vectorization == "partly" ? 1 : 0;
  };
  std::string change;
  if (reference.vectorization != other.vectorization)
    change = reference.vectorization + " → " + other.vectorization;
  else if (reference.lanes != other.lanes)
    change = lanes_text(reference.lanes) + " → " + lanes_text(other.lanes);
  else
    return "";
  if (!other.instruction_set.empty() && other.instruction_set != reference.instruction_set)
    change += " (" + other.instruction_set + ")";
  const bool lost =
      rank(other) < rank(reference) || (rank(other) == rank(reference) && other.lanes < reference.lanes);
  return (lost ? "lost: " : "gained: ") + change;
}

void builds_table(Document& doc, const Run& run) {
  Table rows{
      {"build", "compiler", "target", "common flags", "state", "configure", "compile"}, {}, "builds", false};
  const auto seconds = [](double value) { return value > 0 ? format_seconds(value) : std::string("–"); };
  for (const auto& id : build_ids(run)) {
    const RunRecord::BuildUsed build = described(run, id);
    rows.rows.push_back({build.id + (id == run.build_id ? " (analysed above)" : ""), build.compiler,
                         build.target, build.common_flags, build.state, seconds(build.configure_seconds),
                         seconds(build.compile_seconds)});
  }
  doc.push_back(table(rows));
}

// Each tier's time in every build against the reference's, at n and 1 thread, and where its vectorization
// differs from the reference's.
void times_table(Document& doc, const Run& run, const std::string& reference, std::int64_t n) {
  const auto ids = build_ids(run);
  Table rows{{"tier"}, {}, "build-times", false};
  for (const auto& id : ids) rows.header.push_back(id == reference ? id + " (reference)" : id);
  rows.header.push_back("vectorization against " + reference);
  for (const Card* card : run.cards_by_rung()) {
    if (card->peer) continue;
    const CellResult* base = one_thread(cells_of(run, reference), card->id, n);
    std::vector<std::string> row{card->id}, changes;
    bool any = false;
    for (const auto& id : ids) {
      const CellResult* cell = one_thread(cells_of(run, id), card->id, n);
      any = any || cell;
      row.push_back(!cell             ? "–"
                    : id == reference ? format_seconds(cell->median())
                    : base            ? ratio_text(cell->median() / base->median(), cell->median())
                                      : format_seconds(cell->median()));
      if (cell && base && id != reference && cell->build_record && base->build_record)
        if (const auto change = vectorization_change(*base->build_record, *cell->build_record);
            !change.empty())
          changes.push_back(id + " " + change);
    }
    if (!any) continue;
    row.push_back(changes.empty() ? "same in every build" : join(changes, "; "));
    rows.rows.push_back(row);
  }
  doc.push_back(table(rows));
}

// The dispatch tier is compiled for the baseline in every build and picks its path at run time: the path
// each build's cell took, as the worker recorded it.
void dispatch_note(Document& doc, const Run& run, std::int64_t n) {
  std::vector<std::string> paths;
  for (const auto& id : build_ids(run))
    if (const CellResult* cell = one_thread(cells_of(run, id), "dispatch", n)) {
      // The measurement's: the path the worker saw the tier take (the build's record holds xsimd's width
      // for the build's own -march, which the dispatching tier does not follow).
      const std::string path = cell->instruction_set();
      paths.push_back(id + " took " + (path.empty() ? "a path it did not record" : path));
    }
  if (paths.empty()) return;
  doc.push_back(paragraph(
      "**dispatch** is compiled for the baseline in every build and chooses its path at run time, so the "
      "build's -march moves it less than the other tiers: " +
      join(paths, ", ") + "."));
}

// One bar chart a build: each tier's speedup against naive at n, 1 thread, on one shared axis.
std::vector<Chart> speedup_charts(const Run& run, std::size_t machine, std::int64_t n, Document& doc) {
  std::vector<svg::BarPlot> plots;
  std::vector<std::string> without_naive;
  for (const auto& id : build_ids(run)) {
    const auto& cells = cells_of(run, id);
    const CellResult* naive = one_thread(cells, "naive", n);
    if (!naive) {
      without_naive.push_back(id);
      continue;
    }
    svg::BarPlot plot{
        "builds-" + std::to_string(machine + 1) + "-" + id,
        "Speedup against naive at n = " + format_count(static_cast<double>(n)) + ", 1 thread — build " + id,
        "× naive in this build (log scale)",
        true,
        {}};
    for (const Card* card : run.cards_by_rung())
      if (const CellResult* cell = card->peer ? nullptr : one_thread(cells, card->id, n)) {
        const double speedup = naive->median() / cell->median();
        plot.bars.push_back({card->id, speedup, times(speedup), ""});
      }
    plots.push_back(std::move(plot));
  }
  if (!without_naive.empty())
    doc.push_back(paragraph("No speedup chart for " + join(without_naive) +
                            ": naive was not measured there at n = " + format_count(static_cast<double>(n)) +
                            " on 1 thread."));
  svg::share_axes(plots);
  std::vector<Chart> charts;
  for (const auto& plot : plots) charts.push_back({plot.id, svg::bar_chart(plot)});
  return charts;
}

void one_run(Document& doc, const Run& run, std::size_t machine, bool several) {
  if (several) doc.push_back(heading(3, run.machine));
  const std::string reference = reference_build(run);
  const std::int64_t n = largest_one_thread_n(run, reference);
  doc.push_back(paragraph("Each tier was measured in " +
                          counted(static_cast<int>(build_ids(run).size()), "build", "builds") +
                          " (a compiler and a -march target each); the sections above read " +
                          build_words(described(run, run.build_id)) + ": " + main_build_rule() + "."));
  builds_table(doc, run);
  if (n == 0) {
    doc.push_back(paragraph("No cell of one thread was measured in build " + reference +
                            ": no times to set side by side."));
    return;
  }
  const std::string integrands = join(run.integrand_names());
  doc.push_back(paragraph("Each tier's median at n = " + format_count(static_cast<double>(n)) +
                          ", 1 thread (the largest n measured there)" +
                          (integrands.empty() ? "" : ", " + integrands) + ", in each build against " +
                          build_words(described(run, reference)) +
                          "; where the hot loop's vectorization differs from that build's, what it lost or "
                          "gained (each build's reading of its own disassembly):"));
  times_table(doc, run, reference, n);
  dispatch_note(doc, run, n);
  doc.push_back(charts(speedup_charts(run, machine, n, doc)));
}

}  // namespace

void build_answers(Document& answer, const std::vector<Analysis>& analyses,
                   const std::vector<std::string>& focus, const MoneyInputs& inputs) {
  const bool several = analyses.size() > 1;
  for (std::size_t i = 0; i < analyses.size(); ++i) {
    const Run& run = *analyses[i].run;
    if (run.other_builds.empty() && run.build_id.empty()) continue;
    const std::size_t others = run.other_builds.size();
    std::string said = (several ? "On **" + run.machine + "**, measured in " : "Measured in ") +
                       build_words(described(run, run.build_id));
    if (others > 0)
      said += "; " + counted(static_cast<int>(others), "other build", "other builds") +
              " below in What the build costs, each with its own answer:";
    answer.push_back(paragraph(said));
    std::vector<std::string> lines;
    for (const auto& other : run.other_builds)
      lines.push_back(other_answer(run, described(run, other.id), analyses[i], focus[i], inputs));
    if (!lines.empty()) answer.push_back(list(lines));
  }
}

void build_costs(Document& doc, const std::vector<Run>& runs) {
  const bool any =
      std::any_of(runs.begin(), runs.end(), [](const Run& run) { return !run.other_builds.empty(); });
  if (!any) return;
  doc.push_back(heading(2, "What the build costs"));
  for (std::size_t i = 0; i < runs.size(); ++i)
    if (!runs[i].other_builds.empty()) one_run(doc, runs[i], i, runs.size() > 1);
}

}  // namespace ladder::report
