#include "calibration.hpp"

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>

#include "atomic_file.hpp"
#include "build_info.hpp"
#include "json_reader.hpp"
#include "machine_topology.hpp"
#include "peers.hpp"
#include "process_stats.hpp"
#include "reference.hpp"
#include "registry.hpp"
#include "text.hpp"
#include "thread_binding.hpp"
#include "worker_process.hpp"

namespace ladder {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {
constexpr int calibration_samples = 2;
// Cells of earlier runs kept at most (the file is rewritten after every cell).
constexpr std::size_t kept_cells = 4096;
}  // namespace

CellParts cell_parts(double call_seconds, int repetitions, double min_time, double min_warmup_time,
                     double worker_seconds, int rounds) {
  CellParts parts;
  rounds = std::max(1, rounds);
  parts.start = rounds * worker_seconds;
  // Each round warms up for its share of the minimum warm-up time (worker.cpp's warm_up, at a smaller n
  // where a call would outlast it); round 1 sizes its iterations from those calls and its memory pass.
  parts.warmup = min_warmup_time;
  // A repetition comes to about 1.4 × the minimum time, in whole calls (worker.cpp's iterations_for, as
  // Google Benchmark aims); one call when it is longer.
  const double calls =
      call_seconds >= min_time ? 1.0 : std::ceil(1.4 * min_time / std::max(call_seconds, 1e-9));
  parts.timed = rounds * ((repetitions + rounds - 1) / rounds) * calls * call_seconds;
  parts.passes = 2 * call_seconds;
  return parts;
}

json Calibration::to_json() const {
  json out = {{"reference_seconds_per_node", reference_seconds_per_node},  // by integrand
              {"tiers", json::object()},
              {"cells", cells},
              {"failed", failed}};
  for (const auto& [key, cost] : tiers)
    out["tiers"][key] = {{"seconds_per_node", cost.seconds_per_node},
                         {"worker_seconds", cost.worker_seconds},
                         {"peak_rss_bytes", cost.peak_rss_bytes}};
  if (instructions_seconds_per_tier) out["instructions_seconds_per_tier"] = *instructions_seconds_per_tier;
  if (runner_seconds_per_cell) out["runner_seconds_per_cell"] = *runner_seconds_per_cell;
  return out;
}

Calibration Calibration::from_json(const json& in) {
  Calibration calibration;
  if (!in.is_object()) return calibration;
  const auto number = [](const json& value, double fallback) {
    return value.is_number() ? value.get<double>() : fallback;
  };
  if (in.contains("reference_seconds_per_node") && in["reference_seconds_per_node"].is_object())
    for (const auto& [integrand, seconds] : in["reference_seconds_per_node"].items())
      if (seconds.is_number()) calibration.reference_seconds_per_node[integrand] = seconds.get<double>();
  if (in.contains("instructions_seconds_per_tier") && in["instructions_seconds_per_tier"].is_number())
    calibration.instructions_seconds_per_tier = in["instructions_seconds_per_tier"].get<double>();
  if (in.contains("runner_seconds_per_cell") && in["runner_seconds_per_cell"].is_number())
    calibration.runner_seconds_per_cell = in["runner_seconds_per_cell"].get<double>();
  if (in.contains("tiers") && in["tiers"].is_object())
    for (const auto& [key, cost] : in["tiers"].items()) {
      if (!cost.is_object() || !cost.value("seconds_per_node", json()).is_number()) continue;
      calibration.tiers[key] = {number(cost["seconds_per_node"], 0),
                                number(cost.value("worker_seconds", json()), 0),
                                number(cost.value("peak_rss_bytes", json()), 0)};
    }
  if (in.contains("failed") && in["failed"].is_object())
    for (const auto& [key, why] : in["failed"].items())
      if (why.is_string()) calibration.failed[key] = why.get<std::string>();
  if (in.contains("cells") && in["cells"].is_object())
    for (const auto& [key, seconds] : in["cells"].items())
      if (seconds.is_number()) calibration.cells[key] = seconds.get<double>();
  return calibration;
}

std::string tier_key(const std::string& tier, const std::string& integrand) { return tier + "/" + integrand; }

std::string cell_key(const CellKey& cell, const Matrix& matrix) {
  return cell_name(cell) + " reps:" + std::to_string(matrix.repetitions) +
         (matrix.rounds > 1 ? " rounds:" + std::to_string(matrix.rounds) : std::string()) +
         " min_time:" + format_number("%g", matrix.min_time) +
         " warmup:" + format_number("%g", matrix.min_warmup_time);
}

std::string cache_directory() {
  if (const char* own = std::getenv("LADDER_CACHE_DIR"); own && *own) return own;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + "/ladder";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/ladder";
  return (fs::temp_directory_path() / "ladder-cache").string();
}

namespace {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) return line;
  return "unknown CPU";
}

}  // namespace

std::string machine_identity() {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  return std::string(host) + "|" + cpu_model() + "|" + std::to_string(sysconf(_SC_NPROCESSORS_ONLN));
}

std::string cache_file(const std::string& executable) {
  struct stat status {};
  ::stat(executable.c_str(), &status);
  const BuildInfo& build = build_info();
  const std::string identity = build.ladder_version + "|" + build.compiler + "|" + build.build_type + "|" +
                               build.common_flags + "|" + build.instruction_set + "|" + executable + "|" +
                               std::to_string(status.st_size) + "|" + std::to_string(status.st_mtime) + "|" +
                               machine_identity();
  char name[64];
  std::snprintf(name, sizeof name, "costs-%016zx.json", std::hash<std::string>{}(identity));
  return cache_directory() + "/" + name;
}

Calibration load_calibration(const std::string& executable) {
  std::string text;
  try {
    text = read_whole_file(cache_file(executable), "the calibration cache");
  } catch (const InputError&) {  // absent, or a directory in its place: measured afresh
    return {};
  }
  try {
    const json parsed = parse_json_document(text, "the calibration cache");
    return parsed.is_discarded() ? Calibration{} : Calibration::from_json(parsed);
  } catch (const SchemaError&) {
    return {};  // nested too deep: damaged, so measured afresh like any damaged cache
  }
}

bool save_calibration(const std::string& executable, const Calibration& calibration) {
  try {
    std::error_code error;
    fs::create_directories(cache_directory(), error);
    write_file_atomically(cache_file(executable), calibration.to_json().dump(1) + "\n");
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

std::vector<std::string> uncalibrated(const Calibration& calibration, const std::vector<std::string>& tiers,
                                      const std::string& integrand) {
  std::vector<std::string> missing;
  for (const auto& tier : tiers)
    if (!calibration.tiers.count(tier_key(tier, integrand)) &&
        !calibration.failed.count(tier_key(tier, integrand)) && unavailable_reason(tier).empty() &&
        unsupported_reason(tier, integrand).empty())
      missing.push_back(tier);
  return missing;
}

namespace {

// A synthetic topology describes another machine; the calibration measures this one, so its workers do
// not see hwloc's variables. They come back when it ends.
class HwlocVariablesAside {
 public:
  HwlocVariablesAside() {
    for (const char* name : {"HWLOC_SYNTHETIC", "HWLOC_XMLFILE"})
      if (const char* value = std::getenv(name)) {
        saved_.emplace_back(name, value);
        unsetenv(name);
      }
  }
  ~HwlocVariablesAside() {
    for (const auto& [name, value] : saved_) setenv(name.c_str(), value.c_str(), 1);
  }
  HwlocVariablesAside(const HwlocVariablesAside&) = delete;
  HwlocVariablesAside& operator=(const HwlocVariablesAside&) = delete;

 private:
  std::vector<std::pair<std::string, std::string>> saved_;
};

// One integrand: its reference at calibration_n (timed: the run computes one for each size), then each
// tier that lacks a cost with it, in workers.
void calibrate_integrand(const std::string& executable, Calibration& calibration,
                         const std::vector<std::string>& tiers, const std::string& integrand, double timeout,
                         const std::string& result_file) {
  const std::vector<std::string> missing = uncalibrated(calibration, tiers, integrand);
  if (missing.empty() && calibration.reference_seconds_per_node.count(integrand)) return;
  Reference ref;
  try {
    const auto started = std::chrono::steady_clock::now();
    ref = reference(integrands()[find_integrand(integrand)], {0, 1}, calibration_n);
    calibration.reference_seconds_per_node[integrand] =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() / calibration_n;
  } catch (const std::exception& failure) {  // no reference, no worker: each tier is left uncalibrated
    for (const auto& tier : missing)
      calibration.failed[tier_key(tier, integrand)] = std::string("no reference: ") + failure.what();
    return;
  }

  Matrix settings;
  settings.integrands = {integrand};
  settings.repetitions = 1;
  settings.min_time = 0.01;
  settings.min_warmup_time = 0.005;
  settings.cpus = 1;
  const cpu_set_t cpus = ThreadBinding::run_cpus();
  const Topology here = read_topology();  // this machine's: hwloc's variables are set aside
  const auto available = process::available_memory().value_or(std::int64_t{4} << 30);
  const std::int64_t memory_limit = std::min(std::int64_t{2} << 30, available / 2);
  for (const auto& tier : missing) {
    settings.tiers = {tier};
    const CellKey cell{{tier, integrand, calibration_n, 1, 1}, 0, 1, false};
    // The faster of two workers: the estimate is for a machine not busy with other work.
    for (int sample = 0; sample < calibration_samples; ++sample) {
      const WorkerOutcome outcome = run_worker_process(
          executable, cell, settings, ref, ThreadBinding::for_cell(find_card(tier), cell, here, cpus, false),
          "", result_file, std::min(timeout, 10.0), memory_limit);
      if (outcome.interrupted) break;
      if (outcome.status != CellStatus::ok || !outcome.measurement || !outcome.worker.wall_seconds) {
        calibration.tiers.erase(tier_key(tier, integrand));
        calibration.failed[tier_key(tier, integrand)] =
            std::string(to_string(outcome.status)) + ": " + outcome.reason;
        break;
      }
      const double call = outcome.measurement->aggregates.median.real_time * 1e-9;
      const CellParts parts = cell_parts(call, 1, settings.min_time, settings.min_warmup_time, 0);
      const Calibration::TierCost cost{call / calibration_n,
                                       std::max(0.0, *outcome.worker.wall_seconds - parts.total()),
                                       outcome.measurement->memory.peak_rss_bytes.value_or(0)};
      auto [kept, first] = calibration.tiers.try_emplace(tier_key(tier, integrand), cost);
      if (!first) {
        kept->second.seconds_per_node = std::min(kept->second.seconds_per_node, cost.seconds_per_node);
        kept->second.worker_seconds = std::min(kept->second.worker_seconds, cost.worker_seconds);
      }
    }
    if (interrupted()) break;
  }
}

}  // namespace

void calibrate(const std::string& executable, Calibration& calibration, const std::vector<std::string>& tiers,
               const std::vector<std::string>& integrands, double timeout) {
  std::size_t pairs = 0;
  for (const auto& integrand : integrands) pairs += uncalibrated(calibration, tiers, integrand).size();
  const bool references_known = std::all_of(
      integrands.begin(), integrands.end(),
      [&](const std::string& integrand) { return calibration.reference_seconds_per_node.count(integrand); });
  if (pairs == 0 && references_known) return;
  std::fprintf(
      stderr,
      "calibrating: %zu tier%s%s once at n = %s on 1 thread (once per build and machine, kept in %s) "
      "…\n",
      pairs, pairs == 1 ? "" : "s", integrands.size() > 1 ? " × integrand" : "",
      format_count(calibration_n).c_str(), cache_directory().c_str());
  const HwlocVariablesAside aside;
  const std::string result_file =
      (fs::temp_directory_path() / ("ladder-calibration-" + std::to_string(getpid()) + ".json")).string();
  for (const auto& integrand : integrands) {
    calibrate_integrand(executable, calibration, tiers, integrand, timeout, result_file);
    if (interrupted()) break;
  }
  std::error_code error;
  fs::remove(result_file, error);
  save_calibration(executable, calibration);
}

void record_cell(const std::string& executable, const CellKey& cell, const Matrix& matrix,
                 double wall_seconds) {
  Calibration calibration = load_calibration(executable);
  if (calibration.cells.size() >= kept_cells) calibration.cells.clear();  // bounded: forget, start again
  calibration.cells[cell_key(cell, matrix)] = wall_seconds;
  save_calibration(executable, calibration);
}

void record_instructions(const std::string& executable, std::size_t tiers, int parallel,
                         double wall_seconds) {
  if (tiers == 0) return;
  const double rounds = std::ceil(static_cast<double>(tiers) / std::max(1, parallel));
  Calibration calibration = load_calibration(executable);
  calibration.instructions_seconds_per_tier = wall_seconds / rounds;
  save_calibration(executable, calibration);
}

}  // namespace ladder

namespace ladder {

void record_runner(const std::string& executable, double seconds_per_cell) {
  Calibration calibration = load_calibration(executable);
  calibration.runner_seconds_per_cell = std::max(0.0, seconds_per_cell);
  save_calibration(executable, calibration);
}

}  // namespace ladder
