// FLOPs a node, counted two ways: the opcode table on known instruction lines (FlopTable, quick), the bytes
// a node on the cards (CardWork, quick), and
// callgrind's dynamic count on the profiling build against a count made from the disassembly of the hot
// loop of the same code, the x86-64-v3 objects linked into ladder-profiling (Flops, under valgrind).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>

#include "cards.hpp"
#include "flop_table.hpp"
#include "profiling.hpp"
#include "vectorization.hpp"
#include "vectorization_classify.hpp"

namespace {

using ladder::flop_weight;

void expect_weight(const char* mnemonic, const char* operands, double flops, bool fp_instruction) {
  const auto weight = flop_weight(mnemonic, operands);
  EXPECT_EQ(weight.flops, flops) << mnemonic << " " << operands;
  EXPECT_EQ(weight.fp_instruction, fp_instruction) << mnemonic << " " << operands;
}

TEST(FlopTable, FusedMultiplyAddCountsTwoALane) {
  expect_weight("vfmadd231pd", "%zmm1,%zmm2,%zmm3", 16, true);
  expect_weight("vfmadd132pd", "-0x130(%rbp),%ymm15,%ymm3", 8, true);
  expect_weight("vfnmadd132pd", "%ymm2,%ymm4,%ymm14", 8, true);
  expect_weight("vfmsub231pd", "%xmm5,%xmm2,%xmm1", 4, true);
  expect_weight("vfmadd132sd", "0x10(%rsp),%xmm5,%xmm1", 2, true);
  expect_weight("vfmaddsub213pd", "%ymm1,%ymm2,%ymm3", 8, true);
  // An AVX-512 mask is not read, and a broadcast operand leaves the width to the register.
  expect_weight("vfmadd231pd", "0x40(%rax){1to8},%zmm1,%zmm2{%k1}", 16, true);
}

TEST(FlopTable, ArithmeticCountsItsLanes) {
  expect_weight("vaddsd", "%xmm0,%xmm2,%xmm2", 1, true);
  expect_weight("addsd", "%xmm0,%xmm1", 1, true);
  expect_weight("mulpd", "%xmm0,%xmm1", 2, true);
  expect_weight("vmulpd", "(%rbx,%rax,8),%zmm20,%zmm20", 8, true);
  expect_weight("vsubpd", "%ymm3,%ymm9,%ymm3", 4, true);
  expect_weight("vdivpd", "%zmm22,%zmm0,%zmm0", 8, true);
  expect_weight("vsqrtsd", "%xmm1,%xmm1,%xmm1", 1, true);
  expect_weight("vaddps", "%ymm1,%ymm2,%ymm3", 8, true);  // single precision: 8 lanes in a ymm
}

TEST(FlopTable, MinMaxScalefPermuteCompareConvertAreFpInstructionsOfNoFlop) {
  expect_weight("vminpd", "%ymm0,%ymm18,%ymm0", 0, true);
  expect_weight("vmaxpd", "%zmm0,%zmm17,%zmm0", 0, true);
  expect_weight("vscalefpd", "%zmm31,%zmm30,%zmm30", 0, true);
  expect_weight("vpermi2pd", "%zmm10,%zmm11,%zmm30", 0, true);
  expect_weight("vperm2f128", "$0x1,%ymm1,%ymm2,%ymm3", 0, true);
  expect_weight("vblendvpd", "%ymm4,%ymm6,%ymm2,%ymm2", 0, true);
  expect_weight("vcmple_oqpd", "-0xd0(%rbp),%ymm4,%ymm2", 0, true);
  expect_weight("vroundpd", "$0x0,%ymm2,%ymm2", 0, true);
  expect_weight("vrndscalepd", "$0x1,%zmm21,%zmm21", 0, true);
  expect_weight("vcvtsi2sd", "%rbx,%xmm3,%xmm1", 0, true);
  expect_weight("vcvttsd2si", "%xmm2,%rax", 0, true);
  expect_weight("vcvtpd2dq", "%zmm22,%ymm22", 0, true);
  expect_weight("vucomisd", "%xmm1,%xmm0", 0, true);
}

TEST(FlopTable, MovesBitwiseAndIntegerVectorsAreNeither) {
  expect_weight("vmovapd", "%zmm0,%zmm2", 0, false);
  expect_weight("vmovsd", "0x18(%rsp),%xmm5", 0, false);
  expect_weight("vbroadcastsd", "%xmm1,%ymm7", 0, false);
  expect_weight("vxorpd", "%xmm4,%xmm4,%xmm4", 0, false);
  expect_weight("vandnpd", "%ymm1,%ymm2,%ymm2", 0, false);
  expect_weight("vpaddq", "-0x50(%rbp),%ymm12,%ymm3", 0, false);
  expect_weight("vpsllq", "$0x34,%ymm3,%ymm3", 0, false);
  expect_weight("add", "$0x20,%rax", 0, false);
}

// Bytes a node from memory, on the cards: naive's node vector, typed on its card from its disassembly; none
// for a tier that keeps no array of the nodes.
TEST(CardWork, NaiveMovesItsNodeVectorAndTheStreamingTiersNothing) {
  for (const auto& card : ladder::tier_cards({"naive", "inlined", "xsimd", "tuned-exp", "eigen"})) {
    EXPECT_FALSE(card.memory_bytes_counted.empty()) << card.id;
    if (card.id == "naive") {
      EXPECT_EQ(card.memory_bytes_per_node, 3 * card.heap_bytes_per_node) << card.memory_bytes_counted;
      EXPECT_NE(card.memory_bytes_counted.find("written twice"), std::string::npos)
          << card.memory_bytes_counted;
    } else {
      EXPECT_EQ(card.memory_bytes_per_node, 0) << card.id;
      EXPECT_EQ(card.memory_bytes_counted.rfind("none", 0), 0u)
          << card.id << ": " << card.memory_bytes_counted;
    }
  }
}

// ---- the dynamic count against the static one --------------------------------------------------------

std::string objdump(const std::string& object) {
  const std::string command = "objdump -dr --no-show-raw-insn -C '" + object + "'";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return "";
  std::string text;
  char buffer[1 << 16];
  for (std::size_t read; (read = fread(buffer, 1, sizeof buffer, pipe)) > 0;) text.append(buffer, read);
  pclose(pipe);
  return text;
}

// The x86-64-v3 object of a tier's file ("xsimd.cpp"), from the build's list of them.
std::string profiling_object(const std::string& file) {
  std::stringstream objects(LADDER_X86_64_V3_OBJECTS);
  for (std::string object; std::getline(objects, object, '|');)
    if (std::filesystem::path(object).filename() == file + ".o") return object;
  return "";
}

class Flops : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::string(LADDER_PROFILING_BINARY_PATH).empty())
      GTEST_SKIP() << "this build has no profiling build (-DLADDER_PROFILING=OFF)";
    setenv("LADDER_PROFILING_BINARY", LADDER_PROFILING_BINARY_PATH, 1);
    if (const auto reason = ladder::profiling::unavailable_reason(); !reason.empty())
      GTEST_SKIP() << "no callgrind count here: " << reason;
  }

  // The hot loop of the tier's x86-64-v3 object, counted from its disassembly.
  static ladder::vectorization::LoopFlops loop_of(const std::string& file) {
    const std::string object = profiling_object(file);
    EXPECT_FALSE(object.empty()) << "no x86-64-v3 object " << file << " in " << LADDER_X86_64_V3_OBJECTS;
    const auto loop = ladder::vectorization::hot_loop_flops(objdump(object));
    EXPECT_TRUE(loop.has_value()) << file;
    return loop.value_or(ladder::vectorization::LoopFlops{});
  }
};

// xsimd and tuned-exp compute their exp inline: their whole work a node is in the loop's straight line.
TEST_F(Flops, CallgrindCountOfXsimdAndTunedExpEqualsTheirHotLoopsDisassembly) {
  for (const auto& [tier, file] :
       {std::pair{"xsimd", "xsimd.cpp"}, std::pair{"tuned-exp", "tuned_exp.cpp"}}) {
    const auto loop = loop_of(file);
    ASSERT_TRUE(loop.flops_per_node()) << tier << ": " << loop.evidence();
    const auto counted = ladder::profiling::count_flops(tier, "gauss", 0, 1);
    EXPECT_NEAR(counted.flops, *loop.flops_per_node(), 0.001 * *loop.flops_per_node())
        << tier << ": callgrind against " << loop.evidence();
    EXPECT_NEAR(counted.fp_instructions, *loop.fp_instructions_per_node(),
                0.001 * *loop.fp_instructions_per_node())
        << tier << ": callgrind against " << loop.evidence();
    // The build's own static count of the same objects, on the card.
    const auto* entry = ladder::find_vectorization(file, "x86-64-v3");
    ASSERT_NE(entry, nullptr) << file;
    ASSERT_TRUE(entry->flops_per_node) << entry->flops_evidence;
    EXPECT_DOUBLE_EQ(*entry->flops_per_node, *loop.flops_per_node()) << entry->flops_evidence;
    EXPECT_GT(*loop.flops_per_node(), 10) << "an exp a node is more than ten FLOPs: " << loop.evidence();
  }
}

// inlined calls libm's exp: the loop's own FLOPs are compared with callgrind's FLOPs in the binary's code
// only. Libm's share is counted by callgrind alone: the path exp takes through its branches depends on its
// argument, so no straight line of its disassembly is its executed path.
TEST_F(Flops, InlinedLoopsOwnFlopsEqualCallgrindsInTheBinaryAndExpAddsLibmsShare) {
  const auto loop = loop_of("inlined.cpp");
  ASSERT_TRUE(loop.nodes) << loop.evidence();
  EXPECT_GT(loop.calls, 0) << "inlined's loop calls exp: " << loop.evidence();
  EXPECT_FALSE(loop.flops_per_node()) << "a loop that calls out has no static count a node";
  const double own = loop.flops / *loop.nodes;
  const auto counted = ladder::profiling::count_flops("inlined", "gauss", 0, 1);
  double in_binary = 0, in_libm = 0;
  for (const auto& [object, flops] : counted.flops_by_object) {
    const std::string name = std::filesystem::path(object).filename().string();
    if (name == std::filesystem::path(LADDER_PROFILING_BINARY_PATH).filename().string()) in_binary += flops;
    if (name.rfind("libm", 0) == 0) in_libm += flops;
  }
  EXPECT_NEAR(in_binary, own, 0.001 * own) << loop.evidence();
  EXPECT_GT(in_libm, 10) << "glibc's exp is more than ten FLOPs a call";
  EXPECT_NEAR(counted.flops, in_binary + in_libm, 1e-9 * counted.flops)
      << "FLOPs outside the binary and libm";
}

}  // namespace
