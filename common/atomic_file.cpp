#include "atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "errors.hpp"
#include "quote.hpp"

namespace ladder {

std::string read_whole_file(const std::string& path, const std::string& what) {
  namespace fs = std::filesystem;
  const std::string named = what + " '" + quote_text(path, 1000) + "'";
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (!fs::exists(status)) throw InputError(named + " does not exist");
  if (fs::is_directory(status)) throw InputError(named + " is a directory, not a file");
  if (!fs::is_regular_file(status)) throw InputError(named + " is not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(named + " cannot be read: " + std::strerror(errno));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw InputError(named + " cannot be read: " + std::strerror(errno));
  return text;
}

namespace {

// Writes all of `contents` to `fd`: 0, or the errno of the write that failed.
int write_all(int fd, const std::string& contents) {
  std::size_t written = 0;
  while (written < contents.size()) {
    const ssize_t count = ::write(fd, contents.data() + written, contents.size() - written);
    if (count < 0 && errno == EINTR) continue;
    if (count < 0) return errno;
    written += static_cast<std::size_t>(count);
  }
  return 0;
}

}  // namespace

void append_to_file(const std::string& path, const std::string& contents) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw WriteError(std::strerror(errno));
  if (const int error = write_all(fd, contents)) {
    ::close(fd);
    throw WriteError(std::strerror(error));
  }
  if (::close(fd) != 0) throw WriteError(std::strerror(errno));
}

void write_file_atomically(const std::string& path, const std::string& contents) {
  const std::string temporary = path + ".tmp." + std::to_string(getpid());
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw WriteError("cannot write " + temporary + ": " + std::strerror(errno));
  if (const int error = write_all(fd, contents)) {
    ::close(fd);
    ::unlink(temporary.c_str());
    throw WriteError("cannot write " + temporary + ": " + std::strerror(error));
  }
  const bool synced = ::fsync(fd) == 0;
  const int sync_error = errno;
  if (::close(fd) != 0 || !synced) {
    const int error = synced ? errno : sync_error;
    ::unlink(temporary.c_str());
    throw WriteError("cannot write " + temporary + ": " + std::strerror(error));
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    throw WriteError("cannot replace " + path + ": " + std::strerror(error));
  }
}

}  // namespace ladder
