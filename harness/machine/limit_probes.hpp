// Ladder's own probes of the machine's limits, for where likwid-bench is not installed (or fails), and to
// check it: an FMA chain on the widest xsimd batch this build uses (the ceiling a compiled tier can reach,
// as LBNL's Empirical Roofline Tool measures it), and a STREAM-like triad over arrays far larger than the
// last-level cache. Each runs on threads pinned one to a CPU, all started together, and returns every
// run's figure: the caller takes the best.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ladder::probes {

// The doubles an FMA instruction of the chain handles (xsimd's batch<double> in this build), and the
// independent chains each thread keeps in registers (enough to cover the FMA latency on both pipes).
int fma_lanes();
int fma_chains();
// `runs` runs of the FMA chain on one thread pinned to each of `cpus`, each about `seconds` long, after
// one warm-up run; the figures in GFLOP/s (2 FLOPs an FMA a lane, all threads together).
std::vector<double> fma_peak(const std::vector<int>& cpus, int runs, double seconds = 0.03);
std::string fma_method(int threads);

// The bytes the triad's four arrays take together: 16 times the last-level caches of the machine (sum of
// each distinct L3, else L2), at least 512 MiB, at most a quarter of the memory available now.
std::int64_t triad_bytes();
// `runs` passes of a[i] = b[i] + c[i] * d[i] over `bytes` in all, split evenly over one thread pinned to
// each of `cpus` (each thread first touches its own share); GB/s counted as likwid-bench counts its
// triad, 32 bytes an element (three loads and a store; the store's write-allocate read not counted).
std::vector<double> triad_bandwidth(const std::vector<int>& cpus, std::int64_t bytes, int runs);
std::string triad_method(int threads, std::int64_t bytes);

}  // namespace ladder::probes
