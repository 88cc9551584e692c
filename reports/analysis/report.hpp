// Reading results: what `ladder report`, `ladder pick` and `ladder compare` know of a run. They read only
// results files (a report can be made on another machine, from several machines' runs, long after), and
// never name a tier: the cards travel in the results.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cell_result.hpp"
#include "economics.hpp"
#include "intervals.hpp"
#include "noise.hpp"
#include "results_file.hpp"

namespace ladder::report {

// What a tier's card says, as results.json carries it (common/results_file.hpp), and what the report
// derives from the run for it.
struct Card : CardRecord {
  using Vectorization = VectorizationRecord;
  // Instructions a node under callgrind (the run's `instructions`), or why not counted.
  std::optional<double> instructions_per_node{};
  std::string instructions_unavailable{};
  std::string accuracy{};  // a tier's own accuracy claim, e.g. a hand-written exp's measured ulp error
  // A peer run by PyPy (its language: "Python 3.9.16 (PyPy 7.3.11)"): the CPython peer before it, unchanged
  // under another interpreter, so measured against that twin and no rung of CPython's own staircase.
  bool pypy() const { return peer && language.find("PyPy") != std::string::npos; }
  // Its work a node, counted (roofline.hpp): from the hot loop of the build that ran (its vectorization
  // record) where that could be counted, else under callgrind on the profiling build; null when neither.
  std::optional<double> flops_per_node{}, fp_instructions_per_node{};
  std::string flops_how{};  // how they were counted, or why not
  // Counted on the build whose cells were timed (its hot loop): the FP instructions are those that ran, so
  // its instruction-mix ceiling holds. False for callgrind's count on the profiling build (another target).
  bool flops_of_timed_build = false;
};

// An integrand as the run's context records it (context.integrands; absent in files written before Ladder
// took user integrands): its formula (may be empty), where it came from ("built-in" or a header's path),
// whether it gives its antiderivative, and the tiers that cannot run it, each with why.
struct Integrand {
  std::string name, formula, source;
  bool antiderivative = false;
  std::vector<std::pair<std::string, std::string>> unsupported;  // tier id, reason
};

// The machine's run-to-run noise for a run's cells (common/noise/noise.hpp): how far a cell's median moves
// between two runs of the same code here, the band its interval is widened by. load_run measures it from the
// run's own rounds where it has them (common/noise/round_noise.hpp: by size, and over every size as the
// fallback), else leaves the documented default; fill_noise (reports/analysis/run_noise.hpp) adds what the
// history of this machine knows. Where both are known the wider is used, and every answer says where its
// figure came from.
struct RunNoise {
  std::map<std::string, Threshold> by_cell;  // by CellResult::name
  // The cell's medians in the history's other runs of this same code and build on this machine
  // (history::same_build_medians), by pooled_key: with enough of them, a cell's interval is theirs and its
  // own pooled (intervals.hpp), runs measured apart rather than one run's repetitions.
  std::map<std::string, std::vector<double>> other_runs;
  // A cell's key in other_runs: its build and name ("clang-x86-64-v2 xsimd/gauss/n:…"), so that the cells of
  // two builds, which share a name, are pooled each with its own build's runs.
  static std::string pooled_key(const CellResult& cell) { return cell.build + " " + cell.name; }
  // The run's own floor for cells of each n, from its rounds (empty for a run of one round).
  std::map<std::int64_t, Threshold> measured_by_n;
  Threshold fallback = default_threshold();  // the run's own floor over every size, where it has one
  const Threshold& of(const CellResult& cell) const {
    const auto measured = measured_by_n.find(cell.n);
    const Threshold& own = measured == measured_by_n.end() ? fallback : measured->second;
    const auto found = by_cell.find(cell.name);
    if (found == by_cell.end()) return own;
    return own.measured && own.percent > found->second.percent ? own : found->second;  // the wider
  }
};

struct Run {
  std::string path;     // where it was read from
  std::string machine;  // the host name (in a report, with the run's label or start where two share it)
  std::string host;     // the host name as recorded
  std::string cpu, label, started, status, instruction_set;
  std::optional<BudgetRecord> budget;  // how the run was fitted to --budget; absent when it was not
  int cpus = 1, repetitions = 0;
  double memory_total_bytes = 0;  // 0: not known
  bool hypervisor = false;
  // Native, emulated (qemu-user) or unknown (common/emulation.hpp); absent in files written before Ladder
  // looked. An emulated run's times rank nothing: the report, pick and compare refuse to (emulated_runs).
  std::optional<Emulation> emulation;
  bool emulated() const { return emulation && emulation->is_emulated(); }
  std::string build;  // the compiler and the common flags
  // The machine's shape as hwloc saw it; absent in files written before Ladder read it.
  std::optional<Topology> topology;
  MachineLimits limits;  // the peak FMA rate and bandwidth measured beside the cells (context.limits)
  std::vector<Card> cards;
  // The cells at the matrix's sizes (context.matrix.sizes; every cell when it records none): all that the
  // sizes, charts, tables and answers read.
  std::vector<CellResult> cells;
  // The cells at other sizes: a peer's per-call sizes (harness/matrix/matrix.hpp: cpp-extension and the tier
  // it wraps at n = 1000), kept apart so that no size, chart or answer counts them; read by the crossing
  // passage (crossing()), every-cell table and `ladder compare` only.
  std::vector<CellResult> per_call_cells;
  std::vector<std::string> warnings;           // "kind: message (N cells)"
  std::vector<WarningRecord> warning_records;  // the same, with the cells each names
  // How the instructions a node were counted ("callgrind (valgrind-3.19.0) on -march=x86-64-v3, gauss, …"),
  // or why they were not ("unavailable: …").
  std::string instructions_method, instructions_unavailable;
  std::string
      flops_method;  // how callgrind's FLOPs a node were counted (instructions.flops_method), or empty
  std::vector<Integrand> integrands;  // context.integrands; empty in older files
  // The builds the run measured each tier in (`--compilers`, `--arch`; context.run.builds, with a build its
  // cells name that the context does not record added from a cell's build record): empty in a run of the
  // build at hand alone. `cells` and `per_call_cells` are then one build's, `build_id`'s (main_build_rule):
  // every analysis, chart and answer reads one build. The others' cells are in `other_builds`, in the
  // matrix's order, for the answer's line per build and What the build costs (sections_builds.cpp).
  std::vector<RunRecord::BuildUsed> builds;
  std::string build_id;
  struct OtherBuild {
    std::string id;
    std::vector<CellResult> cells, per_call_cells;
  };
  std::vector<OtherBuild> other_builds;
  RunNoise noise;  // the machine's run-to-run noise a cell: the documented default until the app fills it

  const Card* card(const std::string& tier) const;
  std::vector<const Card*> cards_by_rung() const;  // the cards, lowest rung first
  std::vector<std::int64_t> sizes() const;         // the n with at least one measured cell, ascending
  // The integrands its cells are of, in the order they first appear.
  std::vector<std::string> integrand_names() const;
  const Integrand* integrand(const std::string& name) const;  // from the context; null when not recorded
};

// Reads DIR/results.json, or the file itself; throws InputError naming the file and what is wrong with it
// (missing, not JSON, cut short, another schema version, a field missing).
Run load_run(const std::string& where);

// Why an emulated run's times are not ranked, one sentence a run that ran under emulation; empty when none
// did. The report then shows errors and vectorization only (emulated.cpp), pick the same in words,
// and compare refuses.
std::vector<std::string> emulated_runs(const std::vector<Run>& runs);

// Which build's cells a run of several is analysed from, in words (the rule load_run follows).
std::string main_build_rule();
// The run as it is for one of its builds (`id`: build_id or one of other_builds'): that build's cells as its
// cells, no other build. InputError when the run has no such build.
Run build_run(const Run& run, const std::string& id);
// Every build's cells of the run, the analysed build's first (and the per-call cells after them).
std::vector<CellResult> every_build_cells(const Run& run);
// The run's record of a build (null when the run has none of that id).
const RunRecord::BuildUsed* build_record(const Run& run, const std::string& id);

// The maintenance cost: one documented score from 1 (anyone can keep it) to 10, and every part of it.
struct CostPart {
  std::string name, value;
  double points;
};
struct Cost {
  double score = 1;
  std::vector<CostPart> parts;
};
Cost maintenance_cost(const Card& card);
std::string cost_formula();  // the formula in words, for the report
// What a tier asks of a team, in plain words, most first: hand-written maths it must own (a card with its
// own elementary function), then the `count` parts of its cost worth the most points ("3 libraries (…)",
// "days to learn"); parts worth nothing are left out.
std::vector<std::string> cost_in_words(const Card& card, std::size_t count = 2);

// Of two cells of one tier, the one that is its best: an undisturbed one (common/noise/disturbance.hpp)
// before a disturbed one, then the faster.
bool better_cell(const CellResult& x, const CellResult& y);

// A tier's best configuration (the fastest threads × ranks, its undisturbed cells first) at one n on one run.
struct Row {
  const CellResult* cell = nullptr;
  const Card* card = nullptr;
  Cost cost;
  CellInterval interval;                // its cell's, widened by the machine's noise (intervals.hpp)
  std::vector<std::string> disturbed;   // why its cell's measurement was disturbed; empty when it was not
  std::optional<double> speedup;        // against naive at the same n (1 thread)
  std::optional<double> speedup_below;  // against the rung below (on the same staircase: C++ or peers)
  // The two speedups with the range their cells' intervals allow ("179× (170–188×)", "≈ 1 (…)").
  std::optional<RatioRange> speedup_range, below_range;
  std::optional<double> over_baseline;   // against the baseline peer (its card says so), when it ran
  std::optional<double> over_best_peer;  // against the fastest peer, when peers ran
  double fraction_of_fastest = 0;
  bool pareto = false;  // no other tier is both faster and no more costly
};

// One place decided within the noise (choose_within_noise): the recommendation, or the likely current rung.
struct Decided {
  const Row* row = nullptr;      // null when nothing could be chosen, or it was not decided
  std::vector<const Row*> tied;  // the rows tied with the fastest, the chosen one among them; one: no tie
  std::string tie_why;           // the tie and its break in words ("a or b: 1.6 % apart, …"); empty: none
  std::vector<const Row*> kept_out;  // disturbed rows that did not compete
  std::string undecided;             // "could not decide: …"; empty when decided
  std::string note;                  // what the disturbed rows did to the choice; empty when nothing
};

struct Analysis {
  const Run* run = nullptr;
  std::int64_t n = 0;  // the size the table and the answer are about
  // The threads × ranks the answer is for: the widest measured at n, or the width asked for when that is
  // narrower. Each tier competes with its fastest cell at most this wide.
  int width = 1;
  std::vector<Row> rows;                      // rung order, tiers with a measured cell at n
  std::vector<const CellResult*> unmeasured;  // cells at n that did not run, with their reasons
  const Row* best_peer = nullptr;             // the fastest peer, when peers ran
  const Card* baseline = nullptr;             // the peer whose card says it is the baseline, measured or not
  const Row* first_beating_peers = nullptr;   // the lowest C++ rung faster than every peer
  // The fastest tier within the noise that may be recommended, a tie going to the cheapest to keep; prefer()
  // may set `recommended` to another (a deadline's), `decided` stays the fastest's.
  Decided decided;
  const Row* recommended = nullptr;
  const Row* cheaper =
      nullptr;      // the runner-up that costs less (undisturbed, unless every row was disturbed)
  std::string why;  // one sentence; "could not decide: …" when `decided` was not
};

// The answer for one call is `tier` (decide()'s latency tier under a deadline), with its cheaper
// runner-up and why; nothing changes when `tier` has no row.
void prefer(Analysis& analysis, const std::string& tier);

// The team's likely current rung: `tier` when given (null when it was not measured at the analysis' n), else
// by current_rung_rule: the fastest plain single-threaded C++ rung within the noise, with no library and no
// hand-written maths — the step a team reaches before it adds dependencies; a tie goes to the cheapest to
// keep, and disturbed cells are kept out as in the recommendation (Decided says how it was chosen).
const Row* current_rung(const Analysis& analysis, const std::string& tier = "");
Decided current_rung_choice(const Analysis& analysis, const std::string& tier = "");
std::string current_rung_rule();
// The ladder pays over `current` when some C++ tier that may be recommended is faster beyond the noise
// (their intervals apart) and by more than the 10 % the recommendation allows (its time under 0.9 × the
// current rung's); else the answer is to stay where you are.
bool ladder_pays(const Analysis& analysis, const Row& current);
// The C++ rows the answer reads: the undisturbed ones, or every one when all were disturbed.
std::vector<const Row*> answer_rows(const Analysis& analysis);
// Throws InputError when `tier` is not a tier of every run, naming it and the tiers the run has.
void check_tier(const std::vector<Run>& runs, const std::string& tier, const std::string& option);
// Throws InputError when `tier` has no row in the analysis (no cell measured at its n): why, from its cells
// there (unavailable: …, failed: …) or that none was measured at that n, and the tiers that were.
void check_measured(const Analysis& analysis, const std::string& tier, const std::string& option);

// n: the size to decide at (default: the largest n at which most tiers were measured).
// Peers are on the ladder but recommended only with include_peers (`ladder pick --include-peers`).
// width: answer for at most this many threads × ranks (default: the widest measured at n).
Analysis analyse(const Run& run, std::optional<std::int64_t> n = std::nullopt, bool include_peers = false,
                 std::optional<int> width = std::nullopt);

// The widest threads × ranks measured at n (1 when nothing was).
int widest_measured(const Run& run, std::int64_t n);

// The width an analysis answers for, in words, against the machine's own: "128 threads, the widest
// measured here: all 128 hardware threads of this machine (2 sockets × 32 cores × 2 threads, …)".
std::string width_text(const Analysis& analysis);

// The smallest measured n from which `tier` is faster than `other` at every larger measured n (each at its
// best configuration); empty when it never is.
std::optional<std::int64_t> pays_from(const Run& run, const std::string& tier, const std::string& other);

// The run as it is for one integrand: only its cells (the cards and the machine as they are).
Run integrand_run(const Run& run, const std::string& integrand);
// Throws InputError when `integrand` has no cell in the run, naming it and the integrands the run has.
void check_integrand(const Run& run, const std::string& integrand, const std::string& option);

// The answer for each integrand of one run (integrand_run), all at one size where they can be.
struct IntegrandAnswers {
  std::vector<Run> runs;  // one an integrand, in integrand_names order
  std::vector<Analysis> analyses;
  // The size every answer is at: of the sizes measured for every integrand, the one at which the most
  // tiers were measured (the largest of those), as analyse chooses for one; nullopt when no size is common
  // to all, and each integrand is answered at its own.
  std::optional<std::int64_t> n;

  // The analyses point into `runs`: a move keeps them valid (the vector's elements stay where they are), a
  // copy would not.
  IntegrandAnswers() = default;
  IntegrandAnswers(IntegrandAnswers&&) = default;
  IntegrandAnswers& operator=(IntegrandAnswers&&) = default;
  IntegrandAnswers(const IntegrandAnswers&) = delete;
  IntegrandAnswers& operator=(const IntegrandAnswers&) = delete;
};
// n: the size to answer at (default: as above); include_peers and width as for analyse.
IntegrandAnswers answer_each_integrand(const Run& run, std::optional<std::int64_t> n = std::nullopt,
                                       bool include_peers = false, std::optional<int> width = std::nullopt);

// Where the per-integrand answers differ, each a sentence from the numbers: a different pick, a tier that
// does not run an integrand (tiers_not_running: unavailable, failed, timed out …, with the reason), a tier
// whose speedup over naive differs by `spread` or more between integrands. Empty when nothing differs. `all`:
// the run the answers were made from (its unavailable cells, its context's integrands).
// with_picks: false leaves out the first sentence, the picks (when a table beside it shows them).
std::vector<std::string> integrand_differences(const Run& all, const IntegrandAnswers& answers,
                                               double spread = 2, bool with_picks = true);

// A tier that has no measured cell of an integrand while it ran another (or that the context records as
// unable to run it): its cells' status (unavailable, failed, timeout, …) and why.
struct NotRunning {
  std::string tier;
  CellStatus status = CellStatus::unavailable;
  std::string reason;
  std::string what() const;  // "is unavailable", "failed", "timed out", …
};
// The tiers of the run that do not run `integrand`, in rung order: a tier with no measured cell of it that
// ran another integrand or that the context records as unable to run it (context.integrands[]
// .unsupported). The status and reason are an unavailable cell's, else the context's, else its first
// cell's that did not run (failed, timed out, crashed, skipped …), else "skipped: no cell of it in these
// results". A tier that ran no integrand (no GPU on the machine, say) is no answer about this one.
std::vector<NotRunning> tiers_not_running(const Run& all, const std::string& integrand);

// The file a report writes beside report.md listing the files it wrote (its "files"): what lets a later
// report replace them, and only them.
inline constexpr const char* report_marker = ".ladder-report.json";
// Writes report.md, report.html and charts/*.svg into out_dir, as a whole (staged, then moved into place),
// with report_marker; returns the paths written (not the marker). out_dir is made when missing; an existing
// one must be empty, a run's directory, or hold only an earlier report and a run's results files, else
// InputError names the file Ladder did not write. WriteError when it cannot be written: nothing in place
// has changed then. With several
// integrands in a run, the answer is per integrand, and the detailed sections are about `integrand` (the
// first in the run when empty).
// current: the team's current rung (current_rung; by its rule when empty); money: the money model's figures
// and the team's use (economics.hpp; the defaults when not given).
std::vector<std::string> write_report(const std::vector<Run>& runs, const std::string& out_dir,
                                      const std::string& integrand = "", const std::string& current = "",
                                      const MoneyInputs& money = {});

}  // namespace ladder::report
