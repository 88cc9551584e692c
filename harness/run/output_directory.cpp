#include "output_directory.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
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
    if (fs::exists(dir, error) && !fs::is_empty(dir, error) && !force)
      throw InputError("--out '" + shown + "' is not empty; give --resume " + shown +
                       " to finish the run it holds, --force to replace its results, or another --out");
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

void remove_created_directory(const std::string& created) {
  std::error_code error;
  if (!created.empty()) fs::remove_all(created, error);
}

}  // namespace ladder
