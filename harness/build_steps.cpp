#include "build_steps.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "errors.hpp"

namespace ladder {

using Clock = std::chrono::steady_clock;

std::string on_path(const std::string& program) {
  const char* variable = std::getenv("PATH");
  const std::string path = variable ? variable : "/usr/bin";
  for (std::size_t start = 0; start <= path.size();) {
    const std::size_t colon = std::min(path.find(':', start), path.size());
    const std::string dir = path.substr(start, colon - start);
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = colon + 1;
  }
  return {};
}

std::string quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

int run_logged(const std::string& command, const std::string& log, const std::string& label) {
  std::ofstream out(log, std::ios::app);
  out << "$ " << command << "\n";
  out.flush();
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (!pipe) throw Unavailable("cannot start: " + command);
  const bool tty = ::isatty(STDOUT_FILENO);
  const auto started = Clock::now();
  int last_shown = -1;
  char line[4096];
  while (std::fgets(line, sizeof line, pipe)) {
    out << line;
    int done = 0, total = 0;
    if (std::sscanf(line, "[%d/%d]", &done, &total) == 2 && total > 0) {
      const int percent = 100 * done / total;
      const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
      if (tty)
        std::printf("\r  %s: %d of %d steps, %.0f s  ", label.c_str(), done, total, seconds);
      else if (percent / 25 != last_shown / 25)
        std::printf("  %s: %d of %d steps, %.0f s\n", label.c_str(), done, total, seconds);
      last_shown = percent;
      std::fflush(stdout);
    }
  }
  if (tty && last_shown >= 0) std::printf("\r%*s\r", 60, "");
  const int status = ::pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

std::string first_error(const std::string& log) {
  std::ifstream in(log);
  std::string line, fallback;
  while (std::getline(in, line)) {
    if (line.find("CMake Error") != std::string::npos) {  // its message is on the lines after it
      std::string next;
      while (std::getline(in, next) && next.find_first_not_of(' ') == std::string::npos) {
      }
      const std::size_t text = next.find_first_not_of(' ');
      return text == std::string::npos ? line : line + " " + next.substr(text);
    }
    if (line.find("error:") != std::string::npos || line.find("Error:") != std::string::npos) return line;
    if (fallback.empty() && line.find("FAILED") != std::string::npos) fallback = line;
  }
  return fallback.empty() ? "no error line in the log" : fallback;
}

BuildLock::BuildLock(const std::string& dir) : fd_(::open((dir + "/.lock").c_str(), O_CREAT | O_RDWR, 0644)) {
  if (fd_ < 0) return;
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    std::printf("  waiting for another run that is preparing %s …\n", dir.c_str());
    std::fflush(stdout);
    ::flock(fd_, LOCK_EX);
  }
}

BuildLock::~BuildLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace ladder
