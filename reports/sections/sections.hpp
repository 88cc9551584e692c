// The report's sections, in the order build() puts them: each appends its headings, paragraphs, tables and
// charts to the document. sections_decision.cpp holds what to choose (the answer, the costs, which tier);
// sections_measurements.cpp what was measured (the machines, the ladder, where the time goes, every cell);
// sections_scaling.cpp the machines' shape (the topology line, the thread-scaling table).
#pragma once

#include <string>
#include <vector>

#include "document.hpp"
#include "economics.hpp"
#include "report.hpp"
#include "sections_python_profile.hpp"

namespace ladder::report {

// The whole report, one machine a run. A run with several integrands is answered for each; the sections
// after that answer are about `integrand` (each run's first when empty).
// current: the team's current rung (current_rung; by its rule when empty); money: the money model's
// figures and the team's use (economics.hpp), checked here (--team-knows against the runs' cards).
Document build(const std::vector<Run>& runs, const std::string& integrand = "",
               const std::string& current = "", const MoneyInputs& money = {});

// The report of runs one of which was emulated (emulated.cpp): why it ranks nothing, then each
// cell's error against the references and each tier's vectorization; no answer, usage map or speedup.
Document emulated_report(const std::vector<Run>& runs);

// The answer for each integrand of each run that holds several, and where the answers differ; answers: each
// run's answer_each_integrand (empty for a run of one integrand); focus: the integrand the later sections
// are about, one a run.
void integrand_answers(Document& doc, const std::vector<Run>& runs,
                       const std::vector<IntegrandAnswers>& answers, const std::vector<std::string>& focus);
// When the runs' integrands differ, a paragraph naming each run's, before the detailed sections compare them.
void integrand_sets(Document& doc, const std::vector<Run>& runs, const std::vector<std::string>& focus);

// The one-screen answer, a section with the id "answer": each run's analysis, or its answers for each
// integrand (answers: one a run, empty for a run of one integrand); rule: how the pick was made, in words;
// figures: the money model's, for the pick's engineer-days. Returns what the first screen leaves out, for
// trust(): how each tie was broken, the disturbed cells kept out, the pick's card note, the warnings that
// touch it, the headroom, and the rule in full.
std::vector<std::string> answer(Document& doc, const std::vector<Run>& all_runs,
                                const std::vector<Analysis>& analyses,
                                const std::vector<IntegrandAnswers>& answers, const std::string& current_tier,
                                const std::string& rule, const CostFigures& figures);
// The answer's parts that its two files share. In sections_answer.cpp: the kinds of the run's warnings that
// name a row's cell ("noisy"), and the analyses a run gives the answer's table (each integrand's, or with
// `whole` its one analysis when it holds one integrand). In sections_answer_lines.cpp: "Trust: …" where the
// warnings touch any integrand's pick or runner-up ("" when none do), and "The pick: …", the rule and the
// width each answer is for.
std::vector<std::string> flagged(const Run& run, const Row* row);
// "tbb-tuned ≈ openmp-tuned within ±3.4 % a cell, measured in this run; the tie goes to the cheaper to
// keep.", or "ahead of every other tier beyond the noise (…)." (sections_answer_lines.cpp).
std::string how_sure(const Analysis& analysis, const Row& pick);
std::vector<const Analysis*> rows_of(const Analysis& analysis, const IntegrandAnswers& answers, bool whole);
std::string integrands_trust_line(const std::vector<Run>& all_runs, const std::vector<Analysis>& analyses,
                                  const std::vector<IntegrandAnswers>& answers);
std::string rule_line(const std::vector<Run>& all_runs, const std::vector<Analysis>& analyses,
                      const std::vector<IntegrandAnswers>& answers, const std::string& current_tier,
                      const std::vector<std::string>& names, bool any_integrands, const std::string& rule);
// The money and latency answer (decide(), as `ladder pick` gives it), a section with the id "money": one
// decision a run (runs[i] is decisions[i]'s), each at its analysis' n for its run's focus integrand.
struct Decision;
void money(Document& doc, const std::vector<Decision>& decisions, const std::vector<const Run*>& runs);
// "The machines, and how far to trust the numbers": the answer's notes (answer() returns them), the machines,
// the budget, and each run's warnings.
void trust(Document& doc, const std::vector<Run>& runs, const std::vector<std::string>& answer_notes);
void topologies(Document& doc, const std::vector<Run>& runs);
void ladder_table(Document& doc, const std::vector<Analysis>& analyses, bool several);
// For each run's peer that wraps a C++ tier (its card's beside and per_call_sizes: cpp-extension), at each
// per-call size and integrand: the two medians, their difference (what one call costs to cross from Python
// into C++) and its share of the peer's call at the run's largest n; "not measured" where a cell is missing.
void crossing(Document& doc, const std::vector<Run>& runs);
// For each run and each staircase of peers its cards name (`staircase`) with a yellow count on a card: the
// staircase's rungs, each one's yellow lines and Cython's score beside its time a node (sections_yellow.cpp).
void yellow_lines(Document& doc, const std::vector<Run>& runs);
void where_the_time_goes(Document& doc, const Analysis& analysis, bool several);
void costs(Document& doc, const Run& run);
void scaling(Document& doc, const std::vector<Analysis>& analyses);
void which(Document& doc, const std::vector<Analysis>& analyses);
void all_cells(Document& doc, const std::vector<Run>& runs);
// A run of several builds (sections_builds.cpp). build_answers adds to the answer section's blocks which
// build each analysis is of and, for every other build, its own answer (decide() on its cells at the
// analysis' n for the focus integrand); build_costs is "What the build costs": the builds, each tier's time
// in each against the native GCC build with the vectorization it lost or gained, and a speedup chart a build.
// Neither writes anything for runs of one build.
void build_answers(Document& answer, const std::vector<Analysis>& analyses,
                   const std::vector<std::string>& focus, const MoneyInputs& inputs);
void build_costs(Document& doc, const std::vector<Run>& runs);

}  // namespace ladder::report
