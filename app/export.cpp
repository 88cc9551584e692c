// `ladder export TIER --out DIR`: the tier's kernel as a CMake project of a team's own (export/).
#include "export.hpp"

#include <iostream>
#include <memory>
#include <thread>

#include "build_info.hpp"
#include "commands.hpp"
#include "matrix.hpp"

namespace ladder::app {
namespace {

struct ExportArguments {
  exporter::ExportRequest request;
};

int export_tier(exporter::ExportRequest request, const Invocation& invocation) {
  request.build = build_info();
  request.source = source_state();
  request.command_line = "ladder";
  for (std::size_t i = 1; i < invocation.arguments.size(); ++i)
    request.command_line += " " + invocation.arguments[i];
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  for (const auto n : find_preset("standard").sizes) {
    request.default_cells.emplace_back(n, 1);
    if (cores > 1) request.default_cells.emplace_back(n, cores);
  }
  std::vector<std::string> warnings;
  const auto files = exporter::project_files(request, &warnings);  // checks everything; writes nothing
  for (const auto& warning : warnings) std::cerr << "ladder: warning: " << warning << "\n";
  const bool replaced = exporter::write_project(request.out, files);
  std::cout << (replaced ? "Replaced the earlier export in " : "Wrote ") << request.out << ": "
            << files.size() << " files, the " << request.tier << " tier as the library target "
            << request.name_space << "::midpoint.\nBuild and test it, in a folder beside it (a build inside "
            << request.out << " would stop the next export into it):\n  cmake -S " << request.out << " -B "
            << request.out << "-build && cmake --build " << request.out
            << "-build --parallel && ctest --test-dir " << request.out << "-build --output-on-failure\n";
  return 0;
}

}  // namespace

Command add_export(CLI::App& app, const Invocation& invocation) {
  auto args = std::make_shared<ExportArguments>();
  auto& request = args->request;
  auto* command = app.add_subcommand("export", "write a tier's kernel as a CMake project of your own");
  command->add_option("tier", request.tier, "tier id (see `ladder list`)")->required();
  command->add_option("--out", request.out, "the directory to write (new, or an earlier export to replace)")
      ->required();
  command->add_option("--integrand", request.integrand,
                      "an integrand's name (default gauss), or the path of a header written to the "
                      "ladder/integrand.hpp contract (PATH:NAME for one of several in it)");
  command->add_option("--namespace", request.name_space,
                      "the C++ namespace (and CMake target prefix, and Python module) of the project "
                      "(default midpoint)");
  command->add_flag("--python", request.python, "add a pybind11 module and its Python test");
  command->add_option(
      "--from", request.from_run,
      "a run's results (DIR or DIR/results.json): its figures for this tier go into the README "
      "and its sizes into the benchmark");
  return {command, [args, invocation] { return export_tier(args->request, invocation); }};
}

}  // namespace ladder::app
