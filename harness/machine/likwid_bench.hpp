// likwid-bench (Debian's `likwid`), where it is installed: the machine's FMA peak and triad bandwidth by
// its hand-written kernels. It runs without hardware counters or MSRs (so in a VM), pins its own threads
// (domain N, its first hwthreads) and prints no JSON: the figure is its `MFlops/s:` or `MByte/s:` line.
// Two traps: `-s` takes whole seconds (`-s 0.5` runs 10 iterations), so runs are sized by `-i`; and every
// start spends about a second calibrating its clock (two 0.5 s sleeps) before the kernel runs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ladder::likwid {

// likwid-bench's path on PATH; nullopt when there is none.
std::optional<std::string> find_bench();
// "likwid-bench 5.2.2", from `likwid-bench -v`.
std::string version(const std::string& bench);

// The kernels for this CPU: peakflops_avx512_fma with AVX-512, peakflops_avx_fma with AVX2 and FMA, else
// peakflops_sse; the triad likewise. lanes: the doubles an FMA of the peak kernel handles.
struct Kernels {
  std::string peak, triad;
  int lanes = 2;
};
Kernels kernels_for_this_cpu();

// The arguments of one run (without the program): `threads` threads on domain N, each with 24 kB (in
// L1) for the peak, or `bytes` in all for the triad.
std::vector<std::string> peak_arguments(const Kernels& kernels, int threads);
std::vector<std::string> triad_arguments(const Kernels& kernels, int threads, std::int64_t bytes);

// The figure `label` ("MFlops/s", "MByte/s") from likwid-bench's output; nullopt when the output has no
// such line with a positive number.
std::optional<double> parse_figure(const std::string& output, const std::string& label);

// Runs likwid-bench with `arguments` and returns its figure under `label`, converted to G (÷ 1000);
// throws ToolFailed with its exit status and output when it fails or prints no figure.
double run_figure(const std::string& bench, const std::vector<std::string>& arguments,
                  const std::string& label);

}  // namespace ladder::likwid
