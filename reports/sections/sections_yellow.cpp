// "How yellow, how fast": a staircase of peers (the cards that name it: the same code interpreted, then
// compiled by Cython untyped, typed and under prange), each compiled peer's yellow count (its card's, from
// `cython -a` at build time) beside its time a node.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "sections.hpp"

namespace ladder::report {
namespace {

// The peer's measured cell of one integrand at n on the most threads it ran on (prange's at --threads), or
// null.
const CellResult* on_most_threads(const Run& run, const std::string& tier, const std::string& integrand,
                                  std::int64_t n) {
  const CellResult* found = nullptr;
  for (const auto& cell : run.cells)
    if (cell.tier == tier && cell.integrand == integrand && cell.n == n && cell.ok() &&
        (!found || cell.threads > found->threads))
      found = &cell;
  return found;
}

// The largest n every peer of the table measured (pure Python and cython-untyped stop at their max_nodes);
// failing that the largest any of them did; 0 when none did.
std::int64_t common_size(const Run& run, const std::vector<const Card*>& peers,
                         const std::string& integrand) {
  auto sizes = run.sizes();
  std::reverse(sizes.begin(), sizes.end());
  for (const bool every : {true, false})
    for (const auto n : sizes) {
      const auto has = [&](const Card* peer) { return on_most_threads(run, peer->id, integrand, n); };
      if (every ? std::all_of(peers.begin(), peers.end(), has) : std::any_of(peers.begin(), peers.end(), has))
        return n;
    }
  return 0;
}

std::string yellow_text(const Card& card) {
  if (!card.yellow) return "not compiled";
  return std::to_string(card.yellow->lines) + " of " + std::to_string(card.yellow->kernel_lines);
}

void yellow_table(Document& doc, const Run& run, const std::vector<const Card*>& peers, bool several) {
  const std::string integrand = run.integrand_names().empty() ? "" : run.integrand_names().front();
  const std::int64_t n = common_size(run, peers, integrand);
  Table rows{{"rung", "peer", "yellow lines", "Cython's score", "threads", "time a node", "learning time"},
             {},
             "yellow"};
  rows.fold = false;  // a column the same for every row still belongs to the comparison
  for (const Card* peer : peers) {
    const CellResult* cell = n ? on_most_threads(run, peer->id, integrand, n) : nullptr;
    rows.rows.push_back(
        {std::to_string(peer->rung), peer->id, yellow_text(*peer),
         peer->yellow ? std::to_string(peer->yellow->score) : "–", cell ? std::to_string(cell->threads) : "–",
         cell ? format_number("%.3g ns", cell->median() * 1e9 / static_cast<double>(n)) : "not measured",
         peer->learning_time});
  }
  doc.push_back(heading(2, "How yellow, how fast: " + peers.front()->staircase +
                               (several ? " on " + run.machine : std::string())));
  const Card* interpreted = peers.front()->yellow ? nullptr : peers.front();  // the staircase's first rung
  doc.push_back(paragraph(
      "`cython -a` paints a line of a .pyx yellow where the C it became calls into the Python C-API, the "
      "deeper the more it calls. A Cython peer's yellow lines are those of its kernel (the loop and the "
      "integrand, not the entry point's argument conversion), counted when the build compiled it; Cython's "
      "score adds up the calls (5 a C-API function, 2 a Cython helper, 1 a macro). Each time is the median "
      "of the cell's repetitions, divided by n, for " +
      (integrand.empty() ? std::string("the run's integrand") : integrand) +
      (n ? " at n = " + format_count(static_cast<double>(n)) : std::string()) +
      (interpreted ? "; " + interpreted->id + " is the same code interpreted" : std::string()) +
      ". How the count is made: docs/python-peers.md."));
  doc.push_back(table(std::move(rows)));
}

}  // namespace

void yellow_lines(Document& doc, const std::vector<Run>& runs) {
  for (const auto& run : runs) {
    std::vector<std::vector<const Card*>> staircases;  // each staircase the cards name, in rung order
    for (const Card* card : run.cards_by_rung()) {
      if (card->staircase.empty()) continue;
      const auto same = std::find_if(staircases.begin(), staircases.end(), [&](const auto& staircase) {
        return staircase.front()->staircase == card->staircase;
      });
      if (same == staircases.end())
        staircases.push_back({card});
      else
        same->push_back(card);
    }
    for (const auto& peers : staircases)
      if (std::any_of(peers.begin(), peers.end(), [](const Card* card) { return card->yellow; }))
        yellow_table(doc, run, peers, runs.size() > 1);
  }
}

}  // namespace ladder::report
