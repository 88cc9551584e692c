// Rounds: `ladder run` measures each cell in R rounds (`--rounds`, 3 by default), each a fresh worker
// process. Round 1 visits every cell in the matrix's shuffled order, round 2 in a new order, and so on, so a
// cell's rounds lie minutes apart, not back to back: what moves between processes (placement, page layout,
// frequency, neighbours) moves between its rounds, and the spread of its rounds is the run's own measure of
// its noise (common/noise/round_noise.hpp), as pyperf's worker processes are its.
//
// The preset's repetitions are shared among the rounds (round_repetitions). What needs doing once a cell is
// done in round 1: the reference sums (once a run), iteration sizing, the memory pass and the counters; a
// later round warms up and times the first round's iterations, nothing more (worker_spec.hpp).
//
// The record keeps each round (cell_result.hpp's Round), and the cell's measurement is taken over its
// clean rounds together (rebuild_measurement). judge_rounds applies common/noise/disturbance.hpp's round
// rule.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cell_result.hpp"
#include "matrix.hpp"

namespace ladder {

// A round's repetitions: the matrix's shared among its rounds, rounded up (at least 1).
int round_repetitions(const Matrix& matrix);

// The cells of each round, in the order they run: round 1 in the given order (Matrix::cells(), shuffled by
// the seed), each later round shuffled anew from the seed and its number. Where there are two or more
// cells, no cell ends one round and starts the next: its rounds are never adjacent.
std::vector<std::vector<CellKey>> round_schedule(const std::vector<CellKey>& cells, int rounds,
                                                 std::uint64_t seed);

// A round from one worker's record of the cell (index: its place; pid: its process): its repetitions and
// median, the load and steal its process saw; a worker that did not end ok gives a round with no
// repetitions, dropped with the reason.
Round round_of(const CellResult& measured, int index, long pid);
// Adds the round to the record, its timed seconds to the measurement's, and rebuilds the measurement.
void add_round(CellResult& record, Round round);

// The cell's rounds among the run's R (index 1 … R); rounds above R were measured again in place of them.
int scheduled_rounds_done(const CellResult& record, int rounds);
// Its rounds measured again at the end of the run (index above R).
int extra_rounds(const CellResult& record, int rounds);

// The wall seconds of the record's rounds together (their processes').
double rounds_wall_seconds(const CellResult& record);
// Whether the named cell, journaled ok among `cells`, still has scheduled rounds to run.
bool rounds_left(const std::vector<CellResult>& cells, const std::string& name, int rounds);
// The named cell's first round's iterations a repetition, which a later round times again (1 without one).
std::int64_t first_round_iterations(const std::vector<CellResult>& cells, const std::string& name);

// The record's measurement over its rounds: the clean rounds' repetitions together, in the order they ran
// (every round's when none is clean: then the fastest round's alone, as the disturbance touched it least),
// their aggregates, and the timed seconds of every round. Leaves a record with no rounds as it is.
void rebuild_measurement(CellResult& record);

// Judges every round of the run's cells by common/noise/disturbance.hpp's rule: first outside load (what
// competes for a cell's CPUs of the machine's `cpus`) and steal; then, against the run's noise floor from the
// rounds that have neither (round_noise.hpp, size by size), a round slower than its cell's other rounds
// beyond it; a cell of one round by its repetitions' spread as well. A round that failed keeps its reason.
// Rebuilds every measurement, and says in a cell's `remeasured` whether it is disturbed still. The same cells
// give the same marks: a resumed run judges as the first session would have.
void judge_rounds(std::vector<CellResult>& cells, int rounds, int cpus);

}  // namespace ladder
