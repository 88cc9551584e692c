// The static FLOP count of a hot loop (flop_count.hpp).
#include "flop_count.hpp"

#include <algorithm>
#include <cstdio>
#include <regex>
#include <vector>

#include "flop_table.hpp"

namespace ladder::vectorization {
namespace {

// "%ebx", "%rbx", "%r8d" → "rbx", "r8": one name for a general register and its narrower views.
std::string register_name(std::string text) {
  if (!text.empty() && text[0] == '%') text.erase(0, 1);
  if (text.size() >= 2 && text[0] == 'r' && std::isdigit(static_cast<unsigned char>(text[1]))) {
    while (!text.empty() && !std::isdigit(static_cast<unsigned char>(text.back()))) text.pop_back();
    return text;
  }
  if (text.size() == 3 && text[0] == 'e') text[0] = 'r';
  return text;
}

// The constant step of a counter update, and its register: add $0x20,%rax; sub $0x1,%rcx; inc %rbx;
// lea 0x20(%rax),%rax.
std::optional<std::pair<std::string, long long>> counter_step(const Instruction& instruction) {
  static const std::regex immediate(R"(^\$(-?0x[0-9a-f]+|-?\d+),(%\w+)$)");
  static const std::regex lea(R"(^(-?0x[0-9a-f]+|-?\d+)\((%\w+)\),(%\w+)$)");
  const std::string& mnemonic = instruction.mnemonic;
  std::smatch match;
  // objdump prints a negative immediate as its 64-bit pattern ($0xfffffffffffffff0 is -16): read the bits.
  auto number = [](const std::string& text) {
    const bool negative = text.starts_with('-');
    const auto bits = static_cast<long long>(std::stoull(negative ? text.substr(1) : text, nullptr, 0));
    return negative ? -bits : bits;
  };
  if ((mnemonic.rfind("add", 0) == 0 || mnemonic.rfind("sub", 0) == 0) && mnemonic.size() <= 4 &&
      std::regex_match(instruction.operands, match, immediate)) {
    const long long step = number(match[1].str());
    return std::pair{register_name(match[2].str()), mnemonic[0] == 'a' ? step : -step};
  }
  if ((mnemonic == "inc" || mnemonic == "dec") && instruction.operands.rfind('%', 0) == 0)
    return std::pair{register_name(instruction.operands), mnemonic == "inc" ? 1LL : -1LL};
  if (mnemonic == "lea" && std::regex_match(instruction.operands, match, lea) &&
      register_name(match[2].str()) == register_name(match[3].str()))
    return std::pair{register_name(match[3].str()), number(match[1].str())};
  return std::nullopt;
}

// "vfmadd231pd" → "vfmadd…pd": the operand orders (132, 213, 231) are one operation.
std::string operation_name(const std::string& mnemonic) {
  static const std::regex order("(132|213|231)");
  return std::regex_replace(mnemonic, order, "…");
}

std::string width_name(const std::string& operands) {
  if (operands.find("%zmm") != std::string::npos) return " zmm";
  if (operands.find("%ymm") != std::string::npos) return " ymm";
  if (operands.find("%xmm") != std::string::npos) return " xmm";
  return "";
}

std::string hex(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

std::string decimal(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

// The nodes a pass, from the loop's counters: a converted index first, else an index into doubles.
void read_nodes(LoopFlops& loop, const std::vector<const Instruction*>& body) {
  std::map<std::string, long long> steps;
  for (const auto* instruction : body)
    if (const auto step = counter_step(*instruction)) steps[step->first] += step->second;
  for (const auto& [name, step] : steps) {
    if (step == 0) continue;
    for (const auto* instruction : body)
      if (instruction->mnemonic.find("cvtsi2sd") != std::string::npos &&
          register_name(instruction->operands.substr(0, instruction->operands.find(','))) == name) {
        loop.nodes = static_cast<int>(std::llabs(step));
        loop.counter = "index %" + name + ", converted by " + instruction->mnemonic + ", steps by " +
                       std::to_string(std::llabs(step));
        return;
      }
  }
  for (const auto& [name, step] : steps) {
    if (step == 0) continue;
    const std::regex scaled(",%" + name + ",8\\)");
    for (const auto* instruction : body)
      if (flop_weight(instruction->mnemonic, instruction->operands).fp_instruction &&
          std::regex_search(instruction->operands, scaled)) {
        loop.nodes = static_cast<int>(std::llabs(step));
        loop.reads_stored_nodes = true;
        loop.counter =
            "index %" + name + " into an array of doubles, steps by " + std::to_string(std::llabs(step));
        return;
      }
  }
}

}  // namespace

LoopFlops count_loop(const Function& function, std::uint64_t first, std::uint64_t last) {
  LoopFlops loop;
  loop.first = first, loop.last = last;
  std::vector<const Instruction*> body;
  for (const auto& instruction : function.instructions)
    if (instruction.address >= first && instruction.address <= last) body.push_back(&instruction);
  for (const auto* instruction : body) {
    if (is_call(instruction->mnemonic)) ++loop.calls;
    if (is_jump(instruction->mnemonic) && instruction->address != last) {
      // A conditional jump out of the loop leaves the straight line only when taken (a rare-input path, an
      // early exit); one to inside the loop, or an unconditional one, makes the pass something else.
      const auto target = branch_target(instruction->operands);
      const bool leaves = target && (*target < first || *target > last);
      if (leaves && instruction->mnemonic != "jmp")
        ++loop.side_exits;
      else
        ++loop.inner_branches;
    }
    const FlopWeight weight = flop_weight(instruction->mnemonic, instruction->operands);
    if (!weight.fp_instruction) continue;
    loop.flops += weight.flops;
    loop.fp_instructions += 1;
    ++loop.mix[operation_name(instruction->mnemonic) + width_name(instruction->operands)];
  }
  read_nodes(loop, body);
  return loop;
}

std::string LoopFlops::not_per_node() const {
  if (calls > 0)
    return "the loop calls out (" + std::to_string(calls) + (calls > 1 ? " calls" : " call") +
           " a pass): the callee's work is not in its disassembly";
  if (inner_branches > 0)
    return "the loop branches inside (" + std::to_string(inner_branches) +
           (inner_branches > 1 ? " jumps" : " jump") + "): the path a pass takes is not its straight line";
  if (!nodes)
    return "its nodes a pass cannot be read: no register the loop steps by a constant is converted to a "
           "double or indexes an array of doubles";
  if (reads_stored_nodes)
    return "the loop reads nodes another loop stored: the FLOPs that made them are not in it";
  return "";
}

std::optional<double> LoopFlops::flops_per_node() const {
  if (!not_per_node().empty()) return std::nullopt;
  return flops / *nodes;
}

std::optional<double> LoopFlops::fp_instructions_per_node() const {
  if (!not_per_node().empty()) return std::nullopt;
  return fp_instructions / *nodes;
}

std::string LoopFlops::evidence() const {
  std::vector<std::pair<std::string, int>> ordered(mix.begin(), mix.end());
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const auto& x, const auto& y) { return x.second > y.second; });
  std::string text = "loop " + hex(first) + "–" + hex(last) + ": ";
  for (std::size_t i = 0; i < ordered.size(); ++i)
    text += (i ? ", " : "") + std::to_string(ordered[i].second) + " " + ordered[i].first;
  if (ordered.empty()) text += "no FP instructions";
  text += " = " + decimal(flops) + " FLOPs, " + decimal(fp_instructions) + " FP instructions a pass";
  if (nodes) text += ", for " + std::to_string(*nodes) + " nodes (" + counter + ")";
  if (side_exits > 0)
    text += ", on the straight line past " + std::to_string(side_exits) + " conditional exit" +
            (side_exits > 1 ? "s" : "") + " from the loop";
  if (const auto why = not_per_node(); !why.empty()) {
    if (nodes && *nodes > 0) text += "; " + decimal(flops / *nodes) + " FLOPs a node in the loop itself";
    return text + "; not counted a node: " + why;
  }
  return text + ": " + decimal(*flops_per_node()) + " FLOPs, " + decimal(*fp_instructions_per_node()) +
         " FP instructions a node";
}

}  // namespace ladder::vectorization
