// `ladder pick`: the tier to ship for a results file under the team's constraints (choose.hpp), the one
// answer the report's first screen gives, with the candidates at each size and what each costs to keep.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "choose.hpp"
#include "decision.hpp"
#include "disturbance.hpp"
#include "errors.hpp"
#include "quote.hpp"
#include "report.hpp"
#include "run_noise.hpp"
#include "text.hpp"

namespace ladder::report {
namespace {

// The name of `needs` (a card's library or concept) that --without's `unwanted` names, by the key both are
// known by (name_key: "oneTBB" and "oneTBB 2021.8" are one); empty when it names none of them.
std::string unwanted_need(const Card& card, const std::string& unwanted) {
  const std::string key = name_key(unwanted);
  for (const auto* needs : {&card.libraries, &card.concepts})
    for (const auto& name : *needs)
      if (name_key(name) == key) return name;
  return "";
}

// --without names libraries or concepts of these tiers, as `ladder list` prints them (or their keys): a
// name none has would rule out nothing, so it is refused with the accepted ones.
void check_without(const std::vector<std::string>& without, const std::vector<CardRecord>& cards) {
  const auto accepted = knowable_names(cards);
  for (const auto& name : without)
    if (!std::binary_search(accepted.begin(), accepted.end(), name_key(name)))
      throw InputError("--without '" + quote_text(name) +
                       "' is no library or concept of these tiers; accepted: " + join(accepted));
}

struct Candidate {
  const Card* card;
  const CellResult* cell;  // the best cell that meets the constraints (better_cell: undisturbed, fastest)
  Cost cost;
  std::string ruled_out;  // why not, when it is
};

// How the pick was chosen among the candidates that meet the constraints: the report's rule
// (choose_within_noise), by tier.
struct Chosen {
  std::string tier;               // empty: none meets them, or it could not be decided
  std::vector<std::string> tied;  // the tiers tied with the fastest, the chosen one among them
  std::string tie_why, undecided, note;
};

Chosen choose_candidate(const Run& run, const std::vector<Candidate>& candidates) {
  std::vector<Contender> contenders;
  for (const auto& candidate : candidates)
    if (candidate.ruled_out.empty())
      contenders.push_back(
          {candidate.card, cell_interval(run, *candidate.cell), disturbance(*candidate.cell)});
  const Choice choice = choose_within_noise(contenders);
  Chosen chosen{"", {}, "", choice.undecided, choice.note};
  if (choice.chosen >= contenders.size()) return chosen;
  chosen.tier = contenders[choice.chosen].card->id;
  for (const std::size_t i : choice.tie.tied) chosen.tied.push_back(contenders[i].card->id);
  chosen.tie_why = choice.tie.why;
  return chosen;
}

std::string describe(const Candidate& candidate) {
  const CellResult& cell = *candidate.cell;
  std::string where = std::to_string(cell.threads) + " thread" + (cell.threads > 1 ? "s" : "");
  if (candidate.card->distributed)
    where += " × " + std::to_string(cell.ranks) + (cell.ranks > 1 ? " ranks" : " rank");
  return candidate.card->id + " (" + where + "): median " + format_seconds(cell.median()) + ", " +
         format_number("%.3g nodes/s", static_cast<double>(cell.n) / cell.median()) + ", relative error " +
         (cell.rel_error() ? format_number("%.1e", std::fabs(*cell.rel_error())) : "undefined") +
         ", peak heap " +
         (cell.counted_peak_heap() ? format_bytes(*cell.counted_peak_heap()) : std::string("not counted")) +
         ", cost " + format_number("%.1f", candidate.cost.score);
}

// Every tier with its best cell at n that meets the constraints, or why it is ruled out: those that meet
// them first, the fastest within the noise first (under a deadline, decide()'s tier first), the others by
// median, then those ruled out in rung order.
std::vector<Candidate> candidates_at(const Run& run, const PickConstraints& constraints, std::int64_t n,
                                     const std::string& integrand, Chosen& chosen) {
  std::vector<Candidate> candidates;
  for (const auto& card : run.cards) {
    if (card.peer && !constraints.include_peers) continue;
    Candidate candidate{&card, nullptr, maintenance_cost(card), {}};
    for (const auto& unwanted : constraints.without)
      if (const std::string needs = unwanted_need(card, unwanted); !needs.empty())
        candidate.ruled_out = "needs " + needs + " (--without " + unwanted + ")";
    if (candidate.ruled_out.empty() && constraints.max_cost && candidate.cost.score > *constraints.max_cost)
      candidate.ruled_out = format_number("costs %.1f", candidate.cost.score) +
                            format_number(" (--max-cost %g)", *constraints.max_cost);
    std::string why_not = "was not measured at n = " + std::to_string(n);
    // A tier not tried for it: the context says why.
    if (const Integrand* recorded = run.integrand(integrand))
      for (const auto& [tier, reason] : recorded->unsupported)
        if (tier == card.id) why_not = "unavailable: " + reason;
    for (const auto& cell : run.cells) {
      if (cell.tier != card.id || cell.n != n) continue;
      if (!cell.ok()) {
        why_not = std::string(to_string(cell.status)) + " at n = " + std::to_string(n) + ": " + cell.reason;
        continue;
      }
      if (constraints.threads && cell.threads * cell.ranks > *constraints.threads) {
        why_not =
            "needs more than " + std::to_string(*constraints.threads) + " threads to run at all (--threads)";
        continue;
      }
      const double error = cell.rel_error() ? std::fabs(*cell.rel_error()) : 0;
      if (constraints.max_error && error > *constraints.max_error) {
        why_not = format_number("its relative error is %.1e", error) +
                  format_number(" (--max-error %g)", *constraints.max_error);
        continue;
      }
      if (!candidate.cell || better_cell(cell, *candidate.cell)) candidate.cell = &cell;
    }
    if (candidate.ruled_out.empty() && !candidate.cell) candidate.ruled_out = why_not;
    // A deadline is a constraint like the others: a tier whose fastest cell misses it is no pick.
    if (const auto deadline = constraints.money ? constraints.money->usage.deadline_seconds : std::nullopt;
        candidate.ruled_out.empty() && deadline && candidate.cell->median() > *deadline)
      candidate.ruled_out = "takes " + format_seconds(candidate.cell->median()) +
                            " a call at its fastest (--deadline " + format_seconds(*deadline) + ")";
    candidates.push_back(candidate);
  }
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& x, const Candidate& y) {
    if (x.ruled_out.empty() != y.ruled_out.empty()) return x.ruled_out.empty();
    if (!x.ruled_out.empty()) return x.card->rung < y.card->rung;
    return x.cell->median() < y.cell->median();
  });
  chosen = choose_candidate(run, candidates);
  std::stable_partition(candidates.begin(), candidates.end(),
                        [&](const Candidate& candidate) { return candidate.card->id == chosen.tier; });

  // Under a deadline the pick is decide()'s: the tier that meets it at the fewest engineer-days.
  if (constraints.money && constraints.money->usage.deadline_seconds && !run.integrand_names().empty()) {
    const Decision decision = decide(run, n, integrand.empty() ? run.integrand_names().front() : integrand,
                                     constraints.money->figures, constraints.money->usage);
    if (decision.latency_tier)
      std::stable_partition(candidates.begin(), candidates.end(), [&](const Candidate& candidate) {
        return candidate.card->id == *decision.latency_tier && candidate.ruled_out.empty();
      });
  }
  return candidates;
}

// Why the pick, against the runner-up: the rule, the tie and its break or the ratio beyond the noise, and
// what a disturbed cell did to the choice.
void print_why(const Run& run, const std::vector<Candidate>& candidates, const Chosen& chosen,
               bool deadline) {
  const Candidate& best = candidates[0];
  if (best.card->id == chosen.tier && chosen.tied.size() > 1)
    std::printf("tie:  %s\n", chosen.tie_why.c_str());
  if (best.card->id == chosen.tier && !chosen.note.empty())
    std::printf("disturbed: %s\n", chosen.note.c_str());
  if (candidates.size() < 2 || !candidates[1].ruled_out.empty()) {
    std::printf("why:  the only tier that meets the constraints\n");
    return;
  }
  const Candidate& second = candidates[1];
  const CellInterval best_interval = cell_interval(run, *best.cell),
                     second_interval = cell_interval(run, *second.cell);
  const RatioRange range = ratio_range(second_interval, best_interval);
  const std::string against =
      range.about_one()  ? "within the noise of the runner-up (" + ratio_text(range) + ")"
      : range.ratio >= 1 ? ratio_text(range) + " faster than the runner-up"
                         : "the runner-up is " + ratio_text(ratio_range(best_interval, second_interval)) +
                               " faster, and costs more days";
  std::printf(
      "why:  %s; %s%s\n",
      deadline ? "of the tiers that meet the constraints and the deadline, the one that costs the "
                 "fewest engineer-days"
               : "the fastest tier within the noise that meets the constraints",
      against.c_str(),
      second.cost.score < best.cost.score
          ? format_number(", which costs %.1f less to keep", best.cost.score - second.cost.score).c_str()
          : "");
  std::printf("runner-up: %s\n", describe(second).c_str());
}

// The tiers the constraints left out (skipped, failed, too slow, too costly …), each with its reason: said
// whether or not a tier was picked, so an undecided answer still names what was not attempted.
void print_ruled_out(const std::vector<Candidate>& candidates) {
  std::vector<const Candidate*> out;
  for (const auto& candidate : candidates)
    if (!candidate.ruled_out.empty()) out.push_back(&candidate);
  if (out.empty()) return;
  std::printf("\nruled out:\n");
  for (const Candidate* candidate : out)
    std::printf("  %-16s %s\n", candidate->card->id.c_str(), candidate->ruled_out.c_str());
}

// One integrand's answer (run: its cells only); n: the size asked for, or the one the report answers at.
int pick_one(const Run& run, const PickConstraints& constraints, std::optional<std::int64_t> size,
             const std::string& integrand) {
  const auto sizes = run.sizes();
  if (sizes.empty()) throw InputError("results '" + run.path + "' hold no measured cell");
  const std::int64_t n = size.value_or(analyse(run).n);
  if (std::find(sizes.begin(), sizes.end(), n) == sizes.end()) {
    std::vector<std::string> measured;
    for (const auto each : sizes) measured.push_back(std::to_string(each));
    throw InputError("--n " + std::to_string(n) + " was not measured in '" + run.path + "'" +
                     (integrand.empty() ? "" : " for integrand '" + integrand + "'") +
                     "; measured: " + join(measured));
  }

  Chosen chosen;
  const std::vector<Candidate> candidates = candidates_at(run, constraints, n, integrand, chosen);
  std::printf("results: %s (%s, %s), n = %lld\n", run.path.c_str(), run.machine.c_str(), run.cpu.c_str(),
              static_cast<long long>(n));
  if (!integrand.empty()) {
    const Integrand* recorded = run.integrand(integrand);
    std::printf("integrand: %s (%s)\n", integrand.c_str(),
                recorded && !recorded->source.empty() ? recorded->source.c_str() : "source not recorded");
  }
  const Analysis at_width = analyse(run, n, constraints.include_peers, constraints.threads);
  std::printf("answered for: %s\n", width_text(at_width).c_str());
  if (candidates.empty() || !candidates[0].ruled_out.empty()) {
    std::printf("\nno tier meets the constraints:\n");
    for (const auto& candidate : candidates)
      std::printf("  %-16s %s\n", candidate.card->id.c_str(), candidate.ruled_out.c_str());
    return 1;
  }
  const Candidate& best = candidates[0];
  if (best.card->id != chosen.tier && !chosen.undecided.empty()) {  // and no deadline chose another
    std::printf("\npick: none: %s\n", chosen.undecided.c_str());
    for (const auto& candidate : candidates)
      if (candidate.ruled_out.empty()) std::printf("  %s\n", describe(candidate).c_str());
    print_ruled_out(candidates);
    return 1;
  }
  std::printf("\npick: %s\n", describe(best).c_str());
  for (const auto& note : best.cell->reference_notes()) std::printf("reference note: %s\n", note.c_str());
  if (const int used = best.cell->threads * best.cell->ranks; best.card->parallel && used < at_width.width)
    std::printf("note: %s is fastest on %d thread%s, fewer than the %d this answer is for\n",
                best.card->id.c_str(), used, used == 1 ? "" : "s", at_width.width);
  print_why(run, candidates, chosen, constraints.money && constraints.money->usage.deadline_seconds);
  print_ruled_out(candidates);
  return 0;
}

// The money and latency answer of one integrand's cells at n, in words or as JSON: 1 when a deadline was
// given and no tier meets it (as a pick that no tier meets the constraints of), else 0.
int money_answer(const Run& run, const PickConstraints& constraints, std::optional<std::int64_t> size,
                 const std::string& integrand) {
  const auto& money = *constraints.money;
  const std::int64_t n = size.value_or(analyse(run).n);
  const std::string name = integrand.empty() ? run.integrand_names().front() : integrand;
  const Decision decision = decide(run, n, name, money.figures, money.usage);
  if (money.json) {
    nlohmann::json document = decision_json(decision);
    // The report's answer at the same n: under a deadline, decide()'s tier, as the report says it.
    Analysis analysis = analyse(run, n, constraints.include_peers, constraints.threads);
    if (money.usage.deadline_seconds && decision.latency_tier) prefer(analysis, *decision.latency_tier);
    document["answer"] = answer_json(analysis, money.usage.current);
    std::printf("%s\n", dump_json(document, 2).c_str());
  } else
    print_decision(decision);
  return money.usage.deadline_seconds && !decision.latency_tier ? 1 : 0;
}

nlohmann::json optional_text(const std::string& text) {
  return text.empty() ? nlohmann::json() : nlohmann::json(text);
}

nlohmann::json decided_json(const Decided& decided) {
  std::vector<std::string> tied, kept_out;
  for (const Row* row : decided.tied) tied.push_back(row->card->id);
  for (const Row* row : decided.kept_out) kept_out.push_back(row->card->id);
  if (tied.size() < 2) tied.clear();
  return {{"tier", decided.row ? nlohmann::json(decided.row->card->id) : nlohmann::json()},
          {"tied", tied},
          {"tie_break", optional_text(decided.tie_why)},
          {"kept_out", kept_out},
          {"undecided", optional_text(decided.undecided)},
          {"disturbed_note", optional_text(decided.note)}};
}

}  // namespace

nlohmann::json answer_json(const Analysis& analysis, const std::string& current) {
  nlohmann::json answer = {
      {"n", analysis.n},
      {"recommended",
       analysis.recommended ? nlohmann::json(analysis.recommended->card->id) : nlohmann::json()},
      {"why", analysis.why},
      {"fastest_within_noise", decided_json(analysis.decided)},
      {"current_rung", decided_json(current_rung_choice(analysis, current))}};
  nlohmann::json& intervals = answer["intervals"] = nlohmann::json::array();
  for (const auto& row : analysis.rows)
    intervals.push_back({{"tier", row.card->id},
                         {"threads", row.cell->threads},
                         {"ranks", row.cell->ranks},
                         {"median_seconds", row.interval.median},
                         {"low_seconds", row.interval.low},
                         {"high_seconds", row.interval.high},
                         {"noise_percent", row.interval.noise.percent},
                         {"noise_source", row.interval.noise.source},
                         {"noise_measured", row.interval.noise.measured},
                         {"disturbed", row.disturbed}});
  return answer;
}

int pick(const std::string& results, const PickConstraints& constraints) {
  const Run run = load_run_with_noise(results, constraints.history);
  if (run.emulated()) return pick_emulated(run, constraints.money && constraints.money->json);
  const auto names = run.integrand_names();
  if (!constraints.integrand.empty()) check_integrand(run, constraints.integrand, "--integrand");
  const std::vector<CardRecord> cards(run.cards.begin(), run.cards.end());
  check_without(constraints.without, cards);
  if (constraints.money) {
    check_team_knows(constraints.money->figures.team_knows, cards);
    if (constraints.money->json) {
      const std::string name = constraints.integrand.empty() ? names.front() : constraints.integrand;
      const Run only = names.size() < 2 ? run : integrand_run(run, name);
      const std::optional<std::int64_t> n =
          constraints.n || names.size() < 2 ? constraints.n : answer_each_integrand(run).n;
      return money_answer(only, constraints, n, name);
    }
  }
  if (names.size() < 2) {
    int code = pick_one(run, constraints, constraints.n, constraints.integrand);
    if (constraints.money)
      code = std::max(code, money_answer(run, constraints, constraints.n, constraints.integrand));
    return code;
  }
  // At the size the report's answer for each integrand is at, so the two agree.
  const std::optional<std::int64_t> n = constraints.n ? constraints.n : answer_each_integrand(run).n;
  if (!constraints.integrand.empty())
    return pick_one(integrand_run(run, constraints.integrand), constraints, n, constraints.integrand);
  std::printf("%zu integrands in this file (%s): an answer for each; --integrand NAME answers for one\n",
              names.size(), join(names).c_str());
  int code = 0;
  for (const auto& name : names) {
    std::printf("\n== %s ==\n", name.c_str());
    const Run only = integrand_run(run, name);
    if (only.sizes().empty()) {  // every tier failed or was unavailable for it: the others still get answers
      std::printf("no cell of %s was measured: no tier to pick (`ladder report` lists each cell and why)\n",
                  name.c_str());
      code = 1;
      continue;
    }
    code = std::max(code, pick_one(only, constraints, n, name));
  }
  return code;
}

}  // namespace ladder::report
