// The sections on what to choose: the answer, what each tier costs to keep, and which tier for whom.
#include <algorithm>
#include <set>
#include <utility>

#include "scaling.hpp"
#include "sections.hpp"

namespace ladder::report {
namespace {

std::string threads_text(int count) { return std::to_string(count) + (count == 1 ? " thread" : " threads"); }

// The tiers whose best cell is narrower than the width the answer is for, and why, from their scaling.
std::vector<std::string> narrower_bests(const Analysis& analysis) {
  std::vector<std::string> items;
  const auto lines = thread_scaling(*analysis.run, analysis.n);
  for (const auto& row : analysis.rows) {
    const int used = row.cell->threads * row.cell->ranks;
    if (!row.card->parallel || row.card->peer || used >= analysis.width) continue;
    std::string item = row.card->id + " is fastest on " + threads_text(used) + ", fewer than the " +
                       std::to_string(analysis.width) + " this answer is for";
    for (const auto& line : lines)
      if (line.tier == row.card->id && !line.ranks) item += "; its scaling: " + line.verdict;
    items.push_back(item + ".");
  }
  return items;
}

// The recommendation at each measured width, runs of the same answer joined: "1–4 threads: xsimd; …".
std::string by_width(const Analysis& analysis) {
  std::set<int> widths;
  for (const auto& cell : analysis.run->cells)
    if (cell.n == analysis.n && cell.ok() && cell.threads * cell.ranks <= analysis.width)
      widths.insert(cell.threads * cell.ranks);
  std::vector<std::pair<std::pair<int, int>, std::string>> runs;  // (from, to) -> tier
  for (const int width : widths) {
    const Analysis narrower = analyse(*analysis.run, analysis.n, false, width);
    const std::string tier = narrower.recommended ? narrower.recommended->card->id : "none";
    if (!runs.empty() && runs.back().second == tier)
      runs.back().first.second = width;
    else
      runs.push_back({{width, width}, tier});
  }
  if (widths.size() < 2) return "";
  std::string text;
  for (const auto& [range, tier] : runs)
    text += (text.empty() ? "" : "; ") +
            (range.first == range.second ? threads_text(range.first)
                                         : std::to_string(range.first) + "–" + threads_text(range.second)) +
            ": **" + tier + "**";
  return text;
}

}  // namespace

void costs(Document& doc, const Run& run) {
  doc.push_back(heading(2, "What each tier costs to keep"));
  doc.push_back(
      paragraph("Maintenance cost, " + cost_formula() + ". Disagree with a weight? Every part is here."));
  Table rows{{"tier", "cost", "code", "concepts", "libraries", "flags", "learning", "needs"}, {}};
  const std::vector<const Card*> cards = run.cards_by_rung();
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
    items.push_back("On **" + run.machine + "**, answered for " + width_text(analysis) +
                    ": the Pareto-optimal tiers at n = " + format_count(static_cast<double>(analysis.n)) +
                    " are " + frontier + ": for any other, one of these is faster for no more upkeep.");
    for (auto& item : narrower_bests(analysis)) items.push_back(std::move(item));
    if (const std::string widths = by_width(analysis); !widths.empty())
      items.push_back("The recommendation on a share of this machine (each width measured): " + widths + ".");
    if (analysis.best_peer) {
      const Row& best = *analysis.best_peer;
      std::string cross = "Python against C++: the fastest Python peer, " + best.card->id + ", takes " +
                          format_seconds(best.cell->median()) + " (cost " +
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
        if (!row.card->peer && (!fastest || row.cell->median() < fastest->cell->median())) fastest = &row;
      if (fastest && fastest->over_baseline)
        cross += "; the fastest C++ tier, " + fastest->card->id + ", is " + times(*fastest->over_baseline) +
                 " " + analysis.baseline->id + " and " + times(*fastest->over_best_peer) + " " +
                 best.card->id;
      items.push_back(cross + ".");
    }
    const Row* previous = nullptr;
    const Row* previous_peer = nullptr;
    for (const auto& row : analysis.rows) {
      if (row.card->peer) std::swap(previous, previous_peer);  // each staircase on its own
      if (previous) {
        const double gain = previous->cell->median() / row.cell->median();
        std::string step = previous->card->id + " → " + row.card->id + ": " + times(gain) + " for " +
                           format_number("%+.1f", row.cost.score - previous->cost.score) + " cost";
        const auto from = pays_from(run, row.card->id, previous->card->id);
        step += from ? "; faster from n = " + format_count(static_cast<double>(*from)) + " on"
                     : "; not faster at any size measured here";
        items.push_back(step);
      }
      if (!row.card->pypy()) previous = &row;  // a PyPy twin is measured against, never as, a CPython rung
      if (row.card->peer) std::swap(previous, previous_peer);
    }
    doc.push_back(list(items));
  }
}

}  // namespace ladder::report
