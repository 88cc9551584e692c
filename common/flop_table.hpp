// The opcode table behind every FLOP count in Ladder: what one x86 instruction, as objdump prints it
// (AT&T syntax: "vfmadd231pd %zmm1,%zmm2,%zmm3"), does in floating-point operations and whether it takes an
// FP port. The build's static count of a hot loop (tools/vectorization_classify.cpp) and the dynamic count
// over callgrind's per-instruction execution counts (harness/profiling/profiling_flops.cpp) both weigh with
// it, so the two agree by construction wherever they see the same instructions.
//
// The convention (flops_convention below, written beside every count):
// - FLOPs: add, sub, mul, div, sqrt (and addsub, hadd, hsub) = the lanes; fused multiply-add and its kin
//   (vfmadd, vfmsub, vfnmadd, vfnmsub, vfmaddsub, vfmsubadd) = 2 × the lanes. Lanes: a scalar (…sd, …ss)
//   1; packed double (…pd) 2, 4, 8 in xmm, ymm, zmm; packed single (…ps) twice that. An AVX-512 mask is
//   not read: a masked instruction counts all its lanes.
// - FP-port instructions that count no FLOP: min, max, scalef, getexp, getmant, reduce, range, round and
//   rndscale, compare (cmp…, comisd, ucomisd, fpclass), fixupimm, rcp and rsqrt approximations, every
//   conversion to or from floating point (cvt…), and the permutes, shuffles, unpacks and blends of
//   floating-point data (vperm…pd/ps, vpermi2pd, vpermt2pd, vperm2f128, shufpd, unpck…pd, blend…pd).
// - Neither: moves, loads, stores and broadcasts; bitwise and/andn/or/xor on FP registers (sign flips and
//   zeroing idioms, often removed at rename); integer-vector instructions (vpaddq, vpsllq, …); x87.
#pragma once

#include <string_view>

namespace ladder {

struct FlopWeight {
  double flops = 0;             // floating-point operations the instruction performs
  bool fp_instruction = false;  // an FP-port instruction, whether or not it counts FLOPs
};

inline constexpr std::string_view flops_convention =
    "FMA = 2 × lanes; add, sub, mul, div, sqrt = lanes; min, max, scalef, compare, round, convert, permute, "
    "blend: an FP instruction of no FLOP; moves, bitwise and integer-vector instructions: neither";

namespace flop_table_detail {

inline bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}
inline bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}
inline bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

// The widest vector register among the operands, in bits: 512, 256, 128; 0 with none.
inline int register_bits(std::string_view operands) {
  if (contains(operands, "zmm")) return 512;
  if (contains(operands, "ymm")) return 256;
  if (contains(operands, "xmm")) return 128;
  return 0;
}

// The lanes an arithmetic instruction of this precision suffix works on: "sd"/"ss" 1, "pd" and "ps" by
// register width; 0 for another suffix.
inline int lanes(std::string_view suffix, std::string_view operands) {
  if (suffix == "sd" || suffix == "ss") return 1;
  const int bits = register_bits(operands);
  if (suffix == "pd") return bits / 64;
  if (suffix == "ps") return bits / 32;
  return 0;
}

// "vfmadd231pd" → "fmadd231pd": the VEX/EVEX spelling and the SSE one are the same operation.
inline std::string_view without_v(std::string_view mnemonic) {
  static constexpr std::string_view v_instructions[] = {
      "vadd",    "vsub",     "vmul",      "vdiv",     "vsqrt", "vfm",    "vfnm",      "vmin",
      "vmax",    "vcmp",     "vcvt",      "vucomi",   "vcomi", "vround", "vrndscale", "vscalef",
      "vgetexp", "vgetmant", "vreduce",   "vrange",   "vperm", "vshuf",  "vunpck",    "vblend",
      "vhadd",   "vhsub",    "vfixupimm", "vfpclass", "vrcp",  "vrsqrt"};
  for (const auto prefix : v_instructions)
    if (starts_with(mnemonic, prefix)) return mnemonic.substr(1);
  return mnemonic;
}

}  // namespace flop_table_detail

// The weight of one instruction: its mnemonic (prefixes such as "lock" removed) and its operands.
inline FlopWeight flop_weight(std::string_view mnemonic, std::string_view operands) {
  using namespace flop_table_detail;
  const std::string_view op = without_v(mnemonic);
  if (op.size() < 3) return {};
  const std::string_view suffix = op.substr(op.size() - 2);
  const bool fp_suffix = suffix == "pd" || suffix == "ps" || suffix == "sd" || suffix == "ss";
  // Conversions from or to floating point: cvtsi2sd, cvttsd2si, cvtdq2pd, cvtpd2ps, …
  if (starts_with(op, "cvt") && (contains(op, "sd") || contains(op, "pd") || contains(op, "ss") ||
                                 contains(op, "ps") || contains(op, "ph")))
    return {0, true};
  if (starts_with(op, "comis") || starts_with(op, "ucomis")) return {0, true};
  // Whole-lane permutes of floating-point data: vperm2f128, vshuff64x2, vshuff32x4.
  if (op == "perm2f128" || starts_with(op, "shuff")) return {0, true};
  if (!fp_suffix) return {};
  const int width = lanes(suffix, operands);
  if (width == 0) return {};  // a packed instruction without a vector register: not one of ours
  // Fused multiply-add and its kin: vfmadd231pd, vfnmsub132sd, vfmaddsub213pd, …
  if (starts_with(op, "fmadd") || starts_with(op, "fmsub") || starts_with(op, "fnmadd") ||
      starts_with(op, "fnmsub"))
    return {2.0 * width, true};
  const std::string_view operation = op.substr(0, op.size() - 2);
  static constexpr std::string_view arithmetic[] = {"add",  "sub",    "mul",  "div",
                                                    "sqrt", "addsub", "hadd", "hsub"};
  for (const auto name : arithmetic)
    if (operation == name) return {static_cast<double>(width), true};
  static constexpr std::string_view no_flop[] = {
      "min", "max",      "scalef",  "getexp", "getmant", "reduce", "range", "round", "rndscale",
      "cmp", "fixupimm", "fpclass", "rcp",    "rsqrt",   "perm",   "shuf",  "unpck", "blend"};
  for (const auto name : no_flop)
    if (starts_with(operation, name)) return {0, true};
  return {};
}

}  // namespace ladder
