// Running likwid-bench and reading its figures (likwid_bench.hpp).
#include "likwid_bench.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "errors.hpp"
#include "process.hpp"
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

// Runs argv (no shell) with stdout and stderr merged; killed past `timeout` seconds.
Finished run_merged(const std::vector<std::string>& argv, double timeout) {
  Program program{argv};
  program.stderr_to = Stream::merge;
  program.timeout_seconds = timeout;
  return run_program(program);
}

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

}  // namespace

std::optional<std::string> find_bench() {
  if (std::string found = on_path("likwid-bench"); !found.empty()) return found;
  return std::nullopt;
}

std::string version(const std::string& bench) {
  const Finished finished = run_merged({bench, "-v"}, 10);
  const std::string output = trimmed(finished.out);  // "likwid-bench -- Version 5.2.2"
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
  const Finished finished = run_merged(argv, 60);
  const auto figure = parse_figure(finished.out, label);
  if (finished.ok() && figure) return *figure / 1000;
  std::string status = finished.timed_out ? "ran past 60 s" : finished.how();
  if (finished.ok() && !figure) status = "printed no '" + label + ":' line";
  std::string output = trimmed(finished.out);
  if (output.size() > 600) output = "…" + output.substr(output.size() - 600);
  throw ToolFailed("`" + join(argv, " ") + "` " + status +
                   (output.empty() ? ", saying nothing" : ": " + output));
}

}  // namespace ladder::likwid
