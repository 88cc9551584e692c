// A run made by hand on disk, for the tests of what the runner does to a finished run (cells measured
// again, rounds kept): a scratch directory whose journal holds the header and the cells, written as the
// runner writes them, and results.json written from them.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "command.hpp"
#include "crafted_journal.hpp"
#include "output_directory.hpp"
#include "remeasure.hpp"

namespace ladder::testing {

class JournaledRun {
 public:
  // `header`'s matrix names the run's tiers; `cells` are kept as the runner keeps each finished cell.
  JournaledRun(JournalHeader header, const std::vector<CellResult>& cells) : paths_(paths_in(dir_.str())) {
    header.tiers = tier_cards(header.matrix.tiers);
    journal_ = {header, {}, {}};
    write_text(paths_.journal, nlohmann::json(header).dump() + "\n");
    run_ = complete_run;
    run_.cells_total = static_cast<std::int64_t>(cells.size());
    for (const auto& cell : cells) keep_cell(files(), cell);
  }
  RunFiles files() { return {paths_, journal_, run_, false}; }
  Journal& journal() { return journal_; }
  Journal read_back() const { return read_journal(paths_.journal, false); }
  std::string journal_text() const { return read_text(paths_.journal); }
  nlohmann::json results() const { return read_json(paths_.json); }

 private:
  TempDir dir_;
  Paths paths_;
  Journal journal_;
  RunRecord run_;
};

}  // namespace ladder::testing
