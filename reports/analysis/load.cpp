// Reading a results file, strictly: a report must never be made from a file it misunderstands. The file
// is read into the typed schema (common/results_file.hpp), which checks every field; its cells are the
// records (CellResult) as the run wrote them.
#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "errors.hpp"
#include "json_reader.hpp"
#include "report.hpp"
#include "results_file.hpp"
#include "round_noise.hpp"
#include "text.hpp"

namespace ladder::report {
namespace {

Card card_of(const CardRecord& record) {
  Card card{record};
  if (record.max_ulp_error)
    card.accuracy = "its own exp: at most " + format_number("%.2f", *record.max_ulp_error) + " ulp";
  return card;
}

std::string warning_text(const WarningRecord& warning) {
  return warning.kind + ": " + warning.message +
         (warning.cells.empty() ? "" : " (" + std::to_string(warning.cells.size()) + " cells)");
}

// The build a run of several is analysed from (main_build_rule): the build at hand where it measured
// cells, else the matrix's first build that did, else the first build the cells name.
std::string main_build(const std::vector<std::string>& measured, const ContextRecord& context) {
  const auto has = [&](const std::string& id) {
    return std::find(measured.begin(), measured.end(), id) != measured.end();
  };
  for (const auto& build : context.run.builds)
    if (build.state.starts_with("the build at hand") && has(build.id)) return build.id;
  for (const auto& id : context.matrix.builds)
    if (has(id)) return id;
  return measured.front();
}

// Splits the run's cells by build when they name several: the main build's stay in `cells` and
// `per_call_cells`, every other build's go to `other_builds`. A run whose cells name no build is left as
// it was read.
void split_builds(Run& run, const ContextRecord& context) {
  std::vector<std::string> measured;  // the builds the cells name, in the matrix's order, then the cells'
  for (const auto& id : context.matrix.builds) measured.push_back(id);
  for (const auto* cells : {&run.cells, &run.per_call_cells})
    for (const auto& cell : *cells)
      if (std::find(measured.begin(), measured.end(), cell.build) == measured.end())
        measured.push_back(cell.build);
  std::erase_if(measured, [&](const std::string& id) {
    const auto of = [&](const CellResult& cell) { return cell.build == id; };
    return std::none_of(run.cells.begin(), run.cells.end(), of) &&
           std::none_of(run.per_call_cells.begin(), run.per_call_cells.end(), of);
  });
  if (measured.empty() || (measured.size() == 1 && measured.front().empty())) return;
  run.builds = context.run.builds;
  for (const auto& id : measured) {
    if (build_record(run, id)) continue;
    RunRecord::BuildUsed described{{}, id, "not recorded in the run's context", 0, 0};
    for (const auto& cell : run.cells)
      if (cell.build == id && cell.build_record) {
        described.compiler = cell.build_record->compiler, described.target = cell.build_record->target;
        break;
      }
    run.builds.push_back(described);
  }
  run.build_id = main_build(measured, context);
  for (const auto& id : measured)
    if (id != run.build_id) run.other_builds.push_back({id, {}, {}});
  const auto split = [&](std::vector<CellResult>& cells, auto member) {
    std::vector<CellResult> kept;
    for (auto& cell : cells) {
      if (cell.build == run.build_id) {
        kept.push_back(std::move(cell));
        continue;
      }
      for (auto& other : run.other_builds)
        if (other.id == cell.build) (other.*member).push_back(std::move(cell));
    }
    cells = std::move(kept);
  };
  split(run.cells, &Run::OtherBuild::cells);
  split(run.per_call_cells, &Run::OtherBuild::per_call_cells);
}

// A tier's FLOPs a node: the static count of the linked build's hot loop where it was made (the build that
// ran), else callgrind's on the profiling build (another target: say so), else why neither.
void count_work(Card& card, const InstructionCounts& instructions) {
  std::string static_why;
  for (const auto& record : card.vectorization) {
    if (!record.linked) continue;
    if (record.flops_per_node) {
      card.flops_per_node = record.flops_per_node,
      card.fp_instructions_per_node = record.fp_instructions_per_node;
      card.flops_how = "the " + record.build + " build's hot loop, as it ran: " + record.flops_evidence;
      card.flops_of_timed_build = true;
      return;
    }
    static_why = record.flops_evidence;
  }
  const InstructionCounts::Tier* counted = instructions.available ? instructions.find(card.id) : nullptr;
  if (counted && counted->flops_per_node) {
    card.flops_per_node = counted->flops_per_node,
    card.fp_instructions_per_node = counted->fp_instructions_per_node;
    card.flops_how = "callgrind on the -march=" + instructions.target +
                     " profiling build, not the build that ran" +
                     (static_why.empty() ? "" : " (its own loop: " + static_why + ")");
    return;
  }
  card.flops_how = card.peer                ? "not a C++ tier"
                   : !static_why.empty()    ? "not counted: " + static_why
                   : instructions.available ? "not counted"
                                            : "not counted: " + instructions.reason;
}

}  // namespace

std::string main_build_rule() {
  return "the build at hand (the binary that ran the matrix) where it measured cells, else the first of the "
         "run's builds (--compilers, --arch)";
}

const RunRecord::BuildUsed* build_record(const Run& run, const std::string& id) {
  for (const auto& build : run.builds)
    if (build.id == id) return &build;
  return nullptr;
}

Run build_run(const Run& run, const std::string& id) {
  if (id == run.build_id) {
    Run only = run;
    only.other_builds.clear();
    return only;
  }
  for (const auto& other : run.other_builds)
    if (other.id == id) {
      Run only = run;
      only.build_id = id;
      only.cells = other.cells;
      only.per_call_cells = other.per_call_cells;
      only.other_builds.clear();
      return only;
    }
  std::vector<std::string> ids{run.build_id};
  for (const auto& other : run.other_builds) ids.push_back(other.id);
  throw InputError("results file '" + run.path + "' has no build '" + id + "'; its builds: " + join(ids));
}

std::vector<CellResult> every_build_cells(const Run& run) {
  std::vector<CellResult> all = run.cells;
  for (const auto& other : run.other_builds) all.insert(all.end(), other.cells.begin(), other.cells.end());
  all.insert(all.end(), run.per_call_cells.begin(), run.per_call_cells.end());
  for (const auto& other : run.other_builds)
    all.insert(all.end(), other.per_call_cells.begin(), other.per_call_cells.end());
  return all;
}

const Card* Run::card(const std::string& tier) const {
  for (const auto& each : cards)
    if (each.id == tier) return &each;
  return nullptr;
}

std::vector<const Card*> Run::cards_by_rung() const {
  std::vector<const Card*> sorted;
  for (const auto& each : cards) sorted.push_back(&each);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Card* x, const Card* y) { return x->rung < y->rung; });
  return sorted;
}

std::vector<std::int64_t> Run::sizes() const {
  std::set<std::int64_t> all;
  for (const auto& cell : cells)
    if (cell.ok()) all.insert(cell.n);
  return {all.begin(), all.end()};
}

std::vector<std::string> Run::integrand_names() const {
  std::vector<std::string> names;
  for (const auto& cell : cells)
    if (std::find(names.begin(), names.end(), cell.integrand) == names.end()) names.push_back(cell.integrand);
  return names;
}

const Integrand* Run::integrand(const std::string& name) const {
  for (const auto& each : integrands)
    if (each.name == name) return &each;
  return nullptr;
}

namespace {

// The run's own noise from its cells' rounds (round_noise.hpp), every build's cells together: each size's
// floor, and the floor over every size as the band where the history knows none (RunNoise::of).
void measure_own_noise(Run& run, int rounds) {
  const std::vector<CellResult> cells = every_build_cells(run);
  const auto overall = round_noise(cells, 0, rounds);
  if (!overall) return;
  run.noise.fallback = floor_threshold(overall->figure_percent, overall->source());
  for (const CellResult& cell : cells)
    if (!run.noise.measured_by_n.count(cell.n))
      if (const auto at_n = round_noise(cells, cell.n, rounds))
        run.noise.measured_by_n[cell.n] = floor_threshold(at_n->figure_percent, at_n->source());
}

}  // namespace

Run load_run(const std::string& where) {
  const ResultsFile file = read_results_file(where);
  const std::string& path = file.path;
  auto reject = [&](const std::string& problem) {
    return InputError("results file '" + path + "': " + problem);
  };

  Run run;
  run.path = path;
  run.machine = run.host = file.context.host_name;
  run.cpu = file.context.cpu_model;
  run.cpus = file.context.logical_cpus;
  run.instruction_set = file.context.simd.kernels_use;
  run.label = file.context.run.label;
  run.started = file.context.run.started;
  run.status = file.context.run.status;
  run.budget = file.context.run.budget;
  run.repetitions = file.context.matrix.repetitions;
  run.memory_total_bytes = file.context.memory_total_bytes.value_or(0);
  run.hypervisor = file.context.hypervisor.present;
  run.emulation = file.context.emulation;
  run.build = file.context.compiler + " " + file.context.common_flags;
  run.topology = file.context.topology;
  for (const auto& warning : file.context.warnings) run.warnings.push_back(warning_text(warning));
  run.warning_records = file.context.warnings;
  for (const auto& record : file.tiers) run.cards.push_back(card_of(record));

  const InstructionCounts& instructions = file.instructions;
  if (instructions.available) {
    std::string sizes = "[";
    for (std::size_t i = 0; i < instructions.n.size(); ++i)
      sizes += (i ? "," : "") + std::to_string(instructions.n[i]);
    run.instructions_method = instructions.tool + " on the -march=" + instructions.target +
                              " profiling build, " + instructions.integrand + ", n = " + sizes +
                              "], 1 thread";
    for (auto& card : run.cards) {
      card.instructions_unavailable = card.peer ? "not a C++ tier" : "not counted";
      for (const auto& counted : instructions.tiers) {
        if (counted.id != card.id) continue;
        if (counted.per_node)
          card.instructions_per_node = *counted.per_node, card.instructions_unavailable.clear();
        else if (!counted.unavailable.empty())
          card.instructions_unavailable = counted.unavailable;
      }
    }
  } else {
    run.instructions_unavailable = instructions.reason;
  }
  for (auto& card : run.cards) count_work(card, instructions);
  if (instructions.available) run.flops_method = instructions.flops_method;
  run.limits = file.context.limits;

  for (const auto& record : file.context.integrands) {
    Integrand integrand{record.name, record.formula, record.source, record.antiderivative, {}};
    for (const auto& [tier, reason] : record.unsupported) integrand.unsupported.emplace_back(tier, reason);
    run.integrands.push_back(std::move(integrand));
  }

  for (const auto& cell : file.cells) {
    if (!run.card(cell.tier))
      throw reject("cell '" + cell.name + "' is of tier '" + cell.tier + "', which has no card");
    if (cell.ok() && cell.median() <= 0)
      throw reject("cell '" + cell.name + "' is ok but its median is not positive: the file is damaged");
  }
  // A cell outside the matrix's sizes is a per-call cell (Matrix::cells); a file that records no sizes
  // (crafted by hand) has none.
  const auto& sizes = file.context.matrix.sizes;
  for (const auto& cell : file.cells)
    (sizes.empty() || std::find(sizes.begin(), sizes.end(), cell.n) != sizes.end() ? run.cells
                                                                                   : run.per_call_cells)
        .push_back(cell);
  split_builds(run, file.context);
  measure_own_noise(run, file.context.matrix.rounds);
  return run;
}

}  // namespace ladder::report
