// A file size limit (SIGXFSZ ignored) makes a write past it fail with EFBIG, as a full disk fails one with
// ENOSPC: a write stopped midway. The limit is this process's, restored when the guard goes.
#pragma once

#include <sys/resource.h>

#include <csignal>

namespace ladder::testing {

class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    getrlimit(RLIMIT_FSIZE, &saved_);
    previous_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limit = saved_;
    limit.rlim_cur = bytes;
    set_ = setrlimit(RLIMIT_FSIZE, &limit) == 0;
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, previous_handler_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;
  bool set() const { return set_; }

 private:
  rlimit saved_{};
  void (*previous_handler_)(int) = nullptr;
  bool set_ = false;
};

}  // namespace ladder::testing
