// Measuring the machine's limits with likwid-bench or Ladder's probes, and merging samples
// (measure_limits.hpp).
#include "measure_limits.hpp"

#include <algorithm>
#include <functional>
#include <optional>

#include "clock.hpp"
#include "errors.hpp"
#include "likwid_bench.hpp"
#include "limit_probes.hpp"
#include "text.hpp"

namespace ladder {
namespace {

std::string threads_words(int threads) {
  return std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

// Takes the readings one after the other with one tool: likwid-bench while it works, then the probes.
class Sampler {
 public:
  Sampler(LimitsTool tool, int runs) : runs_(runs) {
    if (tool != LimitsTool::probe) bench_ = likwid::find_bench();
    if (bench_) {
      version_ = likwid::version(*bench_);
      kernels_ = likwid::kernels_for_this_cpu();
    } else if (tool == LimitsTool::likwid) {
      note_ = "likwid-bench is not on PATH (Debian's package `likwid`); Ladder's probe used";
    }
  }

  std::optional<LimitReading> fma(const std::vector<int>& cpus) {
    const int threads = static_cast<int>(cpus.size());
    return reading(
        threads, "GFLOP/s", [&] { return likwid::peak_arguments(kernels_, threads); }, "MFlops/s",
        [&] { return probes::fma_peak(cpus, runs_); }, probes::fma_method(threads), probes::fma_lanes());
  }

  std::optional<LimitReading> bandwidth(const std::vector<int>& cpus, std::int64_t bytes) {
    const int threads = static_cast<int>(cpus.size());
    return reading(
        threads, "GB/s", [&] { return likwid::triad_arguments(kernels_, threads, bytes); }, "MByte/s",
        [&] { return probes::triad_bandwidth(cpus, bytes, runs_); }, probes::triad_method(threads, bytes), 0);
  }

  const std::string& failure() const { return failure_; }

 private:
  using Arguments = std::function<std::vector<std::string>()>;
  using Probe = std::function<std::vector<double>()>;

  std::optional<LimitReading> reading(int threads, const std::string& unit, const Arguments& arguments,
                                      const std::string& label, const Probe& probe,
                                      const std::string& probe_method, int probe_lanes) {
    LimitReading reading;
    reading.threads = threads;
    reading.unit = unit;
    reading.measured_at = now_utc();
    if (bench_) {
      try {
        for (int run = 0; run < runs_; ++run)
          reading.runs.push_back(likwid::run_figure(*bench_, arguments(), label));
        reading.tool = version_;
        reading.method = "likwid-bench " + join(arguments(), " ") + " (its " + label +
                         " line; likwid-bench pins its " + threads_words(threads) +
                         " to the first hwthreads of its domain N)";
        reading.lanes = unit == "GFLOP/s" ? kernels_.lanes : 0;
      } catch (const ToolFailed& failed) {  // from now on the probes, and every reading says why
        note_ = "likwid-bench failed: " + std::string(failed.what()) + "; Ladder's probe used";
        bench_.reset();
        reading.runs.clear();
      }
    }
    if (!bench_) {
      try {
        reading.runs = probe();
      } catch (const ToolFailed& failed) {
        if (failure_.empty()) failure_ = failed.what();
        return std::nullopt;
      }
      reading.tool = "ladder probe";
      reading.method = probe_method;
      reading.lanes = probe_lanes;
    }
    reading.note = note_;
    reading.best = *std::max_element(reading.runs.begin(), reading.runs.end());
    return reading;
  }

  const int runs_;
  std::optional<std::string> bench_;
  std::string version_, note_, failure_;
  likwid::Kernels kernels_;
};

}  // namespace

const std::vector<std::string>& limits_tool_names() {
  static const std::vector<std::string> names = {"auto", "likwid-bench", "probe"};
  return names;
}

LimitsTool parse_limits_tool(const std::string& text) {
  if (text == "auto") return LimitsTool::automatic;
  if (text == "likwid-bench") return LimitsTool::likwid;
  if (text == "probe") return LimitsTool::probe;
  throw InputError("'" + text + "' is not a tool Ladder measures the machine's limits with; accepted: " +
                   join(limits_tool_names()));
}

std::string limits_tool_name(LimitsTool tool) {
  return limits_tool_names().at(static_cast<std::size_t>(tool));
}

MachineLimits measure_machine_limits(const Topology& topology, LimitsTool tool, int runs) {
  MachineLimits limits;
  if (topology.synthetic) {
    limits.reason = "unavailable: the topology is " + topology.source +
                    ", a machine that is only described; there is none here to measure";
    return limits;
  }
  if (runs < 1) throw InputError("the machine's limits need 1 run or more, not " + std::to_string(runs));
  std::vector<int> all;
  for (const auto& pu : topology.pus) all.push_back(pu.os_index);
  const std::vector<int> one = placement(topology, 1);
  const std::int64_t bytes = probes::triad_bytes();
  Sampler sampler(tool, runs);
  limits.fma_one_core = sampler.fma(one);
  limits.fma_all_cores = sampler.fma(all);
  limits.bandwidth_one_core = sampler.bandwidth(one, bytes);
  limits.bandwidth_all_cores = sampler.bandwidth(all, bytes);
  limits.measured =
      limits.fma_one_core || limits.fma_all_cores || limits.bandwidth_one_core || limits.bandwidth_all_cores;
  if (!limits.measured) limits.reason = "unavailable: " + sampler.failure();
  return limits;
}

MachineLimits merge_limits(const std::vector<MachineLimits>& samples) {
  MachineLimits merged;
  merged.reason = samples.empty() ? "not measured" : samples.back().reason;
  for (const auto& sample : samples) {
    if (!sample.measured) continue;
    merged.measured = true;
    merged.reason.clear();
    for (auto member : {&MachineLimits::fma_one_core, &MachineLimits::fma_all_cores,
                        &MachineLimits::bandwidth_one_core, &MachineLimits::bandwidth_all_cores}) {
      const auto& reading = sample.*member;
      auto& into = merged.*member;
      if (!reading) continue;
      if (!into) {
        into = reading;
      } else if (into->tool == reading->tool && into->method == reading->method &&
                 into->threads == reading->threads) {
        into->runs.insert(into->runs.end(), reading->runs.begin(), reading->runs.end());
        into->best = std::max(into->best, reading->best);
      } else if (into->note.find("a later sample") == std::string::npos) {
        into->note += std::string(into->note.empty() ? "" : "; ") + "a later sample, by " + reading->tool +
                      (into->tool == reading->tool ? " another way" : "") + ", is left out (best " +
                      format_number("%.3g", reading->best) + " " + reading->unit + ")";
      }
    }
  }
  return merged;
}

double estimated_limits_seconds(LimitsTool tool, int runs) {
  const double gigabytes = static_cast<double>(probes::triad_bytes()) / 1e9;
  const bool likwid = tool != LimitsTool::probe && likwid::find_bench().has_value();
  if (likwid)  // each run its own start: about 1.2 s of clock calibration, then the kernel (and the arrays)
    return 4 * runs * 1.3 + 2 * runs * gigabytes * 0.5;
  // FMA: warm-up and 30 ms runs, one core then all; triad: first touch (on huge pages where the kernel
  // gives them), a warm-up pass and the runs: 0.2 s and 0.06 s a GB, as a 2-vCPU VM took them (5.5 s a
  // sample of 4.8 GB)
  return 2 * (0.1 + runs * 0.035) + 2 * (gigabytes * 0.2 + (runs + 1) * gigabytes * 0.06);
}

}  // namespace ladder
