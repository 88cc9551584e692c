// From measurements to a decision: each tier's best configuration at a size and its maintenance cost (the
// score: cost.cpp), the speedups, the Pareto frontier of speed against cost, and the tier to recommend.
#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>

#include "disturbance.hpp"
#include "errors.hpp"
#include "report.hpp"
#include "text.hpp"

namespace ladder::report {

bool better_cell(const CellResult& x, const CellResult& y) {
  const bool x_quiet = !disturbed(x), y_quiet = !disturbed(y);
  if (x_quiet != y_quiet) return x_quiet;
  return x.median() < y.median();
}

namespace {

// The best measured cell of a tier at n (over threads and ranks: better_cell), at most `width` threads ×
// ranks.
const CellResult* best_cell(const Run& run, const std::string& tier, std::int64_t n,
                            int width = std::numeric_limits<int>::max()) {
  const CellResult* best = nullptr;
  for (const auto& cell : run.cells)
    if (cell.tier == tier && cell.n == n && cell.ok() && cell.threads * cell.ranks <= width &&
        (!best || better_cell(cell, *best)))
      best = &cell;
  return best;
}

const CellResult* one_thread_cell(const Run& run, const std::string& tier, std::int64_t n) {
  for (const auto& cell : run.cells)
    if (cell.tier == tier && cell.n == n && cell.ok() && cell.threads == 1 && cell.ranks == 1) return &cell;
  return nullptr;
}

// The size most tiers were measured at, the largest of those.
std::int64_t default_size(const Run& run) {
  std::map<std::int64_t, int> tiers_at;
  for (const auto n : run.sizes())
    for (const auto& card : run.cards) tiers_at[n] += best_cell(run, card.id, n) != nullptr;
  std::int64_t chosen = 0;
  int most = -1;
  for (const auto& [n, count] : tiers_at)
    if (count >= most) most = count, chosen = n;
  return chosen;
}

}  // namespace

int widest_measured(const Run& run, std::int64_t n) {
  int widest = 1;
  for (const auto& cell : run.cells)
    if (cell.n == n && cell.ok()) widest = std::max(widest, cell.threads * cell.ranks);
  return widest;
}

std::string width_text(const Analysis& analysis) {
  const Run& run = *analysis.run;
  const auto threads = [](int count) {
    return std::to_string(count) + (count == 1 ? " thread" : " threads");
  };
  const int widest = widest_measured(run, analysis.n);
  std::string text = threads(analysis.width) + (analysis.width < widest
                                                    ? " (as asked; " + threads(widest) + " were measured)"
                                                    : ", the widest measured here");
  if (!run.topology)
    return text + "; the machine reported " + std::to_string(run.cpus) +
           " logical CPUs (its topology was not recorded)";
  const Topology& topology = *run.topology;
  const int hardware = topology.hardware_threads();
  const std::string shape = " (" + topology.describe() + ")";
  const std::string hardware_threads = std::to_string(hardware) + " hardware threads";
  if (analysis.width >= hardware) return text + ": all " + hardware_threads + " of this machine" + shape;
  if (analysis.width == topology.cores)
    return text + ": all " + std::to_string(topology.cores) + " physical cores of this machine, not its " +
           hardware_threads + shape;
  return text + "; this machine has " + std::to_string(topology.cores) + " cores, " + hardware_threads +
         shape;
}

std::optional<std::int64_t> pays_from(const Run& run, const std::string& tier, const std::string& other) {
  std::optional<std::int64_t> from;
  for (const auto n : run.sizes()) {
    const CellResult* mine = best_cell(run, tier, n);
    const CellResult* theirs = best_cell(run, other, n);
    if (!mine || !theirs) continue;
    if (mine->median() < theirs->median()) {
      if (!from) from = n;
    } else {
      from.reset();
    }
  }
  return from;
}

namespace {

// Each tier's best cell at the analysis' size and width, a row each (a tier with none: its first cell that
// did not run, among the unmeasured); returns the fastest median.
double measured_rows(const Run& run, Analysis& analysis) {
  const std::vector<const Card*> cards = run.cards_by_rung();

  const CellResult* naive = one_thread_cell(run, "naive", analysis.n);
  double fastest = 0;
  for (const Card* card : cards) {
    const CellResult* cell = best_cell(run, card->id, analysis.n, analysis.width);
    if (!cell) {
      for (const auto& each : run.cells)
        if (each.tier == card->id && each.n == analysis.n && !each.ok()) {
          analysis.unmeasured.push_back(&each);
          break;
        }
      continue;
    }
    Row row;
    row.cell = cell;
    row.card = card;
    row.cost = maintenance_cost(*card);
    row.interval = cell_interval(run, *cell);
    row.disturbed = disturbance(*cell);
    if (naive) {
      row.speedup = naive->median() / cell->median();
      row.speedup_range = ratio_range(cell_interval(run, *naive), row.interval);
    }
    analysis.rows.push_back(row);
    fastest = fastest == 0 ? cell->median() : std::min(fastest, cell->median());
  }
  return fastest;
}

// Each row against the others: its share of the fastest, its speedup over the rung below (the peers' own
// staircase apart), over the baseline peer and the best peer, and whether it is on the Pareto frontier.
void compare_rows(Analysis& analysis, double fastest) {
  for (const auto& card : analysis.run->cards)
    if (card.peer && card.baseline) analysis.baseline = &card;
  const Row* below = nullptr;
  const Row* baseline = nullptr;
  for (const auto& row : analysis.rows) {
    if (!row.card->peer) continue;
    if (row.card == analysis.baseline) baseline = &row;
    if (!analysis.best_peer || row.cell->median() < analysis.best_peer->cell->median())
      analysis.best_peer = &row;
  }
  const Row* below_peer = nullptr;
  for (auto& row : analysis.rows) {
    row.fraction_of_fastest = fastest / row.cell->median();
    const Row*& previous = row.card->peer ? below_peer : below;  // each staircase on its own
    if (previous) {
      row.speedup_below = previous->cell->median() / row.cell->median();
      row.below_range = ratio_range(previous->interval, row.interval);
    }
    if (!row.card->pypy()) previous = &row;  // a PyPy twin is measured against, never as, a CPython rung
    if (baseline) row.over_baseline = baseline->cell->median() / row.cell->median();
    if (analysis.best_peer) row.over_best_peer = analysis.best_peer->cell->median() / row.cell->median();
    if (analysis.best_peer && !row.card->peer && !analysis.first_beating_peers &&
        row.cell->median() < analysis.best_peer->cell->median())
      analysis.first_beating_peers = &row;
    row.pareto = std::none_of(analysis.rows.begin(), analysis.rows.end(), [&](const Row& other) {
      return &other != &row && other.cell->median() < row.cell->median() &&
             other.cost.score <= row.cost.score;
    });
  }
}

// The fastest row that costs less to keep than the recommended one (none that was kept out as disturbed).
void cheaper_runner_up(Analysis& analysis, bool include_peers) {
  analysis.cheaper = nullptr;
  const auto& kept_out = analysis.decided.kept_out;
  for (const auto& row : analysis.rows)
    if ((!row.card->peer || include_peers) && row.cost.score < analysis.recommended->cost.score &&
        std::find(kept_out.begin(), kept_out.end(), &row) == kept_out.end() &&
        (!analysis.cheaper || row.cell->median() < analysis.cheaper->cell->median()))
      analysis.cheaper = &row;
}

// choose_within_noise over some rows, as rows.
Decided choose_row(const std::vector<const Row*>& rows) {
  std::vector<Contender> contenders;
  for (const Row* row : rows) contenders.push_back({row->card, row->interval, row->disturbed});
  const Choice choice = choose_within_noise(contenders);
  Decided decided;
  decided.undecided = choice.undecided;
  decided.note = choice.note;
  for (const std::size_t i : choice.kept_out) decided.kept_out.push_back(rows[i]);
  if (choice.chosen >= rows.size()) return decided;
  decided.row = rows[choice.chosen];
  for (const std::size_t i : choice.tie.tied) decided.tied.push_back(rows[i]);
  decided.tie_why = choice.tie.why;
  return decided;
}

// The tier for one call that must be fast: the fastest within the noise that may be recommended, a tie to
// the cheapest to keep (decide()'s latency rule without a deadline, the one `ladder pick` follows), and the
// fastest runner-up that costs less to keep. False (with the reason in `why`) when nothing may be
// recommended or it could not be decided.
bool recommend(Analysis& analysis, bool include_peers) {
  std::vector<const Row*> eligible;
  for (const auto& row : analysis.rows)
    if (!row.card->peer || include_peers) eligible.push_back(&row);
  if (eligible.empty()) {
    analysis.why = "only peers were measured at n = " + std::to_string(analysis.n);
    return false;
  }
  analysis.decided = choose_row(eligible);
  analysis.recommended = analysis.decided.row;
  if (!analysis.recommended) {
    analysis.why = analysis.decided.undecided;
    return false;
  }
  cheaper_runner_up(analysis, include_peers);
  return true;
}

// Why the pick: its configuration, time, speedup, distance from the fastest and cost, and the faster tier
// it was preferred to.
std::string why_picked(const Analysis& analysis) {
  const Row& pick = *analysis.recommended;
  std::string configuration = pick.card->parallel ? " on " + std::to_string(pick.cell->threads) + " thread" +
                                                        (pick.cell->threads > 1 ? "s" : "")
                                                  : "";
  if (pick.card->distributed)
    configuration += " × " + std::to_string(pick.cell->ranks) + (pick.cell->ranks > 1 ? " ranks" : " rank");
  std::string why =
      pick.card->id + configuration + " runs n = " + format_count(static_cast<double>(analysis.n)) + " in " +
      format_seconds(pick.cell->median()) +
      (pick.speedup ? format_number(", %.1f× naive,", *pick.speedup) : std::string(",")) +
      (pick.fraction_of_fastest >= 1 ? std::string(" the fastest tier on this machine")
                                     : format_number(" within %.0f %% of the fastest tier on this machine",
                                                     100 * (1 - pick.fraction_of_fastest))) +
      format_number(", at a maintenance cost of %.1f", pick.cost.score);
  const Row* faster = nullptr;
  for (const auto& row : analysis.rows)
    if (row.cell->median() < pick.cell->median() && (!faster || row.cell->median() < faster->cell->median()))
      faster = &row;
  const Decided& decided = analysis.decided;
  const bool decided_pick = decided.row == &pick;
  // A faster tier within the noise is no faster: the tie says so, and how it was broken.
  if (faster && decided_pick &&
      std::find(decided.tied.begin(), decided.tied.end(), faster) != decided.tied.end())
    why += "; " + decided.tie_why;
  else if (faster && tied(faster->interval, pick.interval))
    why += "; " + faster->card->id + " is within the noise of it (" +
           ratio_text(ratio_range(pick.interval, faster->interval)) + ") and costs " +
           format_number("%.1f", faster->cost.score);
  else if (faster)
    why += "; " + faster->card->id + " is " + ratio_text(ratio_range(pick.interval, faster->interval)) +
           " faster but costs " + format_number("%.1f", faster->cost.score);
  if (decided_pick && !decided.note.empty()) why += "; " + decided.note;
  return why + ".";
}

}  // namespace

Analysis analyse(const Run& run, std::optional<std::int64_t> size, bool include_peers,
                 std::optional<int> width) {
  Analysis analysis;
  analysis.run = &run;
  analysis.n = size.value_or(default_size(run));
  analysis.width =
      std::min(widest_measured(run, analysis.n), width.value_or(std::numeric_limits<int>::max()));
  const double fastest = measured_rows(run, analysis);
  compare_rows(analysis, fastest);
  if (analysis.rows.empty()) {
    analysis.why = "no tier was measured at n = " + std::to_string(analysis.n);
    return analysis;
  }
  if (recommend(analysis, include_peers)) analysis.why = why_picked(analysis);
  return analysis;
}

void prefer(Analysis& analysis, const std::string& tier) {
  for (const auto& row : analysis.rows)
    if (row.card->id == tier) {
      analysis.recommended = &row;
      cheaper_runner_up(analysis, row.card->peer);
      analysis.why = why_picked(analysis);
      return;
    }
}

Decided current_rung_choice(const Analysis& analysis, const std::string& tier) {
  std::vector<const Row*> plain;
  for (const auto& row : analysis.rows) {
    const Card& card = *row.card;
    if (!tier.empty()) {
      if (card.id != tier) continue;
      Decided given;
      given.row = &row;
      given.tied = {&row};
      return given;
    }
    if (!card.peer && !card.parallel && !card.distributed && card.libraries.empty() && !card.max_ulp_error)
      plain.push_back(&row);
  }
  return plain.empty() ? Decided{} : choose_row(plain);
}

const Row* current_rung(const Analysis& analysis, const std::string& tier) {
  return current_rung_choice(analysis, tier).row;
}

std::string current_rung_rule() {
  return "the fastest plain single-threaded C++ rung (no library, no hand-written maths) within the noise, "
         "a tie going to the cheapest to keep: the step a team reaches before it adds dependencies";
}

std::vector<const Row*> answer_rows(const Analysis& analysis) {
  std::vector<const Row*> quiet, all;
  for (const auto& row : analysis.rows) {
    if (row.card->peer) continue;
    all.push_back(&row);
    if (row.disturbed.empty()) quiet.push_back(&row);
  }
  return quiet.empty() ? all : quiet;
}

bool ladder_pays(const Analysis& analysis, const Row& current) {
  const auto rows = answer_rows(analysis);
  return std::any_of(rows.begin(), rows.end(), [&](const Row* row) {
    return row->cell->median() < 0.9 * current.cell->median() && !tied(row->interval, current.interval);
  });
}

void check_tier(const std::vector<Run>& runs, const std::string& tier, const std::string& option) {
  for (const auto& run : runs) {
    if (run.card(tier)) continue;
    std::vector<std::string> ids;
    for (const Card* card : run.cards_by_rung()) ids.push_back(card->id);
    throw InputError(option + " '" + tier + "' is not a tier of '" + run.path + "'; it has: " + join(ids));
  }
}

void check_measured(const Analysis& analysis, const std::string& tier, const std::string& option) {
  if (std::any_of(analysis.rows.begin(), analysis.rows.end(),
                  [&](const Row& row) { return row.card->id == tier; }))
    return;
  const Run& run = *analysis.run;
  const std::string at = "n = " + format_count(static_cast<double>(analysis.n));
  std::string why = "no cell of it was measured at " + at;
  for (const auto& cell : run.cells)
    if (cell.tier == tier && cell.n == analysis.n && !cell.ok()) {
      why = std::string(to_string(cell.status)) + (cell.reason.empty() ? "" : ": " + cell.reason);
      break;
    }
  std::vector<std::string> measured;
  for (const auto& row : analysis.rows) measured.push_back(row.card->id);
  throw InputError(option + " '" + tier + "' has no measurement at " + at + " in '" + run.path + "' (" + why +
                   "); measured there: " + join(measured));
}

}  // namespace ladder::report
