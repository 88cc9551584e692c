// Running likwid-bench and reading its figures (likwid_bench.hpp).
#include "likwid_bench.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "errors.hpp"
#include "text.hpp"

namespace ladder::likwid {
namespace {

bool cpu_has(const std::string& flag) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line))
    if (line.rfind("flags", 0) == 0) return (line + " ").find(" " + flag + " ") != std::string::npos;
  return false;
}

struct Finished {
  int status = 0;  // as waitpid says it
  std::string output;
  bool timed_out = false;
};

// Runs argv (no shell) with stdout and stderr into one pipe; kills it past `timeout` seconds.
Finished run_program(const std::vector<std::string>& argv, double timeout) {
  int pipe_ends[2];
  if (::pipe(pipe_ends) != 0)
    throw ToolFailed("cannot start " + argv.front() + ": pipe: " + std::strerror(errno));
  const pid_t pid = ::fork();
  if (pid < 0) throw ToolFailed("cannot start " + argv.front() + ": fork: " + std::strerror(errno));
  if (pid == 0) {
    ::dup2(pipe_ends[1], 1);
    ::dup2(pipe_ends[1], 2);
    ::close(pipe_ends[0]);
    ::close(pipe_ends[1]);
    std::vector<char*> args;
    for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    const std::string why = "cannot execute " + argv.front() + ": " + std::strerror(errno) + "\n";
    [[maybe_unused]] const auto written = ::write(2, why.data(), why.size());
    ::_exit(127);
  }
  ::close(pipe_ends[1]);
  Finished finished;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout);
  char buffer[4096];
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd readable{pipe_ends[0], POLLIN, 0};
    if (left.count() <= 0 || ::poll(&readable, 1, static_cast<int>(left.count())) == 0) {
      finished.timed_out = true;
      ::kill(pid, SIGKILL);
      break;
    }
    const ssize_t got = ::read(pipe_ends[0], buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    finished.output.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(pipe_ends[0]);
  while (::waitpid(pid, &finished.status, 0) < 0 && errno == EINTR) {
  }
  return finished;
}

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

}  // namespace

std::optional<std::string> find_bench() {
  const char* path = std::getenv("PATH");
  std::istringstream directories(path ? path : "");
  std::string directory;
  while (std::getline(directories, directory, ':')) {
    if (directory.empty()) continue;
    const std::string candidate = directory + "/likwid-bench";
    if (::access(candidate.c_str(), X_OK) == 0 && !std::filesystem::is_directory(candidate)) return candidate;
  }
  return std::nullopt;
}

std::string version(const std::string& bench) {
  const Finished finished = run_program({bench, "-v"}, 10);
  const std::string output = trimmed(finished.output);  // "likwid-bench -- Version 5.2.2"
  const auto at = output.find("Version ");
  if (at == std::string::npos) return "likwid-bench";
  return "likwid-bench " + trimmed(output.substr(at + 8, output.find('\n', at) - at - 8));
}

Kernels kernels_for_this_cpu() {
  if (cpu_has("avx512f")) return {"peakflops_avx512_fma", "triad_avx512_fma", 8};
  if (cpu_has("avx2") && cpu_has("fma")) return {"peakflops_avx_fma", "triad_avx_fma", 4};
  return {"peakflops_sse", "triad_sse", 2};
}

std::vector<std::string> peak_arguments(const Kernels& kernels, int threads) {
  // About 50 µs an iteration a thread at 100 GFLOP/s: 50 000 iterations run a few tens of milliseconds.
  return {"-t", kernels.peak, "-W", "N:" + std::to_string(24 * threads) + "kB:" + std::to_string(threads),
          "-i", "50000"};
}

std::vector<std::string> triad_arguments(const Kernels& kernels, int threads, std::int64_t bytes) {
  // An iteration is one pass over the arrays; likwid-bench's kB is 1000 bytes.
  return {"-t", kernels.triad,
          "-W", "N:" + std::to_string(bytes / 1000) + "kB:" + std::to_string(threads),
          "-i", "2"};
}

std::optional<double> parse_figure(const std::string& output, const std::string& label) {
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind(label + ":", 0) != 0) continue;
    char* end = nullptr;
    const std::string number = trimmed(line.substr(label.size() + 1));
    const double value = std::strtod(number.c_str(), &end);
    if (end != number.c_str() && value > 0 && value < 1e15) return value;
  }
  return std::nullopt;
}

double run_figure(const std::string& bench, const std::vector<std::string>& arguments,
                  const std::string& label) {
  std::vector<std::string> argv = {bench};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  const Finished finished = run_program(argv, 60);
  const bool exited_ok = WIFEXITED(finished.status) && WEXITSTATUS(finished.status) == 0;
  const auto figure = parse_figure(finished.output, label);
  if (exited_ok && figure && !finished.timed_out) return *figure / 1000;
  std::string status =
      finished.timed_out             ? "ran past 60 s"
      : WIFEXITED(finished.status)   ? "exited with " + std::to_string(WEXITSTATUS(finished.status))
      : WIFSIGNALED(finished.status) ? "was killed by signal " + std::to_string(WTERMSIG(finished.status))
                                     : "failed";
  if (exited_ok && !figure) status = "printed no '" + label + ":' line";
  std::string output = trimmed(finished.output);
  if (output.size() > 600) output = "…" + output.substr(output.size() - 600);
  throw ToolFailed("`" + join(argv, " ") + "` " + status +
                   (output.empty() ? ", saying nothing" : ": " + output));
}

}  // namespace ladder::likwid
