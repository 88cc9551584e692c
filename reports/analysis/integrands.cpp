// The answer for each integrand of a run: the same recommendation analyse makes for one, on each
// integrand's own cells, at one size for all where there is one; and where the answers differ, in
// sentences computed from the numbers.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "document.hpp"
#include "errors.hpp"
#include "report.hpp"
#include "text.hpp"

namespace ladder::report {
namespace {

// The tiers with a measured cell at n.
int tiers_measured(const Run& run, std::int64_t n) {
  std::set<std::string> tiers;
  for (const auto& cell : run.cells)
    if (cell.ok() && cell.n == n) tiers.insert(cell.tier);
  return static_cast<int>(tiers.size());
}

// Of the sizes measured for every integrand (that has a measured cell at all), the one with the most tiers
// measured, summed over the integrands, the largest of those: analyse's default for one, over all of them.
std::optional<std::int64_t> common_size(const std::vector<Run>& runs) {
  std::set<std::int64_t> sizes;
  for (const auto& run : runs)
    for (const auto n : run.sizes()) sizes.insert(n);
  std::optional<std::int64_t> chosen;
  int most = -1;
  for (const auto n : sizes) {
    int count = 0;
    bool everywhere = true;
    for (const auto& run : runs) {
      const int tiers = tiers_measured(run, n);
      everywhere = everywhere && (tiers > 0 || run.sizes().empty());
      count += tiers;
    }
    if (everywhere && count >= most) most = count, chosen = n;
  }
  return chosen;
}

const Row* row_of(const Analysis& analysis, const std::string& tier) {
  for (const auto& row : analysis.rows)
    if (row.card->id == tier) return &row;
  return nullptr;
}

std::string name_of(const Analysis& analysis) { return analysis.run->integrand_names().front(); }

// " at n = 1e6" when the integrands were answered at their own sizes, else nothing (the section says it).
std::string size_suffix(const IntegrandAnswers& answers, const Analysis& analysis) {
  return answers.n ? "" : " at n = " + format_count(static_cast<double>(analysis.n));
}

}  // namespace

Run integrand_run(const Run& run, const std::string& integrand) {
  Run only = run;
  only.cells.clear();
  only.per_call_cells.clear();
  for (const auto& cell : run.cells)
    if (cell.integrand == integrand) only.cells.push_back(cell);
  for (const auto& cell : run.per_call_cells)
    if (cell.integrand == integrand) only.per_call_cells.push_back(cell);
  for (auto& other : only.other_builds)
    for (auto* cells : {&other.cells, &other.per_call_cells})
      std::erase_if(*cells, [&](const CellResult& cell) { return cell.integrand != integrand; });
  return only;
}

void check_integrand(const Run& run, const std::string& integrand, const std::string& option) {
  const auto names = run.integrand_names();
  if (std::find(names.begin(), names.end(), integrand) == names.end())
    throw InputError(option + " '" + integrand + "' is not an integrand of '" + run.path +
                     "'; it holds: " + join(names));
}

std::string NotRunning::what() const {
  switch (status) {
    case CellStatus::unavailable:
      return "is unavailable";
    case CellStatus::skipped:
      return "was skipped";
    case CellStatus::failed:
      return "failed";
    case CellStatus::crashed:
      return "crashed";
    case CellStatus::killed:
      return "was killed";
    case CellStatus::timeout:
      return "timed out";
    case CellStatus::out_of_memory:
      return "ran out of memory";
    case CellStatus::ok:
      break;
  }
  return "did not run";
}

std::vector<NotRunning> tiers_not_running(const Run& all, const std::string& integrand) {
  std::vector<NotRunning> found;
  const Integrand* recorded = all.integrand(integrand);
  for (const Card* card : all.cards_by_rung()) {
    std::optional<NotRunning> not_run;
    std::string recorded_reason;
    bool ran = false, ran_another = false;
    for (const auto& cell : all.cells) {
      if (cell.tier != card->id) continue;
      if (cell.integrand != integrand) {
        ran_another = ran_another || cell.ok();
        continue;
      }
      ran = ran || cell.ok();
      // Its first cell that did not run says why; an unavailable one (the tier cannot run it at all) first.
      if (!cell.ok() && (!not_run || (cell.status == CellStatus::unavailable &&
                                      not_run->status != CellStatus::unavailable)))
        not_run = NotRunning{card->id, cell.status, cell.reason};
    }
    if (recorded)
      for (const auto& [tier, why] : recorded->unsupported)
        if (tier == card->id) recorded_reason = why;
    // A tier that runs no integrand here says nothing about this one, unless the context records that it
    // cannot run this integrand and its cells were refused for that reason: with no GPU, cuda's cells say
    // "cannot run here", which the report says once, not once an integrand.
    const bool refused_for_it =
        !recorded_reason.empty() && (!not_run || not_run->reason.find(recorded_reason) != std::string::npos);
    if (ran || (!ran_another && !refused_for_it)) continue;
    if (!recorded_reason.empty() && (!not_run || not_run->status != CellStatus::unavailable))
      not_run = NotRunning{card->id, CellStatus::unavailable, recorded_reason};  // the context says why
    if (!not_run) not_run = NotRunning{card->id, CellStatus::skipped, "no cell of it in these results"};
    found.push_back(*not_run);
  }
  return found;
}

IntegrandAnswers answer_each_integrand(const Run& run, std::optional<std::int64_t> n, bool include_peers,
                                       std::optional<int> width) {
  IntegrandAnswers answers;
  for (const auto& name : run.integrand_names()) answers.runs.push_back(integrand_run(run, name));
  if (answers.runs.empty()) return answers;
  answers.n = n ? n : common_size(answers.runs);
  for (const auto& each : answers.runs)
    answers.analyses.push_back(analyse(each, answers.n, include_peers, width));
  return answers;
}

namespace {

// "The pick differs: **a** (…× naive) for gauss, …" where the integrands' picks differ.
std::optional<std::string> pick_difference(const IntegrandAnswers& answers) {
  const auto& analyses = answers.analyses;
  std::set<std::string> picks;
  for (const auto& analysis : analyses)
    picks.insert(analysis.recommended ? analysis.recommended->card->id : "");
  if (picks.size() <= 1) return std::nullopt;
  std::string text = "The pick differs: ";
  for (std::size_t i = 0; i < analyses.size(); ++i) {
    const Row* pick = analyses[i].recommended;
    text += (i ? ", " : "") +
            (pick ? "**" + pick->card->id + "**" +
                        (pick->speedup ? " (" + times(*pick->speedup) + " naive)" : std::string())
                  : std::string("no tier")) +
            " for " + name_of(analyses[i]) + size_suffix(answers, analyses[i]);
  }
  return text + ".";
}

// Tiers that cannot run an integrand, grouped: those refused for the same reason (the SIMD tiers, say) on
// one integrand are one group.
struct Refused {
  std::string said;
  std::vector<std::string> tiers;
  const Analysis* analysis;
};
std::vector<Refused> refusals(const Run& all, const std::vector<Analysis>& analyses) {
  std::vector<Refused> refused;
  for (const auto& analysis : analyses) {
    const std::string integrand = name_of(analysis);
    const auto first = refused.size();
    for (const NotRunning& not_running : tiers_not_running(all, integrand)) {
      // The sentence names the tier and the integrand already: the reason's own naming of them goes.
      const std::string named = "tier '" + not_running.tier + "' cannot run integrand '" + integrand + "': ";
      const std::string& reason = not_running.reason;
      const std::string why = reason.rfind(named, 0) == 0 ? reason.substr(named.size()) : reason;
      const std::string said = not_running.what() + (why.empty() ? std::string() : " (" + why + ")");
      const auto group = std::find_if(refused.begin() + static_cast<std::ptrdiff_t>(first), refused.end(),
                                      [&](const Refused& g) { return g.said == said; });
      if (group == refused.end())
        refused.push_back({said, {not_running.tier}, &analysis});
      else
        group->tiers.push_back(not_running.tier);
    }
  }
  return refused;
}

std::string plural(std::string text, const std::string& before, std::size_t tiers) {
  if (tiers > 1 && text.compare(before.size(), 4, " is ") == 0)  // "is unavailable" → "are unavailable"
    text.replace(before.size(), 4, " are ");
  return text;
}

// What runs the group's integrand fastest instead, and (for one tier) the tier's speedup on the others:
// "; the fastest tier that runs it is …, against xsimd's 5.00× for gauss".
std::string instead(const Refused& refusal, const IntegrandAnswers& answers) {
  const auto& analyses = answers.analyses;
  const auto& tiers = refusal.tiers;
  const Analysis* analysis = refusal.analysis;
  std::string text;
  const Row* fastest = nullptr;
  for (const auto& row : analysis->rows)
    if (!row.card->peer && (!fastest || row.cell->median() < fastest->cell->median())) fastest = &row;
  if (fastest && fastest->speedup)
    text += "; the fastest tier that runs it is " + fastest->card->id + " at " + times(*fastest->speedup) +
            " naive" + size_suffix(answers, *analysis);
  if (tiers.size() == 1) {
    std::vector<std::pair<double, std::string>> elsewhere;  // speedup, "5.00× for gauss"
    for (const auto& other : analyses)
      if (const Row* row = row_of(other, tiers.front()); row && row->speedup && &other != analysis)
        elsewhere.emplace_back(*row->speedup,
                               times(*row->speedup) + " for " + name_of(other) + size_suffix(answers, other));
    if (elsewhere.size() > 2) {  // a range, not a list: "1.50×–8.84× on 4 other integrands"
      const auto [low, high] = std::minmax_element(elsewhere.begin(), elsewhere.end());
      text += ", against " + tiers.front() + "'s " + times(low->first) + "–" + times(high->first) + " on " +
              std::to_string(elsewhere.size()) + " other integrands";
    } else if (!elsewhere.empty()) {
      std::vector<std::string> each;
      for (const auto& [speedup, said] : elsewhere) each.push_back(said);
      text += ", against " + tiers.front() + "'s " + join(each);
    }
  }
  return text;
}

// A tier that cannot run an integrand: the reason, what runs it fastest instead, and the tier elsewhere.
// The same tiers refused for the same reason on several integrands share one sentence, without the
// per-integrand figures (the answer gives each integrand's pick).
std::vector<std::string> refusal_sentences(const std::vector<Refused>& refused,
                                           const IntegrandAnswers& answers) {
  std::vector<std::string> sentences;
  std::vector<bool> said_already(refused.size(), false);
  for (std::size_t i = 0; i < refused.size(); ++i) {
    if (said_already[i]) continue;
    const auto& [said, tiers, analysis] = refused[i];
    std::vector<std::string> integrands = {"**" + name_of(*analysis) + "**"};
    for (std::size_t j = i + 1; j < refused.size(); ++j)
      if (!said_already[j] && refused[j].said == said && refused[j].tiers == tiers) {
        integrands.push_back("**" + name_of(*refused[j].analysis) + "**");
        said_already[j] = true;
      }
    const std::string before = "For " + join(integrands) + ", " + join(tiers);
    const std::string text = plural(before + " " + said, before, tiers.size());
    sentences.push_back(text + (integrands.size() > 1 ? "" : instead(refused[i], answers)) + ".");
  }
  return sentences;
}

// A tier whose speedup over naive differs by `spread` or more between integrands.
std::vector<std::string> speedup_spreads(const Run& all, const IntegrandAnswers& answers, double spread) {
  std::vector<std::string> sentences;
  for (const Card* card : all.cards_by_rung()) {
    std::vector<std::pair<double, std::string>> speedups;  // speedup, "for gauss"
    for (const auto& analysis : answers.analyses)
      if (const Row* row = row_of(analysis, card->id); row && row->speedup)
        speedups.emplace_back(*row->speedup, name_of(analysis) + size_suffix(answers, analysis));
    if (speedups.size() < 2) continue;
    const auto [low, high] = std::minmax_element(speedups.begin(), speedups.end());
    if (high->first < spread * low->first) continue;
    // One line a tier: its lowest and highest, not every integrand's.
    sentences.push_back(card->id + " over naive: " + times(low->first) + " for " + low->second + " to " +
                        times(high->first) + " for " + high->second + " (" + times(high->first / low->first) +
                        " apart).");
  }
  return sentences;
}

}  // namespace

std::vector<std::string> integrand_differences(const Run& all, const IntegrandAnswers& answers, double spread,
                                               bool with_picks) {
  std::vector<std::string> sentences;
  if (with_picks)
    if (auto differs = pick_difference(answers)) sentences.push_back(std::move(*differs));
  for (auto& sentence : refusal_sentences(refusals(all, answers.analyses), answers))
    sentences.push_back(std::move(sentence));
  for (auto& sentence : speedup_spreads(all, answers, spread)) sentences.push_back(std::move(sentence));
  return sentences;
}

}  // namespace ladder::report
