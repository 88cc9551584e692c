#include "output_directory.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "errors.hpp"

namespace ladder {

namespace fs = std::filesystem;

Paths paths_in(const std::string& dir) {
  return {dir, dir + "/journal.jsonl", dir + "/results.json", dir + "/results.csv", dir + "/.work"};
}

// Checked before any cell runs: the directory can be made and written, and holds nothing we would lose.
void prepare_directory(const std::string& dir, bool resuming, bool force) {
  std::error_code error;
  if (fs::exists(dir, error) && !fs::is_directory(dir, error))
    throw InputError("--out '" + dir + "' is a file, not a directory");
  if (!resuming) {
    if (fs::exists(dir, error) && !fs::is_empty(dir, error) && !force)
      throw InputError("--out '" + dir + "' is not empty; give --resume " + dir +
                       " to finish the run it holds, --force to replace its results, or another --out");
    fs::create_directories(dir, error);
    if (error) throw InputError("cannot create --out '" + dir + "': " + error.message());
  }
  const std::string probe = dir + "/.ladder-write-test-" + std::to_string(getpid());
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) throw InputError("cannot write in --out '" + dir + "': " + std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

}  // namespace ladder
