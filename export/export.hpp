// `ladder export`: a tier's kernel, handed over as a CMake project of a team's own. The project holds the
// kernel header and the shared headers it includes (copied as this binary was built from them, the
// namespace `ladder` renamed to the team's), the integrand's header, a library target NS::midpoint with one
// plain function, NS::integrate(a, b, n, Options), a GoogleTest against a long-double reference within
// the card's rounding bound, a Google Benchmark, an example program, a README with the card (and, from a
// run, what Ladder measured), and on request a pybind11 module with its Python test.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "build.hpp"

namespace ladder::exporter {

struct ExportRequest {
  std::string tier;
  std::string integrand;  // a name, a header's path or PATH:NAME; empty: the default integrand
  std::string name_space = "midpoint";
  std::string out;
  bool python = false;
  std::string from_run;                                       // a results file or run directory, or empty
  std::vector<std::pair<std::int64_t, int>> default_cells{};  // (n, threads) to benchmark without a run
  std::string command_line;                                   // as typed, for the README
  // How the exporting binary was built, and from which checkout: what the README and CMakeLists.txt say of
  // it (the app layer fills them in from the binary's own build_info() and source_state()).
  BuildInfo build{};
  SourceState source{};
};

struct ExportedFile {
  std::string path;  // relative to the project's directory
  std::string text;
};

// Every file of the project, checked and written in memory: nothing is written. Throws InputError naming
// the bad value (an unknown tier, one that does not export, an integrand the tier cannot run, a namespace
// that is not a C++ identifier, an --out that exists and is not an earlier export, a run that cannot be
// read or has no cell of this tier and integrand).
// `warnings`, when given, gets what the user should know before using the project, in words: a --from
// run that measured other kernel text than the export copies.
std::vector<ExportedFile> project_files(const ExportRequest& request,
                                        std::vector<std::string>* warnings = nullptr);

// Writes the files as DIR, whole or not at all: into a new directory beside it, then renamed into place (an
// earlier export there is replaced). Returns whether one was replaced. Throws WriteError when it cannot.
bool write_project(const std::string& out, const std::vector<ExportedFile>& files);

// The name of the marker file an export carries, by which a later export recognizes it.
inline constexpr const char* marker_file = ".ladder-export.json";

}  // namespace ladder::exporter
