// Rounds: the schedule, the record's measurement over its rounds, and the round rule (rounds.hpp).
#include "rounds.hpp"

#include <algorithm>
#include <map>
#include <random>

#include "disturbance.hpp"
#include "round_noise.hpp"

namespace ladder {

int round_repetitions(const Matrix& matrix) {
  const int rounds = std::max(1, matrix.rounds);
  return std::max(1, (matrix.repetitions + rounds - 1) / rounds);
}

std::vector<std::vector<CellKey>> round_schedule(const std::vector<CellKey>& cells, int rounds,
                                                 std::uint64_t seed) {
  std::vector<std::vector<CellKey>> schedule;
  for (int round = 1; round <= rounds; ++round) {
    std::vector<CellKey> order = cells;
    if (round > 1) {
      std::seed_seq mixed{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                          static_cast<std::uint32_t>(round)};
      std::mt19937_64 shuffle(mixed);
      std::shuffle(order.begin(), order.end(), shuffle);
      // The last cell of the round before must not open this one.
      if (order.size() >= 2 && cell_name(order.front()) == cell_name(schedule.back().back()))
        std::swap(order.front(), order.back());
    }
    schedule.push_back(std::move(order));
  }
  return schedule;
}

Round round_of(const CellResult& measured, int index, long pid) {
  Round round;
  round.index = index;
  round.pid = pid;
  round.finished = measured.finished;
  round.other_load_cores = measured.worker.other_load_cores;
  round.steal_fraction = measured.worker.steal_fraction;
  round.wall_seconds = measured.worker.wall_seconds;
  if (!measured.ok()) {
    round.disturbed = {"the worker did not end ok: " + std::string(to_string(measured.status)) +
                       (measured.reason.empty() ? "" : ": " + measured.reason)};
    return round;
  }
  round.repetitions = measured.measurement->repetitions;
  round.median_ns = measured.measurement->aggregates.median.real_time;
  return round;
}

void add_round(CellResult& record, Round round) {
  if (record.measurement && !round.repetitions.empty()) {
    double timed = 0;
    for (const auto& repetition : round.repetitions)
      timed += repetition.real_time * 1e-9 * repetition.iterations;
    record.measurement->measured_seconds += timed;
  }
  record.rounds.push_back(std::move(round));
  rebuild_measurement(record);
}

int scheduled_rounds_done(const CellResult& record, int rounds) {
  return static_cast<int>(std::count_if(record.rounds.begin(), record.rounds.end(),
                                        [&](const Round& r) { return r.index <= rounds; }));
}

int extra_rounds(const CellResult& record, int rounds) {
  return static_cast<int>(record.rounds.size()) - scheduled_rounds_done(record, rounds);
}

double rounds_wall_seconds(const CellResult& record) {
  double wall = 0;
  for (const Round& round : record.rounds) wall += round.wall_seconds.value_or(0);
  return wall;
}

bool rounds_left(const std::vector<CellResult>& cells, const std::string& name, int rounds) {
  for (const auto& record : cells)
    if (record.name == name)
      return rounds > 1 && record.ok() && scheduled_rounds_done(record, rounds) < rounds;
  return false;
}

std::int64_t first_round_iterations(const std::vector<CellResult>& cells, const std::string& name) {
  for (const auto& record : cells)
    if (record.name == name && !record.rounds.empty() && !record.rounds.front().repetitions.empty())
      return std::max<std::int64_t>(1, record.rounds.front().repetitions.front().iterations);
  return 1;
}

void rebuild_measurement(CellResult& record) {
  if (record.rounds.empty() || !record.measurement) return;
  std::vector<const Round*> kept;
  for (const Round& round : record.rounds)
    if (round.clean() && !round.repetitions.empty()) kept.push_back(&round);
  if (kept.empty()) {  // every round disturbed: the fastest one
    for (const Round& round : record.rounds)
      if (!round.repetitions.empty() && (kept.empty() || round.median_ns < kept.front()->median_ns))
        kept = {&round};
  }
  if (kept.empty()) return;
  Measurement& measurement = *record.measurement;
  measurement.repetitions.clear();
  for (const Round* round : kept)
    for (Repetition repetition : round->repetitions) {
      repetition.repetition_index = static_cast<int>(measurement.repetitions.size());
      measurement.repetitions.push_back(repetition);
    }
  measurement.aggregates = aggregate(measurement.repetitions);
}

namespace {

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t half = values.size() / 2;
  return values.size() % 2 ? values[half] : (values[half - 1] + values[half]) / 2;
}

// The outside part of the rule, and a lone round's repetitions; a failed round keeps its reason.
// A lone round (a run of --rounds 1) is judged as a cell measured once always was.
void judge_alone(CellResult& cell, int cpus) {
  for (Round& round : cell.rounds) {
    if (round.repetitions.empty()) continue;  // failed: its reason stays
    if (cell.rounds.size() == 1) {
      round.disturbed = outside_disturbance(round.other_load_cores, round.steal_fraction);
      for (auto& reason : repetition_disturbance(aggregate(round.repetitions)))
        round.disturbed.push_back(std::move(reason));
    } else {
      round.disturbed = round_outside_disturbance(round, cell.threads * cell.ranks, cpus);
    }
  }
}

}  // namespace

void judge_rounds(std::vector<CellResult>& cells, int rounds, int cpus) {
  for (CellResult& cell : cells)
    if (cell.ok()) judge_alone(cell, cpus);
  // The bands by n, from the rounds free of outside load, all of them before any round is marked slow.
  std::map<std::int64_t, std::optional<RoundNoise>> band;
  for (const CellResult& cell : cells)
    if (cell.ok() && cell.rounds.size() >= 2 && !band.count(cell.n))
      band[cell.n] = round_noise(cells, cell.n, rounds);
  for (CellResult& cell : cells) {
    if (!cell.ok() || cell.rounds.size() < 2 || !band.at(cell.n)) continue;
    std::vector<std::string> slow(cell.rounds.size());
    for (std::size_t i = 0; i < cell.rounds.size(); ++i) {
      if (!cell.rounds[i].clean()) continue;
      std::vector<double> others;
      for (std::size_t j = 0; j < cell.rounds.size(); ++j)
        if (j != i && cell.rounds[j].clean()) others.push_back(cell.rounds[j].median_ns);
      if (!others.empty()) slow[i] = slow_round(cell.rounds[i], median_of(others), band.at(cell.n)->percent);
    }
    for (std::size_t i = 0; i < slow.size(); ++i)  // judged against the same others, then marked
      if (!slow[i].empty()) cell.rounds[i].disturbed.push_back(slow[i]);
  }
  for (CellResult& cell : cells) {
    rebuild_measurement(cell);
    if (cell.remeasured && !cell.rounds.empty()) cell.remeasured->still_disturbed = disturbed(cell);
  }
}

}  // namespace ladder
