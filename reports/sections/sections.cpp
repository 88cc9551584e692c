// The report's outline: the sections and charts in the order a reader meets them.
#include "sections.hpp"

#include <algorithm>

#include "charts.hpp"
#include "decision.hpp"
#include "roofline.hpp"

namespace ladder::report {
namespace {

// The runs, with machine names told apart where two are the same: "vm (baseline)" by the runs' labels where
// they differ, else "vm (run 2026-12-01T06:09)" by their start, else by their folder.
std::vector<Run> told_apart(std::vector<Run> runs) {
  const auto folder = [](const Run& run) {
    std::string path = run.path;
    for (const std::string file : {"/results.json", "/"})
      if (path.ends_with(file)) path.erase(path.size() - file.size());
    return path.substr(path.find_last_of('/') + 1);
  };
  std::vector<std::string> names;
  for (const auto& run : runs) {
    std::vector<const Run*> same;
    for (const auto& other : runs)
      if (other.machine == run.machine) same.push_back(&other);
    const auto differ = [&](const auto& key) {
      return std::all_of(same.begin(), same.end(),
                         [&](const Run* other) { return other == &run || key(*other) != key(run); });
    };
    const auto label = [](const Run& each) { return each.label; };
    const auto started = [](const Run& each) { return each.started.substr(0, 16); };
    names.push_back(run.machine + (same.size() < 2                           ? ""
                                   : !run.label.empty() && differ(label)     ? " (" + run.label + ")"
                                   : !run.started.empty() && differ(started) ? " (run " + started(run) + ")"
                                                                             : " (" + folder(run) + ")"));
  }
  for (std::size_t i = 0; i < runs.size(); ++i) runs[i].machine = names[i];
  return runs;
}

// decide() for each analysis, at its n for its run's focus integrand, once: the money section reads them.
// Under a deadline the answers for one call follow them (prefer), each integrand's too.
std::vector<Decision> decide_each(std::vector<Analysis>& analyses, std::vector<IntegrandAnswers>& answers,
                                  const std::vector<Run>& all_runs, const std::vector<std::string>& focus,
                                  const MoneyInputs& inputs) {
  std::vector<Decision> decisions;
  for (std::size_t i = 0; i < analyses.size(); ++i) {
    const Decision& decision = decisions.emplace_back(
        decide(*analyses[i].run, analyses[i].n, focus[i], inputs.figures, inputs.usage));
    if (!inputs.usage.deadline_seconds) continue;
    if (decision.latency_tier) prefer(analyses[i], *decision.latency_tier);
    // The latency tier does not depend on the rung break-even is against, which another integrand may lack.
    Usage latency = inputs.usage;
    latency.current.clear();
    const auto names = all_runs[i].integrand_names();
    for (std::size_t k = 0; k < answers[i].analyses.size() && k < names.size(); ++k) {
      Analysis& each = answers[i].analyses[k];
      const Decision its = decide(*each.run, each.n, names[k], inputs.figures, latency);
      if (its.latency_tier) prefer(each, *its.latency_tier);
    }
  }
  return decisions;
}

}  // namespace

Document build(const std::vector<Run>& given_runs, const std::string& integrand, const std::string& current,
               const MoneyInputs& inputs) {
  const std::vector<Run> all_runs = told_apart(given_runs);
  if (!emulated_runs(all_runs).empty()) return emulated_report(all_runs);
  if (!current.empty()) check_tier(all_runs, current, "--current");
  check_cost_figures(inputs.figures);
  std::vector<CardRecord> cards;
  for (const auto& run : all_runs) cards.insert(cards.end(), run.cards.begin(), run.cards.end());
  check_team_knows(inputs.figures.team_knows, cards);
  // The detailed sections read one integrand's cells: the analysis of a run of several would compare one
  // integrand's cells with another's.
  std::vector<Run> runs;
  std::vector<std::string> focus;
  bool several_integrands = false;
  for (const auto& run : all_runs) {
    const auto names = run.integrand_names();
    several_integrands = several_integrands || names.size() > 1;
    if (!integrand.empty()) check_integrand(run, integrand, "--integrand");
    focus.push_back(!integrand.empty() ? integrand : names.empty() ? "" : names.front());
    runs.push_back(names.size() > 1 ? integrand_run(run, focus.back()) : run);
  }
  std::vector<IntegrandAnswers> answers;  // one a run; empty for a run of one integrand
  std::vector<Analysis> analyses;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const bool several = all_runs[i].integrand_names().size() > 1;
    answers.push_back(several ? answer_each_integrand(all_runs[i]) : IntegrandAnswers{});
    // At the size the per-integrand answers share, so the two answers agree.
    analyses.push_back(several ? analyse(runs[i], answers.back().n) : analyse(runs[i]));
  }
  Document doc;
  std::string title = "Ladder report";
  if (runs.size() == 1 && !runs[0].label.empty()) title += ": " + runs[0].label;
  doc.push_back(heading(1, title));
  doc.push_back(paragraph("How far to optimize the midpoint rule, and what each step costs to keep: " +
                          counted(static_cast<int>(runs.size()), "machine", "machines") +
                          ", every number from the results files under Sources."));
  // --current must name a tier measured at the answer's n: on a run of several integrands, for one of them.
  for (std::size_t i = 0; i < analyses.size() && !current.empty(); ++i) {
    const auto& each = answers[i].analyses;
    if (std::none_of(each.begin(), each.end(),
                     [&](const Analysis& analysis) { return current_rung(analysis, current) != nullptr; }))
      check_measured(analyses[i], current, "--current");
  }
  MoneyInputs with_current = inputs;
  if (with_current.usage.current.empty()) with_current.usage.current = current;
  const std::vector<Decision> decisions = decide_each(analyses, answers, all_runs, focus, with_current);
  const std::string rule =
      inputs.usage.deadline_seconds
          ? "for one call, the tier that meets " + format_seconds(*inputs.usage.deadline_seconds) +
                " at the fewest engineer-days (--deadline)"
          : "for one call, the fastest tier within this machine's noise, a tie going to the cheapest to keep "
            "(--deadline: the cheapest that meets a wall time)";
  const std::vector<std::string> notes =
      answer(doc, all_runs, analyses, answers, current, rule, inputs.figures);
  build_answers(doc.back().blocks, analyses, focus, with_current);
  std::vector<const Run*> decided;
  for (const auto& analysis : analyses) decided.push_back(analysis.run);
  money(doc, decisions, decided);
  if (several_integrands) integrand_answers(doc, all_runs, answers, focus);
  integrand_sets(doc, all_runs, focus);
  trust(doc, runs, notes);
  topologies(doc, runs);
  ladder_table(doc, analyses, runs.size() > 1);
  crossing(doc, all_runs);
  yellow_lines(doc, all_runs);
  for (const auto& analysis : analyses) where_the_time_goes(doc, analysis, runs.size() > 1);
  costs(doc, runs.front());
  build_costs(doc, runs);
  roofline_section(doc, analyses);
  doc.push_back(heading(2, "Charts"));
  // Each kind once per machine, side by side on the same axes.
  const auto speedups = speedup_charts(analyses), scalings = scaling_charts(analyses),
             efficiencies = efficiency_charts(analyses), paretos = pareto_charts(analyses),
             memories = memory_charts(runs), timelines = timeline_charts(runs),
             cpu_timelines = cpu_timeline_charts(runs), errors = error_charts(runs);
  for (const auto* group :
       {&speedups, &scalings, &efficiencies, &paretos, &memories, &timelines, &cpu_timelines, &errors})
    doc.push_back(charts(*group));
  scaling(doc, analyses);
  which(doc, analyses);
  all_cells(doc, all_runs);
  std::vector<std::string> sources;
  for (const auto& run : runs) sources.push_back(run.path + " (" + run.machine + ", " + run.started + ")");
  doc.push_back(heading(2, "Sources"));
  doc.push_back(list(sources));
  fold_constant_columns(doc);
  return doc;
}

}  // namespace ladder::report
