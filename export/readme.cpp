// The exported project's README.md: how to use and build it, the tier's card (what a maintainer must
// know), the build Ladder measured it in, what a run measured (with --from), and the files.
#include <algorithm>
#include <utility>

#include "embedded.hpp"
#include "export_plan.hpp"
#include "template.hpp"
#include "text.hpp"

namespace ladder::exporter {
namespace {

std::string listed(const std::vector<std::string>& items, const std::string& none) {
  return items.empty() ? none : join(items);
}

std::string card_block(const ExportPlan& plan) {
  const TierCard& card = plan.tier->card;
  std::string out;
  out += "- **Libraries to install and keep current:** " +
         listed(card.libraries, "none beyond the standard library") + "\n";
  out += "- **Concepts a maintainer must understand:** " + listed(card.concepts, "none") + "\n";
  out += "- **Learning time** (Ladder's class for a C++ developer new to them): " +
         std::string(to_string(card.learning_time)) + "\n";
  out += "- **Compiler flags of its own:** " + listed(card.flags, "none") + " (on src/kernel.cpp only)\n";
  out += "- **Code:** " + std::to_string(card.source_lines) + " lines in its kernel header" +
         (card.shared_lines ? ", " + std::to_string(card.shared_lines) +
                                  " in the shared headers it builds on (" + listed(card.shares, "") + ")"
                            : std::string()) +
         " (non-blank, non-comment lines)\n";
  out += "- **Summation order:** " + card.summation + "\n";
  out += "- **Reproducible:** " + std::string(to_string(card.reproducible)) +
         (card.reproducible == Reproducible::on_request ? " (Options::reproducible)" : "") + "\n";
  if (card.max_ulp_error > 0)
    out += "- **Accuracy of its own elementary function:** at most " +
           format_number("%g", card.max_ulp_error) + " ulp, as Ladder's test measured it\n";
  out += "- **Accuracy of the sum:** within the rounding bound its test states (tests/midpoint_test.cpp)\n";
  if (!card.environment.empty())
    out += "- **Environment to pin its threads:** " + listed(card.environment, "") +
           " (Ladder sets these for its measurements; set them for yours)\n";
  if (!card.note.empty()) out += "- **Note:** " + card.note + "\n";
  return out;
}

std::string build_block(const ExportPlan& plan) {
  const auto& build = plan.request->build;
  std::string compiler = build.compiler, flags = build.common_flags;
  if (plan.run) {
    compiler = plan.run->context.compiler;
    flags = plan.run->context.common_flags;
  }
  std::string out = "- Compiler: " + compiler + "\n- Flags of every tier: `" + flags + "`\n";
  out += "- This tier's own: `" + listed(plan.tier->card.flags, "none") + "`\n";
  out += "- This project's CMakeLists.txt builds the library (src/) with `-march=" + plan.target +
         "` (the cache variable " + plan.ns +
         "_ARCH) and the build type Release unless you choose another.\n";
  return out;
}

std::string measured_block(const ExportPlan& plan) {
  if (!plan.run)
    return "Nothing: this export was made without a run. `ladder export " + plan.tier->card.id +
           " --from RUN …` adds what a run measured; `ladder run --tiers " + plan.tier->card.id +
           " --integrand " + plan.integrand.name + "` measures it; `./build/" + plan.ns +
           "_midpoint_bench --benchmark_repetitions=10` measures this build on your machine.\n";
  const auto& context = plan.run->context;
  const std::string label = context.run.label.empty() ? "" : "run " + context.run.label + ", ";
  std::string out =
      "From `" + plan.request->from_run + "` (" + label + context.date + ") on " + context.cpu_model + ", " +
      std::to_string(context.logical_cpus) +
      " logical CPUs. Time is the median of the repetitions; the spread is their lowest and highest.\n\n";
  out +=
      "| n | threads | median | spread | ns a node | relative error | rounding error | peak heap | peak RSS "
      "|\n";
  out += "|---|---|---|---|---|---|---|---|---|\n";
  auto optional_number = [](const std::optional<double>& value) {
    return value ? format_number("%.2e", *value) : std::string("not measured");
  };
  // A figure the worker measured, 0 included; absent: it could not measure it (say, the heap of threads).
  auto optional_bytes = [](const std::optional<double>& bytes) {
    return bytes ? format_bytes(*bytes) : std::string("not measured");
  };
  auto cells = plan.measured;
  std::sort(cells.begin(), cells.end(), [](const CellResult* x, const CellResult* y) {
    return std::make_pair(x->threads, x->n) < std::make_pair(y->threads, y->n);
  });
  for (const auto* cell : cells) {
    out += "| " + format_count(static_cast<double>(cell->n)) + " | " + std::to_string(cell->threads) + " | " +
           format_seconds(cell->median()) + " | " + format_seconds(cell->min()) + " – " +
           format_seconds(cell->max()) + " | " + format_number("%.3g", cell->ns_per_node()) + " | " +
           optional_number(cell->rel_error()) + " | " + optional_number(cell->rounding_error()) + " | " +
           optional_bytes(cell->measurement->memory.peak_heap_bytes) + " | " +
           optional_bytes(cell->measurement->memory.peak_rss_bytes) + " |\n";
  }
  if (!plan.code_differences.empty()) {
    out += "\n**These figures may be for other code than this project's:**\n\n";
    for (const auto& difference : plan.code_differences) out += "- " + difference + "\n";
  }
  out +=
      "\nThe benchmark (bench/midpoint_bench.cpp) runs the same sizes; its figures come from this project's "
      "build, which may differ from Ladder's in how the call is timed, not in the kernel.\n";
  return out;
}

int code_lines(const std::string& text) {
  int lines = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    const auto end = std::min(text.find('\n', at), text.size());
    const std::string line = text.substr(at, end - at);
    at = end + 1;
    const auto first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line.compare(first, 2, "//") != 0 && line[first] != '#')
      ++lines;
    else if (first != std::string::npos && line.compare(first, 8, "#include") == 0)
      ++lines;
  }
  return lines;
}

std::string files_block(const std::vector<ExportedFile>& files) {
  std::string out = "| file | lines | of them code |\n|---|---|---|\n";
  for (const auto& file : files) {
    const auto lines = std::count(file.text.begin(), file.text.end(), '\n');
    out += "| `" + file.path + "` | " + std::to_string(lines) + " | " +
           std::to_string(code_lines(file.text)) + " |\n";
  }
  return out;
}

}  // namespace

std::string readme(const ExportPlan& plan, const std::vector<ExportedFile>& files) {
  TemplateValues v;
  auto& m = v.values;
  const auto& build = plan.request->build;
  m["NS"] = plan.ns;
  m["TIER"] = plan.tier->card.id;
  m["RUNG"] = std::to_string(plan.tier->card.rung);
  m["SUMMARY"] = plan.tier->card.summary;
  m["INTEGRAND_TEXT"] = "the integrand " + plan.integrand.name + " (" + plan.integrand.origin + ")";
  m["COMMAND"] = plan.request->command_line;
  m["LADDER_VERSION"] = build.ladder_version;
  m["SOURCE_STATE"] = "built from commit " + plan.request->source.git_commit.substr(0, 12) +
                      (plan.request->source.git_dirty == "yes" ? ", with changes not committed" : "");
  m["OPTIONS_EXAMPLE"] = plan.threads ? ", {.threads = 4}" : "";
  m["THREADS_EXAMPLE"] = plan.threads ? " 4" : "";
  m["PY_OPTIONS_EXAMPLE"] = plan.threads ? ", threads=4" : "";
  m["PACKAGES"] = debian_packages(plan);
  std::vector<std::string> names;  // Google Benchmark's names for bench/midpoint_bench.cpp's cells
  for (const auto& [n, threads] : plan.bench_cells)
    names.push_back("- `integrate/n:" + std::to_string(n) +
                    (plan.threads ? "/threads:" + std::to_string(threads) : std::string()) + "/real_time`");
  m["BENCH_NAMES"] = join(names, "\n");
  // Each block ends its last line; the template's own line break ends it in the README.
  auto block = [](std::string text) {
    while (!text.empty() && text.back() == '\n') text.pop_back();
    return text;
  };
  m["CARD"] = block(card_block(plan));
  m["BUILD"] = block(build_block(plan));
  m["MEASURED"] = block(measured_block(plan));
  m["FILES"] = block(files_block(files));
  if (plan.request->python) v.flags.insert("PYTHON");
  const auto text = embedded("export/templates/README.md.in");
  if (!text) throw std::logic_error("the build did not embed export/templates/README.md.in");
  return expand("README.md.in", *text, v);
}

}  // namespace ladder::exporter
