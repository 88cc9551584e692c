// `ladder list`: the ladder, every tier's card; `ladder list --integrands`: every integrand of the build.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "build_info.hpp"
#include "builds.hpp"
#include "cards.hpp"
#include "commands.hpp"
#include "context.hpp"
#include "economics.hpp"
#include "reference_library.hpp"
#include "registry.hpp"
#include "text.hpp"
#include "vectorization.hpp"

namespace ladder::app {
namespace {

// `ladder list`'s vector column for a tier of this binary: "8 × f64", "scalar", "partly 4 × f64", or "-"
// (not known), from the disassembly of the tier as this binary was built.
std::string list_vector_text(const TierCard& card) {
  const auto* entry = find_vectorization(card.source_file, linked_tiers_build());
  const std::string text = !entry ? "" : format_vectorization(entry->status, entry->lanes);
  return text.empty() ? "-" : text;
}

// `ladder list`'s FLOPs column: FLOPs a node of the hot loop as this binary was built, counted from its
// disassembly, or "-" where the loop calls out or its nodes a pass cannot be read.
std::string list_flops_text(const TierCard& card) {
  const auto* entry = find_vectorization(card.source_file, linked_tiers_build());
  return entry && entry->flops_per_node ? format_number("%.4g", *entry->flops_per_node) : "-";
}

void print_list(bool as_json, bool ids_only, const std::string& costs) {
  if (ids_only) {
    for (const auto& tier : tiers()) std::printf("%s\n", tier.card.id.c_str());
    return;
  }
  if (as_json) {
    std::vector<std::string> ids;
    for (const auto& tier : tiers()) ids.push_back(tier.card.id);
    // Each card with what it costs a team in engineer-days (reports/analysis/economics.hpp), from the default
    // figures or --costs FILE.
    const report::CostFigures figures =
        costs.empty() ? report::CostFigures{} : report::read_cost_figures(costs);
    nlohmann::json cards = nlohmann::json::array();
    for (const auto& card : tier_cards(ids)) {
      nlohmann::json entry = card;
      entry["engineer_days"] = report::engineer_days(card, figures);
      cards.push_back(std::move(entry));
    }
    std::cout << cards.dump(2) << "\n";
    return;
  }
  // A plain-text table whose columns fit their widest cell.
  std::vector<std::vector<std::string>> rows = {
      {"rung", "id", "learning", "lines", "reproducible", "vector", "FLOPs", "libraries", "summary"}};
  for (const auto& tier : tiers()) {
    const auto& card = tier.card;
    rows.push_back(
        {std::to_string(card.rung), card.id, std::string(to_string(card.learning_time)),
         std::to_string(card.source_lines) +
             (card.shared_lines ? "+" + std::to_string(card.shared_lines) : ""),
         std::string(to_string(card.reproducible)), list_vector_text(card), list_flops_text(card),
         card.libraries.empty() ? "-" : join(card.libraries),
         card.summary + (card.parallel ? " [parallel]" : "") +
             (unavailable_reason(tier).empty() ? "" : " [unavailable: " + unavailable_reason(tier) + "]")});
  }
  auto width = [](const std::string& text) {  // characters on a terminal: UTF-8 continuation bytes add none
    return static_cast<std::size_t>(std::count_if(
        text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
  };
  std::vector<std::size_t> widths(rows[0].size(), 0);
  for (const auto& row : rows)
    for (std::size_t column = 0; column < row.size(); ++column)
      widths[column] = std::max(widths[column], width(row[column]));
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t column = 0; column < row.size(); ++column)
      line += column + 1 < row.size()
                  ? row[column] + std::string(widths[column] - width(row[column]) + 2, ' ')
                  : row[column];
    std::printf("%s\n", line.c_str());
  }
  const auto& build = build_info();
  std::printf(
      "\nlines: the tier's own non-blank, non-comment lines (+ those of the shared kernel it builds on)\n"
      "reproducible: whether the result has the same bits at every thread count\n"
      "vector: the hot loop as built, read from its disassembly: doubles per register, or scalar\n"
      "FLOPs: a node, in the hot loop as built, from its disassembly (FMA = 2 x lanes); - where the loop "
      "calls\n"
      "  out (libm, std::function) or its nodes a pass cannot be read: `ladder instructions` counts every "
      "tier\n"
      "built: %s, %s, flags %s; SIMD: %s, %d doubles per batch\n",
      build.compiler.c_str(), build.build_type.c_str(), build.common_flags.c_str(),
      build.instruction_set.c_str(), build.simd_width);
}

// Where an integrand's references come from: the exact integral, and f′ and f‴ at the ends (the
// Euler–Maclaurin terms of the midpoint sum above 2^22 nodes): the harness's own choice
// (library_functions), with the probe's reason where it had to fall back.
struct ReferenceSources {
  std::string integral, derivatives;
};
ReferenceSources reference_sources(const IntegrandInfo& integrand) {
  const LibraryFunctions library = library_functions(integrand);
  auto fallback = [](const Probe& probe, const char* type) {
    return probe.compiles
               ? std::string()
               : " (it does not work on " + std::string(type) + ": " + std::string(probe.error) + ")";
  };
  ReferenceSources sources;
  sources.integral = integrand.antiderivative
                         ? "its antiderivative"
                         : library.integral_method + fallback(integrand.wide, "cpp_bin_float_quad");
  sources.derivatives = integrand.derivative1 && integrand.derivative3
                            ? "closed form"
                            : library.derivatives_method + fallback(integrand.autodiff, "autodiff's fvar");
  return sources;
}

// Every integrand: its name, formula, source, antiderivative, where its references come from, the tiers
// that can run it, and why each other one cannot.
void print_integrands(bool as_json, bool names_only) {
  if (names_only) {
    for (const auto& integrand : integrands()) std::printf("%s\n", integrand.name.c_str());
    return;
  }
  std::vector<std::string> names, ids;
  for (const auto& integrand : integrands()) names.push_back(integrand.name);
  for (const auto& tier : tiers()) ids.push_back(tier.card.id);
  const std::vector<IntegrandRecord> records = integrand_records(names, ids);
  nlohmann::json all = nlohmann::json::array();
  for (std::size_t i = 0; i < records.size(); ++i) {
    const IntegrandRecord& record = records[i];
    const ReferenceSources sources = reference_sources(integrands()[i]);
    std::vector<std::string> runs_in;
    for (const auto& id : ids)
      if (!record.unsupported.count(id)) runs_in.push_back(id);
    if (as_json) {
      nlohmann::json entry = record;
      entry["references"] = {{"integral", sources.integral}, {"end_derivatives", sources.derivatives}};
      entry["tiers"] = runs_in;
      all.push_back(entry);
      continue;
    }
    std::printf("%s%s\n", record.name.c_str(), record.formula.empty() ? "" : ("  " + record.formula).c_str());
    std::printf("  from %s; antiderivative %s\n", record.source.c_str(),
                record.antiderivative ? "given" : "not given");
    std::printf("  references: the integral from %s; f' and f''' at the ends: %s\n", sources.integral.c_str(),
                sources.derivatives.c_str());
    if (record.unsupported.empty()) {
      std::printf("  runs in every tier (%zu)\n", ids.size());
      continue;
    }
    std::printf("  runs in %zu of %zu tiers: %s\n", runs_in.size(), ids.size(),
                runs_in.empty() ? "none" : join(runs_in).c_str());
    // One line a reason, with the tiers it keeps out (in the ladder's order): most share one.
    std::vector<std::pair<std::string, std::vector<std::string>>> reasons;
    for (const auto& id : ids) {
      const auto found = record.unsupported.find(id);
      if (found == record.unsupported.end()) continue;
      auto same = std::find_if(reasons.begin(), reasons.end(),
                               [&](const auto& reason) { return reason.first == found->second; });
      if (same == reasons.end()) same = reasons.insert(reasons.end(), {found->second, {}});
      same->second.push_back(id);
    }
    std::printf("  cannot run in:\n");
    for (const auto& [reason, kept_out] : reasons)
      std::printf("    %s: it %s\n", join(kept_out).c_str(), reason.c_str());
  }
  if (as_json) std::cout << all.dump(2) << "\n";
}

// The compiler as the build says it, or, for one not ready (which has said nothing), its family.
std::string compiler_of(const BuildListing& build) {
  return build.compiler.empty() ? build.spec.compiler_family : build.compiler;
}

// The builds: the one at hand and every one under builds/ (`ladder run --compilers … --arch …`), each with
// its compiler, target, flags and whether it is built.
void print_builds(bool as_json) {
  const std::vector<BuildListing> builds = list_builds();
  if (as_json) {
    nlohmann::json all = nlohmann::json::array();
    for (const auto& build : builds)
      all.push_back({{"id", build.spec.id()},
                     {"compiler", compiler_of(build)},
                     {"target", build.target},
                     {"flags", build.common_flags},
                     {"state", build.state},
                     {"tiers", build.tiers},  // empty: every tier
                     {"directory", build.directory}});
    std::cout << all.dump(2) << "\n";
    return;
  }
  for (const auto& build : builds) {
    std::printf("%s\n  compiler %s, target %s\n  flags: %s\n  %s\n  in %s\n", build.spec.id().c_str(),
                compiler_of(build).c_str(), build.target.c_str(),
                build.common_flags.empty() ? "-" : build.common_flags.c_str(), build.state.c_str(),
                build.directory.c_str());
  }
  if (builds.size() == 1)
    std::printf("\nno other build yet: `ladder run --compilers %s --arch %s` compiles them on demand\n",
                join(build_compilers(), ",").c_str(), join(build_targets(), ",").c_str());
}

}  // namespace

Command add_list(CLI::App& app) {
  struct Options {
    bool json = false, ids = false, integrands = false, builds = false;
    std::string costs;
  };
  auto options = std::make_shared<Options>();
  auto* list = app.add_subcommand("list", "the ladder: every tier's card (--integrands: every integrand)");
  list->add_flag("--json", options->json, "the cards (or the integrands) as a JSON array");
  list->add_flag("--ids", options->ids,
                 "the tier ids (or the integrand names) only, one a line (for scripts)");
  list->add_flag("--integrands", options->integrands,
                 "every integrand of this build: where it came from, whether it gives an antiderivative, "
                 "where its references come from, and which tiers can run it");
  list->add_flag("--builds", options->builds,
                 "the builds: the one at hand and each one `ladder run --compilers/--arch` compiled under "
                 "builds/, with its compiler, target, flags and state");
  list->add_option("--costs", options->costs,
                   "with --json: the cost figures (TOML or a JSON object, docs/reading-the-report.md) the "
                   "cards' engineer-days are computed with; default: Ladder's documented ones");
  return {list, [options] {
            if (options->builds)
              print_builds(options->json);
            else if (options->integrands)
              print_integrands(options->json, options->ids);
            else
              print_list(options->json, options->ids, options->costs);
            return 0;
          }};
}

}  // namespace ladder::app
