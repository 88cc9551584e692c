// Where the time goes, without a clock: valgrind's callgrind counts the instructions (and, with the opcode
// table of profiling_flops.hpp, the FLOPs) a tier's kernel executes, on the profiling build
// (ladder-profiling, beside the `ladder` binary; CMakeLists.txt says why it targets x86-64-v3). The counts do
// not move with the machine's load, so a change in them is a change in the code.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "instruction_counts.hpp"
#include "profiling_flops.hpp"

namespace ladder::profiling {

// Why instructions cannot be counted here (no valgrind, no profiling build), or empty when they can.
std::string unavailable_reason();

// What the counts depend on besides the code, as {"compiler": "GNU 12.2.0", "glibc": "2.36"}: the compiler
// that made the profiling build (the same as this binary's) and the glibc whose libm and libmvec the kernels
// call. Not the CPU model: the profiling build is fixed at -march=x86-64-v3 and valgrind hides AVX-512, so
// glibc's run-time choices (exp's FMA path, libmvec's AVX2 variants) are the same on every CPU that can
// run it. A baseline counted under another toolchain is not comparable (ladder instructions --baseline).
struct Toolchain {
  std::string compiler, glibc;
};
Toolchain toolchain();

// The instructions a node for each tier, from two callgrind runs at sizes `small` and `large` (the
// difference cancels the call's fixed cost), or why they could not be counted.
InstructionCounts count_instructions(const std::vector<std::string>& tiers, const std::string& integrand,
                                     double a, double b, std::int64_t small = 10000,
                                     std::int64_t large = 30000);

// The FLOPs a node of one tier, counted as count_instructions counts them (two callgrind runs), with the
// share in each object's code: the profiling binary's own (the kernel's loop) and each library's (libm's
// exp). Unavailable when valgrind, the profiling build or objdump is missing; ToolFailed when a run fails.
FlopsPerNode count_flops(const std::string& tier, const std::string& integrand, double a, double b,
                         std::int64_t small = 10000, std::int64_t large = 30000);

// The profiling build's path: LADDER_PROFILING_BINARY, else ladder-profiling beside this program.
std::string profiling_binary();

// One source line's share of a kernel's instructions.
struct LineCost {
  std::string file;  // full path
  int line = 0;
  double instructions = 0;
};

// A line-by-line profile: every instruction of the kernel call (and the calls it makes into libm) charged
// to the innermost line of the project's own sources that it came from, through the compiler's inlining.
struct LineProfile {
  std::string tier, integrand, target, tool;
  std::int64_t n = 0;
  double total = 0;             // every instruction callgrind collected in the call
  double outside = 0;           // in other libraries' code the kernel called (libgomp, libtbb, libc, …)
  std::vector<LineCost> lines;  // the project's lines, most expensive first
};
LineProfile profile_lines(const std::string& tier, const std::string& integrand, double a, double b,
                          std::int64_t n);

// The text `ladder profile` prints: each file's lines with their share, the hottest marked
// (profiling_render.cpp).
std::string render(const LineProfile& profile, int hot_lines = 3);

// This checkout's source directory with a trailing slash, empty where the build did not say: the prefix a
// profile's file names are shown without.
std::string source_directory();

}  // namespace ladder::profiling
