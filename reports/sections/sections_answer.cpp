// The one-screen answer at the top of the report, and why it is the answer: for each machine (and each
// integrand of a run of several) the tier to use, what it buys against naive and the team's likely current
// rung, what it costs in plain words, its error, the cheaper runner-up and how much slower it is — or to stay
// where you are when the ladder does not pay.
#include <algorithm>
#include <cctype>

#include "roofline.hpp"
#include "sections.hpp"

namespace ladder::report {
namespace {

std::string configuration(const Row& row) {
  if (!row.card->parallel && !row.card->distributed) return "";
  std::string text = counted(row.cell->threads, "thread", "threads");
  if (row.card->distributed) text += " × " + counted(row.cell->ranks, "rank", "ranks");
  return text;
}

std::string with_configuration(const Row& row) {
  const std::string configured = configuration(row);
  return "**" + row.card->id + "**" + (configured.empty() ? "" : " (" + configured + ")");
}

// "2.00× slower (+100 %)", or "within the noise of it (≈ 1 (0.97–1.04×))": never a ratio the noise allows
// either way round.
std::string slower(const Row& slow, const Row& fast, bool with_percent = true) {
  const RatioRange range = ratio_range(slow.interval, fast.interval);
  if (range.about_one()) return "within the noise of it (" + ratio_text(range) + ")";
  return times(range.ratio) + " slower" +
         (with_percent ? " (" + format_number("%+.0f %%", 100 * (range.ratio - 1)) + ")" : "");
}

// "1.25× (1.19–1.31×) faster", or "within the noise of it (≈ 1 (…))".
std::string faster(const Row& fast, const Row& slow) {
  const RatioRange range = ratio_range(slow.interval, fast.interval);
  return range.about_one() ? "within the noise of it (" + ratio_text(range) + ")"
                           : ratio_text(range) + " faster";
}

// "**20×** naive (19–21×)", with `also` in the brackets ("…; the likely current rung"); "**≈ 1×**" within
// the noise of 1.
std::string speedup_text(const RatioRange& range, const std::string& over, const std::string& also = "") {
  return "**" + (range.about_one() ? std::string("≈ 1×") : times(range.ratio)) + "** " + over + " (" +
         range_text(range) + (also.empty() ? "" : "; " + also) + ")";
}

// How a place was decided, where the reader should know: a tie and its break, disturbed cells kept out.
void decided_notes(std::vector<std::string>& items, const Decided& decided, const std::string& what) {
  if (decided.tied.size() > 1) items.push_back(what + " within the noise: " + decided.tie_why + ".");
  if (!decided.note.empty()) items.push_back(what + ", disturbed cells: " + decided.note + ".");
}

// "7.4 of 10 — 80 lines of code to keep; days to learn" ("7.4 — …" in a table, whose header says cost;
// "7.4 — 80 lines of code to keep" when short: the largest part only, without its parenthesis).
std::string cost_text(const Row& row, bool of_ten = true, bool short_form = false) {
  auto words = cost_in_words(*row.card);
  if (short_form && words.size() > 1) words.resize(1);
  // In the table of several machines the part without its parenthesis: "2 libraries", "hand-written maths".
  if (short_form && !words.empty()) words.front() = words.front().substr(0, words.front().find(" ("));
  return format_number("%.1f", row.cost.score) + (of_ten ? " of 10 — " : " — ") + join(words, "; ");
}

// What the run's warnings say about the pick's and the runner-up's cells, one line ("" when nothing).
std::string trust_line(const Run& run, const Row& pick, const Row* runner_up) {
  std::vector<std::string> parts;
  if (const auto said = flagged(run, &pick); !said.empty())
    parts.push_back("the pick's cell is flagged " + join(said));
  if (const auto said = flagged(run, runner_up); !said.empty())
    parts.push_back("the runner-up's " + join(said));
  return parts.empty()
             ? ""
             : "Trust: " + join(parts, "; ") + ": read these figures with the run's warnings below.";
}

// The answer for one analysis: a lead sentence and five short lines (what it buys, costs, its error, the
// cheaper runner-up, how sure), the first screen. What decided a tie, disturbed cells, the card's note and
// the warnings that touch the pick go to `notes`, for "how far to trust the numbers".
void one_answer(Document& blocks, std::vector<std::string>& notes, const Analysis& analysis,
                const std::string& current_tier, const std::string& lead, const CostFigures& figures) {
  const std::string at =
      (lead.empty() ? "At" : lead + "at") + " n = " + format_count(static_cast<double>(analysis.n));
  if (!analysis.recommended) {
    blocks.push_back(paragraph(at + ": " + analysis.why + "."));
    return;
  }
  const Row& pick = *analysis.recommended;
  const Decided rung = current_rung_choice(analysis, current_tier);
  const Row* current = rung.row;
  const std::string whose = current_tier.empty() ? "the likely current rung" : "your current rung";
  std::vector<std::string> items;
  if (current_tier.empty()) decided_notes(notes, rung, "The likely current rung");
  if (current && !ladder_pays(analysis, *current)) {
    const Row* fastest = current;
    for (const Row* row : answer_rows(analysis))
      if (row->cell->median() < fastest->cell->median()) fastest = row;
    blocks.push_back(paragraph(at + ": **stay where you are** — " + current->card->id + ", " + whose +
                               ", takes " + format_seconds(current->cell->median()) + " a call."));
    items.push_back("**Why**: no tier beats it beyond the noise and by more than 10 %" +
                    (fastest != current
                         ? "; the fastest, **" + fastest->card->id + "**, is " + faster(*fastest, *current) +
                               " and costs " + cost_text(*fastest) + "."
                         : std::string("; it is the fastest measured.")));
    items.push_back("**Error** " + scientific(current->cell->rel_error()) +
                    " relative to the exact integral.");
    blocks.push_back(list(items));
    return;
  }
  const std::string configured = configuration(pick);
  blocks.push_back(
      paragraph(at + (configured.empty() ? "" : " on " + configured) + ": use **" + pick.card->id + "**."));
  const std::string naive_is = current && current->card->id == "naive" ? "naive is " + whose : "";
  std::string buys =
      "**Buys** " + (pick.speedup_range ? speedup_text(*pick.speedup_range, "naive", naive_is)
                                        : "– naive" + (naive_is.empty() ? "" : " (" + naive_is + ")"));
  if (current && current->card->id != "naive" && current != &pick)
    buys += ", " + speedup_text(ratio_range(current->interval, pick.interval), current->card->id, whose);
  else if (!current)
    buys += " (no plain single-threaded rung to compare with)";
  items.push_back(buys + ": " + format_seconds(pick.cell->median()) + " a call.");
  const EngineerDays days = engineer_days(*pick.card, figures);
  items.push_back("**Costs** " + format_amount(days.adoption, 1) + " engineer-days to adopt a person, " +
                  format_amount(days.upkeep, 1) + " a year to keep (score " + cost_text(pick, true, true) +
                  ").");
  items.push_back("**Error** " + scientific(pick.cell->rel_error()) + " relative to the exact integral.");
  items.push_back(analysis.cheaper ? "**Cheaper runner-up** " + analysis.cheaper->card->id + " (cost " +
                                         format_number("%.1f", analysis.cheaper->cost.score) + "), " +
                                         slower(*analysis.cheaper, pick) + "."
                                   : "**Cheaper runner-up**: none measured.");
  items.push_back("**How sure**: " + how_sure(analysis, pick));
  if (!pick.card->note.empty()) {
    items.push_back("**Before taking it**: its limits, under how far to trust the numbers.");
    notes.push_back("Before taking " + pick.card->id + ": " + pick.card->note + ".");
  }
  blocks.push_back(list(items));
  if (analysis.decided.row == &pick) decided_notes(notes, analysis.decided, "The pick");
  if (std::string trust = trust_line(*analysis.run, pick, analysis.cheaper); !trust.empty())
    notes.push_back(std::move(trust));
}

// " (tied with tbb-tuned within the noise: the cheaper to keep)" after a pick that was tied; else "".
// short_form: for the table of several machines, "(≈ mpi, cheaper to keep)".
std::string tie_note(const Analysis& analysis, bool short_form = false) {
  const Decided& decided = analysis.decided;
  if (decided.row != analysis.recommended || decided.tied.size() < 2) return "";
  std::vector<std::string> others;
  for (const Row* row : decided.tied)
    if (row != decided.row) others.push_back(row->card->id);
  if (short_form) return " (≈ " + join(others) + ", cheaper to keep)";
  return " (tied with " + join(others) + " within the noise: the cheapest to keep)";
}

// A speedup and its range; in the table of several machines (short_form) the range as the farther of its
// ends from the ratio, in per cent, "28× ±9 %", and the bare ratio where that is the run's noise band of two
// cells (`band_percent`, said once above the table). ≈ 1 stays as it is: it is the verdict.
std::string speedup_text(const RatioRange& range, bool short_form, double band_percent = 0) {
  if (!short_form || range.about_one()) return ratio_text(range);
  const double spread = 100 * (std::max(range.ratio / range.low, range.high / range.ratio) - 1);
  const std::string ratio = format_number(range.ratio >= 10 ? "%.0f×" : "%.3g×", range.ratio);
  if (std::abs(spread - band_percent) < 0.5) return ratio;
  return ratio + format_number(" ±%.0f %%", spread);
}

// One row an integrand (of one run, or of each run with its machine first: `machine` not empty): integrand,
// use, × naive, × current rung, time, cost, error, cheaper runner-up. In the table of several runs the cost
// is its score and largest part.
void integrand_rows(Table& rows, const std::vector<const Analysis*>& analyses, bool same_n,
                    const std::string& current_tier, const std::string& machine) {
  const bool short_cost = !machine.empty();
  for (const Analysis* each : analyses) {
    const Analysis& analysis = *each;
    std::vector<std::string> row;
    if (!machine.empty()) row.push_back(machine);
    row.push_back(analysis.run->integrand_names().front());
    const Row* pick = analysis.recommended;
    if (!pick) {
      row.push_back("none: " + analysis.why);
      row.resize(rows.header.size(), "–");
      rows.rows.push_back(row);
      continue;
    }
    const Row* current = current_rung(analysis, current_tier);
    const double band = analysis.run->noise.fallback.percent;
    const std::string size = same_n ? "" : " at n = " + format_count(static_cast<double>(analysis.n));
    if (current && !ladder_pays(analysis, *current)) {
      for (auto& cell :
           {"stay: **" + current->card->id + "**",
            current->speedup_range ? speedup_text(*current->speedup_range, short_cost, band) : "–",
            std::string("1×"), format_seconds(current->cell->median()) + size,
            cost_text(*current, false, short_cost), scientific(current->cell->rel_error()),
            std::string("– (nothing beats it beyond the noise by 10 %)")})
        row.push_back(cell);
      rows.rows.push_back(row);
      continue;
    }
    const std::string versus =
        !current                       ? "– (no plain rung)"
        : current->card->id == "naive" ? "– (naive)"
        : current == pick              ? "1×"
                          : speedup_text(ratio_range(current->interval, pick->interval), short_cost, band) +
                                " " + current->card->id;
    for (auto& cell :
         {with_configuration(*pick) + tie_note(analysis, short_cost),
          pick->speedup_range ? speedup_text(*pick->speedup_range, short_cost, band) : "–", versus,
          format_seconds(pick->cell->median()) + size, cost_text(*pick, false, short_cost),
          scientific(pick->cell->rel_error()),
          analysis.cheaper ? analysis.cheaper->card->id + ", " + slower(*analysis.cheaper, *pick, false)
                           : std::string("–")})
      row.push_back(cell);
    rows.rows.push_back(row);
  }
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

// The analyses a run gives the answer's table: each integrand's, or with `whole` (one table for every
// run) its one analysis when it holds one integrand.
std::vector<const Analysis*> rows_of(const Analysis& analysis, const IntegrandAnswers& answers, bool whole) {
  std::vector<const Analysis*> each;
  for (const auto& one : answers.analyses) each.push_back(&one);
  if (each.empty() && whole) each.push_back(&analysis);
  return each;
}

// The kinds of the run's warnings that name a row's cell ("noisy", "load during the run").
std::vector<std::string> flagged(const Run& run, const Row* row) {
  std::vector<std::string> said;
  if (!row) return said;
  for (const auto& warning : run.warning_records)
    for (const auto& cell : warning.cells)
      if ((cell == row->cell->name || cell.rfind(row->cell->name + " ", 0) == 0) &&
          std::find(said.begin(), said.end(), warning.kind) == said.end())
        said.push_back(warning.kind);
  return said;
}

namespace {

// Several machines of several integrands: one table, a row for each integrand of each machine, the size said
// once when shared.
void machines_table(Document& blocks, const std::vector<Run>& all_runs, const std::vector<Analysis>& analyses,
                    const std::vector<IntegrandAnswers>& answers, const std::string& current_tier,
                    const std::vector<std::string>& names) {
  Table rows{{"machine", "integrand", "use", "× naive", "× current rung", "time", "cost", "error",
              "cheaper runner-up"},
             {},
             "",
             false};
  std::optional<std::int64_t> n = analyses.front().n;
  for (std::size_t i = 0; i < analyses.size(); ++i) {
    const auto at = answers[i].analyses.empty() ? std::optional<std::int64_t>(analyses[i].n) : answers[i].n;
    if (at != n) n.reset();
  }
  for (std::size_t i = 0; i < analyses.size(); ++i)
    integrand_rows(rows, rows_of(analyses[i], answers[i], true), n.has_value(), current_tier, names[i]);
  blocks.push_back(
      paragraph((n ? "At n = " + format_count(static_cast<double>(*n)) + ", one" : std::string("One")) +
                " row for each integrand of each machine (a ratio without ± is within ±" +
                format_number("%g", all_runs.front().noise.fallback.percent) +
                " %, two cells' noise: How sure is the answer):"));
  blocks.push_back(table(rows));
  std::vector<std::string> given_up;
  for (std::size_t i = 0; i < analyses.size(); ++i)
    if (!answers[i].analyses.empty())
      if (std::string said = gives_up(all_runs[i], answers[i]);
          !said.empty() && std::find(given_up.begin(), given_up.end(), said) == given_up.end())
        given_up.push_back(said);
  for (auto& said : given_up) blocks.push_back(paragraph(std::move(said)));
}

// Each machine's answer on its own: one tier, or a table with a row an integrand.
void each_machine(Document& blocks, std::vector<std::string>& notes, const std::vector<Run>& all_runs,
                  const std::vector<Analysis>& analyses, const std::vector<IntegrandAnswers>& answers,
                  const std::string& current_tier, const std::vector<std::string>& names,
                  const CostFigures& figures) {
  const bool several = all_runs.size() > 1;
  for (std::size_t i = 0; i < analyses.size(); ++i) {
    const std::string lead = several ? "On **" + names[i] + "**, " : "";
    if (answers[i].analyses.empty()) {
      one_answer(blocks, notes, analyses[i], current_tier, lead, figures);
      continue;
    }
    const std::string at = answers[i].n ? "at n = " + format_count(static_cast<double>(*answers[i].n)) + ", "
                                        : std::string("each at its own n, ");
    std::string said = lead + at + "one row an integrand:";
    said.front() = static_cast<char>(std::toupper(static_cast<unsigned char>(said.front())));
    blocks.push_back(paragraph(said));
    Table rows{
        {"integrand", "use", "× naive", "× current rung", "time", "cost", "error", "cheaper runner-up"},
        {},
        "",
        false};
    std::vector<const Analysis*> each;
    for (const auto& analysis : answers[i].analyses) each.push_back(&analysis);
    integrand_rows(rows, each, answers[i].n.has_value(), current_tier, "");
    blocks.push_back(table(rows));
    if (std::string said_up = gives_up(all_runs[i], answers[i]); !said_up.empty())
      blocks.push_back(paragraph(std::move(said_up)));
  }
}

}  // namespace

std::vector<std::string> answer(Document& doc, const std::vector<Run>& all_runs,
                                const std::vector<Analysis>& analyses,
                                const std::vector<IntegrandAnswers>& answers, const std::string& current_tier,
                                const std::string& rule, const CostFigures& figures) {
  Document blocks;
  std::vector<std::string> notes;
  blocks.push_back(heading(2, "The answer"));
  const bool several = all_runs.size() > 1;
  std::vector<std::string> names;
  for (const auto& run : all_runs) names.push_back(run.machine);
  const bool any_integrands = std::any_of(
      answers.begin(), answers.end(), [](const IntegrandAnswers& each) { return !each.analyses.empty(); });
  if (several && any_integrands)
    machines_table(blocks, all_runs, analyses, answers, current_tier, names);
  else
    each_machine(blocks, notes, all_runs, analyses, answers, current_tier, names, figures);
  // The headroom where the run measured the machine's limits (the roofline section says why not, elsewhere).
  for (std::size_t i = 0; i < analyses.size(); ++i)
    if (analyses[i].run->limits.measured)
      notes.push_back((several ? names[i] + ": " : std::string()) + headroom_line(analyses[i]));
  if (any_integrands)
    if (std::string trust = integrands_trust_line(all_runs, analyses, answers); !trust.empty())
      notes.push_back(std::move(trust));
  notes.push_back(rule_line(all_runs, analyses, answers, current_tier, names, any_integrands, rule));
  doc.push_back(section("answer", std::move(blocks)));
  return notes;
}

}  // namespace ladder::report
