#include "build_steps.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "atomic_file.hpp"
#include "errors.hpp"
#include "process.hpp"
#include "text.hpp"

namespace ladder {

using Clock = std::chrono::steady_clock;

int run_logged(const std::vector<std::string>& argv, const std::string& log, const std::string& label) {
  std::ofstream out(log, std::ios::app);
  out << "$ " << command_text(argv) << "\n";
  out.flush();
  const bool tty = ::isatty(STDOUT_FILENO);
  const auto started = Clock::now();
  int last_shown = -1;
  std::string line;  // the line being read, up to its newline
  const auto show = [&] {
    int done = 0, total = 0;
    if (std::sscanf(line.c_str(), "[%d/%d]", &done, &total) != 2 || total <= 0) return;
    const int percent = 100 * done / total;
    const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
    if (tty)
      std::printf("\r  %s: %d of %d steps, %s  ", label.c_str(), done, total,
                  format_seconds(seconds).c_str());
    else if (percent / 25 != last_shown / 25)
      std::printf("  %s: %d of %d steps, %s\n", label.c_str(), done, total, format_seconds(seconds).c_str());
    last_shown = percent;
    std::fflush(stdout);
  };
  Program program{argv};
  program.stderr_to = Stream::merge;
  program.on_output = [&](std::string_view chunk) {
    out << chunk;
    for (const char c : chunk) {
      if (c != '\n') {
        line += c;
        continue;
      }
      show();
      line.clear();
    }
  };
  const Finished finished = run_program(program);
  if (tty && last_shown >= 0) std::printf("\r%*s\r", 60, "");
  if (!finished.started()) out << argv.front() << ": " << finished.not_started << "\n";
  return !finished.started() ? 127 : finished.signal != 0 ? 128 : finished.exit_code;
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

namespace {

namespace fs = std::filesystem;

std::string marker(const std::string& tree) { return tree + "/ladder-configured"; }

// `source` as CMake records it, to compare two spellings of one folder.
std::string canonical_source(const std::string& source) {
  std::error_code error;
  const fs::path found = fs::weakly_canonical(fs::absolute(source), error);
  return error ? source : found.string();
}

// The value of `key` ("NAME:TYPE=") in the CMakeCache.txt of `tree`, or empty.
std::string cache_value(const std::string& tree, const std::string& key) {
  std::ifstream in(tree + "/CMakeCache.txt");
  for (std::string line; std::getline(in, line);)
    if (line.rfind(key, 0) == 0) return line.substr(key.size());
  return {};
}

// The source folder a CMakeCache.txt was configured from (CMAKE_HOME_DIRECTORY), or empty.
std::string cache_source(const std::string& tree) {
  return cache_value(tree, "CMAKE_HOME_DIRECTORY:INTERNAL=");
}

}  // namespace

std::vector<std::string> configured_tiers(const std::string& tree) {
  std::vector<std::string> tiers;
  std::istringstream list(cache_value(tree, "LADDER_ONLY_TIERS:STRING="));
  for (std::string tier; std::getline(list, tier, ',');)
    if (!tier.empty()) tiers.push_back(tier);
  return sorted_once(tiers);
}

bool configured_from(const std::string& tree, const std::string& source) {
  const std::string wanted = canonical_source(source);
  std::ifstream in(marker(tree), std::ios::binary);
  const std::string named((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in && named == wanted + "\n") return true;
  in.close();
  std::error_code error;
  fs::remove(marker(tree), error);
  if (const std::string cached = cache_source(tree); !cached.empty() && canonical_source(cached) != wanted)
    fs::remove_all(tree, error);  // configured from other files: never built into, never reused
  return false;
}

void mark_configured(const std::string& tree, const std::string& source) {
  write_file_atomically(marker(tree), canonical_source(source) + "\n");
}

BuildLock::BuildLock(const std::string& dir)
    : fd_(::open((dir + "/.lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644)) {
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

void build_peer_modules() {
  if (std::getenv("LADDER_PEER_MODULES")) return;  // the user's folder, built the user's way
  std::string folder;
  try {
    const std::string executable = self_path();
    folder = executable.substr(0, executable.find_last_of('/'));
  } catch (const Unavailable&) {
    return;
  }
  std::error_code error;
  if (!std::filesystem::exists(folder + "/CMakeCache.txt", error)) return;
  bool missing = false;
  for (const char* family : {"/cython-peers", "/pythran-peers", "/python-extension/build/modules"})
    missing = missing || !std::filesystem::is_directory(folder + family, error);
  if (!missing) return;
  std::filesystem::create_directories(folder + "/peer-modules", error);
  const BuildLock lock(folder + "/peer-modules");
  const std::string log = folder + "/peer-modules/build.log";
  std::remove(log.c_str());
  std::printf("building the compiled peers' modules: cmake --build %s --target ladder_peers\n",
              folder.c_str());
  std::fflush(stdout);
  if (run_logged({"cmake", "--build", folder, "--target", "ladder_peers"}, log, "peers' modules") != 0)
    std::printf("  not built (%s; the log: %s): the compiled peers will say they are unavailable\n",
                first_error(log).c_str(), log.c_str());
}

std::vector<std::string> tiers_to_carry(const std::vector<std::string>& carried,
                                        const std::vector<std::string>& wanted) {
  if (carried.empty() || wanted.empty()) return {};
  std::vector<std::string> both;
  std::set_union(carried.begin(), carried.end(), wanted.begin(), wanted.end(), std::back_inserter(both));
  return both;
}

bool carries_all(const std::vector<std::string>& carried, const std::vector<std::string>& wanted) {
  return tiers_to_carry(carried, wanted) == carried;
}

std::vector<std::string> sorted_once(std::vector<std::string> tiers) {
  std::sort(tiers.begin(), tiers.end());
  tiers.erase(std::unique(tiers.begin(), tiers.end()), tiers.end());
  return tiers;
}

std::string tiers_text(const std::vector<std::string>& tiers) {
  return tiers.empty() ? "every tier" : "tiers " + join(tiers);
}

}  // namespace ladder
