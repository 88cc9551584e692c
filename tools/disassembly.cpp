// Reading objdump's text (disassembly.hpp).
#include "disassembly.hpp"

#include <regex>
#include <set>
#include <sstream>

namespace ladder::vectorization {
namespace {

std::string strip_offset(std::string symbol) {
  static const std::regex offset(R"([+-]0x[0-9a-f]+$)");
  return std::regex_replace(symbol, offset, "");
}

bool is_prefix(const std::string& word) {
  static const std::set<std::string> prefixes = {"rep", "repz",    "repnz",  "repe", "repne", "lock",
                                                 "bnd", "notrack", "data16", "cs",   "ds",    "addr32"};
  return prefixes.count(word) != 0;
}

// "1090 <integrate<ladder::Gauss>(…)>" → "integrate<ladder::Gauss>(…)" when the target is another
// function's start (no +0x offset): a call or tail jump within the section.
std::string resolved_callee(const std::string& operands) {
  const auto open = operands.find('<');
  if (open == std::string::npos || operands.back() != '>') return {};
  std::string name = operands.substr(open + 1, operands.size() - open - 2);
  static const std::regex offset(R"(\+0x[0-9a-f]+$)");
  return std::regex_search(name, offset) ? std::string{} : name;
}

}  // namespace

std::string base_symbol(const std::string& symbol) { return symbol.substr(0, symbol.find('@')); }

// x86's jumps (jne, jmp, loop) and aarch64's branches (b, b.ne, cbz, cbnz, tbz, tbnz), whose target comes
// after a register and a bit number: "cbnz x1, 40 <f+0x40>".
bool is_jump(const std::string& mnemonic) {
  static const std::set<std::string> aarch64 = {"b", "cbz", "cbnz", "tbz", "tbnz"};
  return (mnemonic.size() >= 2 && mnemonic[0] == 'j') || mnemonic.rfind("loop", 0) == 0 ||
         mnemonic.rfind("b.", 0) == 0 || aarch64.count(mnemonic) != 0;
}

// x86's call; aarch64's branch with link, bl (direct) and blr (through a register).
bool is_call(const std::string& mnemonic) {
  return mnemonic.rfind("call", 0) == 0 || mnemonic == "bl" || mnemonic == "blr";
}

std::optional<std::uint64_t> branch_target(const std::string& operands) {
  static const std::regex target(R"((?:^|, )([0-9a-f]+) <)");
  std::smatch match;
  if (!std::regex_search(operands, match, target)) return std::nullopt;
  return std::stoull(match[1].str(), nullptr, 16);
}

std::vector<Function> parse_objdump(std::string_view text) {
  static const std::regex function_line(R"(^([0-9a-f]+) <(.*)>:$)");
  static const std::regex instruction_line(R"(^\s*([0-9a-f]+):\t(.*)$)");
  static const std::regex relocation_line(R"(^\s*([0-9a-f]+): (R_\w+)\s+(.*)$)");
  std::vector<Function> functions;
  std::istringstream lines{std::string(text)};
  for (std::string line; std::getline(lines, line);) {
    std::smatch match;
    if (std::regex_match(line, match, function_line)) {
      functions.push_back({match[2].str(), std::stoull(match[1].str(), nullptr, 16), {}});
    } else if (std::regex_match(line, match, relocation_line)) {
      if (functions.empty() || functions.back().instructions.empty()) continue;
      auto& instruction = functions.back().instructions.back();
      instruction.relocation_symbol = strip_offset(match[3].str());
      if (is_call(instruction.mnemonic) || is_jump(instruction.mnemonic))
        instruction.callee = instruction.relocation_symbol;
    } else if (std::regex_match(line, match, instruction_line) && !functions.empty()) {
      Instruction instruction;
      instruction.address = std::stoull(match[1].str(), nullptr, 16);
      std::istringstream words(match[2].str());
      while (words >> instruction.mnemonic && is_prefix(instruction.mnemonic)) {
      }
      std::getline(words >> std::ws, instruction.operands);
      while (!instruction.operands.empty() && instruction.operands.back() == ' ')
        instruction.operands.pop_back();
      if (is_call(instruction.mnemonic)) {
        const bool indirect = instruction.operands.rfind('*', 0) == 0 || instruction.mnemonic == "blr";
        instruction.callee = indirect ? "*" : resolved_callee(instruction.operands);
      } else if (is_jump(instruction.mnemonic)) {
        instruction.callee = resolved_callee(instruction.operands);
      }
      functions.back().instructions.push_back(std::move(instruction));
    }
  }
  return functions;
}

}  // namespace ladder::vectorization
