// objdump's disassembly of an object file, read into functions and their instructions: the input of the
// vectorization classifier (vectorization_classify.hpp).
//
// The input is the text of `objdump -dr --no-show-raw-insn -C OBJECT`. The relocations (-r) are needed:
// in an object file a call to another section or library is not resolved yet, and only its relocation
// names the callee (exp, _ZGVeN8v_exp, …).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ladder::vectorization {

struct Instruction {
  std::uint64_t address = 0;
  std::string mnemonic;  // prefixes (rep, lock, notrack, data16, …) removed
  std::string operands;
  std::string callee;  // for a call: the symbol named by its relocation or resolved target; "*" if indirect
  std::string relocation_symbol;  // any symbol a relocation in this instruction refers to
};

struct Function {
  std::string name;  // as objdump prints it (demangled with -C where the demangler can)
  std::uint64_t start = 0;
  std::vector<Instruction> instructions;
};

// The functions in objdump's text, each with its instructions and the callee of each call.
std::vector<Function> parse_objdump(std::string_view text);

bool is_jump(const std::string& mnemonic);
bool is_call(const std::string& mnemonic);

// "11d8 <integrate<…>+0x148>" → 0x11d8: a direct branch's target, resolved within the section.
std::optional<std::uint64_t> branch_target(const std::string& operands);

// "exp@plt", "exp@@GLIBC_2.29" → "exp".
std::string base_symbol(const std::string& symbol);

}  // namespace ladder::vectorization
