// The classifier (vectorization_classify.hpp): the innermost loops of the kernel's functions (found by
// vectorization_kernel.cpp), the work in each, and the verdict on the hottest.
#include "vectorization_classify.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "disassembly.hpp"

namespace ladder::vectorization {
namespace {

// What one instruction contributes to a loop's floating-point work.
enum class Work { none, packed_double, scalar_double, vector_call, scalar_call, indirect_call, other_call };

struct VectorCall {
  int register_bits;
  int lanes;
  std::string isa;
  std::string library;
};

// A call to a vector maths library: glibc's vector ABI names, _ZGV<isa>N<lanes>v_<function> (isa b = SSE,
// c = AVX, d = AVX2, e = AVX-512), or SLEEF's, Sleef_<function>d<lanes>_u<ulps><isa> for doubles
// (Sleef_expd8_u10avx512f).
std::optional<VectorCall> libmvec(const std::string& symbol) {
  static const std::regex glibc(R"(_ZGV([bcden])N(\d+)v+_\w+)");  // n: aarch64's AdvSIMD (glibc 2.38)
  static const std::regex sleef(R"(Sleef_[a-z0-9]+?d(\d+)_u\d+([a-z0-9]+))");
  std::smatch match;
  if (std::regex_search(symbol, match, sleef)) {
    const int lanes = std::stoi(match[1].str());
    return VectorCall{64 * lanes, lanes, match[2].str(), "SLEEF"};
  }
  if (!std::regex_search(symbol, match, glibc)) return std::nullopt;
  const char isa = match[1].str()[0];
  const int bits = isa == 'b' || isa == 'n' ? 128 : isa == 'e' ? 512 : 256;
  const std::string isa_name = isa == 'b'   ? "SSE"
                               : isa == 'c' ? "AVX"
                               : isa == 'd' ? "AVX2"
                               : isa == 'n' ? "AdvSIMD"
                                            : "AVX-512";
  return VectorCall{bits, std::stoi(match[2].str()), isa_name, "libmvec"};
}

bool scalar_math(const std::string& symbol) {
  static const std::set<std::string> functions = {
      "exp",  "sin",  "cos",  "log",  "pow",          "tan",  "atan", "exp2",     "expm1",   "log1p",
      "sqrt", "sinh", "cosh", "tanh", "__exp_finite", "expf", "sinf", "std::exp", "std::sin"};
  return functions.count(base_symbol(symbol)) != 0;
}

// Arithmetic only: moves, shuffles and bitwise ops (a sign flip is an xorpd even in scalar code, and
// zeroing a register before a conversion is vxorpd x,x,x) say nothing about the loop's width.
bool arithmetic(std::string mnemonic) {
  if (mnemonic.size() > 1 && mnemonic[0] == 'v') mnemonic.erase(0, 1);
  static const std::vector<std::string> operations = {
      "add",   "sub",      "mul", "div",    "fmadd",  "fmsub",   "fnmadd", "fnmsub", "sqrt", "min", "max",
      "round", "rndscale", "cvt", "scalef", "getexp", "getmant", "reduce", "range",  "cmp",  "hadd"};
  return std::any_of(operations.begin(), operations.end(),
                     [&](const std::string& operation) { return mnemonic.rfind(operation, 0) == 0; });
}

bool ends_with(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// aarch64, in objdump's own syntax (registers without %): NEON "fmla v0.2d, v1.2d, v2.2d", SVE
// "fmla z0.d, p0/m, z1.d, z2.d" (a scalable register: as many doubles as the CPU's vector length holds),
// scalar "fmadd d0, d1, d2, d3". Arithmetic only, as above: fmov, fneg, fabs and the bitwise ops are not.
bool aarch64(const Instruction& instruction) {
  return !instruction.operands.empty() && instruction.operands.find('%') == std::string::npos;
}
bool aarch64_arithmetic(const std::string& mnemonic) {
  static const std::vector<std::string> operations = {"fadd",  "fsub",   "fmul",  "fdiv",  "fml",    "fma",
                                                      "fms",   "fnm",    "fsqrt", "fmin",  "fmax",   "frint",
                                                      "fcvt",  "scvtf",  "ucvtf", "fcm",   "fscale", "fexpa",
                                                      "ftmad", "ftsmul", "fabd",  "frecp", "frsqrt"};
  return std::any_of(operations.begin(), operations.end(),
                     [&](const std::string& operation) { return mnemonic.rfind(operation, 0) == 0; });
}
bool sve_register(const std::string& operands) {
  static const std::regex z_doubles(R"(\bz\d+\.d\b)");
  return std::regex_search(operands, z_doubles);
}
Work classify_aarch64(const Instruction& instruction) {
  if (!aarch64_arithmetic(instruction.mnemonic)) return Work::none;
  static const std::regex neon_doubles(R"(\bv\d+\.2d\b)"), scalar_double(R"(^d\d+\b)");
  if (sve_register(instruction.operands) || std::regex_search(instruction.operands, neon_doubles))
    return Work::packed_double;
  return std::regex_search(instruction.operands, scalar_double) ? Work::scalar_double : Work::none;
}

Work classify_instruction(const Instruction& instruction) {
  const auto& mnemonic = instruction.mnemonic;
  if (is_call(mnemonic)) {
    if (instruction.callee == "*") return Work::indirect_call;
    if (libmvec(instruction.callee)) return Work::vector_call;
    if (scalar_math(instruction.callee)) return Work::scalar_call;
    return Work::other_call;
  }
  if (aarch64(instruction)) return classify_aarch64(instruction);
  if (!arithmetic(mnemonic)) return Work::none;
  // cvtdq2pd / cvtsi2sd: the destination says the width; pd2dq and sd2si convert the other way.
  if (ends_with(mnemonic, "pd") || mnemonic.find("pd2") != std::string::npos) return Work::packed_double;
  if (ends_with(mnemonic, "sd") || mnemonic.find("sd2") != std::string::npos) return Work::scalar_double;
  return Work::none;
}

// An SVE register counts as 128 bits, the least any SVE CPU has; the loop is marked scalable beside it.
int register_bits(const std::string& operands) {
  if (operands.find("%zmm") != std::string::npos) return 512;
  if (operands.find("%ymm") != std::string::npos) return 256;
  if (operands.find("%xmm") != std::string::npos) return 128;
  if (operands.find('%') == std::string::npos &&
      (operands.find(".2d") != std::string::npos || sve_register(operands)))
    return 128;
  return 0;
}

// A call in a loop is the integrand (exp, sin, or f through std::function): it weighs as much as an
// inlined exp, about 20 floating-point instructions, so a loop evaluating f outweighs one filling a node
// array with a few packed instructions (naive). Vector work counts double, since a packed instruction or a
// vector call does the work of at least two scalar ones: a vectorized loop outweighs its own scalar
// remainder loop, which has about as many instructions and calls the scalar exp.
constexpr int call_weight = 20;
constexpr int vector_weight = 2;

struct Loop {
  const Function* function;
  std::uint64_t first;  // the jump target: the loop's head
  std::uint64_t last;   // the backward jump
};

struct LoopWork {
  int packed = 0, scalar = 0, widest_packed_bits = 0;
  bool arm = false, scalable = false;  // aarch64 code; packed work in SVE's scalable registers
  std::map<std::string, int> calls;    // callee (or "*" for indirect) → count, FP-relevant calls only
  int vector_calls = 0, scalar_calls = 0, indirect_calls = 0;
  int vector_call_bits = 0;  // the widest vector call's register

  int vector_work() const { return vector_weight * (packed + call_weight * vector_calls); }
  int scalar_work() const { return scalar + call_weight * (scalar_calls + indirect_calls); }
  int total() const { return vector_work() + scalar_work(); }
};

LoopWork measure(const Loop& loop) {
  LoopWork work;
  for (const auto& instruction : loop.function->instructions) {
    if (instruction.address < loop.first || instruction.address > loop.last) continue;
    switch (classify_instruction(instruction)) {
      case Work::packed_double:
        ++work.packed;
        work.widest_packed_bits = std::max(work.widest_packed_bits, register_bits(instruction.operands));
        work.arm = work.arm || aarch64(instruction);
        work.scalable = work.scalable || sve_register(instruction.operands);
        break;
      case Work::scalar_double:
        ++work.scalar;
        break;
      case Work::vector_call: {
        const auto call = *libmvec(instruction.callee);
        ++work.vector_calls, ++work.calls[instruction.callee];
        work.vector_call_bits = std::max(work.vector_call_bits, call.register_bits);
        break;
      }
      case Work::scalar_call:
        ++work.scalar_calls, ++work.calls[base_symbol(instruction.callee)];
        break;
      case Work::indirect_call:
        ++work.indirect_calls, ++work.calls["*"];
        break;
      case Work::other_call:
      case Work::none:
        break;
    }
  }
  return work;
}

// Loops are backward jumps inside one function; several jumps back to one head are one loop.
std::vector<Loop> loops_of(const Function& function) {
  std::map<std::uint64_t, std::uint64_t> last_jump_to;
  for (const auto& instruction : function.instructions) {
    if (!is_jump(instruction.mnemonic) || !instruction.relocation_symbol.empty()) continue;
    const auto target = branch_target(instruction.operands);
    if (!target || *target >= instruction.address || *target < function.start) continue;
    auto& last = last_jump_to[*target];
    last = std::max(last, instruction.address);
  }
  std::vector<Loop> loops;
  for (const auto& [first, last] : last_jump_to) loops.push_back({&function, first, last});
  return loops;
}

std::vector<Loop> innermost(const std::vector<Loop>& loops) {
  std::vector<Loop> result;
  for (const auto& loop : loops) {
    const bool contains_another = std::any_of(loops.begin(), loops.end(), [&](const Loop& other) {
      return &other != &loop && other.function == loop.function && loop.first <= other.first &&
             other.last <= loop.last;
    });
    if (!contains_another) result.push_back(loop);
  }
  return result;
}

std::string call_summary(const LoopWork& work) {
  if (work.calls.empty()) return "no calls";
  std::string text;
  for (const auto& [callee, count] : work.calls) {
    if (!text.empty()) text += ", ";
    if (callee == "*") {
      text += std::to_string(count) + " indirect call" + (count > 1 ? "s" : "") + " (std::function)";
    } else if (const auto call = libmvec(callee)) {
      text += "calls " + callee + " " + std::to_string(count) + "× (" + call->library + " " + call->isa +
              ", " + std::to_string(call->lanes) + " lanes)";
    } else {
      text += "calls " + callee + " " + std::to_string(count) + "× (scalar libm)";
    }
  }
  return text;
}

std::string hex(std::uint64_t value) {
  std::ostringstream text;
  text << "0x" << std::hex << value;
  return text.str();
}

}  // namespace

namespace {

bool is_cuda(const std::vector<Function>& functions) {
  return std::any_of(functions.begin(), functions.end(), [](const Function& function) {
    return std::any_of(function.instructions.begin(), function.instructions.end(),
                       [](const Instruction& call) {
                         return call.callee.find("cudaLaunchKernel") != std::string::npos ||
                                call.callee.find("__cudaRegisterFunction") != std::string::npos;
                       });
  });
}

// The kernel's hot loop: its innermost loop with the most floating-point work.
struct Hot {
  std::size_t functions = 0, loops = 0;
  std::optional<Loop> loop;
  LoopWork work;
};
Hot find_hot(const std::vector<Function>& functions, const std::string& integrand,
             const std::vector<std::string>& other_integrands) {
  const auto kernel = kernel_functions(functions, integrand, other_integrands);
  Hot hot;
  hot.functions = kernel.size();
  std::vector<Loop> loops;
  for (const auto* function : kernel) {
    const auto found = innermost(loops_of(*function));
    loops.insert(loops.end(), found.begin(), found.end());
  }
  hot.loops = loops.size();
  for (const auto& loop : loops) {
    const auto work = measure(loop);
    if (!hot.loop || work.total() > hot.work.total()) hot.loop = loop, hot.work = work;
  }
  return hot;
}

}  // namespace

std::optional<LoopFlops> hot_loop_flops(std::string_view objdump_text, const std::string& integrand,
                                        const std::vector<std::string>& other_integrands) {
  const auto functions = parse_objdump(objdump_text);
  const Hot hot = find_hot(functions, integrand, other_integrands);
  if (!hot.loop) return std::nullopt;
  return count_loop(*hot.loop->function, hot.loop->first, hot.loop->last);
}

Verdict classify(std::string_view objdump_text, const std::string& integrand,
                 const std::vector<std::string>& other_integrands) {
  const auto functions = parse_objdump(objdump_text);
  if (is_cuda(functions))
    return {"unknown", 0, 0,
            "a CUDA kernel: its loop is GPU code, not in the x86 disassembly of the host object"};

  const Hot found = find_hot(functions, integrand, other_integrands);
  if (found.functions == 0)
    return {"unknown", 0, 0, "no function of the ladder::" + integrand + " kernel in the object"};
  const std::optional<Loop>& hot = found.loop;
  const LoopWork& hot_work = found.work;
  if (!hot || hot_work.total() == 0)
    return {"unknown", 0, 0,
            std::to_string(found.functions) + " function(s) of the ladder::" + integrand + " kernel, " +
                std::to_string(found.loops) + " innermost loop(s), none with floating-point work"};

  const int vector_work = hot_work.vector_work(), scalar_work = hot_work.scalar_work();
  const int total = vector_work + scalar_work;
  // Both kinds "substantially": each is at least a quarter of the loop's work.
  const std::string status = 4 * std::min(vector_work, scalar_work) >= total ? "partly"
                             : vector_work > scalar_work                     ? "vectorized"
                                                                             : "scalar";
  int bits = std::max(hot_work.widest_packed_bits, hot_work.vector_call_bits);
  int lanes = bits / 64;
  if (status == "scalar") bits = 64, lanes = 1;

  const std::string location = short_name(hot->function->name) + "+" + hex(hot->first - hot->function->start);
  // On aarch64: " NEON" (v registers, 2 doubles) or " SVE" (z registers: 2 doubles per 128 bits of the
  // CPU's vector length, which the code reads at run time; lanes says the least, 2).
  const std::string width = hot_work.scalable                    ? " SVE (scalable z)"
                            : hot_work.arm                       ? " NEON"
                            : hot_work.widest_packed_bits == 512 ? " zmm"
                            : hot_work.widest_packed_bits == 256 ? " ymm"
                            : hot_work.widest_packed_bits == 128 ? " xmm"
                                                                 : "";
  const std::string evidence = "hot loop at " + location + ": " + std::to_string(hot_work.packed) +
                               " packed-double" + width + " instructions, " +
                               std::to_string(hot_work.scalar) + " scalar-double; " + call_summary(hot_work);
  const LoopFlops work = count_loop(*hot->function, hot->first, hot->last);
  return {status,
          bits,
          lanes,
          evidence,
          work.flops_per_node(),
          work.fp_instructions_per_node(),
          short_name(hot->function->name) + " " + work.evidence()};
}

}  // namespace ladder::vectorization
