#include "process_stats.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "text.hpp"

namespace ladder::process {
namespace {

std::optional<std::int64_t> kilobytes_field(const char* file, const std::string& field) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, field.size() + 1, field + ":") != 0) continue;
    std::istringstream values(line.substr(field.size() + 1));
    std::int64_t kilobytes = 0;
    if (values >> kilobytes) return kilobytes * 1024;
  }
  return std::nullopt;
}

double seconds(const timeval& time) { return static_cast<double>(time.tv_sec) + time.tv_usec * 1e-6; }

}  // namespace

bool reset_peak_rss() {
  std::ofstream clear_refs("/proc/self/clear_refs");
  clear_refs << "5";
  clear_refs.flush();
  return clear_refs.good();
}

std::optional<std::int64_t> status_bytes(const std::string& field) {
  return kilobytes_field("/proc/self/status", field);
}

Usage self_usage() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return {seconds(usage.ru_utime), seconds(usage.ru_stime), usage.ru_minflt, usage.ru_majflt};
}

std::optional<MachineTime> machine_time() {
  std::ifstream in("/proc/stat");
  std::string label;
  double user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
  if (!(in >> label >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal) || label != "cpu")
    return std::nullopt;
  const double tick = static_cast<double>(sysconf(_SC_CLK_TCK));
  const double busy = user + nice + system + irq + softirq;
  return MachineTime{busy / tick, steal / tick, (busy + idle + iowait + steal) / tick};
}

std::vector<int> thread_ids() {
  std::vector<int> ids;
  std::error_code error;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", error))
    ids.push_back(std::stoi(task.path().filename().string()));
  return ids;
}

ThreadPlacement thread_placement() {
  ThreadPlacement placement;
  std::set<int> all;
  for (const int id : thread_ids()) {
    std::ifstream status("/proc/self/task/" + std::to_string(id) + "/status");
    std::string line;
    while (std::getline(status, line)) {
      if (line.rfind("Cpus_allowed_list:", 0) != 0) continue;
      std::vector<int> cpus = parse_cpu_list(line.substr(line.find(':') + 1));
      all.insert(cpus.begin(), cpus.end());
      placement.per_thread.push_back(std::move(cpus));
    }
  }
  placement.union_of_cpus.assign(all.begin(), all.end());
  return placement;
}

std::optional<std::int64_t> available_memory() { return kilobytes_field("/proc/meminfo", "MemAvailable"); }
std::optional<std::int64_t> total_memory() { return kilobytes_field("/proc/meminfo", "MemTotal"); }

}  // namespace ladder::process
