// The dispatch tier (variants/dispatch.cpp, cmake/dispatch_tier.cmake): one binary holding the kernel
// compiled for AVX-512, AVX2 and SSE2. The path it takes is checked against this test's own reading of the
// CPU (test_support.hpp's dispatched_width), and the bits it returns against each path's own; what each of
// its objects was compiled for is read from the objects themselves, in this build and the profiling one;
// and a `ladder run` of it records the path in its cells. Its correctness is tier_correctness_test's.
#include "kernels/dispatch.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "command.hpp"
#include "simd_integrands.hpp"
#include "test_support.hpp"
#include "vectorization.hpp"

namespace ladder {
namespace {

// A path as this test expects it: xsimd's name for it, its file, the bits of its registers.
struct Path {
  std::string architecture, file;
  int register_bits;
};
const Path avx512{"avx512bw", "dispatch_avx512.cpp", 512}, avx2{"fma3+avx2", "dispatch_avx2.cpp", 256},
    sse2{"sse2", "dispatch_sse2.cpp", 128};

// The widest path this CPU has, from the CPU (__builtin_cpu_supports), not from the tier.
Path expected_path() {
  const std::int64_t width = testing::depth::dispatched_width();
  return width == 8 ? avx512 : width == 4 ? avx2 : sse2;
}

const TierCard& dispatch_card() { return find_tier("dispatch").card; }

TEST(DispatchTier, TakesTheWidestPathThisCpuHas) {
  ASSERT_NE(dispatch_card().runtime_path, nullptr) << "the dispatch tier does not say which path it takes";
  EXPECT_EQ(dispatch_card().runtime_path(), expected_path().architecture);
}

// The path's lanes: its file's hot loop, as the build read it from the disassembly, is on registers of the
// path's width; and the card's summation depth, the rounding bound's, is that of 4 × those lanes.
TEST(DispatchTier, ThePathTakenComputesOnLanesOfItsWidth) {
  const Path path = expected_path();
  const auto* entry = find_vectorization(path.file, linked_tiers_build());
  ASSERT_NE(entry, nullptr) << "the build did not read " << path.file;
  EXPECT_EQ(entry->status, "vectorized") << entry->evidence;
  EXPECT_EQ(entry->register_bits, path.register_bits) << entry->evidence;
  EXPECT_EQ(entry->lanes, path.register_bits / 64) << entry->evidence;
  const std::int64_t lanes = 4 * entry->lanes, n = 1000003;
  EXPECT_EQ(dispatch_card().summation_depth(n, 1), static_cast<double>(n / lanes + lanes));
}

// The paths this CPU can run, each called directly (its file's function, as dispatch.cpp calls it).
std::map<std::string, double> each_runnable_path(Interval ab, std::int64_t n) {
  using dispatched::compiled;
  std::map<std::string, double> results{{sse2.architecture, compiled<xsimd::sse2>(Gauss{}, ab.a, ab.b, n)}};
  const Path widest = expected_path();
  if (widest.register_bits >= 256)
    results[avx2.architecture] = compiled<xsimd::fma3<xsimd::avx2>>(Gauss{}, ab.a, ab.b, n);
  if (widest.register_bits == 512)
    results[avx512.architecture] = compiled<xsimd::avx512bw>(Gauss{}, ab.a, ab.b, n);
  return results;
}

// The tier's result is the chosen path's to the bit. The paths sum in different orders (4 × their lanes),
// so where this CPU runs more than one, their bits differ, and the check tells the paths apart.
TEST(DispatchTier, ReturnsTheBitsOfThePathItTakes) {
  const Interval ab{-2.0, 3.0};
  const std::int64_t n = 100003;
  const auto paths = each_runnable_path(ab, n);
  for (const auto& [one, one_result] : paths)
    for (const auto& [other, other_result] : paths)
      if (one < other) {
        EXPECT_NE(std::bit_cast<std::uint64_t>(one_result), std::bit_cast<std::uint64_t>(other_result))
            << one << " and " << other << " gave the same bits: this check cannot tell them apart";
      }
  const double result = integrate(find_tier("dispatch"), find_integrand("gauss"), ab, n, {});
  EXPECT_EQ(std::bit_cast<std::uint64_t>(result),
            std::bit_cast<std::uint64_t>(paths.at(expected_path().architecture)))
      << "the tier gave " << result << ", its " << expected_path().architecture << " path "
      << paths.at(expected_path().architecture);
}

// Every path this CPU runs, not only the one the tier takes, on every integrand the tier runs, edge interval
// and edge size: within the rounding bound of its own lanes (4 × its width, as simd_lanes's).
template <std::int64_t Width>
double path_depth(std::int64_t n, int) {
  const std::int64_t lanes = simd::accumulators * Width;
  return std::min(static_cast<double>(n / lanes + lanes), static_cast<double>(n));
}

template <class Arch, std::int64_t Width, class F>
void expect_path_within_rounding_bound(const std::string& architecture) {
  if constexpr (SimdIntegrand<F>) {
    const std::size_t integrand = index_in<F>(AllIntegrands{});
    TierCard pinned;
    pinned.summation_depth = path_depth<Width>;
    pinned.evaluates = simd_batches;
    for (const auto& interval : testing::edge_intervals)
      for (const std::int64_t n : testing::edge_sizes) {
        if (n == testing::edge_sizes.back()) continue;  // tier_correctness_test's, by integrand
        const Reference& ref = testing::cached_reference(integrand, interval.ab, n);
        const double result = dispatched::compiled<Arch>(F{}, interval.ab.a, interval.ab.b, n);
        EXPECT_LE(std::fabs(result - ref.midpoint), rounding_bound(pinned, ref, n, 1))
            << architecture << " on " << F::name << ", " << interval.name << ", n = " << n;
      }
  }
}

template <class Arch, std::int64_t Width, class... Integrands>
void expect_path_within_rounding_bound(const std::string& architecture, IntegrandList<Integrands...>) {
  (expect_path_within_rounding_bound<Arch, Width, Integrands>(architecture), ...);
}

TEST(DispatchTier, EveryPathThisCpuRunsIsWithinTheRoundingBound) {
  expect_path_within_rounding_bound<xsimd::sse2, 2>(sse2.architecture, AllIntegrands{});
  if (expected_path().register_bits >= 256)
    expect_path_within_rounding_bound<xsimd::fma3<xsimd::avx2>, 4>(avx2.architecture, AllIntegrands{});
  if (expected_path().register_bits == 512)
    expect_path_within_rounding_bound<xsimd::avx512bw, 8>(avx512.architecture, AllIntegrands{});
}

// ---- the objects, as compiled --------------------------------------------------------------------------
// The tier's objects in one build, by file name ("dispatch_avx2.cpp"), from the build's "a.o|b.o|…": in
// the order of its sources, which is the order of the link.
std::vector<std::pair<std::string, std::string>> objects_of(const std::string& joined) {
  std::vector<std::pair<std::string, std::string>> objects;
  std::stringstream list(joined);
  for (std::string object; std::getline(list, object, '|');) {
    const std::string name = object.substr(object.find_last_of('/') + 1);
    objects.emplace_back(name.substr(0, name.size() - 2), object);  // less ".o"
  }
  return objects;
}

std::string output_of(const std::string& command) {
  const auto outcome = testing::run_command(command, "");
  EXPECT_EQ(outcome.exit_code, 0) << command << ": " << outcome.output;
  return outcome.output;
}

// What an object's instructions use: 512- and 256-bit registers, and VEX or EVEX encodings (the v… forms,
// which no baseline x86-64 CPU decodes), counted from its disassembly.
struct Registers {
  int zmm = 0, ymm = 0, vex = 0, instructions = 0;
};
Registers registers_of(const std::string& object) {
  Registers found;
  static const std::regex instruction(R"(^\s+[0-9a-f]+:\s+(\S+)(.*)$)");
  std::smatch match;
  for (const auto& line : testing::lines_of(output_of("objdump -d --no-show-raw-insn '" + object + "'"))) {
    if (!std::regex_match(line, match, instruction)) continue;
    ++found.instructions;
    found.zmm += match[2].str().find("%zmm") != std::string::npos;
    found.ymm += match[2].str().find("%ymm") != std::string::npos;
    found.vex += match[1].str()[0] == 'v';
  }
  return found;
}

// dispatch.cpp, the caller, runs on every CPU: no AVX in it at all. Each path file uses its own registers.
void expect_each_object_compiled_for_its_architecture(const std::string& build, const std::string& joined) {
  const auto listed = objects_of(joined);
  const std::map<std::string, std::string> objects(listed.begin(), listed.end());
  ASSERT_EQ(objects.size(), 4u) << build << ": " << joined;
  for (const std::string file : {"dispatch.cpp", "dispatch_sse2.cpp"}) {
    const Registers used = registers_of(objects.at(file));
    EXPECT_GT(used.instructions, 0) << build << ", " << file;
    EXPECT_EQ(used.vex, 0) << build << ", " << file << ": AVX instructions in a file for the baseline";
  }
  const Registers avx2_used = registers_of(objects.at("dispatch_avx2.cpp"));
  EXPECT_GT(avx2_used.ymm, 0) << build << ", dispatch_avx2.cpp";
  EXPECT_EQ(avx2_used.zmm, 0) << build << ", dispatch_avx2.cpp";
  EXPECT_GT(registers_of(objects.at("dispatch_avx512.cpp")).zmm, 0) << build << ", dispatch_avx512.cpp";
}

TEST(DispatchObjects, EachIsCompiledForItsArchitecture) {
  expect_each_object_compiled_for_its_architecture(linked_tiers_build(), LADDER_DISPATCH_OBJECTS);
}

// The profiling build (-march=x86-64-v3 for its target): each file keeps its own -march there too.
TEST(DispatchObjects, EachIsCompiledForItsArchitectureInTheX86_64_V3Build) {
  if (std::string(LADDER_DISPATCH_X86_64_V3_OBJECTS).empty())
    GTEST_SKIP() << "this build has no x86-64-v3 tiers (ladder_tiers_x86_64_v3)";
  expect_each_object_compiled_for_its_architecture("x86-64-v3", LADDER_DISPATCH_X86_64_V3_OBJECTS);
}

// The build's own reading of each path (the vectorization table): vectorized on its registers, in every
// build.
TEST(DispatchObjects, EachPathsHotLoopIsOnItsRegistersInEveryBuild) {
  std::vector<std::string> builds = {linked_tiers_build()};
  if (!std::string(LADDER_DISPATCH_X86_64_V3_OBJECTS).empty()) builds.push_back("x86-64-v3");
  for (const auto& build : builds)
    for (const Path& path : {avx512, avx2, sse2}) {
      const auto* entry = find_vectorization(path.file, build);
      ASSERT_NE(entry, nullptr) << path.file << " (" << build << ")";
      EXPECT_EQ(entry->status, "vectorized") << path.file << " (" << build << "): " << entry->evidence;
      EXPECT_EQ(entry->register_bits, path.register_bits) << path.file << " (" << build << ")";
    }
}

// The functions an object defines for other files to see (nm's W: weak, as templates and inline functions
// are), by their names.
std::set<std::string> shared_functions(const std::string& object) {
  std::set<std::string> functions;
  for (const auto& line : testing::lines_of(output_of("nm -C --defined-only '" + object + "'")))
    if (line.size() > 19 && line[17] == 'W') functions.insert(line.substr(19));
  return functions;
}

// Where two files define one function (an inline function or a template on doubles alone, out of line), the
// linker keeps the first copy it meets for every caller in the program: one compiled for AVX-512 would run
// on a CPU without AVX-512. So a wider path defines only functions named after its architecture, or ones
// the files for the baseline define too, which come first in the link (dispatch.cpp, then the SSE2 path:
// cmake/dispatch_tier.cmake's order). GCC inlines xsimd's scalar helpers; clang keeps some out of line
// (xsimd::detail::__ieee754_rem_pio2, sin's reduction of large arguments), which the SSE2 path defines too.
TEST(DispatchObjects, AWiderPathsFunctionsAreItsOwnOrTheBaselinesFirst) {
  const auto objects = objects_of(LADDER_DISPATCH_OBJECTS);
  std::vector<std::string> link_order;
  for (const auto& [file, object] : objects) link_order.push_back(file);
  EXPECT_EQ(link_order, (std::vector<std::string>{"dispatch.cpp", "dispatch_sse2.cpp", "dispatch_avx2.cpp",
                                                  "dispatch_avx512.cpp"}));
  std::set<std::string> baseline = shared_functions(objects.front().second);
  baseline.merge(shared_functions(objects[1].second));
  for (const auto& [file, architecture] :
       {std::pair{"dispatch_avx2.cpp", "avx2"}, {"dispatch_avx512.cpp", "avx512"}}) {
    const auto found =
        std::find_if(objects.begin(), objects.end(), [&](const auto& each) { return each.first == file; });
    ASSERT_NE(found, objects.end()) << file;
    const auto functions = shared_functions(found->second);
    EXPECT_FALSE(functions.empty()) << file << ": no kernel for dispatch.cpp to call";
    for (const auto& function : functions)
      EXPECT_TRUE(function.find(architecture) != std::string::npos || baseline.count(function))
          << file << " defines " << function << ", which the baseline's files, first in the link, do not";
  }
}

// Nor may a path file run code when the program starts, on whatever CPU that is: no initializers.
TEST(DispatchObjects, PathsRunNothingWhenTheProgramStarts) {
  for (const auto& [file, object] : objects_of(LADDER_DISPATCH_OBJECTS)) {
    if (file == "dispatch.cpp") continue;  // the registration, compiled for the baseline
    const std::string sections = output_of("objdump -h '" + object + "'");
    EXPECT_EQ(sections.find(".init_array"), std::string::npos) << file << ":\n" << sections;
    EXPECT_EQ(sections.find(".ctors"), std::string::npos) << file << ":\n" << sections;
  }
}

// ---- a run ---------------------------------------------------------------------------------------------
// Every cell says which path it ran: its instruction set, and dispatched_to (a measurement's extra field).
TEST(DispatchRun, EveryCellRecordsThePathItTook) {
  const testing::TempDir dir;
  const auto run = testing::run_and_read(
      LADDER_BINARY,
      "--tiers dispatch,xsimd --integrand gauss,pi --n 1e4 --reps 2 --min-time 0.005 --no-limits",
      dir / "out");
  ASSERT_EQ(run.outcome.exit_code, 0) << run.outcome.output;
  int dispatch_cells = 0;
  for (const auto& cell : run.results.at("cells")) {
    ASSERT_EQ(cell.at("status"), "ok") << cell.dump();
    const auto& measurement = cell.at("measurement");
    if (cell.at("cell").at("tier") != "dispatch") {
      EXPECT_FALSE(measurement.contains("dispatched_to")) << cell.dump();
      continue;
    }
    ++dispatch_cells;
    EXPECT_EQ(measurement.at("instruction_set"), expected_path().architecture) << cell.dump();
    EXPECT_EQ(measurement.at("dispatched_to"), expected_path().architecture) << cell.dump();
  }
  EXPECT_EQ(dispatch_cells, 2);
}

}  // namespace
}  // namespace ladder
