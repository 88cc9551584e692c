// Whether a cell's measurement was disturbed: the one rule the runner (which measures a disturbed round
// again, harness/run/remeasure.hpp), the run's warnings and the report's answer (which never lets a disturbed
// figure decide silently) share.
//
// A cell measured in rounds (schema 3, harness/run/rounds.hpp) is disturbed when fewer than two of its rounds
// are clean. A round is dropped (its `disturbed` reasons, set by the runner) when, while its process ran,
// - other processes competed for its CPUs: their load (the worker's other_load_cores) beyond the CPUs the
//   cell left free (the machine's less the cell's threads × ranks) came to a quarter of a core or more for
//   each CPU the cell uses. Load the scheduler could put on a free CPU takes nothing from the cell; what it
//   costs through the shared caches and memory shows as a slow round (below);
// - the hypervisor stole 2 % or more of the machine's CPU time;
// - or its median was slower than the median of the cell's other rounds by more than the run's own
//   measured noise floor for cells of that size (round_noise.hpp): disturbance only ever adds time.
// Its repetitions' spread is not a disturbance: it is the process's noise, and the rounds measure it.
//
// A cell measured once (a run of --rounds 1, and every cell of a file written before rounds) has no other
// process to be judged against; it is disturbed when, while it ran, there was such load or steal, its slowest
// repetition took over 1.5 × its fastest, or its repetitions' coefficient of variation was over 5 %.
// Each threshold is named once, here; the messages quote them.
#pragma once

#include <string>
#include <vector>

#include "cell_result.hpp"

namespace ladder {

inline constexpr double disturbed_other_cores = 0.25;  // other processes' load, in cores
inline constexpr double disturbed_steal = 0.02;        // of the machine's CPU time, to the hypervisor
inline constexpr double disturbed_spread = 1.5;        // slowest repetition over the fastest
inline constexpr double disturbed_cv = 0.05;           // the repetitions' coefficient of variation

// Why the cell's measurement was disturbed, one phrase a reason ("1.01 cores of other load", "2.3 % of
// the CPU time stolen", "max/min 1.82", "cv 7.4 %"); empty when it was not, or the cell is not ok.
std::vector<std::string> disturbance(const CellResult& cell);
inline bool disturbed(const CellResult& cell) { return !disturbance(cell).empty(); }

// The outside part of the rule: load and steal over one process ("0.41 cores of other load").
std::vector<std::string> outside_disturbance(double other_load_cores, double steal_fraction);
// The outside part for a round: its other load as far as it competes for the `cell_cpus` CPUs of the
// machine's `machine_cpus` ("0.62 cores of other load on the cell's 2 CPUs", "1.31 cores of other load, 0.31
// beyond the 1 CPU the cell left free"), and its steal. machine_cpus 0: unknown, none counted free.
std::vector<std::string> round_outside_disturbance(const Round& round, int cell_cpus, int machine_cpus);
// The within-process part, for a cell measured once: its repetitions' max/min and cv.
std::vector<std::string> repetition_disturbance(const Aggregates& aggregates);
// A round slower than the median of its cell's other rounds (`others_ns`, nanoseconds) by more than
// `band_percent`: "median 14 % above its other rounds' (the run's noise ±6.2 % at this size)"; empty else.
std::string slow_round(const Round& round, double others_ns, double band_percent);

// The rule in words, for the docs and the report: "other load ≥ 0.25 cores, steal ≥ 2 %, …" (a cell
// measured once).
std::string disturbance_rule();

}  // namespace ladder
