#include "repo_build.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>

#include "build_steps.hpp"
#include "builds.hpp"
#include "errors.hpp"
#include "process.hpp"
#include "quote.hpp"
#include "sha256.hpp"
#include "text.hpp"

namespace ladder {
namespace {

namespace fs = std::filesystem;

// The executable file named `name` that the build made under `tree` (CMake puts a target's executable in
// its subdirectory's folder), or empty.
std::string find_executable(const std::string& tree, const std::string& name) {
  std::error_code error;
  for (fs::recursive_directory_iterator it(tree, error), end; !error && it != end; it.increment(error)) {
    if (it->path().filename() != name || !it->is_regular_file(error)) continue;
    if ((it->status(error).permissions() & fs::perms::owner_exec) != fs::perms::none) return it->path();
  }
  return {};
}

// Builds `source` into `tree` as the recipe says, its output in `log`. Empty when it built, else the error.
std::string build(const std::string& source, const std::string& tree, const RepoRecipe& recipe,
                  const std::string& log) {
  if (!recipe.build_command.empty()) {
    const int status = run_logged(
        {"/bin/sh", "-c", "cd \"$1\" && " + recipe.build_command, "ladder-build", source}, log, "build");
    return status == 0 ? "" : "--build exited with " + std::to_string(status) + ": " + first_error(log);
  }
  std::vector<std::string> configure{"cmake", "-S", source, "-B", tree, "-DCMAKE_BUILD_TYPE=Release"};
  if (!on_path("ninja").empty()) configure.insert(configure.begin() + 5, {"-G", "Ninja"});
  if (run_logged(configure, log, "configure") != 0) return "CMake's configure failed: " + first_error(log);
  if (run_logged({"cmake", "--build", tree, "--target", recipe.target}, log, "build") != 0)
    return "the target '" + quote_text(recipe.target) + "' did not build: " + first_error(log);
  if (find_executable(tree, recipe.target).empty())
    return "the target '" + quote_text(recipe.target) + "' built no executable of that name";
  return {};
}

}  // namespace

void check_recipe(const RepoRecipe& recipe) {
  if (recipe.target.empty() == recipe.build_command.empty())
    throw InputError(
        "a repository's benchmark needs one of --target NAME (a CMake project's Google Benchmark target) "
        "and --build 'CMD' (with --bench 'CMD')");
  if (!recipe.build_command.empty() && recipe.bench_command.empty())
    throw InputError(
        "--build needs --bench 'CMD': the command that runs the Google Benchmark binary it makes");
  if (!recipe.target.empty() && !recipe.bench_command.empty())
    throw InputError("--target runs the target's own executable: give --bench only with --build");
  if (!recipe.target.empty() && recipe.target.find_first_of("/ \t\n") != std::string::npos)
    throw InputError("--target '" + quote_text(recipe.target) + "' is not a CMake target name");
}

PreparedRepo prepare_repo(const std::string& top, const Revision& revision, const RepoRecipe& recipe) {
  if (revision.working_tree && revision.dirty)
    throw InputError("the working tree of " + quote_text(top) +
                     " has uncommitted changes: commit them, or give --head a revision");
  const std::string recipe_id =
      recipe.target.empty() ? "build:" + recipe.build_command : "target:" + recipe.target;
  const std::string directory = builds_directory() + "/repo-" + sha256_hex(top).substr(0, 8) + "-" +
                                revision.tree.substr(0, 10) + "-" + sha256_hex(recipe_id).substr(0, 8);
  const std::string tree = directory + "/build";
  std::error_code error;
  fs::create_directories(directory, error);
  if (error)
    throw InputError("cannot make the build folder " + quote_text(directory) + ": " + error.message());
  PreparedRepo prepared;
  prepared.directory = directory;
  {
    const BuildLock lock(directory);
    prepared.source = export_revision(top, revision, directory);
    if (fs::exists(directory + "/.built")) {
      prepared.state = "reused: built before";
    } else {
      const std::string log = "/tmp/ladder-ab-build-" + revision.tree.substr(0, 10) + ".log";
      std::remove(log.c_str());
      const auto started = std::chrono::steady_clock::now();
      const std::string failed = build(prepared.source, tree, recipe, log);
      if (!failed.empty()) {
        fs::remove_all(directory, error);  // no half build is ever reused, nor left behind
        throw InputError(revision.label() + " of " + quote_text(top) + " did not build: " + failed +
                         " (its log: " + log + ")");
      }
      std::FILE* mark = std::fopen((directory + "/.built").c_str(), "w");
      if (mark) std::fclose(mark);
      prepared.built_now = true;
      prepared.state =
          "built in " +
          format_seconds(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    }
  }
  if (!recipe.bench_command.empty())
    prepared.bench = {"/bin/sh", "-c", "cd \"$1\" && shift && " + recipe.bench_command + " \"$@\"",
                      "ladder-bench", prepared.source};
  else
    prepared.bench = {find_executable(tree, recipe.target)};
  return prepared;
}

void discard_new_build(const PreparedRepo& prepared) {
  std::error_code ignored;
  if (prepared.built_now) fs::remove_all(prepared.directory, ignored);
}

}  // namespace ladder
