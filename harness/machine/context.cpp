#include "context.hpp"

#include <gnu/libc-version.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <tbb/version.h>
#include <unistd.h>

#include <Eigen/Core>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <xsimd/xsimd.hpp>

#include "build_info.hpp"
#include "emulation_check.hpp"
#include "matrix.hpp"
#include "process_stats.hpp"
#include "registry.hpp"
#include "vectorization.hpp"

extern char** environ;

namespace ladder {
namespace {

std::string read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::string reading(const std::string& path, const std::string& unavailable) {
  const std::string value = read_line(path);
  return value.empty() ? "unavailable: " + unavailable : value;
}

std::string cpuinfo_field(const std::string& field) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.compare(0, field.size(), field) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  return {};
}

bool has_cpu_flag(const std::string& flag) {
  std::istringstream flags(cpuinfo_field("flags"));
  std::string each;
  while (flags >> each)
    if (each == flag) return true;
  return false;
}

std::vector<MachineContext::Cache> caches() {
  std::vector<MachineContext::Cache> all;
  for (int index = 0;; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    if (!std::filesystem::exists(dir)) break;
    all.push_back({read_line(dir + "level"), read_line(dir + "type"), read_line(dir + "size"),
                   read_line(dir + "shared_cpu_list")});
  }
  return all;
}

}  // namespace

std::string best_instruction_set() {
  const auto cpu = xsimd::available_architectures();
  if (cpu.avx512bw) return "avx512bw";
  if (cpu.avx512dq) return "avx512dq";
  if (cpu.avx512cd) return "avx512cd";
  if (cpu.avx512f) return "avx512f";
  if (cpu.fma3_avx2) return "fma3<avx2>";
  if (cpu.avx2) return "avx2";
  if (cpu.fma3_avx) return "fma3<avx>";
  if (cpu.avx) return "avx";
  if (cpu.fma3_sse) return "fma3<sse4.2>";
  if (cpu.sse4_2) return "sse4.2";
  if (cpu.sse4_1) return "sse4.1";
  if (cpu.ssse3) return "ssse3";
  if (cpu.sse3) return "sse3";
  if (cpu.sse2) return "sse2";
  if (cpu.neon64) return "neon64";
  if (cpu.neon) return "neon";
  return "none";
}

bool cpu_runs_this_build() { return xsimd::available_architectures().best >= xsimd::default_arch::version(); }

namespace {

MachineContext::Simd simd() {
  std::vector<std::string> flags;
  for (const char* flag : {"sse4_2", "avx", "avx2", "fma", "avx512f", "avx512dq", "avx512bw", "avx512vl"})
    if (has_cpu_flag(flag)) flags.push_back(flag);
  const auto& build = build_info();
  return {build.instruction_set, build.simd_width, best_instruction_set(), flags};
}

std::optional<std::string> unless_empty(std::string text) {
  return text.empty() ? std::nullopt : std::optional<std::string>(std::move(text));
}

MachineContext::Hypervisor hypervisor() {
  return {has_cpu_flag("hypervisor"), unless_empty(read_line("/sys/class/dmi/id/sys_vendor")),
          unless_empty(read_line("/sys/class/dmi/id/product_name"))};
}

MachineContext::FrequencyScaling frequency_scaling() {
  const std::string cpufreq = "/sys/devices/system/cpu/cpu0/cpufreq/";
  MachineContext::FrequencyScaling info{
      reading(cpufreq + "scaling_governor", "no cpufreq interface (usual in a VM)"),
      reading(cpufreq + "scaling_driver", "no cpufreq interface"), ""};
  if (const auto no_turbo = read_line("/sys/devices/system/cpu/intel_pstate/no_turbo"); !no_turbo.empty())
    info.boost = no_turbo == "1" ? "off (intel_pstate no_turbo)" : "on (intel_pstate)";
  else if (const auto boost = read_line("/sys/devices/system/cpu/cpufreq/boost"); !boost.empty())
    info.boost = boost == "1" ? "on" : "off";
  else
    info.boost = "unavailable: not readable here";
  return info;
}

std::string hardware_counters() {
  perf_event_attr attributes{};
  attributes.type = PERF_TYPE_HARDWARE;
  attributes.size = sizeof attributes;
  attributes.config = PERF_COUNT_HW_INSTRUCTIONS;
  attributes.disabled = 1;
  attributes.exclude_kernel = 1;
  attributes.exclude_hv = 1;
  const long fd = syscall(SYS_perf_event_open, &attributes, 0, -1, -1, 0);
  if (fd >= 0) {
    close(static_cast<int>(fd));
    return "available";
  }
  const int error = errno;
  return std::string("unavailable: ") + std::strerror(error) +
         (error == ENOENT ? " (no hardware counters: usual in a VM)" : "");
}

std::map<std::string, std::string> parallel_environment() {
  std::map<std::string, std::string> variables;
  for (char** entry = environ; *entry; ++entry) {
    const std::string text = *entry;
    for (const char* prefix : {"OMP_", "GOMP_", "KMP_", "TBB_"})
      if (text.rfind(prefix, 0) == 0) {
        const auto equals = text.find('=');
        variables[text.substr(0, equals)] = text.substr(equals + 1);
      }
  }
  // Inside a Slurm job, the allocation the run had (scripts/slurm-matrix.sbatch): these few, not every
  // SLURM_ variable, which would record each step's bookkeeping too.
  for (const char* name : {"SLURM_JOB_ID", "SLURM_JOB_NODELIST", "SLURM_JOB_NUM_NODES", "SLURM_CPUS_PER_TASK",
                           "SLURM_JOB_CPUS_PER_NODE", "SLURM_JOB_END_TIME"})
    if (const char* value = std::getenv(name)) variables[name] = value;
  return variables;
}

// The checkout the binary was built from: its git state and each tier file's SHA-256.
MachineContext::Source source_context() {
  const SourceState& state = source_state();
  MachineContext::Source source{state.git_commit, state.git_branch, state.git_dirty, {}};
  for (const auto& [file, digest] : state.tier_sources) source.tier_sources[file] = digest;
  return source;
}

std::map<std::string, std::string> per_tier_flags() {
  std::map<std::string, std::string> flags;
  const std::string common = build_info().common_flags;
  for (const auto& tier : tiers())
    if (tier.card.source_file.ends_with(".cu"))
      flags[tier.card.id] = build_info().cuda_flags;
    else
      flags[tier.card.id] = join(
          tier.card.flags.empty() ? std::vector{common} : std::vector{common, join(tier.card.flags, " ")},
          " ");
  return flags;
}

}  // namespace

int logical_cpus() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

int physical_cores() {
  std::ifstream in("/proc/cpuinfo");
  std::string line, physical_id;
  std::set<std::string> cores;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const auto value = line.substr(colon + 1);
    if (line.rfind("physical id", 0) == 0) physical_id = value;
    if (line.rfind("core id", 0) == 0) cores.insert(physical_id + "/" + value);
  }
  return cores.empty() ? logical_cpus() : static_cast<int>(cores.size());
}

std::optional<std::vector<double>> load_average() {
  double loads[3] = {0, 0, 0};
  if (getloadavg(loads, 3) != 3) return std::nullopt;
  return std::vector<double>{loads[0], loads[1], loads[2]};
}

MachineContext machine_context(const Topology& topology) {
  utsname system{};
  uname(&system);
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  const auto& build = build_info();
  MachineContext machine;
  machine.host_name = host;
  machine.cpu_model = cpuinfo_field("model name");
  machine.logical_cpus = logical_cpus();
  machine.physical_cores = physical_cores();
  machine.topology = topology;
  machine.caches = caches();
  machine.simd = simd();
  machine.memory_total_bytes = process::total_memory();
  machine.memory_available_bytes = process::available_memory();
  machine.kernel = std::string(system.sysname) + " " + system.release + " " + system.machine;
  machine.glibc = gnu_get_libc_version();
  machine.emulation = detect_emulation();
  machine.hypervisor = hypervisor();
  machine.frequency_scaling = frequency_scaling();
  machine.clocksource =
      reading("/sys/devices/system/clocksource/clocksource0/current_clocksource", "not readable");
  machine.transparent_hugepages = reading("/sys/kernel/mm/transparent_hugepage/enabled", "not readable");
  machine.hardware_counters = hardware_counters();
  machine.compiler = build.compiler;
  machine.build_type = build.build_type;
  machine.common_flags = build.common_flags;
  machine.flags_per_tier = per_tier_flags();
  machine.libraries = {
      {"google_benchmark", build.benchmark_version},
      {"eigen", std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) + "." +
                    std::to_string(EIGEN_MINOR_VERSION)},
      {"xsimd", std::to_string(XSIMD_VERSION_MAJOR) + "." + std::to_string(XSIMD_VERSION_MINOR) + "." +
                    std::to_string(XSIMD_VERSION_PATCH)},
      {"onetbb", std::string(TBB_VERSION_STRING) + " (runtime " + TBB_runtime_version() + ")"},
      {"openmp",
       build.openmp_version + (build.compiler.starts_with("Clang") ? ", LLVM's libomp" : ", GCC's libgomp")}};
  machine.parallel_environment = parallel_environment();
  machine.ladder_version = build.ladder_version;
  machine.source = source_context();
  return machine;
}

std::vector<IntegrandRecord> integrand_records(const std::vector<std::string>& integrands,
                                               const std::vector<std::string>& tiers) {
  std::vector<IntegrandRecord> records;
  for (const auto& name : integrands) {
    const IntegrandInfo& info = ladder::integrands()[find_integrand(name)];
    IntegrandRecord record{info.name, info.formula, info.source, info.antiderivative != nullptr, {}};
    for (const auto& tier : tiers)
      if (auto reason = unsupported_reason(tier, name); !reason.empty())
        record.unsupported[tier] = std::move(reason);
    records.push_back(std::move(record));
  }
  return records;
}

}  // namespace ladder
