// The static FLOP count of a hot loop: one pass through its body, instruction by instruction, weighed by the
// opcode table (common/flop_table.hpp), divided by the nodes a pass, which are read from the loop itself.
// The vectorization classifier (vectorization_classify.hpp) runs it on the loop it found; the tests run it
// on the profiling build's objects and compare it with callgrind's dynamic count.
//
// The nodes a pass come from the loop's counter: a register the loop steps by a constant (add $32, lea 32(…),
// inc) and either converts to a double (vcvtsi2sd: the node index, as every kernel of Ladder computes the
// node from it) or uses as the index of an array of doubles ((%rbx,%rax,8): the loop reads stored nodes). A
// pass is the straight line from the loop's head to its backward jump: a conditional jump out of the loop
// (the tuned exp's path for out-of-range arguments) is counted as not taken and said; a jump to inside the
// loop makes the pass something else, and the count is refused.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "disassembly.hpp"

namespace ladder::vectorization {

struct LoopFlops {
  std::uint64_t first = 0, last = 0;      // the loop's head and its backward jump
  double flops = 0, fp_instructions = 0;  // one pass through the body
  std::map<std::string, int> mix;         // "vfmadd…pd zmm" → how many a pass: the FP instructions
  std::optional<int> nodes;               // nodes a pass, when the counter says
  std::string counter;                    // how they were read ("index %rax, converted by vcvtsi2sd, +32")
  bool reads_stored_nodes = false;        // the counter indexes an array of doubles another loop filled
  int calls = 0;           // calls inside (exp, std::function, libmvec): their work is elsewhere
  int inner_branches = 0;  // jumps to inside the loop, or unconditional ones, besides its backward jump
  int side_exits = 0;      // conditional jumps out of the loop: the straight line is the path not taking them

  // Why the pass's work is not the work a node (calls, branches, nodes not read, a node array filled
  // elsewhere), or empty when it is.
  std::string not_per_node() const;
  std::optional<double> flops_per_node() const;
  std::optional<double> fp_instructions_per_node() const;
  // "loop 0x20f0–0x2348: 36 vfmadd…pd zmm, 12 vaddpd zmm, … for 32 nodes (index %rax, …): 27 FLOPs and
  // 2.625 FP instructions a node", or the same with why it is not a count a node.
  std::string evidence() const;
};

// The work of the loop [first, last] of `function` (last: the address of its backward jump).
LoopFlops count_loop(const Function& function, std::uint64_t first, std::uint64_t last);

}  // namespace ladder::vectorization
