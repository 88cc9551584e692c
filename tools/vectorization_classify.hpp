// Whether a tier's hot loop was vectorized, read from the disassembly of its object file: the C++
// counterpart of Cython's annotate view. Built into the library ladder_vectorization_reader, shared by the
// build-time tool (tools/vectorization.cpp) and the tests, which feed it canned disassembly
// (tests/fixtures/vectorization_*.txt).
//
// The input is the text of `objdump -dr --no-show-raw-insn -C OBJECT` (read by disassembly.hpp).
//
// The kernel is found by the integrand it was instantiated for (ladder::Gauss by default); its loops are
// the backward jumps inside a function; the hot loop is the innermost loop with the most floating-point
// work; and the verdict comes from the kind of that work — packed double (…pd on xmm/ymm/zmm) or calls to
// a vector maths library (glibc's libmvec, _ZGV…; SLEEF, Sleef_…d8_u10avx512f) is vectorized, scalar double
// (…sd), scalar libm calls or indirect calls (std::function) are scalar.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "disassembly.hpp"
#include "flop_count.hpp"

namespace ladder::vectorization {

struct Verdict {
  std::string status;  // vectorized, scalar, partly or unknown
  int register_bits = 0;
  int lanes = 0;
  std::string evidence;
  // The hot loop's work a node (flop_count.hpp): null where it calls out, branches inside, reads stored
  // nodes or its nodes a pass cannot be read; flops_evidence says what was counted and why not.
  std::optional<double> flops_per_node{}, fp_instructions_per_node{};
  std::string flops_evidence{};
};

// The verdict for one object's disassembly: the hot loop of the integrand's kernel and what it computes.
Verdict classify(std::string_view objdump_text, const std::string& integrand = "Gauss",
                 const std::vector<std::string>& other_integrands = {"Pi", "Sine", "Poly"});

// The work of the same hot loop, counted whatever it calls (the tests compare the loop's own FLOPs with
// callgrind's count inside the tier's binary); null when the object holds no loop of the kernel.
std::optional<LoopFlops> hot_loop_flops(std::string_view objdump_text, const std::string& integrand = "Gauss",
                                        const std::vector<std::string>& other_integrands = {"Pi", "Sine",
                                                                                            "Poly"});

// The classifier's parts in vectorization_kernel.cpp: the functions of one integrand's kernel (those whose
// name mentions it, its registration lambda, those referring to it and the functions they call, none
// mentioning another integrand), and a function's name without its parameters, return type or deeply
// nested template arguments ("integrate<ladder::Gauss>").
std::vector<const Function*> kernel_functions(const std::vector<Function>& functions,
                                              const std::string& integrand,
                                              const std::vector<std::string>& other_integrands);
std::string short_name(const std::string& name);

}  // namespace ladder::vectorization
