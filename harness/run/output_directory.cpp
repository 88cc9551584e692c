#include "output_directory.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "errors.hpp"
#include "quote.hpp"

namespace ladder {

namespace fs = std::filesystem;

Paths paths_in(const std::string& dir) {
  return {dir, dir + "/journal.jsonl", dir + "/results.json", dir + "/results.csv", dir + "/.work"};
}

// Checked before any cell runs: the directory can be made and written, and holds nothing we would lose.
std::string prepare_directory(const std::string& dir, bool resuming, bool force) {
  std::error_code error;
  const std::string shown = quote_text(dir);
  if (fs::exists(dir, error) && !fs::is_directory(dir, error))
    throw InputError("--out '" + shown + "' is a file, not a directory");
  std::string created;
  if (!resuming) {
    if (fs::exists(dir, error) && !fs::is_empty(dir, error) && !force) {
      const Paths paths = paths_in(dir);
      if (fs::exists(paths.journal, error))
        throw InputError("--out '" + shown + "' holds a run (its journal.jsonl); give --resume " + shown +
                         " to finish it, --force to replace its results, or another --out");
      if (fs::exists(paths.json, error))
        throw InputError("--out '" + shown + "' holds results (results.json); give --force to replace " +
                         "them, or another --out");
      throw InputError(
          "--out '" + shown + "' is not empty and holds no run of Ladder's; give a new or empty " +
          "--out (with no --out, each run gets a folder of its own: " + runs_folder + "/run-DATE-TIME)");
    }
    for (fs::path missing = dir; !missing.empty() && !fs::exists(missing, error);
         missing = missing.parent_path()) {
      created = missing.string();
      if (missing == missing.parent_path()) break;
    }
    fs::create_directories(dir, error);
    if (error) {
      remove_created_directory(created);
      throw InputError("cannot create --out '" + shown + "': " + error.message());
    }
  }
  const std::string probe = dir + "/.ladder-write-test-" + std::to_string(getpid());
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int problem = errno;
    remove_created_directory(created);
    throw InputError("cannot write in --out '" + shown + "': " + std::strerror(problem));
  }
  ::close(fd);
  ::unlink(probe.c_str());
  return created;
}

std::string new_run_directory(const std::string& parent) {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "run-%Y%m%d-%H%M%S", &local);
  const std::string first = parent + "/" + stamp;
  std::string dir = first;
  std::error_code error;
  for (int again = 2; fs::exists(dir, error); ++again) dir = first + "-" + std::to_string(again);
  return dir;
}

void remove_created_directory(const std::string& created) {
  std::error_code error;
  if (!created.empty()) fs::remove_all(created, error);
}

}  // namespace ladder
