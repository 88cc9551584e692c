// The lines of the answer (sections_answer.cpp) said in a sentence of their own: how sure the pick is, a
// trust line where the run's warnings touch any integrand's pick or runner-up, and the rule of the pick with
// the width each answer is for.
#include <algorithm>

#include "sections.hpp"

namespace ladder::report {
namespace {

// "2 threads, all this machine has" (or "the widest measured", or "as asked; 4 were measured").
std::string short_width(const Analysis& analysis) {
  const auto threads = [](int count) { return counted(count, "thread", "threads"); };
  const int widest = widest_measured(*analysis.run, analysis.n);
  if (analysis.width < widest)
    return threads(analysis.width) + " (as asked; " + threads(widest) + " measured)";
  const Run& run = *analysis.run;
  const int hardware = run.topology ? run.topology->hardware_threads() : run.cpus;
  return threads(analysis.width) +
         (hardware > 0 && analysis.width >= hardware ? ", all this machine has" : ", the widest measured");
}

// "measured in this run", "this machine's noise floor", "the documented default 5 %": a threshold's source
// cut at its first detail (its own sentence stays in the trust section).
std::string short_source(const Threshold& threshold) {
  const std::string& source = threshold.source;
  if (!threshold.measured && source.rfind("the documented default", 0) == 0)
    return "the documented default, not this machine's";
  const auto cut = source.find_first_of(",(:");
  std::string text = source.substr(0, cut);
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

}  // namespace

// One line on how sure the pick is: its tie and how the tie was broken, or that it is ahead beyond the noise,
// with the band a cell's noise gives (the widest of the tied cells'), as the tie's full wording says it.
std::string how_sure(const Analysis& analysis, const Row& pick) {
  const Decided& decided = analysis.decided;
  const RunNoise& noise = analysis.run->noise;
  const Threshold* widest = &noise.of(*pick.cell);
  const bool tied = decided.row == &pick && decided.tied.size() > 1;
  std::vector<std::string> ids{pick.card->id};
  if (tied)
    for (const Row* row : decided.tied)
      if (row != &pick) {
        ids.push_back(row->card->id);
        if (noise.of(*row->cell).percent > widest->percent) widest = &noise.of(*row->cell);
      }
  const std::string band = band_text(*widest) + " a cell, " + short_source(*widest);
  if (tied) return join(ids, " ≈ ") + " within " + band + "; the tie goes to the cheaper to keep.";
  return "ahead of every other tier beyond the noise (" + band + ").";
}

// The warnings that touch any integrand's pick or runner-up, once for the whole table: "Trust: …"; empty
// when none does.
std::string integrands_trust_line(const std::vector<Run>& all_runs, const std::vector<Analysis>& analyses,
                                  const std::vector<IntegrandAnswers>& answers) {
  const bool several = all_runs.size() > 1;
  std::vector<std::string> integrands, kinds;
  std::size_t rows = 0, touched = 0;
  for (std::size_t i = 0; i < answers.size(); ++i)
    for (const auto* each : rows_of(analyses[i], answers[i], several)) {
      const Analysis& analysis = *each;
      ++rows;
      auto said = flagged(all_runs[i], analysis.recommended);
      for (auto& kind : flagged(all_runs[i], analysis.cheaper)) said.push_back(kind);
      if (said.empty()) continue;
      ++touched;
      const std::string name = analysis.run->integrand_names().front();
      if (std::find(integrands.begin(), integrands.end(), name) == integrands.end())
        integrands.push_back(name);
      for (auto& kind : said)
        if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) kinds.push_back(kind);
    }
  if (touched == 0) return "";
  return "Trust: " +
         (touched == rows ? std::string("every pick or its runner-up")
                          : "the pick or runner-up for " + join(integrands)) +
         " rests on cells flagged " + join(kinds) + "; see the run's warnings below.";
}

// The rule of the pick and the width each answer is for, said once when the same everywhere.
std::string rule_line(const std::vector<Run>& all_runs, const std::vector<Analysis>& analyses,
                      const std::vector<IntegrandAnswers>& answers, const std::string& current_tier,
                      const std::vector<std::string>& names, bool any_integrands, const std::string& rule) {
  const bool several = all_runs.size() > 1;
  std::vector<std::string> widths;
  for (std::size_t i = 0; i < analyses.size(); ++i) {
    const std::string width = short_width(analyses[i]);
    const bool each_integrand = !answers[i].analyses.empty();
    widths.push_back((several ? "on **" + names[i] + "** " : std::string()) + "for " + width +
                     (each_integrand ? ", for each integrand" : ""));
  }
  const bool same_width = std::all_of(analyses.begin(), analyses.end(), [&](const Analysis& each) {
    return short_width(each) == short_width(analyses.front());
  });
  std::string answered = same_width && several ? "for " + short_width(analyses.front()) +
                                                     (any_integrands ? ", for each integrand" : "")
                                               : join(widths, "; ");
  if (same_width && several)  // said once for every machine
    if (const auto at = answered.find("all this machine has"); at != std::string::npos)
      answered.replace(at, 20, "all each machine has");
  return "The pick: " + rule + ", answered " + answered + ". " +
         (current_tier.empty()
              ? "The likely current rung: " + current_rung_rule() + " (--current TIER sets it)"
              : "Your current rung: " + current_tier + " (--current)") +
         ". \"Stay where you are\" when no tier beats it beyond the noise and by more than 10 %.";
}

}  // namespace ladder::report
