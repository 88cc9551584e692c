// An emulated run (common/emulation.hpp) in the report and in `ladder pick`. Under qemu-user every
// instruction is translated, so a cell's time is the emulator's: it says nothing of this machine, nor of the
// machine the code was built for, and a ranking made of it would be a confident answer from meaningless
// numbers. What emulation does prove is kept: each cell's result against the references (the code computes
// the right thing on that architecture) and each tier's hot loop as its build's disassembly shows it (it is
// vectorized there).
#include <algorithm>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "choose.hpp"
#include "optional_json.hpp"
#include "quote.hpp"
#include "sections.hpp"

namespace ladder::report {
namespace {

// Each cell's error against the exact integral and against the exact midpoint sum (rounding alone), with
// the rounding bound it is held to; a cell that did not run, with why.
Table error_table(const std::vector<Run>& runs) {
  Table rows{{"machine", "tier", "integrand", "n", "threads", "ranks", "status", "rel. error",
              "rounding error", "rounding bound", "within bound", "bit-reproducible", "note"},
             {},
             "errors"};
  for (const auto& run : runs) {
    // In rung order, then by integrand, n and width, as a reader looks a cell up (the file's is finishing
    // order).
    std::vector<CellResult> cells = every_build_cells(run);
    std::stable_sort(cells.begin(), cells.end(), [](const CellResult& x, const CellResult& y) {
      return std::tie(x.rung, x.tier, x.integrand, x.n, x.threads, x.ranks) <
             std::tie(y.rung, y.tier, y.integrand, y.n, y.threads, y.ranks);
    });
    for (const auto& cell : cells) {
      std::string note = cell.ok() ? "" : cell.reason;
      for (const auto& reference : cell.reference_notes()) note += (note.empty() ? "" : "; ") + reference;
      rows.rows.push_back({run.machine, cell.tier, cell.integrand, format_count(static_cast<double>(cell.n)),
                           std::to_string(cell.threads), std::to_string(cell.ranks),
                           std::string(to_string(cell.status)), scientific(cell.rel_error()),
                           scientific(cell.rounding_error()), scientific(cell.rounding_bound()),
                           cell.ok() ? (cell.measurement->within_rounding_bound ? "yes" : "**no**") : "–",
                           cell.reproducible ? (*cell.reproducible ? "yes" : "no") : "–", note});
    }
  }
  return rows;
}

// Each tier's hot loop as each build's disassembly shows it: vectorized or not, its lanes, and where.
Table vectorization_table(const std::vector<Run>& runs) {
  Table rows{{"machine", "tier", "build", "hot loop", "register bits", "evidence"}, {}, "vectorization"};
  for (const auto& run : runs)
    for (const Card* card : run.cards_by_rung()) {
      if (card->peer) continue;
      for (const auto& entry : card->vectorization)
        rows.rows.push_back({run.machine, card->id, entry.build + (entry.linked ? " (this run's)" : ""),
                             format_vectorization(entry.status, entry.lanes),
                             entry.register_bits ? std::to_string(entry.register_bits) : "–",
                             entry.evidence});
      if (card->vectorization.empty())
        rows.rows.push_back({run.machine, card->id, "–", "not read", "–", "no disassembly recorded"});
    }
  return rows;
}

}  // namespace

std::vector<std::string> emulated_runs(const std::vector<Run>& runs) {
  std::vector<std::string> why;
  for (const auto& run : runs)
    if (run.emulated() && std::find(why.begin(), why.end(), run.emulation->refusal(run.path)) == why.end())
      why.push_back(run.emulation->refusal(run.path));  // once, when a run is given twice
  return why;
}

Document emulated_report(const std::vector<Run>& runs) {
  Document doc;
  std::string title = "Ladder report";
  if (runs.size() == 1 && !runs[0].label.empty()) title += ": " + runs[0].label;
  doc.push_back(heading(1, title));
  std::vector<std::string> native;
  for (const auto& run : runs)
    if (!run.emulated()) native.push_back(run.path);
  Document answer{heading(2, "No answer: an emulated run's times rank nothing")};
  for (const auto& why : emulated_runs(runs)) answer.push_back(paragraph(why + "."));
  answer.push_back(paragraph(
      "So this report names no tier to ship, draws no usage map and gives no speedups. It shows what "
      "emulation proves: each cell's error against the references, and each tier's hot loop as its build's "
      "disassembly shows it. Run Ladder on a real machine of that architecture for its times."));
  if (!native.empty())
    answer.push_back(
        paragraph("Not emulated: " + join(native) + "; a report of those runs alone ranks their times."));
  doc.push_back(section("answer", std::move(answer)));
  doc.push_back(heading(2, "Errors against the references"));
  doc.push_back(paragraph(
      "Each cell's relative error against the exact integral, and its rounding error against the exact "
      "midpoint sum at the same n, which the tier's summation is held to (its rounding bound)."));
  doc.push_back(table(error_table(runs)));
  doc.push_back(heading(2, "Vectorization"));
  doc.push_back(paragraph("Each tier's hot loop in each build, read from that build's disassembly."));
  doc.push_back(table(vectorization_table(runs)));
  std::vector<std::string> sources;
  for (const auto& run : runs)
    sources.push_back(run.path + " (" + run.machine + ", " + run.started + ", " +
                      (run.emulation ? run.emulation->text() : std::string("emulation not recorded")) + ")");
  doc.push_back(heading(2, "Sources"));
  doc.push_back(list(sources));
  fold_constant_columns(doc);
  return doc;
}

int pick_emulated(const Run& run, bool json) {
  const std::string why = run.emulation->refusal(run.path);
  if (json) {
    nlohmann::json cells = nlohmann::json::array(), loops = nlohmann::json::array();
    for (const auto& cell : every_build_cells(run))
      cells.push_back(
          {{"cell", cell.name},
           {"status", to_string(cell.status)},
           {"reason", cell.reason},
           {"rel_error", optional_json(cell.rel_error())},
           {"rounding_error", optional_json(cell.rounding_error())},
           {"rounding_bound", optional_json(cell.rounding_bound())},
           {"within_rounding_bound",
            cell.ok() ? nlohmann::json(cell.measurement->within_rounding_bound) : nlohmann::json()},
           {"reproducible", optional_json(cell.reproducible)}});
    for (const Card* card : run.cards_by_rung())
      if (!card->peer) loops.push_back({{"tier", card->id}, {"vectorization", card->vectorization}});
    const nlohmann::json document = {{"answer", nullptr},
                                     {"refused", why},
                                     {"emulation", *run.emulation},
                                     {"errors", cells},
                                     {"vectorization", loops}};
    std::printf("%s\n", dump_json(document, 2).c_str());
    return 1;
  }
  const Table errors = error_table({run}), vectorization = vectorization_table({run});
  std::printf("results: %s (%s, %s)\n\npick: none: %s\n", run.path.c_str(), run.machine.c_str(),
              run.cpu.c_str(), why.c_str());
  std::printf(
      "\nerrors against the references, each cell (tier, integrand, n, threads, status, rel. error, "
      "rounding error, bound):\n");
  for (const auto& row : errors.rows)
    std::printf("  %-16s %-10s %10s %3s  %-11s %8s %8s %8s%s%s\n", row[1].c_str(), row[2].c_str(),
                row[3].c_str(), row[4].c_str(), row[6].c_str(), row[7].c_str(), row[8].c_str(),
                row[9].c_str(), row[12].empty() ? "" : "  ", row[12].c_str());
  std::printf("\nvectorization, each tier's hot loop from its build's disassembly:\n");
  for (const auto& row : vectorization.rows)
    std::printf("  %-16s %s: %s — %s\n", row[1].c_str(), row[2].c_str(), row[3].c_str(), row[5].c_str());
  return 1;
}

}  // namespace ladder::report
