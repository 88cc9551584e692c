// The roofline's figures, the answer's headroom line and the section "How far each tier is from the limits"
// (roofline.hpp says what each figure means; roofline_chart.cpp draws the chart).
#include "roofline.hpp"

#include <algorithm>

#include "charts.hpp"
#include "sections.hpp"
#include "text.hpp"

namespace ladder::report {
namespace {

std::string rate(double value, const std::string& unit) {
  return format_number(value >= 100 ? "%.0f " : value >= 10 ? "%.1f " : "%.2f ", value) + unit;
}

std::string share(std::optional<double> fraction) {
  return fraction ? format_number("%.0f %%", 100 * *fraction) : std::string("–");
}

// "118 GFLOP/s (likwid-bench 5.2.2, best of 6 runs: 57.4–118; 2026-12-03T08:01:12Z)"
std::string reading_words(const LimitReading& reading) {
  const auto [low, high] = std::minmax_element(reading.runs.begin(), reading.runs.end());
  std::string spread = reading.runs.empty()
                           ? std::string()
                           : ", best of " + counted(static_cast<int>(reading.runs.size()), "run", "runs") +
                                 ": " + format_number("%.3g", *low) + "–" + format_number("%.3g", *high);
  return "**" + rate(reading.best, reading.unit) + "** (" + reading.tool + spread + "; " +
         reading.measured_at + ")";
}

const RooflinePoint* fastest(const Roofline& roof) {
  const RooflinePoint* best = nullptr;
  for (const auto& each : roof.points)
    if (!best || each.row->cell->median() < best->row->cell->median()) best = &each;
  return best;
}

}  // namespace

std::optional<double> limit_for(const std::optional<LimitReading>& one,
                                const std::optional<LimitReading>& all, int threads) {
  if (!one) return std::nullopt;
  const double scaled = one->best * threads;
  if (threads <= 1) return one->best;
  if (!all) return std::nullopt;
  return std::min(scaled, std::max(all->best, one->best));
}

Roofline roofline(const Analysis& analysis) {
  Roofline roof;
  const MachineLimits& limits = analysis.run->limits;
  if (!limits.measured) roof.unavailable = limits.reason.empty() ? "not measured" : limits.reason;
  roof.peak_lanes = limits.fma_one_core ? limits.fma_one_core->lanes : 0;
  for (const auto& row : analysis.rows) {
    if (row.card->peer || !row.cell) continue;
    RooflinePoint point;
    point.row = &row;
    point.threads = row.cell->threads * row.cell->ranks;
    const double nodes_a_second = static_cast<double>(row.cell->n) / row.cell->median();
    if (row.card->flops_per_node) point.gflops = *row.card->flops_per_node * nodes_a_second * 1e-9;
    if (row.card->memory_bytes_per_node > 0) {
      point.gbytes = row.card->memory_bytes_per_node * nodes_a_second * 1e-9;
      if (row.card->flops_per_node)
        point.intensity = *row.card->flops_per_node / row.card->memory_bytes_per_node;
    }
    point.peak_gflops = limit_for(limits.fma_one_core, limits.fma_all_cores, point.threads).value_or(0);
    point.bandwidth_gbs =
        limit_for(limits.bandwidth_one_core, limits.bandwidth_all_cores, point.threads).value_or(0);
    if (point.gflops && point.peak_gflops > 0) point.share_of_peak = *point.gflops / point.peak_gflops;
    if (point.gbytes && point.bandwidth_gbs > 0)
      point.share_of_bandwidth = *point.gbytes / point.bandwidth_gbs;
    // The FP instructions of another build (callgrind's, at another width) say nothing of this one's mix.
    if (row.card->flops_of_timed_build && row.card->flops_per_node && row.card->fp_instructions_per_node &&
        roof.peak_lanes > 0 && *row.card->fp_instructions_per_node > 0)
      point.mix_ceiling = std::min(
          1.0, *row.card->flops_per_node / (2.0 * roof.peak_lanes * *row.card->fp_instructions_per_node));
    if (point.intensity && point.peak_gflops > 0 && point.bandwidth_gbs > 0)
      point.memory_bound = *point.intensity < point.peak_gflops / point.bandwidth_gbs;
    roof.points.push_back(point);
  }
  return roof;
}

std::string headroom_line(const Analysis& analysis) {
  const Roofline roof = roofline(analysis);
  if (!roof.unavailable.empty()) return "Headroom: the machine's limits were " + roof.unavailable + ".";
  const RooflinePoint* point = fastest(roof);
  if (!point) return "Headroom: no C++ tier was measured at this n.";
  const std::string tier = "Headroom: **" + point->row->card->id + "**, the fastest,";
  const std::string on = point->threads == 1 ? "one core" : std::to_string(point->threads) + " threads";
  if (point->memory_bound && point->share_of_bandwidth)
    return tier + " is bound by memory at " + share(point->share_of_bandwidth) + " of the bandwidth (" + on +
           ")" +
           (*point->share_of_bandwidth >= 0.7 ? ": little is left without moving less data."
                                              : ": a kernel that streams would gain most.");
  if (!point->share_of_peak)
    return tier + " has no counted FLOPs a node: its share of the peak is not known.";
  const std::string line = tier + " reaches " + share(point->share_of_peak) + " of the FMA peak (" +
                           rate(point->peak_gflops, "GFLOP/s") + ", " + on + ")";
  // The peak counts every FP instruction as an FMA of the widest lanes; the mix ceiling is what its own
  // instructions allow of it.
  if (!point->mix_ceiling) return line + "; its instruction mix was not counted on the build that ran.";
  const double of_ceiling = *point->share_of_peak / *point->mix_ceiling;
  return line + "; its instruction mix caps it near " + share(point->mix_ceiling) + ", and at " +
         share(of_ceiling) + " of that " +
         (of_ceiling >= 0.75  ? "little is left."
          : of_ceiling >= 0.5 ? "some is left."
                              : "much is left: the code, not the machine, is the limit.");
}

void roofline_section(Document& doc, const std::vector<Analysis>& analyses) {
  doc.push_back(heading(2, "How far each tier is from the limits"));
  Document blocks;
  for (const auto& analysis : analyses) {
    const Run& run = *analysis.run;
    const MachineLimits& limits = run.limits;
    if (analyses.size() > 1) blocks.push_back(heading(3, run.machine));
    if (!limits.measured) {
      blocks.push_back(paragraph("The machine's limits were " + limits.reason +
                                 ". `ladder run` measures them beside the cells (without `--no-limits`); "
                                 "`ladder machine` measures them alone."));
      continue;
    }
    std::vector<std::string> items;
    const auto add = [&](const char* what, const std::optional<LimitReading>& reading) {
      if (!reading) return items.push_back(std::string(what) + ": not measured");
      items.push_back(std::string(what) + " (" + counted(reading->threads, "thread", "threads") +
                      "): " + reading_words(*reading) + ". " + reading->method +
                      (reading->note.empty() ? "" : " (" + reading->note + ")"));
    };
    add("Peak FMA rate, one core", limits.fma_one_core);
    add("Peak FMA rate, all cores", limits.fma_all_cores);
    add("Memory bandwidth, one core", limits.bandwidth_one_core);
    add("Memory bandwidth, all cores", limits.bandwidth_all_cores);
    blocks.push_back(
        paragraph("The limits, each the best of short runs taken beside the cells (on a shared "
                  "or virtual machine the peak swings between runs: the spread is printed):"));
    blocks.push_back(list(items));
    const Roofline roof = roofline(analysis);
    std::vector<std::string> how;
    for (const auto& point : roof.points)
      if (!point.row->card->flops_how.empty())
        how.push_back(point.row->card->id + ": " + point.row->card->flops_how);
    blocks.push_back(paragraph(
        "FLOPs a node are counted, not guessed (FMA = 2 × lanes, add, sub, mul, div and sqrt = lanes; "
        "min, max, permutes and the like count no FLOP but take an FP slot). Bytes a node are those a tier "
        "moves to and from memory (its card). A tier's limit for T threads is one core's × T, at most all "
        "cores'. Its **mix ceiling** is its FLOPs a node ÷ (2 × " +
        std::to_string(roof.peak_lanes) +
        " lanes × its FP instructions a node): the share of the FMA peak its own instruction mix allows, "
        "since the peak counts every FP instruction as an FMA of the widest lanes. It is given where the "
        "count is of the build that ran (its hot loop's disassembly); a loop that calls out (libm, libmvec, "
        "SLEEF) is counted under callgrind on the profiling build instead, whose FLOPs a node stand for the "
        "work but whose instructions are another target's." +
        (run.flops_method.empty() ? std::string() : " Callgrind's count: " + run.flops_method + ".")));
    if (!how.empty()) blocks.push_back(details(4, "How each tier's FLOPs were counted", {list(how)}));
    Table figures{{"tier", "threads", "ns a node", "FLOPs a node", "GFLOP/s", "of FMA peak", "mix ceiling",
                   "of its ceiling", "bytes a node", "GB/s", "of bandwidth", "bound by"},
                  {},
                  "roofline"};
    for (const auto& point : roof.points) {
      const Card& card = *point.row->card;
      const std::optional<double> of_ceiling = point.share_of_peak && point.mix_ceiling
                                                   ? std::optional(*point.share_of_peak / *point.mix_ceiling)
                                                   : std::nullopt;
      figures.rows.push_back(
          {card.id, std::to_string(point.threads), format_number("%.3g", point.row->cell->ns_per_node()),
           card.flops_per_node ? format_number("%.3g", *card.flops_per_node) : "not counted",
           point.gflops ? format_number("%.3g", *point.gflops) : "–", share(point.share_of_peak),
           share(point.mix_ceiling), share(of_ceiling), format_number("%.3g", card.memory_bytes_per_node),
           point.gbytes ? format_number("%.3g", *point.gbytes) : "–", share(point.share_of_bandwidth),
           !point.gflops        ? "–"
           : point.memory_bound ? "memory"
           : point.intensity    ? "compute"
                                : "compute (no memory traffic)"});
    }
    blocks.push_back(table(figures));
    blocks.push_back(paragraph(headroom_line(analysis)));
  }
  doc.push_back(section("roofline", blocks));
  if (auto drawn = roofline_charts(analyses); !drawn.empty()) doc.push_back(charts(std::move(drawn)));
}

}  // namespace ladder::report
