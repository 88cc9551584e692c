// Disturbed cells measured again (remeasure.hpp).
#include "remeasure.hpp"

#include <algorithm>
#include <cstdio>

#include "clock.hpp"
#include "disturbance.hpp"
#include "errors.hpp"
#include "parse.hpp"
#include "results.hpp"
#include "rounds.hpp"
#include "text.hpp"
#include "worker_process.hpp"

namespace ladder {

TestDisturbance parse_test_disturbance(const char* value) {
  return parse_name_counts("LADDER_TEST_DISTURB", value,
                           "CELL[=K] (a cell's name, K its first measurements from 1 to 99)", 99, 1);
}

namespace {

// What the switch's touch leaves on the record, for the warnings to find.
void mark_test_disturbance(CellResult& record, double cores) {
  record.measurement->extra["test_disturbance"] = format_number("%g", cores) +
                                                  (cores == 1 ? " core" : " cores") +
                                                  " of other load added by LADDER_TEST_DISTURB";
}

}  // namespace

void disturb_for_test(CellResult& record, const TestDisturbance& disturbance, int measurement) {
  const auto named = disturbance.find(record.name);
  if (!record.ok() || named == disturbance.end() || measurement >= named->second) return;
  record.worker.other_load_cores += 1;
  mark_test_disturbance(record, 1);
}

void disturb_round_for_test(CellResult& record, Round& round, const TestDisturbance& disturbance, int cpus) {
  const auto named = disturbance.find(record.name);
  if (!record.ok() || named == disturbance.end() || round.index > named->second) return;
  round.other_load_cores += std::max(1, cpus);
  mark_test_disturbance(record, std::max(1, cpus));
}

namespace {

int run_rounds(const Journal& journal) { return journal.header ? journal.header->matrix.rounds : 1; }
int run_cpus(const Journal& journal) { return journal.header ? journal.header->matrix.cpus : 0; }

}  // namespace

void keep_cell(const RunFiles& files, const CellResult& record, bool results) {
  std::vector<CellResult>& cells = files.journal.cells;
  auto earlier = std::find_if(cells.begin(), cells.end(),
                              [&](const CellResult& cell) { return cell.name == record.name; });
  if (earlier != cells.end())
    *earlier = record;
  else
    earlier = cells.insert(cells.end(), record);
  if (!record.rounds.empty()) judge_rounds(cells, run_rounds(files.journal), run_cpus(files.journal));
  append_journal(files.paths.journal, *earlier);
  files.run.cells_done = static_cast<std::int64_t>(cells.size());  // each cell once, re-measured or not
  files.run.updated = now_utc();
  const bool due =
      !files.written || std::chrono::steady_clock::now() - *files.written >= std::chrono::seconds(10);
  if (results && due) rewrite_results(files);
}

void rewrite_results(const RunFiles& files) {
  write_results_files(files.paths, files.journal, files.run, files.resumed);
  if (files.written) *files.written = std::chrono::steady_clock::now();
}

namespace {

// What a cell's first measurement said, before it was measured again.
Remeasured first_measurement(const CellResult& first) {
  Remeasured remeasured;
  remeasured.first_median_ns = first.measurement->aggregates.median.real_time;
  remeasured.first_reasons = disturbance(first);
  if (first.measurement->extra.contains("test_disturbance"))
    remeasured.first_reasons.push_back(test_disturbance_reason);
  return remeasured;
}

// The record kept so far, its tries so far, and its reasons when it is disturbed.
std::string described(const CellResult& record) {
  const std::vector<std::string> reasons = disturbance(record);
  return format_seconds(record.median()) + (reasons.empty() ? ", not disturbed" : " (" + join(reasons) + ")");
}

}  // namespace

CellResult kept_after(const CellResult& kept, const CellResult& again, int tries) {
  const bool better =
      again.ok() && (!disturbed(again) || (disturbed(kept) && again.median() < kept.median()));
  CellResult chosen = better ? again : kept;
  chosen.remeasured = kept.remeasured ? *kept.remeasured : first_measurement(kept);
  chosen.remeasured->attempts = tries;
  chosen.remeasured->still_disturbed = disturbed(chosen);
  return chosen;
}

namespace {

// What a cell's scheduled rounds said before any was measured again.
Remeasured first_rounds(const CellResult& cell, int rounds) {
  CellResult first = cell;
  first.rounds.erase(std::remove_if(first.rounds.begin(), first.rounds.end(),
                                    [&](const Round& round) { return round.index > rounds; }),
                     first.rounds.end());
  rebuild_measurement(first);
  Remeasured remeasured;
  remeasured.first_median_ns = first.measurement->aggregates.median.real_time;
  for (const Round& round : first.rounds)
    for (const auto& reason : round.disturbed)
      remeasured.first_reasons.push_back("round " + std::to_string(round.index) + ": " + reason);
  return remeasured;
}

// The round path of remeasure_disturbed: a round in place of each dropped one, as remeasure.hpp says.
bool remeasure_rounds(const RunFiles& files, int rounds, int times, const TestDisturbance& test,
                      const MeasureCell& measure) {
  std::vector<std::string> names;
  for (const CellResult& record : files.journal.cells) names.push_back(record.name);
  for (const std::string& name : names) {
    const auto current = [&]() -> CellResult& {
      return *std::find_if(files.journal.cells.begin(), files.journal.cells.end(),
                           [&](const CellResult& cell) { return cell.name == name; });
    };
    while (current().ok() && current().clean_rounds() < rounds && extra_rounds(current(), rounds) < times) {
      if (interrupted()) return false;
      CellResult kept = current();
      const int index = static_cast<int>(kept.rounds.size()) + 1;
      std::printf("measuring %s again (round %d, %d of %d extra): %d of %zu rounds clean\n",
                  kept.name.c_str(), index, extra_rounds(kept, rounds) + 1, times, kept.clean_rounds(),
                  kept.rounds.size());
      std::fflush(stdout);
      const Remeasured first = kept.remeasured ? *kept.remeasured : first_rounds(kept, rounds);
      std::optional<CellResult> again = measure(kept.key());
      if (!again) return false;  // interrupted while it ran: the cell is as journaled, and a resume goes on
      again->finished = now_utc();
      Round round = again->rounds.empty() ? round_of(*again, index, 0) : again->rounds.front();
      round.index = index;
      round.finished = again->finished;
      add_round(kept, std::move(round));
      disturb_round_for_test(kept, kept.rounds.back(), test, run_cpus(files.journal));
      kept.remeasured = first;
      kept.remeasured->attempts = extra_rounds(kept, rounds);
      keep_cell(files, kept);  // judged with the new round among the run's
      std::printf("  %s\n", described(current()).c_str());
    }
  }
  return true;
}

}  // namespace

bool remeasure_disturbed(const RunFiles& files, int times, const TestDisturbance& test,
                         const MeasureCell& measure) {
  // Under an emulator a quieter measurement is still the emulator's time: nothing to gain from another.
  if (const auto& header = files.journal.header;
      header && header->context.emulation && header->context.emulation->is_emulated()) {
    if (times > 0)
      std::printf("disturbed cells are not measured again: %s\n", header->context.emulation->text().c_str());
    return true;
  }
  if (const int rounds = run_rounds(files.journal); rounds > 1)
    return remeasure_rounds(files, rounds, times, test, measure);
  const std::vector<CellResult> measured = files.journal.cells;  // keep_cell replaces records as it goes
  for (const CellResult& record : measured) {
    CellResult kept = record;
    int tries = kept.remeasured ? kept.remeasured->attempts : 0;
    while (kept.ok() && disturbed(kept) && tries < times) {
      if (interrupted()) return false;
      std::printf("measuring %s again (try %d of %d): %s\n", kept.name.c_str(), tries + 1, times,
                  described(kept).c_str());
      std::fflush(stdout);
      std::optional<CellResult> again = measure(kept.key());
      if (!again) return false;  // interrupted while it ran: the cell is as journaled, and a resume goes on
      again->finished = now_utc();
      disturb_for_test(*again, test, ++tries);
      kept = kept_after(kept, *again, tries);
      keep_cell(files, kept);
      std::printf("  kept %s\n", described(kept).c_str());
    }
  }
  return true;
}

}  // namespace ladder
