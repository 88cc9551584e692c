// FLOPs without counters: callgrind's execution count of every instruction (--dump-instr=yes) weighed by the
// opcode table (common/flop_table.hpp), each object's code read by objdump: the profiling binary's own and
// that of every library the kernel called into (libm's exp, libmvec, libgomp). The instruction counts
// (profiling.hpp) take their FLOPs a node from the same two callgrind runs.
#pragma once

#include <map>
#include <optional>
#include <string>

namespace ladder::profiling {

// What one callgrind run executed: FLOPs, FP-port instructions, and the FLOPs in each object's code.
struct ExecutedFlops {
  double flops = 0, fp_instructions = 0;
  std::map<std::string, double> flops_by_object;  // the object's path, as callgrind names it → FLOPs
};

// The FLOPs in a callgrind output written with --dump-instr=yes --compress-pos=no --compress-strings=no.
// Throws ToolFailed when objdump cannot read an object's code.
ExecutedFlops executed_flops(const std::string& callgrind_file);

// Why FLOPs cannot be counted here (no objdump), or empty when they can.
std::string flops_unavailable_reason();

// How the FLOPs were counted, in words, for InstructionCounts::flops_method.
std::string flops_method(const std::string& target);

// The FLOPs and FP instructions a node between two runs at sizes small < large: the difference cancels the
// call's fixed cost. flops_by_object: the same slope in each object's code.
struct FlopsPerNode {
  double flops = 0, fp_instructions = 0;
  std::map<std::string, double> flops_by_object;
};
FlopsPerNode flops_per_node(const ExecutedFlops& small, const ExecutedFlops& large, double nodes_between);

}  // namespace ladder::profiling
