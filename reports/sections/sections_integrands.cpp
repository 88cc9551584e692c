// Where each integrand's answer comes from, when a run holds several: one small table (integrand, source,
// note; the answer above has the picks) and where the answers differ, in sentences from the numbers.
#include <algorithm>
#include <set>
#include <utility>

#include "sections.hpp"
#include "text.hpp"

namespace ladder::report {
namespace {

// Where each figure comes from: the size, the widths, the repetitions, the file.
std::string provenance(const Run& run, const IntegrandAnswers& answers) {
  std::size_t fewest = 0, most = 0;
  for (const auto& analysis : answers.analyses)
    for (const auto& row : analysis.rows) {
      const std::size_t count = row.cell->repetition_seconds().size();
      fewest = fewest == 0 ? count : std::min(fewest, count);
      most = std::max(most, count);
    }
  const std::string repetitions =
      fewest == most ? std::to_string(most) : std::to_string(fewest) + "–" + std::to_string(most);
  return std::string(answers.n
                         ? "At n = " + format_count(static_cast<double>(*answers.n)) +
                               " (of the sizes measured for every integrand, the one with the most tiers)"
                         : "Each integrand at its own size (no size was measured for all of them)") +
         ". The answer's × naive: naive's median on 1 thread over the pick's median at its fastest threads "
         "× ranks; medians of " +
         repetitions + " repetitions, from " + run.path + ".";
}

std::string note(const Run& run, const Analysis& analysis, const std::string& integrand) {
  std::vector<std::string> parts;
  if (!analysis.recommended) parts.push_back(analysis.why);
  // The tiers that do not run it, grouped by what happened: "eigen, xsimd unavailable, tbb failed (below)".
  std::vector<std::pair<std::string, std::vector<std::string>>> by_what;  // "unavailable", its tiers
  for (const NotRunning& each : tiers_not_running(run, integrand)) {
    std::string what = each.what();
    for (const std::string verb : {"is ", "was "})
      if (what.rfind(verb, 0) == 0) what.erase(0, verb.size());
    auto group = std::find_if(by_what.begin(), by_what.end(), [&](const auto& x) { return x.first == what; });
    if (group == by_what.end()) group = by_what.insert(by_what.end(), {what, {}});
    group->second.push_back(each.tier);
  }
  std::vector<std::string> not_running;
  for (const auto& [what, tiers] : by_what) not_running.push_back(join(tiers) + " " + what);
  if (!not_running.empty()) parts.push_back(join(not_running) + " (below)");
  std::vector<std::string> references;
  for (const auto& cell : analysis.run->cells) {
    for (const auto& each : cell.reference_notes())
      if (std::find(references.begin(), references.end(), each) == references.end())
        references.push_back(each);
    // How the exact integral was found, when it is news: not the antiderivative, or with an estimate or a
    // note to read it by.
    if (!cell.exact_method().empty() && (cell.exact_method() != "antiderivative" ||
                                         cell.exact_error_estimate() || !cell.reference_notes().empty())) {
      std::string method =
          "exact integral: " + cell.exact_method() +
          (cell.exact_error_estimate() ? format_number(" (error estimate %.1e)", *cell.exact_error_estimate())
                                       : std::string());
      if (std::find(references.begin(), references.end(), method) == references.end())
        references.push_back(method);
    }
  }
  for (auto& each : references) parts.push_back(std::move(each));
  return join(parts, "; ");
}

// What "nowhere" rests on, from what was checked: the one pick, the tiers that ran every integrand and those
// that ran none here (with why), and how many tiers' speedups over naive were compared.
std::string nowhere(const Run& run, const IntegrandAnswers& answers) {
  const Row* pick = answers.analyses.front().recommended;
  std::string text = "Where the answers differ: nowhere. " +
                     (pick ? "The pick is **" + pick->card->id + "** for every integrand"
                           : std::string("No integrand has a pick"));
  const std::size_t integrands = answers.analyses.size();
  std::vector<std::string> ran_all, ran_none;
  for (const Card* card : run.cards_by_rung()) {
    std::set<std::string> ran;
    const CellResult* not_run = nullptr;
    for (const auto& cell : run.cells)
      if (cell.tier == card->id) {
        if (cell.ok()) ran.insert(cell.integrand);
        if (!cell.ok() && !not_run) not_run = &cell;
      }
    if (ran.size() == integrands) ran_all.push_back(card->id);
    if (ran.empty())  // no cell (not in the run) or none that ran (no GPU, say): why, when a cell says
      ran_none.push_back(
          card->id + (not_run ? " (" + std::string(to_string(not_run->status)) + ": " + not_run->reason + ")"
                              : std::string()));
  }
  if (!ran_all.empty()) text += "; " + join(ran_all) + " ran every integrand";
  if (!ran_none.empty()) text += "; " + join(ran_none) + " ran none";
  int compared = 0;
  for (const Card* card : run.cards_by_rung()) {
    std::size_t speedups = 0;
    for (const auto& analysis : answers.analyses)
      for (const auto& row : analysis.rows)
        if (row.card->id == card->id && row.speedup) ++speedups;
    compared += speedups >= 2 ? 1 : 0;
  }
  return text + (compared > 0 ? "; and no tier's speedup over naive differs by 2× or more between them (" +
                                    counted(compared, "tier", "tiers") + " compared)."
                              : "; no tier's speedup over naive could be compared between them.");
}

}  // namespace

void integrand_answers(Document& doc, const std::vector<Run>& runs, const std::vector<IntegrandAnswers>& each,
                       const std::vector<std::string>& focus) {
  doc.push_back(heading(2, "The answer for each integrand"));
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const Run& run = runs[i];
    if (run.integrand_names().size() < 2) continue;
    const IntegrandAnswers& answers = each[i];
    const std::string machine = runs.size() > 1 ? "On **" + run.machine + "**: " : "";
    doc.push_back(paragraph(machine + provenance(run, answers)));
    // The answer above has each pick and its figures; this says where they come from.
    Table rows{{"integrand", "source", "note"}, {}};
    for (const auto& analysis : answers.analyses) {
      const std::string name = analysis.run->integrand_names().front();
      const Integrand* recorded = run.integrand(name);
      rows.rows.push_back({name, recorded && !recorded->source.empty() ? recorded->source : "not recorded",
                           note(run, analysis, name)});
    }
    // "–" where another integrand has a note; no column when none has.
    const bool noted =
        std::any_of(rows.rows.begin(), rows.rows.end(), [](const auto& row) { return !row.back().empty(); });
    for (auto& row : rows.rows)
      if (noted && row.back().empty()) row.back() = "–";
    doc.push_back(table(rows));
    const auto differences = integrand_differences(run, answers, 2, false);
    if (differences.empty() && !integrand_differences(run, answers).empty()) {
      doc.push_back(paragraph("Where the answers differ: only in the pick, as the answer shows."));
    } else if (differences.empty()) {
      doc.push_back(paragraph(nowhere(run, answers)));
    } else {
      doc.push_back(
          paragraph("Where the answers differ (a tier that cannot run an integrand, a speedup over naive 2× "
                    "or more apart):"));
      doc.push_back(list(differences));
    }
    doc.push_back(paragraph("The sections below are about **" + focus[i] +
                            "** only; `ladder report --integrand NAME` makes them about another."));
  }
}

void integrand_sets(Document& doc, const std::vector<Run>& runs, const std::vector<std::string>& focus) {
  std::vector<std::set<std::string>> sets;
  for (const auto& run : runs) {
    const auto names = run.integrand_names();
    sets.emplace_back(names.begin(), names.end());
  }
  if (std::all_of(sets.begin(), sets.end(), [&](const auto& set) { return set == sets.front(); })) return;
  std::vector<std::string> each, about;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    each.push_back("**" + runs[i].machine + "** (" + runs[i].path + ") holds " +
                   join(runs[i].integrand_names()));
    about.push_back("**" + focus[i] + "** on " + runs[i].machine);
  }
  const bool same_focus =
      std::all_of(focus.begin(), focus.end(), [&](const std::string& name) { return name == focus.front(); });
  doc.push_back(paragraph(
      "These runs do not hold the same integrands: " + join(each, "; ") + ". " +
      (same_focus ? "The sections below are about **" + focus.front() + "** on each."
                  : "The sections below compare " + join(about) +
                        ": different functions, so a difference between the machines there is not the "
                        "machines' alone.")));
}

}  // namespace ladder::report
