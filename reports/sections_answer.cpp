// The one-screen answer at the top of the report, and why it is the answer: for each machine (and each
// integrand of a run of several) the tier to use, what it buys against naive and the team's likely current
// rung, what it costs in plain words, its error, the cheaper runner-up and how much slower it is — or to stay
// where you are when the ladder does not pay.
#include <algorithm>
#include <cctype>

#include "sections.hpp"

namespace ladder::report {
namespace {

std::string configuration(const Row& row) {
  if (!row.card->parallel && !row.card->distributed) return "";
  std::string text = std::to_string(row.cell->threads) + (row.cell->threads == 1 ? " thread" : " threads");
  if (row.card->distributed)
    text += " × " + std::to_string(row.cell->ranks) + (row.cell->ranks == 1 ? " rank" : " ranks");
  return text;
}

std::string with_configuration(const Row& row) {
  const std::string configured = configuration(row);
  return "**" + row.card->id + "**" + (configured.empty() ? "" : " (" + configured + ")");
}

// "2.00× slower (+100 %)"
std::string slower(const Row& slow, const Row& fast) {
  const double ratio = slow.cell->median / fast.cell->median;
  return times(ratio) + " slower (" + format_number("%+.0f %%", 100 * (ratio - 1)) + ")";
}

// "7.4 of 10 — 80 lines of code to keep; days to learn" ("7.4 — …" in a table, whose header says cost).
std::string cost_text(const Row& row, bool of_ten = true) {
  return format_number("%.1f", row.cost.score) + (of_ten ? " of 10 — " : " — ") +
         join(cost_in_words(*row.card), "; ");
}

// The answer for one analysis, as a lead sentence and a short list.
void one_answer(Document& blocks, const Analysis& analysis, const std::string& current_tier,
                const std::string& lead) {
  const std::string at =
      (lead.empty() ? "At" : lead + "at") + " n = " + format_count(static_cast<double>(analysis.n));
  if (!analysis.recommended) {
    blocks.push_back(paragraph(at + ": " + analysis.why + "."));
    return;
  }
  const Row& pick = *analysis.recommended;
  const Row* current = current_rung(analysis, current_tier);
  std::vector<std::string> items;
  if (current && !ladder_pays(analysis, *current)) {
    const Row* fastest = current;
    for (const auto& row : analysis.rows)
      if (!row.card->peer && row.cell->median < fastest->cell->median) fastest = &row;
    blocks.push_back(
        paragraph(at + ": **stay where you are** — " + current->card->id +
                  (current_tier.empty() ? ", the likely current rung," : ", your current rung,") + " takes " +
                  format_seconds(current->cell->median) + " a call."));
    items.push_back("No tier beats it by more than 10 %" +
                    (fastest != current ? ": the fastest, **" + fastest->card->id + "**, is " +
                                              times(current->cell->median / fastest->cell->median) +
                                              " faster and costs " + cost_text(*fastest) + "."
                                        : std::string(": it is the fastest measured.")));
    items.push_back("Its error: " + scientific(current->cell->rel_error) +
                    " relative to the exact integral.");
    blocks.push_back(list(items));
    return;
  }
  blocks.push_back(paragraph(at + ": use " + with_configuration(pick) + "."));
  std::string buys = "Buys: " + (pick.speedup ? "**" + times(*pick.speedup) + "** naive" : "– naive");
  if (current && current != &pick)
    buys += ", **" + times(current->cell->median / pick.cell->median) + "** " + current->card->id +
            (current_tier.empty() ? " (the likely current rung)" : " (your current rung)");
  items.push_back(buys + "; " + format_seconds(pick.cell->median) + " a call.");
  items.push_back("Costs: **" + format_number("%.1f", pick.cost.score) + "** of 10 — " +
                  join(cost_in_words(*pick.card), "; ") + ".");
  items.push_back("Error: " + scientific(pick.cell->rel_error) + " relative to the exact integral.");
  items.push_back(analysis.cheaper ? "Runner-up that costs less: **" + analysis.cheaper->card->id +
                                         "** (cost " + format_number("%.1f", analysis.cheaper->cost.score) +
                                         "), " + slower(*analysis.cheaper, pick) + "."
                                   : "Runner-up that costs less: none; nothing cheaper was measured.");
  if (!pick.card->note.empty()) items.push_back("Before taking it: " + pick.card->note + ".");
  blocks.push_back(list(items));
}

// One row an integrand: integrand, use, × naive, × current rung, time, cost, error, cheaper runner-up.
Table integrand_table(const IntegrandAnswers& answers, const std::string& current_tier) {
  Table rows{{"integrand", "use", "× naive", "× current rung", "time", "cost", "error", "cheaper runner-up"},
             {},
             "",
             false};
  for (const auto& analysis : answers.analyses) {
    const std::string name = analysis.run->integrand_names().front();
    const Row* pick = analysis.recommended;
    if (!pick) {
      rows.rows.push_back({name, "none: " + analysis.why, "–", "–", "–", "–", "–", "–"});
      continue;
    }
    const Row* current = current_rung(analysis, current_tier);
    const std::string size = answers.n ? "" : " at n = " + format_count(static_cast<double>(analysis.n));
    if (current && !ladder_pays(analysis, *current)) {
      rows.rows.push_back({name, "stay: **" + current->card->id + "**",
                           current->speedup ? times(*current->speedup) : "–", "1×",
                           format_seconds(current->cell->median) + size, cost_text(*current, false),
                           scientific(current->cell->rel_error), "– (nothing beats it by 10 %)"});
      continue;
    }
    rows.rows.push_back(
        {name, with_configuration(*pick), pick->speedup ? times(*pick->speedup) : "–",
         current ? times(current->cell->median / pick->cell->median) + " " + current->card->id : "–",
         format_seconds(pick->cell->median) + size, cost_text(*pick, false),
         scientific(pick->cell->rel_error),
         analysis.cheaper ? analysis.cheaper->card->id + ", " +
                                times(analysis.cheaper->cell->median / pick->cell->median) + " slower"
                          : "–"});
  }
  return rows;
}

// For each pick that some other integrand cannot run: what a team that takes it gives up, one paragraph
// ("" when every pick runs every integrand).
std::string gives_up(const Run& run, const IntegrandAnswers& answers) {
  std::vector<std::string> picks;
  for (const auto& analysis : answers.analyses)
    if (analysis.recommended &&
        std::find(picks.begin(), picks.end(), analysis.recommended->card->id) == picks.end())
      picks.push_back(analysis.recommended->card->id);
  std::vector<std::string> sentences;
  std::size_t missed_last = 0;  // how many integrands the last of them does not run
  for (const auto& tier : picks) {
    std::vector<std::string> picked_for, not_run, runs;
    for (const auto& analysis : answers.analyses) {
      const std::string name = analysis.run->integrand_names().front();
      if (analysis.recommended && analysis.recommended->card->id == tier) picked_for.push_back(name);
      const auto missing = tiers_not_running(run, name);
      if (std::any_of(missing.begin(), missing.end(),
                      [&](const NotRunning& each) { return each.tier == tier; }))
        not_run.push_back(name);
      else
        runs.push_back(name);
    }
    if (not_run.empty()) continue;
    missed_last = not_run.size();
    sentences.push_back(
        "**" + tier + "** (the pick for " + join(picked_for) + ") " +
        (runs.size() == 1 ? "helps only " + runs.front() + ": it does not run " : "does not run ") +
        join(not_run));
  }
  if (sentences.size() == 1)
    return sentences.front() + "; a team that takes it keeps another tier for " +
           (missed_last == 1 ? "that one." : "those.");
  return sentences.empty() ? ""
                           : join(sentences, ". ") +
                                 ". A team that takes one of these keeps another tier for the integrands it "
                                 "does not run.";
}

}  // namespace

void answer(Document& doc, const std::vector<Run>& all_runs, const std::vector<Analysis>& analyses,
            const std::vector<IntegrandAnswers>& answers, const std::string& current_tier) {
  Document blocks;
  blocks.push_back(heading(2, "The answer"));
  const bool several = all_runs.size() > 1;
  for (std::size_t i = 0; i < analyses.size(); ++i) {
    const std::string lead = several ? "On **" + all_runs[i].machine + "**, " : "";
    if (answers[i].analyses.empty()) {
      one_answer(blocks, analyses[i], current_tier, lead);
      continue;
    }
    const std::string at = answers[i].n ? "at n = " + format_count(static_cast<double>(*answers[i].n)) + ", "
                                        : std::string("each at its own n, ");
    std::string said = lead + at + "one row an integrand:";
    said.front() = static_cast<char>(std::toupper(static_cast<unsigned char>(said.front())));
    blocks.push_back(paragraph(said));
    blocks.push_back(table(integrand_table(answers[i], current_tier)));
    if (std::string said_up = gives_up(all_runs[i], answers[i]); !said_up.empty())
      blocks.push_back(paragraph(std::move(said_up)));
  }
  blocks.push_back(paragraph(
      "The pick: the cheapest tier within 10 % of the fastest. " +
      (current_tier.empty() ? "The likely current rung: " + current_rung_rule() + " (--current TIER sets it)"
                            : "Your current rung: " + current_tier + " (--current)") +
      ". The answer is \"stay where you are\" when no tier beats that rung by more than 10 %."));
  doc.push_back(section("answer", std::move(blocks)));
}

void why(Document& doc, const std::vector<Analysis>& analyses) {
  doc.push_back(heading(2, "Why this answer"));
  std::vector<std::string> items;
  for (const auto& analysis : analyses) {
    // The answer block has the figures; this says what they were chosen among, and for which width.
    const auto names = analysis.run->integrand_names();
    std::string item = "On **" + analysis.run->machine + "**" +
                       (names.size() == 1 ? " for **" + names.front() + "**" : std::string()) + ": ";
    if (!analysis.recommended) {
      items.push_back(item + analysis.why);
      continue;
    }
    items.push_back(item + "answered for " + width_text(analysis) + ".");
  }
  doc.push_back(list(items));
  doc.push_back(
      paragraph("The recommendation is the cheapest tier within 10 % of the fastest at that size: past it, "
                "the ladder stops paying for what it costs to keep."));
}

}  // namespace ladder::report
