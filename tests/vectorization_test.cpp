// Whether each tier's hot loop was vectorized (variants/vectorization.hpp): the classifier on canned
// disassembly, and the table the build wrote from this build's own object files.
#include "vectorization.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <xsimd/xsimd.hpp>

#include "registry.hpp"
#include "vectorization_classify.hpp"

#ifndef LADDER_NM
#define LADDER_NM "nm"  // the target's nm: a cross build's is its binutils' (aarch64-linux-gnu-nm)
#endif

namespace {

using ladder::vectorization::classify;

std::string fixture(const std::string& name) {
  const std::string path = std::string(LADDER_FIXTURES_DIR) + "/" + name;
  std::ifstream in(path);
  if (!in) ADD_FAILURE() << "cannot read the fixture " << path;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The widest vector registers the build's -march allows, as the compiler sees them. On aarch64 NEON's 128
// bits: no tier uses SVE's (designed_loops()).
constexpr int widest_register_bits() {
#if defined(__AVX512F__)
  return 512;
#elif defined(__AVX__)
  return 256;
#else
  return 128;
#endif
}
// How the classifier names those registers in its evidence.
std::string widest_register_name(int bits) {
#if defined(__aarch64__)
  return bits == 128 ? " NEON" : " unknown";
#else
  return bits == 512 ? " zmm" : bits == 256 ? " ymm" : " xmm";
#endif
}

TEST(VectorizationClassifier, PackedZmmLoopIsVectorizedAt512BitsAnd8Lanes) {
  const auto verdict = classify(fixture("vectorization_packed_zmm.txt"));
  EXPECT_EQ(verdict.status, "vectorized") << verdict.evidence;
  EXPECT_EQ(verdict.register_bits, 512);
  EXPECT_EQ(verdict.lanes, 8);
  // The main loop, not the scalar remainder loop after it that calls exp.
  EXPECT_NE(verdict.evidence.find("block_sum<ladder::Gauss>+0x28"), std::string::npos) << verdict.evidence;
  EXPECT_NE(verdict.evidence.find("zmm"), std::string::npos) << verdict.evidence;
}

TEST(VectorizationClassifier, LoopCallingScalarExpIsScalar) {
  // The Pi kernel beside it is vectorized: the verdict is about the Gauss kernel alone.
  const auto verdict = classify(fixture("vectorization_scalar_exp.txt"));
  EXPECT_EQ(verdict.status, "scalar") << verdict.evidence;
  EXPECT_EQ(verdict.lanes, 1);
  EXPECT_NE(verdict.evidence.find("calls exp 1× (scalar libm)"), std::string::npos) << verdict.evidence;
  EXPECT_NE(verdict.evidence.find("integrate<ladder::Gauss>"), std::string::npos) << verdict.evidence;
}

TEST(VectorizationClassifier, LoopCallingLibmvecAvx2ExpIsVectorizedAt256BitsAnd4Lanes) {
  // Its scalar remainder loop has as many instructions and calls exp: the vector loop still wins.
  const auto verdict = classify(fixture("vectorization_libmvec_avx2.txt"));
  EXPECT_EQ(verdict.status, "vectorized") << verdict.evidence;
  EXPECT_EQ(verdict.register_bits, 256);
  EXPECT_EQ(verdict.lanes, 4);
  EXPECT_NE(verdict.evidence.find("_ZGVdN4v_exp 1× (libmvec AVX2, 4 lanes)"), std::string::npos)
      << verdict.evidence;
}

// aarch64's disassembly (objdump's own syntax, registers without %), from the aarch64 build's objects: the
// sleef tier's NEON loop (v registers, .2d: 2 doubles) calling SLEEF's AdvSIMD exp, autovec's loop calling
// the scalar exp (bl exp), and an SVE loop (z registers: as many doubles as the CPU's vector length).
TEST(VectorizationClassifier, Aarch64NeonLoopIsVectorizedAt128BitsAnd2Lanes) {
  const auto verdict = classify(fixture("vectorization_neon_sleef.txt"));
  EXPECT_EQ(verdict.status, "vectorized") << verdict.evidence;
  EXPECT_EQ(verdict.register_bits, 128);
  EXPECT_EQ(verdict.lanes, 2);
  EXPECT_NE(verdict.evidence.find("packed-double NEON instructions"), std::string::npos) << verdict.evidence;
  EXPECT_NE(verdict.evidence.find("calls Sleef_expd2_u10advsimd 4× (SLEEF advsimd, 2 lanes)"),
            std::string::npos)
      << verdict.evidence;
}

TEST(VectorizationClassifier, Aarch64LoopCallingScalarExpIsScalar) {
  const auto verdict = classify(fixture("vectorization_aarch64_scalar_exp.txt"));
  EXPECT_EQ(verdict.status, "scalar") << verdict.evidence;
  EXPECT_EQ(verdict.lanes, 1);
  EXPECT_NE(verdict.evidence.find("autovec<ladder::Gauss>+0x78"), std::string::npos) << verdict.evidence;
  EXPECT_NE(verdict.evidence.find("calls exp 1× (scalar libm)"), std::string::npos) << verdict.evidence;
}

TEST(VectorizationClassifier, SveLoopIsVectorizedAndMarkedScalable) {
  const auto verdict = classify(fixture("vectorization_sve.txt"));
  EXPECT_EQ(verdict.status, "vectorized") << verdict.evidence;
  EXPECT_EQ(verdict.lanes, 2);  // the least: SVE's vectors are 128 bits or more, as the CPU has them
  EXPECT_NE(
      verdict.evidence.find("kernel+0x30: 6 packed-double SVE (scalable z) instructions, 0 scalar-double"),
      std::string::npos)
      << verdict.evidence;
}

TEST(VectorizationClassifier, ObjectWithoutTheIntegrandsKernelIsUnknownAndSaysWhy) {
  const auto verdict = classify(fixture("vectorization_packed_zmm.txt"), "Sine", {"Gauss", "Pi", "Poly"});
  EXPECT_EQ(verdict.status, "unknown");
  EXPECT_EQ(verdict.lanes, 0);
  EXPECT_NE(verdict.evidence.find("no function of the ladder::Sine kernel"), std::string::npos)
      << verdict.evidence;
}

const ladder::Vectorization& linked_entry(const std::string& source_file) {
  const auto* entry = ladder::find_vectorization(source_file, ladder::linked_tiers_build());
  if (!entry) throw std::runtime_error("no vectorization entry for " + source_file);
  return *entry;
}

// The fixture's hot loop (0x28–0xd0), counted by hand with the opcode table: vaddpd ×3 (24), vfmadd132pd and
// vfmadd213pd ×10 (160), vmulpd ×3 (24), vfnmadd231pd ×2 (32) = 240 FLOPs; those 18 plus vcvtsi2sd,
// vrndscalepd, vscalefpd, vcmppd and vblendmpd = 23 FP instructions; the index %rax steps by 8.
TEST(FlopCount, ThePackedZmmLoopIs240FlopsAnd23FpInstructionsFor8Nodes) {
  const auto verdict = classify(fixture("vectorization_packed_zmm.txt"));
  ASSERT_TRUE(verdict.flops_per_node) << verdict.flops_evidence;
  EXPECT_DOUBLE_EQ(*verdict.flops_per_node, 240.0 / 8) << verdict.flops_evidence;
  EXPECT_DOUBLE_EQ(*verdict.fp_instructions_per_node, 23.0 / 8) << verdict.flops_evidence;
  EXPECT_NE(verdict.flops_evidence.find("loop 0x28–0xd0"), std::string::npos) << verdict.flops_evidence;
  EXPECT_NE(verdict.flops_evidence.find("for 8 nodes (index %rax"), std::string::npos)
      << verdict.flops_evidence;
  EXPECT_NE(verdict.flops_evidence.find("10 vfmadd…pd zmm"), std::string::npos) << verdict.flops_evidence;
}

TEST(FlopCount, ALoopCallingExpHasNoCountANodeAndSaysWhy) {
  const auto verdict = classify(fixture("vectorization_scalar_exp.txt"));
  EXPECT_FALSE(verdict.flops_per_node) << verdict.flops_evidence;
  EXPECT_NE(verdict.flops_evidence.find("calls out"), std::string::npos) << verdict.flops_evidence;
}

// This build's own table: the tiers that compute exp inline have a count, more than an exp's ten FLOPs a
// node, and those calling libm say so.
TEST(FlopsOfThisBuild, InlineExpTiersAreCountedAndLibmCallersSayWhyNot) {
#if defined(__aarch64__)
  GTEST_SKIP() << "the opcode table (common/flop_table.hpp) is x86's: an aarch64 hot loop has no FLOP count";
#endif
  for (const char* file : {"xsimd.cpp", "tuned_exp.cpp", "compensated.cpp"}) {
    const auto& entry = linked_entry(file);
    ASSERT_TRUE(entry.flops_per_node) << file << ": " << entry.flops_evidence;
    EXPECT_GT(*entry.flops_per_node, 10) << entry.flops_evidence;
    EXPECT_GT(*entry.fp_instructions_per_node, 0) << entry.flops_evidence;
    // At most one FMA of every lane in every FP instruction.
    EXPECT_LE(*entry.flops_per_node, 2.0 * entry.lanes * *entry.fp_instructions_per_node)
        << entry.flops_evidence;
  }
  for (const char* file : {"inlined.cpp", "naive.cpp", "autovec.cpp"}) {
    const auto& entry = linked_entry(file);
    EXPECT_FALSE(entry.flops_per_node) << file;
    EXPECT_NE(entry.flops_evidence.find("calls out"), std::string::npos) << entry.flops_evidence;
  }
}

TEST(VectorizationOfThisBuild, XsimdIsVectorizedAtTheWidestRegistersOfTheTarget) {
  const auto& xsimd = linked_entry("xsimd.cpp");
  EXPECT_EQ(xsimd.status, "vectorized") << xsimd.evidence;
  EXPECT_EQ(xsimd.lanes, static_cast<int>(xsimd::batch<double>::size)) << xsimd.evidence;
  EXPECT_EQ(xsimd.register_bits, widest_register_bits()) << xsimd.evidence;
}

// The classic silent fallback of a SIMD library is a narrower target than the build's: Highway 1.0.3 under
// -march=x86-64-v3 alone compiles for SSSE3, 2 lanes. Its hot loop must use the widest registers, as many
// doubles a register as Highway's own descriptor says (the static_assert in highway_vector.hpp checks the
// descriptor; this checks the code).
TEST(VectorizationOfThisBuild, HighwayUsesTheWidestRegistersOfTheTarget) {
  const auto& highway = linked_entry("highway.cpp");
  EXPECT_EQ(highway.status, "vectorized") << highway.evidence;
  EXPECT_EQ(highway.register_bits, widest_register_bits()) << highway.evidence;
  EXPECT_EQ(highway.lanes, widest_register_bits() / 64) << highway.evidence;
}

// SLEEF's exp is a call into its shared library: the one of the build's width, 4 a hot loop (one per
// accumulator), as the classifier reads SLEEF's names.
TEST(VectorizationOfThisBuild, SleefCallsTheExpOfTheBuildsWidth) {
  const auto& sleef = linked_entry("sleef.cpp");
  const int lanes = static_cast<int>(xsimd::batch<double>::size);
  EXPECT_EQ(sleef.status, "vectorized") << sleef.evidence;
  EXPECT_EQ(sleef.lanes, lanes) << sleef.evidence;
  EXPECT_TRUE(std::regex_search(
      sleef.evidence, std::regex("calls Sleef_expd" + std::to_string(lanes) + R"(_u10\w+ 4× \(SLEEF \w+, )" +
                                 std::to_string(lanes) + " lanes\\)")))
      << sleef.evidence;
}

TEST(VectorizationOfThisBuild, NaiveIsScalar) {
  const auto& naive = linked_entry("naive.cpp");
  EXPECT_EQ(naive.status, "scalar") << naive.evidence;
  EXPECT_EQ(naive.lanes, 1);
  EXPECT_NE(naive.evidence.find("indirect call"), std::string::npos) << naive.evidence;
}

TEST(VectorizationOfThisBuild, AutovecIsVectorized) {
#if defined(__aarch64__)
  GTEST_SKIP() << "aarch64: autovec is scalar by design here (no vector exp in glibc 2.36), as "
                  "AutovecVerdictMatchesTheLibmvecCallsOfItsObject and the designed loops assert";
#endif
  const auto& autovec = linked_entry("autovec.cpp");
  EXPECT_EQ(autovec.status, "vectorized") << autovec.evidence;
  EXPECT_GE(autovec.lanes, 2);
  EXPECT_LE(autovec.register_bits, widest_register_bits()) << autovec.evidence;
}

// What each tier's hot loop must be, written from its card and source, not read from the build: a tier
// whose loop is vectorized by design fails here when a build reads `scalar` (or `partly`, or `unknown`).
// Scalar by design: naive and streaming call f through std::function; inlined and std_algorithms are the
// plain loop, which GCC leaves scalar without -ffast-math (no vector exp: the autovec rung's point); stdpar's
// card notes that par_unseq does not vectorize here (GCC 12's libstdc++: another release may, and then this
// entry and the card's note change together). The xsimd kernel's tiers use the widest registers of the
// target; Eigen and the compiler (autovec) choose their own width, at most that. The dispatch tier's file
// only picks one of its path files at run time: its entry is its widest path's, x86-64-v4's 512 bits in every
// build (tests/dispatch_test.cpp checks each path). std-simd's arithmetic is packed at the widest registers,
// but GCC 12's libstdc++ computes exp(simd) as a call of the scalar exp per lane, 4 accumulators × width of
// them in the hot loop, which outweigh the rest: scalar, by those calls (scalar_exp).
// On aarch64 (the tests run under qemu-user, tests/aarch64_tiers_test.sh) two entries differ, as the cards
// say: autovec is scalar, since glibc 2.36 has no vector exp for aarch64 (libmvec's came with 2.38) and GCC
// 12 leaves the loop calling the scalar one; the dispatch tier's paths are x86's, so on aarch64 it is
// refused, and its card says why. The widest is NEON's, in an SVE build too: xsimd 8.1 and GCC 12's std-simd
// have no SVE, and the highway tier's Vector cannot hold Highway's sizeless SVE vectors (highway_vector.hpp).
enum class Loop { scalar, vectorized, widest, dispatched, scalar_exp, refused };
const std::map<std::string, Loop>& designed_loops() {
  static const std::map<std::string, Loop> loops = [] {
    std::map<std::string, Loop> designed = {
        {"naive.cpp", Loop::scalar},        {"streaming.cpp", Loop::scalar},
        {"inlined.cpp", Loop::scalar},      {"std_algorithms.cpp", Loop::scalar},
        {"stdpar.cpp", Loop::scalar},       {"eigen.cpp", Loop::vectorized},
        {"autovec.cpp", Loop::vectorized},  {"xsimd.cpp", Loop::widest},
        {"compensated.cpp", Loop::widest},  {"openmp.cpp", Loop::widest},
        {"tbb.cpp", Loop::widest},          {"tuned_exp.cpp", Loop::widest},
        {"openmp_tuned.cpp", Loop::widest}, {"tbb_tuned.cpp", Loop::widest},
        {"mpi.cpp", Loop::widest},          {"dispatch.cpp", Loop::dispatched},
        {"sleef.cpp", Loop::widest},        {"highway.cpp", Loop::widest},
        {"std_simd.cpp", Loop::scalar_exp}};
#if defined(__aarch64__)
    designed["autovec.cpp"] = Loop::scalar;
    designed["dispatch.cpp"] = Loop::refused;
#endif
    return designed;
  }();
  return loops;
}

void expect_designed_loop(const ladder::Vectorization& entry, Loop loop, int widest_bits) {
  const std::string where =
      entry.source_file + " (" + entry.build + "): " + entry.status + ", " + entry.evidence;
  if (loop == Loop::scalar) {
    EXPECT_EQ(entry.status, "scalar") << where;
    EXPECT_EQ(entry.lanes, 1) << where;
    return;
  }
  if (loop == Loop::scalar_exp) {
    const std::string widest = widest_register_name(widest_bits);
    EXPECT_EQ(entry.status, "scalar") << where;
    EXPECT_NE(entry.evidence.find("packed-double" + widest), std::string::npos) << where;
    EXPECT_NE(entry.evidence.find("calls exp " + std::to_string(4 * widest_bits / 64) + "× (scalar libm)"),
              std::string::npos)
        << where;
    return;
  }
  EXPECT_EQ(entry.status, "vectorized") << where;
  if (loop == Loop::dispatched) {
    EXPECT_EQ(entry.register_bits, 512) << where;
    EXPECT_EQ(entry.lanes, 8) << where;
    EXPECT_NE(entry.evidence.find("dispatched at run time"), std::string::npos) << where;
  } else if (loop == Loop::widest) {
    EXPECT_EQ(entry.register_bits, widest_bits) << where;
    EXPECT_EQ(entry.lanes, widest_bits / 64) << where;
#if defined(__aarch64__)
    EXPECT_NE(entry.evidence.find("packed-double" + widest_register_name(widest_bits)), std::string::npos)
        << where;
#endif
  } else {
    EXPECT_GE(entry.lanes, 2) << where;
    EXPECT_LE(entry.register_bits, widest_bits) << where;
  }
}

TEST(VectorizationOfThisBuild, EveryTierOnTheCpuIsVectorizedOrScalarAsDesigned) {
  for (const auto& tier : ladder::tiers()) {
    if (tier.card.source_file.ends_with(".cu")) continue;  // not x86 code of this build
    const auto* entry = ladder::find_vectorization(tier.card.source_file, ladder::linked_tiers_build());
    ASSERT_NE(entry, nullptr) << tier.card.id << " (" << tier.card.source_file << ") has no entry";
    EXPECT_FALSE(entry->evidence.empty()) << tier.card.id;
    const auto designed = designed_loops().find(tier.card.source_file);
    ASSERT_NE(designed, designed_loops().end())
        << tier.card.id << ": a new tier; say in designed_loops() whether its loop must be vectorized";
    if (designed->second == Loop::refused) {
      EXPECT_NE(ladder::unavailable_reason(tier), "")
          << tier.card.id << " runs here, but is designed refused";
      continue;
    }
    expect_designed_loop(*entry, designed->second, widest_register_bits());
  }
}

// The x86-64-v3 build (AVX2, 256-bit registers), where the build has one: the profiling build, whose
// instruction counts the report shows. It leaves out the tiers run under mpirun or on a GPU (CMakeLists.txt).
TEST(VectorizationOfThisBuild, EveryTierOfTheX86_64_V3BuildIsVectorizedOrScalarAsDesigned) {
  if (std::string(LADDER_AUTOVEC_X86_64_V3_OBJECT).empty()) {
    GTEST_SKIP() << "this build has no x86-64-v3 tiers (ladder_tiers_x86_64_v3)";
  }
  for (const auto& tier : ladder::tiers()) {
    const std::string& file = tier.card.source_file;
    if (file.ends_with(".cu") || file == "mpi.cpp") continue;  // not in the profiling build
    const auto* entry = ladder::find_vectorization(file, "x86-64-v3");
    ASSERT_NE(entry, nullptr) << tier.card.id << " (" << file << ") has no x86-64-v3 entry";
    const auto designed = designed_loops().find(file);
    ASSERT_NE(designed, designed_loops().end()) << tier.card.id << ": a new tier (see designed_loops())";
    expect_designed_loop(*entry, designed->second, 256);
  }
}

// The independent check: the libmvec functions the object calls, from its symbol table (nm -u), not from
// its disassembly. autovec's loop is vectorized exactly when it calls a vector exp, at that call's width.
struct Libmvec {
  bool calls_vector_exp = false;
  int lanes = 0;
};

Libmvec vector_exp_calls(const std::string& object) {
  FILE* pipe = popen((std::string(LADDER_NM) + " -u '" + object + "'").c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run nm on " + object);
  std::string symbols;
  char buffer[4096];
  for (std::size_t read; (read = fread(buffer, 1, sizeof buffer, pipe)) > 0;) symbols.append(buffer, read);
  if (pclose(pipe) != 0) throw std::runtime_error(std::string(LADDER_NM) + " -u " + object + " failed");
  std::smatch match;
  if (!std::regex_search(symbols, match, std::regex(R"(_ZGV[bcden]N(\d+)v_exp\b)"))) return {};
  return {true, std::stoi(match[1].str())};
}

// autovec must be vectorized (designed_loops()); beside that verdict, its object must call a vector exp of
// the same width, the same answer from a second reader.
void expect_autovec_verdict_matches_its_symbols(const std::string& object, const std::string& build) {
  const auto* entry = ladder::find_vectorization("autovec.cpp", build);
  ASSERT_NE(entry, nullptr) << "no autovec entry for the " << build << " build";
#if defined(__aarch64__)
  constexpr bool designed = false;  // glibc 2.36 has no aarch64 vector exp (designed_loops())
#else
  constexpr bool designed = true;
#endif
  EXPECT_EQ(entry->status, designed ? "vectorized" : "scalar") << build << ": " << entry->evidence;
  const auto libmvec = vector_exp_calls(object);
  EXPECT_EQ(libmvec.calls_vector_exp, designed)
      << build << ": nm -u " << object << (designed ? " shows no vector exp" : " shows a vector exp");
  EXPECT_EQ(entry->status == "vectorized", libmvec.calls_vector_exp)
      << build << ": " << entry->status << " (" << entry->evidence << "), but nm -u " << object
      << (libmvec.calls_vector_exp ? " shows a vector exp" : " shows no vector exp");
  if (libmvec.calls_vector_exp) {
    EXPECT_EQ(entry->lanes, libmvec.lanes) << entry->evidence;
  }
}

TEST(VectorizationOfThisBuild, AutovecVerdictMatchesTheLibmvecCallsOfItsObject) {
  expect_autovec_verdict_matches_its_symbols(LADDER_AUTOVEC_OBJECT, ladder::linked_tiers_build());
}

// The trap: on AVX2-only targets a 64-bit index converted to double leaves GCC's loop scalar, silently.
TEST(VectorizationOfThisBuild, X86_64_V3AutovecVerdictMatchesTheLibmvecCallsOfItsObject) {
  const std::string object = LADDER_AUTOVEC_X86_64_V3_OBJECT;
  if (object.empty()) {
    GTEST_SKIP() << "this build has no x86-64-v3 tiers (ladder_tiers_x86_64_v3)";
  }
  expect_autovec_verdict_matches_its_symbols(object, "x86-64-v3");
}

}  // namespace
