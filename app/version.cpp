// `ladder --version`: one line naming the version, the commit and the build, each read from what the build
// already records (harness/builds/build_info.hpp: the project's version, the compiler and the -march target;
// the checkout's commit and dirty flag), never a second copy of a fact.
#include <string>

#include "build_info.hpp"
#include "commands.hpp"

namespace ladder {
namespace app {

namespace {

// The processor family the compiler generated code for, as the compiler itself says it.
const char* machine() {
#if defined(__x86_64__)
  return "x86_64";
#elif defined(__aarch64__)
  return "aarch64";
#elif defined(__powerpc64__)
  return "ppc64";
#else
  return "an unknown processor";
#endif
}

std::string version_text() {
  const BuildInfo& build = build_info();
  const SourceState& source = source_state();
  const std::string dirty = source.git_dirty == "yes" ? ", dirty" : "";  // "unknown" with the commit
  return "ladder " + build.ladder_version + " (commit " + source.git_commit.substr(0, 7) + dirty +
         ") built with " + build.compiler + " for " + machine() + ", -march=" + build.target;
}

}  // namespace

void add_version_flag(CLI::App& app) {
  app.set_version_flag(
      "--version", [] { return version_text(); },
      "print the version, the commit and the build (compiler and target), and exit");
}

}  // namespace app
}  // namespace ladder
