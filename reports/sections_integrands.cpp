// The answer for each integrand, when a run holds several: one small table (integrand, source, pick, speedup
// over naive, note) and where the answers differ, in sentences from the numbers.
#include <algorithm>
#include <utility>

#include "sections.hpp"

namespace ladder::report {
namespace {

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string text;
  for (const auto& part : parts) text += (text.empty() ? "" : separator) + part;
  return text;
}

// Where each figure comes from: the size, the widths, the repetitions, the file.
std::string provenance(const Run& run, const IntegrandAnswers& answers) {
  std::size_t fewest = 0, most = 0;
  for (const auto& analysis : answers.analyses)
    for (const auto& row : analysis.rows) {
      const std::size_t count = row.cell->repetitions.size();
      fewest = fewest == 0 ? count : std::min(fewest, count);
      most = std::max(most, count);
    }
  const std::string repetitions =
      fewest == most ? std::to_string(most) : std::to_string(fewest) + "–" + std::to_string(most);
  return std::string(answers.n
                         ? "At n = " + format_count(static_cast<double>(*answers.n)) +
                               " (of the sizes measured for every integrand, the one with the most tiers)"
                         : "Each integrand at its own size (no size was measured for all of them)") +
         ", each integrand's pick by the report's rule: the cheapest tier within 10 % of the fastest. "
         "Speedup "
         "over naive: naive's median on 1 thread over the pick's median at its fastest threads × ranks; "
         "medians of " +
         repetitions + " repetitions, from " + run.path + ".";
}

std::string note(const Run& run, const Analysis& analysis, const std::string& integrand) {
  std::vector<std::string> parts;
  if (!analysis.recommended) parts.push_back(analysis.why);
  std::vector<std::string> unavailable;
  for (const auto& [tier, reason] : unavailable_tiers(run, integrand)) unavailable.push_back(tier);
  if (!unavailable.empty()) parts.push_back(join(unavailable, ", ") + " unavailable (below)");
  std::vector<std::string> references;
  for (const auto& cell : analysis.run->cells) {
    for (const auto& each : cell.reference_notes)
      if (std::find(references.begin(), references.end(), each) == references.end())
        references.push_back(each);
    if (!cell.exact_method.empty()) {
      std::string method =
          "exact integral: " + cell.exact_method +
          (cell.exact_error_estimate ? format_number(" (error estimate %.1e)", *cell.exact_error_estimate)
                                     : std::string());
      if (std::find(references.begin(), references.end(), method) == references.end())
        references.push_back(method);
    }
  }
  for (auto& each : references) parts.push_back(std::move(each));
  return parts.empty() ? "–" : join(parts, "; ");
}

}  // namespace

void integrand_answers(Document& doc, const std::vector<Run>& runs, const std::vector<std::string>& focus) {
  doc.push_back(heading(2, "The answer for each integrand"));
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const Run& run = runs[i];
    if (run.integrand_names().size() < 2) continue;
    const IntegrandAnswers answers = answer_each_integrand(run);
    const std::string machine = runs.size() > 1 ? "On **" + run.machine + "**: " : "";
    doc.push_back(paragraph(machine + provenance(run, answers)));
    Table rows{{"integrand", "source", "pick", "speedup over naive", "note"}, {}};
    for (const auto& analysis : answers.analyses) {
      const std::string name = analysis.run->integrand_names().front();
      const Integrand* recorded = run.integrand(name);
      const Row* pick = analysis.recommended;
      std::string tier = "none", speedup = "–";
      if (pick) {
        tier = "**" + pick->card->id + "**";
        if (pick->card->parallel || pick->card->distributed)
          tier += " (" + std::to_string(pick->cell->threads) +
                  (pick->cell->threads > 1 ? " threads" : " thread") +
                  (pick->card->distributed ? " × " + std::to_string(pick->cell->ranks) + " ranks" : "") + ")";
        speedup = pick->speedup ? times(*pick->speedup) : "– (naive not measured)";
        if (!answers.n) speedup += " at n = " + format_count(static_cast<double>(analysis.n));
      }
      rows.rows.push_back({name, recorded && !recorded->source.empty() ? recorded->source : "not recorded",
                           tier, speedup, note(run, analysis, name)});
    }
    doc.push_back(table(rows));
    const auto differences = integrand_differences(run, answers);
    if (differences.empty()) {
      doc.push_back(
          paragraph("Where the answers differ: nowhere. The pick is the same for every integrand, "
                    "every tier runs every integrand, and no tier's speedup over naive differs by "
                    "2× or more between them."));
    } else {
      doc.push_back(
          paragraph("Where the answers differ (a different pick, a tier that cannot run an "
                    "integrand, a speedup over naive 2× or more apart):"));
      doc.push_back(list(differences));
    }
    doc.push_back(paragraph("The sections below are about **" + focus[i] +
                            "** only; `ladder report --integrand NAME` makes them about another."));
  }
}

}  // namespace ladder::report
